#!/usr/bin/env python3
"""test_html.py BUILD_DIR - `make check-html`: the HTML report in a real
browser (headless Chromium over its DevTools protocol, tests/html/cdp.py),
plus the Perfetto export's flows, window and clock.

  1. the decode loop (tests/apps, on the TEST-ONLY runtime double, under
     libhipvis) -> hipvis-analyze --html: the page loads from file:// with no
     console error and no request but its own file; one card per bug, as
     many as the text report counts (its verdict, or with --fail-on none its
     first line), the bug's places inside; on load the first finding is
     selected and the timeline (#timeline data-v0/v1) shows its write and
     replay, not the whole trace; "all" spreads the ops over the whole axis;
     a real mouse click on the finding moves the timeline onto the write and
     the replay, fills the detail and highlights the reading node in the
     graph; --all lists each occurrence, selectable; a screenshot is not blank.
  2. a synthetic trace whose kernel is named "</script><script>...": the
     page still loads, runs nothing injected and shows the name as text.
  3. --window / --clock / flows in --perfetto and --html.
  4. HIPVIS_PYFRAMES=first (tests/apps/ctypes_decode.py): a finding shown
     with the first call's Python lines says so in the detail.
  5. the coverage panel: HIPVIS_LAUNCH_EVERY's launches recorded without
     kernel and arguments counted as the text report counts them (and in the
     input-health table); "everything recorded was checked" on the demo; the
     panel falls back to the report's counts without the page's coverage
     object and shows per-replay counts when the object has them.
Exit 0 when every check passes; prints each failure.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
analyze = os.path.join(build, "hipvis-analyze")
failures = []
passed = 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


tmp = tempfile.mkdtemp(prefix="hv-html-")
EVIL = "</script><script>window.pwned=1</script><!--k"

# --- inputs ---------------------------------------------------------------
demo_trace = os.path.join(tmp, "decode_loop.zst")
env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "tests/double"), HIPVIS_OUTPUT=demo_trace,
           LD_PRELOAD=os.path.join(build, "libhipvis.so"))
r = run([os.path.join(build, "tests/apps/decode_loop"), "--steps", "40", "--prefill-every", "8"], env=env)
check(r.returncode == 0 and os.path.exists(demo_trace), "decode_loop under libhipvis wrote a trace (%s)" % r.stderr[-300:])
evil_trace = os.path.join(tmp, "evil.zst")
r = run([os.path.join(build, "tests/html/mktrace"), evil_trace, "3000", EVIL])
check(r.returncode == 0, "mktrace wrote the synthetic trace: " + r.stderr)

demo_html = os.path.join(tmp, "demo.html")
r = run([analyze, "--fail-on", "none", "--html", demo_html, demo_trace])
check(r.returncode == 0 and os.path.getsize(demo_html) > 10000, "hipvis-analyze --html on the demo trace: " + r.stderr)
evil_html = os.path.join(tmp, "evil.html")
r = run([analyze, "--fail-on", "none", "--html", evil_html, evil_trace])
check(r.returncode == 0, "hipvis-analyze --html on the synthetic trace: " + r.stderr)
page_text = open(evil_html, encoding="utf-8").read()
check(page_text.count("</script>") == 2, "the page has exactly its own two </script> tags (data cannot end them)")
check("http://" not in page_text.replace("http://www.w3.org/2000/svg", "") and "https://" not in page_text,
      "the page names no http(s) URL (no CDN, no fetch) besides the SVG namespace")


def url(path, frag=""):
    return "file://" + path + frag


def text_bugs(args, traces):
    """Bugs the text report counts with these flags: its verdict, or with
    --fail-on none (no verdict) its first line's count."""
    import re
    out = run([analyze] + args + traces).stdout
    m = re.search(r"^verdict: (\d+) bugs? ", out, re.M) or re.search(r"^hipvis-analyze: \d+ traces?, (\d+) bugs? ", out, re.M)
    return int(m.group(1)) if m else None


def cards(page):
    return page.evaluate("document.querySelectorAll('#findings > li.bug').length")


