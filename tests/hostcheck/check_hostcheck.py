#!/usr/bin/env python3
"""tests/hostcheck: the host-access check (HIPVIS_HOSTCHECK, docs/hostcheck.md)
end to end on the runtime double.

For every case of hc_cases: the program's stdout is the same with and
without the check; a racy case gets exactly its host-access-in-flight
finding, whose access stack starts at the source line marked
"RACE <case>" in hc_cases.c (the recorded pc, symbolized by the analyzer);
a synchronized twin gets none (a host function enqueued after the copy
on its stream among them: its pages are given back when it runs). The
runtime gets the program's own host function unless the check is on
(host_fn_given). hc_chain: a program's own SIGSEGV handler,
installed before or after hipvis's (sigaction or signal), gets its own
faults, and an unhandled fault still kills the process with SIGSEGV.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
LIB = os.path.abspath(os.path.join(BUILD, "libhipvis.so"))
BEFORE = os.path.abspath(os.path.join(BUILD, "tests/hostcheck/libhc_before.so"))
CASES = os.path.join(BUILD, "tests/hostcheck/hc_cases")
CHAIN = os.path.join(BUILD, "tests/hostcheck/hc_chain")
ANALYZE = os.path.join(BUILD, "hipvis-analyze")
DOUBLE = os.path.abspath(os.path.join(BUILD, "tests/double"))
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hc_cases.c")

RACY = ["d2h-read", "h2d-write", "shared-page-race", "memset-read", "threads", "callback-other"]
CLEAN = ["d2h-read-sync", "h2d-write-sync", "h2d-read", "shared-page", "query-then-read", "fork", "callback-read",
         "callback-add", "callback-null", "callback-spt", "callback-capture"]
EXEC_MODES = ["lazy", "thread"]

S = Suite(BUILD, "hostcheck")
check = S.check


def race_lines():
    lines = {}
    with open(SRC) as f:
        for n, line in enumerate(f, 1):
            m = re.search(r"/\* RACE ([\w-]+) \*/", line)
            if m:
                lines[m.group(1)] = n
    return lines


def env(extra=None, preload=None):
    e = dict(os.environ)
    for k in list(e):
        if k.startswith("HIPVIS_") or k.startswith("HIPDOUBLE_"):
            del e[k]
    e["LD_LIBRARY_PATH"] = DOUBLE
    e["HIPVIS_QUIET"] = "1"
    if preload:
        e["LD_PRELOAD"] = preload
    e.update(extra or {})
    return e


def run(cmd, e):
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120)


def findings(trace):
    p = subprocess.run([ANALYZE, "--json", trace], capture_output=True, text=True, timeout=120)
    doc = json.loads(p.stdout)
    return [f for f in doc.get("findings", []) if f["rule"] == "host-access-in-flight"]


def case(name, mode, lines, tmp):
    trace = os.path.join(tmp, f"{name}-{mode}.zst")
    base = run([CASES, name], env({"HIPDOUBLE_EXEC": mode}))
    on = run([CASES, name], env({"HIPDOUBLE_EXEC": mode, "HIPVIS_HOSTCHECK": "1", "HIPVIS_OUTPUT": trace},
                                LIB))
    tag = f"{name} ({mode})"
    check(base.returncode == 0 and on.returncode == 0, f"{tag}: exits 0 with and without the check",
          f"{base.returncode}/{on.returncode} {on.stderr.strip()[-300:]}")
    # In thread mode a racy read races the double's worker thread whether or
    # not the check is on: its output is compared in lazy mode only.
    if name in CLEAN or mode == "lazy":
        check(base.stdout == on.stdout, f"{tag}: output unchanged under the check",
              f"{base.stdout!r} vs {on.stdout!r}")
    got = [f for f in findings(trace) if f["severity"] != "info"]
    if name in CLEAN:
        check(not got, f"{tag}: no host-access-in-flight finding", json.dumps(got)[:300])
        return
    check(len(got) == 1, f"{tag}: one host-access-in-flight finding", f"{len(got)} findings")
    if not got:
        return
    later = got[0].get("later") or {}
    stack = later.get("stack") or [{}]
    where = f"{os.path.basename(stack[0].get('file', '?'))}:{stack[0].get('line')}"
    want = f"hc_cases.c:{lines[name]}"
    check(where == want, f"{tag}: the access is at {want}", f"got {where}")
    access = "write" if name == "h2d-write" else "read"
    check(later.get("access") == access, f"{tag}: a {access}", later.get("access", "?"))


def chain():
    for name, preload, want_rc in [("after", LIB, 0), ("signal", LIB, 0), ("default", LIB, -11),
                                    ("resethand", LIB, -11), ("before", f"{BEFORE} {LIB}", 0),
                                    ("replace", f"{BEFORE} {LIB}", 0), ("after", None, 0),
                                    ("before", BEFORE, 0)]:
        p = run([CHAIN, name], env({"HIPVIS_HOSTCHECK": "1"}, preload))
        tag = f"chain {name}" + ("" if preload and LIB in preload else " (no hipvis)")
        ok = p.returncode == want_rc and (want_rc != 0 or p.stdout.strip().endswith("ok"))
        check(ok, f"{tag}: {'own handler called' if want_rc == 0 else 'killed by SIGSEGV'}",
              f"rc {p.returncode}, {p.stdout.strip()} {p.stderr.strip()[-200:]}")


def cases():
    lines = race_lines()
    missing = [c for c in RACY if c not in lines]
    check(not missing, "hc_cases.c marks every racy case's line", str(missing))
    for mode in EXEC_MODES:
        for name in RACY + CLEAN:
            if name in lines or name in CLEAN:
                case(name, mode, lines, S.tmp)


def python():
    """A Python program through ctypes: the finding names its Python line."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hc_py.py")
    with open(script) as f:
        line = next(n for n, text in enumerate(f, 1) if "# RACE py-read" in text)
    runtime = os.path.join(DOUBLE, "libamdhip64.so.5")
    for sync in (False, True):
        trace = os.path.join(S.tmp, f"py-{int(sync)}.zst")
        argv = [sys.executable, script, runtime] + (["--sync"] if sync else [])
        base = run(argv, env())
        on = run(argv, env({"HIPVIS_HOSTCHECK": "1", "HIPVIS_OUTPUT": trace}, LIB))
        tag = "python" + (" --sync" if sync else "")
        check(base.returncode == 0 and on.returncode == 0 and base.stdout == on.stdout,
              f"{tag}: exits 0, output unchanged under the check", f"{base.stdout!r} vs {on.stdout!r} {on.stderr[-300:]}")
        got = [f for f in findings(trace) if f["severity"] != "info"]
        if sync:
            check(not got, f"{tag}: no finding", json.dumps(got)[:300])
        else:
            detail = got[0].get("detail", "") if got else ""
            check(len(got) == 1 and f"hc_py.py:{line} in main" in detail,
                  f"{tag}: one finding naming hc_py.py:{line}", detail[:300])


