#!/usr/bin/env python3
"""check_export.py BUILD_DIR - `check-html-export` (both trees, so ASan/UBSan
see the exporters): hipvis-analyze --html / --perfetto FILE.gz with
--window, --clock and a small --html-max-ops on a synthetic trace whose
kernel is named "</script>..."; the page's data block must be valid JSON
that the page cannot be broken out of, with the coverage counts the report
gives, the gzip a valid trace-event JSON."""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

build = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp(prefix="hv-html-export-")
tr = os.path.join(tmp, "t.zst")
subprocess.run([os.path.join(build, "tests/html/mktrace"), tr, "30000", "</script><!--x"], check=True,
               stdout=subprocess.DEVNULL)
ok = True


def analyze(*args):
    r = subprocess.run([os.path.join(build, "hipvis-analyze"), "--fail-on", "none", *args, tr],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print("FAIL: hipvis-analyze", " ".join(args), "->", r.returncode, r.stderr[-500:])
        return False
    return True


def page_data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="hv-data">(.*?)</script>', text, re.S)
    return text, json.loads(m.group(1))


h1, h2, pf = (os.path.join(tmp, n) for n in ("w.html", "c.html", "t.json.gz"))
ok &= analyze("--html", h1, "--perfetto", pf, "--window", "100:20000", "--clock", "realtime")
ok &= analyze("--html", h2, "--html-max-ops", "500", "--clock", "offset=-1000")
if ok:
    text, d = page_data(h1)
    n = len(d["ev"]["t"])
    if text.count("</script>") != 2 or not (0 < n <= 20000):
        ok = False
        print("FAIL: windowed page: %d </script>, %d ops" % (text.count("</script>"), n))
    # The coverage panel's counts: the report's coverage object, summed over its traces.
    t = d["report"]["traces"]
    cov, want = d["report"].get("coverage", {}), {
        "replays": sum(x["replays"] for x in t), "launches_unsampled": d["report"]["launches_unsampled"],
        "records_lost": sum(x["dropped"] + x["chunk_gaps"] + x["late_records"] for x in t)}
    if any(cov.get(k) != v for k, v in want.items()) or not 0 < cov.get("replays_checked", -1) <= cov["replays"] \
            or len(d["boundaries"]) != len(d["report"]["findings"]):
        ok = False
        print("FAIL: coverage %s, expected %s; %d boundaries for %d findings"
              % (cov, want, len(d["boundaries"]), len(d["report"]["findings"])))
    _, d = page_data(h2)
    if not (len(d["ev"]["t"]) < d["ops_in_window"] and d["kept"] == len(d["ev"]["t"])):
        ok = False
        print("FAIL: capped page keeps %d of %d ops" % (len(d["ev"]["t"]), d["ops_in_window"]))
    ev = json.load(gzip.open(pf, "rt"))["traceEvents"]
    if not any(e.get("ph") == "s" for e in ev) or not all(100 <= e["args"]["seq"] <= 20000
                                                            for e in ev if e.get("ph") == "X"):
        ok = False
        print("FAIL: gzipped perfetto export: flows or window wrong")
print("check-html-export:", "passed" if ok else "FAILED")
subprocess.run(["rm", "-rf", tmp])
sys.exit(0 if ok else 1)