def click_finding(page, i):
    """A real click on finding i: its bug's card when i is the card's first
    place, else its row in the card's (opened) list of places."""
    if page.evaluate("document.querySelector('#findings li.bug[data-i=\"%d\"]') !== null" % i):
        page.click('li.bug[data-i="%d"] .rule' % i)
        return
    page.evaluate("(function(){var e=document.querySelector('li.occ[data-i=\"%d\"]');"
                  "if(e) e.closest('details').open=true})()" % i)
    page.click('li.occ[data-i="%d"] > div' % i)


VIEW = "[+timeline.getAttribute('data-v0'), +timeline.getAttribute('data-v1')]"
# Time of each kept op, ns from t0 (the page's ev.t are deltas).
OP_TIMES = ("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
            "var t=0;return D.ev.t.map(function(d){return t+=d})})()")


def finding_index(page, rule):
    return page.evaluate("(function(){var e=document.querySelector('#findings li[data-rule=\"%s\"]');"
                         "return e ? +e.getAttribute('data-i') : -1})()" % rule)


with cdp.Browser() as b:
    # --- 1. the demo's report ----------------------------------------------
    page = b.open()
    page.navigate(url(demo_html))
    ready = page.evaluate("document.body.getAttribute('data-ready')")
    check(ready == "1", "demo page ran its script to the end (data-ready)")
    check(not page.console_errors, "demo page: no console error: %s" % page.console_errors)
    others = [u for u in page.requests if u != url(demo_html)]
    check(not others, "demo page: no request but its own file: %s" % others)
    rules = page.evaluate("[].map.call(document.querySelectorAll('#findings li[data-rule]'),"
                          "function(e){return e.getAttribute('data-rule')})")
    check("same-epoch-write" in (rules or []), "finding list holds same-epoch-write: %s" % rules)
    nb = text_bugs(["--fail-on", "none"], [demo_trace])
    groups = page.evaluate("document.querySelector('#findings > li.bug').getAttribute('data-groups')")
    check(nb == 1 and cards(page) == nb and groups == "3",
          "demo: one card per bug, as the text report counts them (%s cards, text %s), its 3 places inside (%s)"
          % (cards(page), nb, groups))
    places = page.evaluate("[].map.call(document.querySelectorAll('#findings > li.bug li.occ'),"
                           "function(e){return +e.getAttribute('data-i')})")
    check(places == [0, 1, 2], "demo: the card lists the bug's places (findings %s)" % places)
    # On load: the first finding selected, the view on its write and replay.
    sel = page.evaluate("[timeline.getAttribute('data-selected'), document.querySelector('#findings > li.bug.selected') ===" 
                        " document.querySelector('#findings > li.bug'), document.getElementById('detail').textContent]")
    f0 = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
                       "var f=D.report.findings[0]; var s=D.procs[0].shift;"
                       "return [f.earlier.ts_ns+s, f.later.ts_ns+s]})()")
    v = page.evaluate(VIEW)
    full = page.evaluate("hipvis.all")
    check(sel[0] == "0" and sel[1] and "same-epoch-write" in sel[2] and "writer" in sel[2],
          "on load the first finding is selected, its card marked and its detail shown: %s" % sel[:2])
    check(v[0] <= min(f0) and max(f0) <= v[1] and v[1] - v[0] <= max(1.5 * abs(f0[1] - f0[0]), 20000) + 2,
          "on load the view is the write and the replay with a margin: %s for %s" % (v, f0))
    check(v[1] - v[0] < (full[1] - full[0]) / 4, "on load the view is not the whole trace: %s of %s" % (v, full))
    page.click('.toolbar button[title^="whole trace"]')
    before = page.evaluate(VIEW)
    ts = page.evaluate(OP_TIMES)
    lo, hi = min(ts), max(ts)
    check(before == [round(full[0]), round(full[1])] and (lo - before[0]) / (before[1] - before[0]) < 0.03
          and (before[1] - hi) / (before[1] - before[0]) < 0.03,
          "\"all\" spans the ops over the whole axis: ops %s .. %s in %s" % (lo, hi, before))
    i = finding_index(page, "same-epoch-write")
    click_finding(page, max(i, 0))
    after = page.evaluate(VIEW)
    check(after != before and after[1] - after[0] < before[1] - before[0],
          "clicking the finding moved and narrowed the timeline: %s -> %s" % (before, after))
    f = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
                      "var f=D.report.findings[%d]; var s=D.procs[0].shift;"
                      "return [f.earlier.ts_ns+s, f.later.ts_ns+s]})()" % max(i, 0))
    check(f and after[0] <= f[0] <= after[1] and after[0] <= f[1] <= after[1],
          "the write and the replay are inside the new view: %s in %s" % (f, after))
    check(page.evaluate("document.querySelector('#findings li.selected') !== null"), "the clicked finding is marked selected")
    det = page.evaluate("document.getElementById('detail').textContent")
    check("same-epoch-write" in det and "writer" in det and "reader" in det and "next:" in det,
          "detail shows rule, writer, reader and the next step: %r" % det[:300])
    check("epoch boundary" in det, "detail shows the epoch boundary the host last observed")
    check(page.evaluate("document.querySelector('#graphsvg g.hit') !== null"),
          "the graph view highlights the node that read the buffer")
    check(page.evaluate("document.querySelectorAll('#health tr').length") >= 2, "input-health table has a row per trace")
    span0 = after[1] - after[0]
    page.click('.toolbar button[title^="zoom out"]')
    z = page.evaluate(VIEW)
    check(abs((z[1] - z[0]) / span0 - 2) < 0.01, "zoom out doubles the span: %s -> %s" % (span0, z[1] - z[0]))
    painted = page.evaluate("(function(){var c=document.getElementById('timeline');var d=c.getContext('2d')"
                            ".getImageData(0,0,c.width,c.height).data;var n=0;for(var i=0;i<d.length;i+=4)"
                            "if(d[i]<200||d[i+1]<200||d[i+2]<200)n++;return n})()")
    check(painted > 500, "the timeline canvas has drawn content (%s dark pixels)" % painted)
    png = page.screenshot()
    w, h, bpp, rows = cdp.png_pixels(png)
    nonwhite, colors = 0, set()
    for y in range(0, h, 2):
        row = rows[y]
        for x in range(0, w * bpp, bpp * 2):
            px = row[x:x + 3]
            colors.add(px)
            if min(px) < 235:
                nonwhite += 1
    frac = nonwhite / ((h // 2) * (w // 2))
    check(w >= 800 and frac > 0.03 and len(colors) > 50,
          "screenshot of the demo report is not blank (%dx%d, %.1f%% non-white, %d colours)" % (w, h, 100 * frac, len(colors)))
    with open(os.path.join(tmp, "demo.png"), "wb") as out:
        out.write(png)
    page.close()

    # --- 1b. the verdict's count, and --all's occurrences --------------------
    # Default --fail-on (warning): the cards are the bugs the verdict counts.
    for name, args, traces in (("demo", [], [demo_trace]), ("synthetic", [], [evil_trace]),
                               ("synthetic --fail-on error", ["--fail-on", "error"], [evil_trace]),
                               ("synthetic --fail-on none", ["--fail-on", "none"], [evil_trace])):
        hp = os.path.join(tmp, "verdict.html")
        run([analyze] + args + ["--html", hp] + traces)
        nb = text_bugs(args, traces)
        page = b.open()
        page.navigate(url(hp))
        n, below = cards(page), page.evaluate("document.querySelectorAll('#findings-below > li.bug').length")
        groups = page.evaluate("[].reduce.call(document.querySelectorAll('li.bug'),function(a,e){return a+ +e.getAttribute('data-groups')},0)")
        ngroups = page.evaluate("hipvis.findings")
        check(nb is not None and n == nb and groups == ngroups and not page.console_errors,
              "%s: %s cards, the text report counts %s bugs; every finding group in one card (%s of %s, %s below --fail-on)"
              % (name, n, nb, groups, ngroups, below))
        page.close()
    all_html = os.path.join(tmp, "all.html")
    r = run([analyze, "--fail-on", "none", "--all", "--html", all_html, demo_trace])
    page = b.open()
    page.navigate(url(all_html))
    npairs = page.evaluate("document.querySelectorAll('#findings > li.bug li.pair').length")
    check(r.returncode == 0 and npairs == 35 and cards(page) == 1,
          "--all: the card lists each of the bug's 35 occurrences (%s)" % npairs)
    pr = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
                       "return D.report.findings[1].occurrences[3]})()")
    page.evaluate("document.querySelector('li.occ[data-i=\"1\"]').closest('details').open=true")
    page.click('li.pair[data-i="1"][data-k="3"]')
    v = page.evaluate(VIEW)
    ts = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);var t=0,s=0,o={};"
                       "D.ev.t.forEach(function(d,i){t+=d;s+=D.ev.s[i];o[s]=t});return [o[%d],o[%d]]})()" % tuple(pr))
    det = page.evaluate("document.getElementById('detail').textContent")
    check(ts[0] is not None and v[0] <= ts[0] <= ts[1] <= v[1] and v[1] - v[0] <= max(1.5 * (ts[1] - ts[0]), 20000) + 2
          and "4 of 12: earlier seq %d" % pr[0] in det and page.evaluate("timeline.getAttribute('data-occurrence')") == "3",
          "--all: clicking an occurrence shows its own write and replay (%s at %s in %s)" % (pr, ts, v))
    check(not page.console_errors, "--all: no console error")
    page.close()

    # --- 2. a kernel name that tries to end the script ---------------------
    page = b.open()
    page.navigate(url(evil_html, "#finding=0"))
    check(page.evaluate("document.body.getAttribute('data-ready')") == "1", "hostile-name page ran its script")
    check(not page.console_errors, "hostile-name page: no console error: %s" % page.console_errors)
    check(page.evaluate("typeof window.pwned") == "undefined", "no script injected through a kernel name")
    check(EVIL in page.evaluate("document.getElementById('detail').textContent"),
          "the hostile kernel name is shown as text")
    rules = page.evaluate("[].map.call(document.querySelectorAll('#findings li[data-rule]'),"
                          "function(e){return e.getAttribute('data-rule')})")
    check("same-epoch-write" in rules and "parallel-queue-read" in rules,
          "synthetic trace: same-epoch-write and parallel-queue-read listed: %s" % rules)
    i = finding_index(page, "parallel-queue-read")
    click_finding(page, i)
    tags = page.evaluate("document.getElementById('graphsvg').textContent")
    check("collective" in tags and "root, no wait" in tags, "graph view shows placement and collective tags")
    check(page.evaluate("document.querySelectorAll('#graphsvg g[data-node]').length") == 8, "graph view draws the 8 nodes")
    check(not page.console_errors, "no console error after the clicks: %s" % page.console_errors)
    regions = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
                            "var t=D.tracks.map(function(x){return x.name});var k=t.indexOf('regions and marks');"
                            "return [k, D.marks.filter(function(m){return m[0]===k && m[2]>m[1]}).length,"
                            " D.marks.filter(function(m){return m[2]===-1}).length, D.names[D.marks[0][3]]]})()")
    check(regions[0] >= 0 and regions[1] > 100 and regions[2] > 10 and regions[3] == "decode_step",
          "regions (closed push/pop spans) and marks on their own track: %s" % regions)
    page.close()

    # --- 3. window: fewer ops, said in the page ------------------------------
    win_html = os.path.join(tmp, "win.html")
    r = run([analyze, "--fail-on", "none", "--window", "100:400", "--html", win_html, evil_trace])
    check(r.returncode == 0, "--window 100:400 --html: " + r.stderr)
    page = b.open()
    page.navigate(url(win_html))
    n = page.evaluate("hipvis.ops")
    check(0 < n < 400, "--window 100:400 keeps only ops in the window (%s)" % n)
    check("Window:" in page.evaluate("document.querySelector('header').textContent"), "the page says it shows a window")
    page.close()
    two_html = os.path.join(tmp, "two.html")
    r = run([analyze, "--fail-on", "none", "--html", two_html, demo_trace, evil_trace])
    page = b.open()
    page.navigate(url(two_html))
    pids = page.evaluate("[].map.call(document.querySelectorAll('#findings li.occ'),"
                         "function(e){return e.closest('li.bug').textContent.match(/pid (\\d+)/)[1]})")
    nb = text_bugs(["--fail-on", "none"], [demo_trace, evil_trace])
    check(r.returncode == 0 and not page.console_errors and len(set(pids or [])) == 2 and cards(page) == nb,
          "two traces in one page: findings of both processes, a card per bug (%s, text %s), no console error (%s)"
          % (cards(page), nb, sorted(set(pids or []))))
    page.click('#findings > li.bug:last-of-type .rule')
    check(not page.console_errors, "two traces: selecting the last finding raises nothing")
    page.close()
    cap_html = os.path.join(tmp, "cap.html")
    r = run([analyze, "--fail-on", "none", "--html-max-ops", "300", "--html", cap_html, evil_trace])
    page = b.open()
    page.navigate(url(cap_html))
    hdr = page.evaluate("document.querySelector('header').textContent")
    check("aggregated" in hdr and not page.console_errors, "past --html-max-ops the page says what it aggregated: %r" % hdr[:300])
    page.close()

    # --- 4. Python lines of the first call (HIPVIS_PYFRAMES=first) -----------
    # ctypes_decode.py under the preload: a finding whose write recorded no
    # stack of its own shows the target's first call's lines, and says so.
    py_trace, py_html = os.path.join(tmp, "first.zst"), os.path.join(tmp, "first.html")
    r = run(["python3", os.path.join(ROOT, "tests/apps/ctypes_decode.py"),
             os.path.join(build, "tests/double/libamdhip64.so.5"), "--steps", "16", "--prefill-every", "2",
             "--code-object", os.path.join(build, "tests/apps/decode_kernels-gfx950.hsaco")],
            env=dict(os.environ, LD_PRELOAD=os.path.join(build, "libhipvis.so"), HIPVIS_OUTPUT=py_trace,
                     HIPVIS_PYFRAMES="first", HIPVIS_QUIET="1"))
    r2 = run([analyze, "--fail-on", "none", "--html", py_html, py_trace])
    check(r.returncode == 0 and r2.returncode == 0, "first: ctypes_decode.py traced and its page made: " + r.stderr[-300:])
    page = b.open()
    page.navigate(url(py_html))
    k = page.evaluate("(function(){var D=JSON.parse(document.getElementById('hv-data').textContent);"
                      "var F=D.report.findings;for(var i=0;i<F.length;i++)"
                      "if(F[i].earlier&&F[i].earlier.python_from==='first_call')return i;return -1})()")
    check(k is not None and k >= 0, "first: the page's data holds a write shown with the first call's lines")
    click_finding(page, max(k or 0, 0))
    det = page.evaluate("document.getElementById('detail').textContent")
    check("the lines of the first call on this target: HIPVIS_PYFRAMES=first" in det and "ctypes_decode.py:" in det,
          "first: the detail gives the lines and says whose they are: %r" % det[:400])
    check(not page.console_errors, "first: no console error")
    page.close()

    # --- 5. the coverage panel ------------------------------------------------
    # Past the warm-up an eager launch carries its kernel and arguments one
    # time in HIPVIS_LAUNCH_EVERY: the panel says how many did not, with the
    # text report's numbers, and the health table counts them per trace; the
    # demo's 40 steps (all in the warm-up) leave nothing unchecked.
    import re
    un_trace, un_html = os.path.join(tmp, "undrawn.zst"), os.path.join(tmp, "undrawn.html")
    r = run([os.path.join(build, "tests/apps/decode_loop"), "--steps", "40", "--prefill-every", "2"],
            env=dict(env, HIPVIS_OUTPUT=un_trace, HIPVIS_LAUNCH_EVERY="4", HIPVIS_LAUNCH_FIRST="0"))
    r2 = run([analyze, "--fail-on", "none", "--html", un_html, un_trace])
    check(r.returncode == 0 and r2.returncode == 0, "undrawn: traced and its page made: " + r.stderr[-300:] + r2.stderr[-300:])
    m = re.search(r"^coverage: (\d+) of (\d+) launches", run([analyze, un_trace]).stdout, re.M)
    want = (int(m.group(1)), int(m.group(2))) if m else None
    COV = ("(function(){var u=document.getElementById('coverage');if(!u)return null;return [u.getAttribute('data-gaps'),"
           "[].map.call(u.querySelectorAll('li.gap'),function(e){return [e.getAttribute('data-what'),+e.getAttribute('data-n'),"
           "e.textContent]})]})()")
    page = b.open()
    page.navigate(url(un_html))
    cov = page.evaluate(COV)
    check(want and want[0] > 0 and cov and cov[0] == "1" and cov[1][0][:2] == ["launches", want[0]]
          and cov[1][0][2].startswith("%d of %d launches recorded without kernel and arguments" % want)
          and "HIPVIS_LAUNCH_EVERY=1" in cov[1][0][2],
          "undrawn: the coverage panel counts the launches without kernel and arguments as the text report does (%s): %s"
          % (want, cov))
    n = want[0] if want else -1
    cells = page.evaluate("[].map.call(document.querySelectorAll('#health tr:nth-child(2) td'),function(e){return e.textContent})")
    check(("%d of " % n) in " | ".join(cells or []), "undrawn: the health table's row counts them: %s" % cells)
    check(not page.console_errors, "undrawn: no console error")
    page.close()
    # Without the report's coverage object (an older writer), the panel reads
    # the report's per-trace counts; with per-replay counts in it, it shows
    # them; with host-access check gaps, it counts them.
    text = open(un_html, encoding="utf-8").read()
    for name, edit, expect in (
            ("no coverage object", lambda t: re.sub(r',"coverage":\{[^}]*\}', "", t, count=1),
             [["launches", n]]),
            ("per-replay counts", lambda t: re.sub(r'("coverage":\{[^}]*?)"unknown_layout_nodes":0,"inferred_args":0,',
                                                   r'\1"unknown_layout_nodes":7,"inferred_args":3,', t, count=1),
             [["launches", n], ["layout", 7], ["inferred", 3]]),
            ("host-access check", lambda t: t.replace(
                '"hostcheck":null', '"hostcheck":{"traces":1,"traces_counted":1,"operations":5,"protected_ops":3,'
                '"unprotected_ops":2,"skipped_managed":0,"skipped_full":0,"skipped_other":2,"skipped_graph":0,"accesses":0,'
                '"lost":1}', 1),
             [["launches", n], ["hostcheck", 3]])):
        ep = os.path.join(tmp, "cov-edit.html")
        with open(ep, "w", encoding="utf-8") as out:
            out.write(edit(text))
        page = b.open()
        page.navigate(url(ep))
        cov = page.evaluate(COV)
        check(cov and [c[:2] for c in cov[1]] == expect and not page.console_errors,
              "coverage panel, %s: %s" % (name, cov))
        page.close()
    page = b.open()
    page.navigate(url(demo_html))
    cov = page.evaluate(COV)
    ok = page.evaluate("(function(){var e=document.querySelector('#coverage li.ok');return e ? e.textContent : ''})()")
    check(cov and cov[0] == "0" and ok.startswith("Everything recorded was checked: 35 replays"),
          "the demo (every launch drawn, nothing lost): the panel says everything recorded was checked: %s %r" % (cov, ok))
    page.close()