def off():
    """Unset: no handler, the trace says nothing of the check."""
    trace = os.path.join(S.tmp, "off.zst")
    p = run([CASES, "d2h-read"], env({"HIPVIS_OUTPUT": trace}, LIB))
    check(p.returncode == 0 and not findings(trace), "unset: no check, no finding")


def host_fn_given():
    """What the runtime is given for a host function: the program's own
    function and data without the check (hipvis preloaded or not), the
    check's trampoline with it; the host function reads the same either way."""
    own = "runtime given the program's function: yes, data: yes;"
    sub = "runtime given the program's function: no, data: no;"
    base = run([CASES, "callback-fn"], env())
    off_ = run([CASES, "callback-fn"], env({"HIPVIS_OUTPUT": os.path.join(S.tmp, "fn-off.zst")}, LIB))
    trace = os.path.join(S.tmp, "fn-on.zst")
    on = run([CASES, "callback-fn"], env({"HIPVIS_HOSTCHECK": "1", "HIPVIS_OUTPUT": trace}, LIB))
    check(base.returncode == 0 and base.stdout.startswith(own), "no hipvis: the runtime gets the program's host function",
          base.stdout + base.stderr[-300:])
    check(off_.returncode == 0 and off_.stdout == base.stdout,
          "check unset: the runtime gets the program's host function and data", f"{off_.stdout!r} vs {base.stdout!r}")
    check(on.returncode == 0 and on.stdout.startswith(sub) and on.stdout[len(sub):] == base.stdout[len(own):],
          "check on: the runtime runs the trampoline, which calls the program's function",
          f"{on.stdout!r} vs {base.stdout!r} {on.stderr[-300:]}")
    got = [f for f in findings(trace) if f["severity"] != "info"]
    check(not got, "check on: no finding for the host function's read", json.dumps(got)[:300])


if __name__ == "__main__":
    sys.exit(S.run_cases([cases, python, off, host_fn_given, chain]))
