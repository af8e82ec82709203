#!/usr/bin/env python3
"""bench_html.py BUILD_DIR [RECORDS] - `make bench-html`: how a 1 M-record
trace's HTML report loads in headless Chromium, and what the timeline
exports weigh.

Loop (one run of each, wall time): tests/html/mktrace writes a decode-loop-like trace of RECORDS records
(default 1 000 000; same-epoch-write and parallel-queue-read every step);
hipvis-analyze --html and --perfetto on it (wall time each); then, 3 times in
one browser, Page.navigate to the file:// URL and poll until the page says
it is ready (body[data-ready]), then a click on the first finding and a zoom
(each: a synchronous redraw, timed inside the page). Prints the median,
the file sizes and the load average (the machine may be shared: compare
ratios, not absolutes). Fails (exit 1) when the median load is >= 3 s.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
records = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
tmp = tempfile.mkdtemp(prefix="hv-bench-html-")
trace = os.path.join(tmp, "t.zst")
html = os.path.join(tmp, "t.html")
pf = os.path.join(tmp, "t.json")
analyze = os.path.join(build, "hipvis-analyze")


def timed(args):
    t = time.monotonic()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t


n = int(subprocess.run([os.path.join(build, "tests/html/mktrace"), trace, str(records)], check=True,
                       stdout=subprocess.PIPE, text=True).stdout)
t_html = timed([analyze, "--fail-on", "none", "--html", html, trace])
t_pf = timed([analyze, "--fail-on", "none", "--perfetto", pf, trace])
t_gz = timed([analyze, "--fail-on", "none", "--perfetto", pf + ".gz", trace])
t_txt = timed([analyze, "--fail-on", "none", trace])
mb = lambda p: os.path.getsize(p) / 1e6  # noqa: E731

loads, inpage, clicks, zooms, busy = [], [], [], [], []
with cdp.Browser() as b:
    page = b.open()
    for _ in range(3):
        page.call("Performance.disable")
        page.navigate("about:blank")
        page.call("Performance.enable", timeDomain="threadTicks")
        t0 = time.monotonic()
        page.call("Page.navigate", url="file://" + html)
        while page.evaluate("document.body && document.body.getAttribute('data-ready') === '1' "
                            "&& location.protocol === 'file:'") is not True:
            time.sleep(0.01)
        loads.append(time.monotonic() - t0)
        # The renderer's main-thread time spent in tasks (parse, script,
        # layout, paint) for this document: what the load costs the CPU,
        # without the waiting a loaded machine adds to the wall time.
        m = {x["name"]: x["value"] for x in page.call("Performance.getMetrics")["metrics"]}
        busy.append(m.get("TaskDuration", 0.0))
        inpage.append(float(page.evaluate("document.body.getAttribute('data-ready-ms')")) / 1000)
        clicks.append(page.evaluate("(function(){var t=performance.now(); hipvis.select(0);"
                                    " return performance.now()-t})()") / 1000)
        zooms.append(page.evaluate("(function(){var t=performance.now();"
                                   " document.querySelector('.toolbar button').click();"
                                   " return performance.now()-t})()") / 1000)
    errors = list(page.console_errors)
    ops = page.evaluate("hipvis.ops")
    page.close()

med = statistics.median
print("bench-html: %d-record synthetic decode-loop trace (%.1f MB), load average %s" %
      (n, mb(trace), " ".join("%.2f" % x for x in os.getloadavg())))
print("  hipvis-analyze: text %.2f s | --html %.2f s -> %.1f MB | --perfetto %.2f s -> %.1f MB (%.1fx the trace), "
      "as .json.gz %.2f s -> %.1f MB (%.2fx)" % (t_txt, t_html, mb(html), t_pf, mb(pf), mb(pf) / mb(trace), t_gz,
                                               mb(pf + ".gz"), mb(pf + ".gz") / mb(trace)))
print("  headless Chromium, file:// load until interactive (navigate -> body[data-ready]), 3 runs: median %.2f s "
      "(min %.2f, max %.2f); the page's own script %.2f s; renderer main thread busy %.2f s (CPU, not wall)" %
      (med(loads), min(loads), max(loads), med(inpage), med(busy)))
if os.getloadavg()[0] > 2 * (os.cpu_count() or 1):
    print("  note: load average above twice the %d cores: wall times are inflated by waiting for a CPU" %
          (os.cpu_count() or 1))
print("  %d ops drawn one by one, the rest as density; click on a finding (centre + redraw) %.0f ms, zoom %.0f ms" %
      (ops, med(clicks) * 1000, med(zooms) * 1000))
if errors:
    print("  console errors:", errors)
import shutil  # noqa: E402
shutil.rmtree(tmp, ignore_errors=True)
if med(loads) >= 3.0 or errors:
    print("bench-html: FAILED: the report must be interactive in < 3 s with no console error")
    sys.exit(1)