# --- Perfetto: flows, window, clock ----------------------------------------
pf = os.path.join(tmp, "pf.json")
r = run([analyze, "--fail-on", "none", "--perfetto", pf, demo_trace])
doc = json.load(open(pf))
evs = doc["traceEvents"]
starts = [e for e in evs if e.get("ph") == "s"]
ends = [e for e in evs if e.get("ph") == "f"]
check(starts and len(starts) == len(ends) and {e["id"] for e in starts} == {e["id"] for e in ends},
      "perfetto: flow arrows write -> replay (%d starts, %d ends)" % (len(starts), len(ends)))
slices = [e for e in evs if e.get("ph") == "X"]


def binds(flow):
    return any(s["tid"] == flow["tid"] and s["pid"] == flow["pid"] and s["ts"] <= flow["ts"] <= s["ts"] + s["dur"]
               for s in slices)


check(all(binds(e) for e in starts + ends), "perfetto: every flow end lies on a drawn slice of its track")
pfm = os.path.join(tmp, "pfm.json")
run([analyze, "--fail-on", "none", "--perfetto", pfm, evil_trace])
em = json.load(open(pfm))["traceEvents"]
nb, ne = sum(e.get("ph") == "B" for e in em), sum(e.get("ph") == "E" for e in em)
check(nb > 100 and nb == ne and any(e.get("ph") == "i" and e.get("name") == "sample" for e in em),
      "perfetto: regions as B/E slices (%d/%d) and marks as instants" % (nb, ne))
pfw = os.path.join(tmp, "pfw.json")
run([analyze, "--fail-on", "none", "--window", "200:300", "--perfetto", pfw, demo_trace])
sw = [e for e in json.load(open(pfw))["traceEvents"] if e.get("ph") == "X"]
check(sw and all(200 <= e["args"]["seq"] <= 300 for e in sw) and len(sw) < len(slices),
      "perfetto --window 200:300: only those seqs (%d of %d slices)" % (len(sw), len(slices)))
pfr = os.path.join(tmp, "pfr.json")
run([analyze, "--fail-on", "none", "--clock", "realtime", "--perfetto", pfr, demo_trace])
sr = [e for e in json.load(open(pfr))["traceEvents"] if e.get("ph") == "X"]
dump = run([os.path.join(build, "hipvis-dump"), "--json", demo_trace]).stdout
hdr = None
for line in dump.splitlines():
    o = json.loads(line)
    if "start_realtime_ns" in o:
        hdr = o
        break
if hdr is None:
    hdr = json.loads(dump.splitlines()[0]) if dump else {}
shift_us = (int(hdr.get("start_realtime_ns", 0)) - int(hdr.get("start_ns", 0))) / 1000 if hdr else None
check(shift_us and abs((sr[0]["ts"] - slices[0]["ts"]) - shift_us) < 1,
      "perfetto --clock realtime shifts by start_realtime_ns - start_ns (%s us)" % shift_us)
torch = os.path.join(tmp, "torch.json")
with open(torch, "w") as f:
    f.write('{"schemaVersion": 1, "deviceProperties": [], "baseTimeNanoseconds": %d, "traceEvents": []}'
            % int(hdr.get("start_realtime_ns", 0)))
pft = os.path.join(tmp, "pft.json")
r = run([analyze, "--fail-on", "none", "--clock", "torch=" + torch, "--perfetto", pft, demo_trace])
st = [e for e in json.load(open(pft))["traceEvents"] if e.get("ph") == "X"]
check(r.returncode == 0 and st and abs(st[0]["ts"] - (slices[0]["ts"] - int(hdr.get("start_ns", 0)) / 1000)) < 1,
      "perfetto --clock torch=FILE: ts counted from the profiler's baseTimeNanoseconds")
r = run([analyze, "--clock", "sideways", demo_trace])
check(r.returncode == 2 and "monotonic|realtime" in r.stderr, "a bad --clock names the accepted values")
r = run([analyze, "--window", "5:1", demo_trace])
check(r.returncode == 2 and "before" in r.stderr, "a reversed --window is refused")

print("check-html: %d passed, %d failed (pages in %s)" % (passed, len(failures), tmp))
if failures:
    sys.exit(1)
import shutil  # noqa: E402
shutil.rmtree(tmp, ignore_errors=True)
