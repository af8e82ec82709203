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
(host_fn_given). Under HIPVIS_GUARD=copy-sync the racy copy
cases (a program without graphs) wait for their copy before its call
returns: no finding, the guard's record, and the synchronized twin's
output. The graph cases (graphs) do the same for the memcpy and memset
nodes of a graph replay. The managed cases run with HIPVIS_HOSTCHECK=managed (a kernel's
managed arguments protected while it is in flight; the double's kernels
reach them through their own alias) and with HIPVIS_HOSTCHECK=1 (skipped
and counted on a CPU without protection keys). hc_chain: a program's own
SIGSEGV handler,
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
DUMP = os.path.join(BUILD, "hipvis-dump")
DOUBLE = os.path.abspath(os.path.join(BUILD, "tests/double"))
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hc_cases.c")

RACY = ["d2h-read", "d2h2d-read", "h2d-write", "loop-write", "shared-page-race", "memset-read", "threads", "callback-other"]
CLEAN = ["d2h-read-sync", "d2h2d-gap", "d2h2d-read-sync", "h2d-write-sync", "h2d-read", "shared-page", "query-then-read", "fork", "callback-read",
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


def race_found(tag, got, line, access):
    """One finding, whose access stack starts at hc_cases.c:line, a `access`."""
    check(len(got) == 1, f"{tag}: one host-access-in-flight finding", f"{len(got)} findings")
    if not got:
        return
    later = got[0].get("later") or {}
    stack = later.get("stack") or [{}]
    where = f"{os.path.basename(stack[0].get('file', '?'))}:{stack[0].get('line')}"
    want = f"hc_cases.c:{line}"
    check(where == want, f"{tag}: the access is at {want}", f"got {where}")
    check(later.get("access") == access, f"{tag}: a {access}", later.get("access", "?"))


def run_both(name, mode, setting, clean, trace, tag):
    """Runs hc_cases NAME without hipvis and under HIPVIS_HOSTCHECK=setting
    (trace at `trace`): both exit 0 and, unless a racy access races the
    double's worker thread (thread mode), print the same. Returns the trace
    and its host-access-in-flight findings above info."""
    base = run([CASES, name], env({"HIPDOUBLE_EXEC": mode}))
    on = run([CASES, name], env({"HIPDOUBLE_EXEC": mode, "HIPVIS_HOSTCHECK": setting, "HIPVIS_OUTPUT": trace},
                                LIB))
    check(base.returncode == 0 and on.returncode == 0, f"{tag}: exits 0 with and without the check",
          f"{base.returncode}/{on.returncode} {on.stderr.strip()[-300:]}")
    if clean or mode == "lazy":
        check(base.stdout == on.stdout, f"{tag}: output unchanged under the check",
              f"{base.stdout!r} vs {on.stdout!r}")
    return trace, [f for f in findings(trace) if f["severity"] != "info"]


def case(name, mode, lines, tmp):
    tag = f"{name} ({mode})"
    trace, got = run_both(name, mode, "1", name in CLEAN, os.path.join(tmp, f"{name}-{mode}.zst"), tag)
    if name in CLEAN:
        check(not got, f"{tag}: no host-access-in-flight finding", json.dumps(got)[:300])
        return
    race_found(tag, got, lines[name], "write" if name in ("h2d-write", "loop-write") else "read")
    if name == "loop-write":
        counts = hostcheck_counts(trace)
        check(counts.get("skipped_full") == 0 and counts.get("protected_ops") == 600,
              f"{tag}: 600 copies of one buffer protected in one slot, none skipped", json.dumps(counts)[:300])


# Managed memory: the racy cases and the access each makes.
MANAGED_RACY = {"managed-read": "read", "managed-write": "write"}
MANAGED_CLEAN = ["managed-read-sync", "managed-write-sync"]


def hostcheck_counts(trace):
    """The trace's HV_REC_HOSTCHECK record (hipvis-dump --json), {} if none."""
    p = subprocess.run([DUMP, "--json", trace], capture_output=True, text=True, timeout=120)
    for line in p.stdout.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "hostcheck":
            return rec
    return {}


def cpu_has_pkeys():
    """Whether this CPU and kernel offer protection keys (pkey_alloc works)."""
    try:
        with open("/proc/cpuinfo") as f:
            return any(" ospke" in l or " pku" in l for l in f if l.startswith("flags"))
    except OSError:
        return False


def managed():
    """HIPVIS_HOSTCHECK=managed: a host access to a managed buffer a kernel
    of an unsynchronized stream uses is found at its line; after the sync it
    is not. HIPVIS_HOSTCHECK=1: on a CPU without protection keys the kernel's
    managed argument is skipped and counted and nothing is found; with them,
    it is protected through the key and found like =managed. The output
    never changes."""
    keys = cpu_has_pkeys()
    lines = race_lines()
    missing = [c for c in MANAGED_RACY if c not in lines]
    check(not missing, "hc_cases.c marks every racy managed case's line", str(missing))
    for mode in EXEC_MODES:
        for name in list(MANAGED_RACY) + MANAGED_CLEAN:
            for setting in ("managed", "1"):
                tag = f"{name} ({mode}, HIPVIS_HOSTCHECK={setting})"
                trace, got = run_both(name, mode, setting, name in MANAGED_CLEAN,
                                      os.path.join(S.tmp, f"{name}-{mode}-{setting}.zst"), tag)
                counts = hostcheck_counts(trace)
                if setting == "1" and not keys:
                    check(counts.get("skipped_managed", 0) > 0 and counts.get("protected_ops") == 0,
                          f"{tag}: managed skipped and counted, nothing protected", json.dumps(counts)[:300])
                else:
                    # The double's kernel reaches the buffer through its own
                    # alias: the only fault is the program's racy access.
                    want = 0 if name in MANAGED_CLEAN else 1
                    check(counts.get("protected_ops", 0) > 0 and counts.get("accesses") == want and
                          counts.get("unrelated") == 0,
                          f"{tag}: the launch protected, {want} program fault(s), none unrelated",
                          json.dumps(counts)[:300])
                if (setting == "1" and not keys) or name in MANAGED_CLEAN:
                    check(not got, f"{tag}: no host-access-in-flight finding", json.dumps(got)[:300])
                elif name in lines:
                    race_found(tag, got, lines[name], MANAGED_RACY[name])


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


def guarded():
    """copy-sync waits for a pinned D2H copy (and, in a program with no graph
    exec, a pinned H2D copy) before the copy call returns: the host never
    touches the copy's pages while it is in flight, so the check finds
    nothing; the program prints what its synchronized twin prints (the read
    sees the copied bytes, the rewrite comes after the copy), with the check
    or without it; the trace holds the guard's record naming the copy."""
    for name in ("d2h-read", "h2d-write"):
        for mode in EXEC_MODES:
            tag = f"copy-sync {name} ({mode})"
            trace = os.path.join(S.tmp, f"guard-{name}-{mode}.zst")
            guard = {"HIPDOUBLE_EXEC": mode, "HIPVIS_GUARD": "copy-sync"}
            twin = run([CASES, f"{name}-sync"], env({"HIPDOUBLE_EXEC": mode}))
            plain = run([CASES, name], env(dict(guard, HIPVIS_OUTPUT=trace + ".off.zst"), LIB))
            on = run([CASES, name], env(dict(guard, HIPVIS_HOSTCHECK="1", HIPVIS_OUTPUT=trace), LIB))
            check(on.returncode == 0 and plain.returncode == 0 and on.stdout == plain.stdout == twin.stdout,
                  f"{tag}: output unchanged by the check, the synchronized twin's",
                  f"{on.stdout!r} / {plain.stdout!r} / twin {twin.stdout!r} {on.stderr.strip()[-300:]}")
            got = [f for f in findings(trace) if f["severity"] != "info"]
            check(not got, f"{tag}: no host-access-in-flight finding under HIPVIS_HOSTCHECK=1", json.dumps(got)[:300])
            dump = subprocess.run([DUMP, "--json", trace], capture_output=True, text=True, timeout=120)
            recs = [json.loads(line) for line in dump.stdout.splitlines()]
            copies = {r["seq"]: r for r in recs if r.get("op") == "copy" and r.get("async")}
            guards = [r for r in recs if r.get("type") == "guard"]
            want = "D2H" if name.startswith("d2h") else "H2D"
            g = guards[0] if len(guards) == 1 else {}
            ok = g.get("copy_seq") in copies and g["result"] == 0 and g["completed_seq"] == g["copy_seq"]
            check(ok and copies[g["copy_seq"]]["dir"] == want,
                  f"{tag}: one guard record, after the async {want} copy it waited for",
                  json.dumps(guards)[:300])


def off():
    """Unset: no handler, the trace says nothing of the check."""
    trace = os.path.join(S.tmp, "off.zst")
    p = run([CASES, "d2h-read"], env({"HIPVIS_OUTPUT": trace}, LIB))
    check(p.returncode == 0 and not findings(trace), "unset: no check, no finding")


def analyze(args):
    p = subprocess.run([ANALYZE] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout


def coverage():
    """What the check could not protect reaches the verdict: memory
    registered with hipHostRegister is not protected on HIP (skipped_other),
    so the report's coverage line, its JSON coverage and the exit status
    (3 under --fail-on-unchecked) say so; a trace whose check protected
    everything, or one without the check, has no such line, and no
    hostcheck object without the check. Each process's trace counts its own
    operations (a fork child's starts from zero)."""
    tmp = os.path.join(S.tmp, "coverage")
    os.makedirs(tmp, exist_ok=True)

    def trace(name, hostcheck=True, out=None):
        t = out or os.path.join(tmp, f"{name}.zst")
        extra = {"HIPDOUBLE_EXEC": "lazy", "HIPVIS_OUTPUT": t}
        if hostcheck:
            extra["HIPVIS_HOSTCHECK"] = "1"
        base = run([CASES, name], env({"HIPDOUBLE_EXEC": "lazy"}))
        on = run([CASES, name], env(extra, LIB))
        tag = f"coverage {name}" + ("" if hostcheck else " (check off)")
        check(on.returncode == 0 and on.stdout == base.stdout, f"{tag}: exits 0, output unchanged",
              f"{on.returncode} {on.stdout!r} vs {base.stdout!r} {on.stderr.strip()[-300:]}")
        return t

    line = ("coverage: host-access check: 1 of 2 in-flight operations not protected (0 managed, 0 table full, "
            "1 other, 0 graph), 0 accesses lost: a host access to them is not seen; registered memory on ROCm "
            "(hipHostRegister) is never protected")
    t = trace("registered")
    rc, text = analyze([t])
    check(rc == 3, "registered: exit 3 (unprotected operations, --fail-on-unchecked)", f"rc {rc}")
    check(line in text, "registered: the coverage line counts the unprotected operation", text[-600:])
    check("verdict: 0 bugs (0 finding groups) at or above warning; host-access check: 1 of 2 in-flight "
          "operations not protected, 0 accesses lost\n" in text, "registered: the verdict line says it",
          text[-600:])
    rc, _ = analyze(["--no-fail-on-unchecked", t])
    check(rc == 0, "registered: --no-fail-on-unchecked exits 0", f"rc {rc}")
    rc, out = analyze(["--json", t])
    doc = json.loads(out)
    want = {"traces": 1, "traces_counted": 1, "operations": 2, "protected_ops": 1, "unprotected_ops": 1,
            "skipped_managed": 0, "skipped_full": 0, "skipped_other": 1, "skipped_graph": 0, "accesses": 0,
            "lost": 0}
    got = doc.get("coverage", {}).get("hostcheck")
    check(rc == 3 and got == want and doc["verdict"]["exit_status"] == 3,
          "registered: JSON coverage.hostcheck counts, exit 3", f"rc {rc} {got}")

    t = trace("d2h-read-sync")
    rc, text = analyze([t])
    got = json.loads(analyze(["--json", t])[1]).get("coverage", {}).get("hostcheck") or {}
    check(rc == 0 and "host-access check" not in text and got.get("protected_ops") == 1 and
          got.get("unprotected_ops") == 0, "everything protected: no coverage line, exit 0", f"rc {rc} {got}")

    t = trace("d2h-read-sync", hostcheck=False, out=os.path.join(tmp, "off.zst"))
    rc, text = analyze([t])
    cov = json.loads(analyze(["--json", t])[1]).get("coverage", {})
    check(rc == 0 and "host-access check" not in text and "hostcheck" in cov and cov["hostcheck"] is None,
          "without the check: no coverage line, hostcheck null", f"rc {rc} {cov}")

    fork_dir = os.path.join(tmp, "fork")
    os.makedirs(fork_dir, exist_ok=True)
    trace("fork-counts", out=os.path.join(fork_dir, "t.zst"))
    got = json.loads(analyze(["--json", fork_dir])[1]).get("coverage", {}).get("hostcheck") or {}
    check(got.get("traces") == 2 and got.get("traces_counted") == 2 and got.get("protected_ops") == 2,
          "fork child: each trace counts its own process's operations", str(got))


# Graph replays: the racy cases and the access each makes; the clean ones.
GRAPH_RACY = {"graph-h2d-write": "write", "graph-d2h-read": "read", "graph-memset-read": "read",
              "graph-loop-write": "write", "graph-set-write": "write"}
GRAPH_CLEAN = ["graph-h2d-write-sync", "graph-d2h-read-sync", "graph-pageable", "graph-disabled"]


def graphs():
    """A graph launch protects its memcpy and memset nodes' pinned memory
    for the replay: a host access before the launch stream is observed is
    found at its line, after the sync it is not, and the output is what it
    is without the check. 600 replays of one exec take one slot (none
    skipped, each protected). An exec-node setter moves what is protected
    to the node's new source; a disabled node protects nothing. What the check cannot protect is counted
    (skipped_graph) and said under the verdict: a memcpy node's pageable
    source, and every host side of a graph with a host node (callback-capture:
    the node's function may read what the memcpy node before it wrote). A
    kernel node's managed argument is protected as an eager launch's."""
    lines = race_lines()
    missing = [c for c in list(GRAPH_RACY) + ["graph-managed-read"] if c not in lines]
    check(not missing, "hc_cases.c marks every racy graph case's line", str(missing))
    for mode in EXEC_MODES:
        for name in list(GRAPH_RACY) + GRAPH_CLEAN:
            tag = f"{name} ({mode})"
            trace, got = run_both(name, mode, "1", name in GRAPH_CLEAN, os.path.join(S.tmp, f"{name}-{mode}.zst"),
                                  tag)
            counts = hostcheck_counts(trace)
            if name in GRAPH_CLEAN:
                check(not got, f"{tag}: no host-access-in-flight finding", json.dumps(got)[:300])
            elif name in lines:
                race_found(tag, got, lines[name], GRAPH_RACY[name])
            want = {"protected_ops": 0, "skipped_graph": 2} if name == "graph-pageable" else \
                {"protected_ops": 0, "skipped_graph": 0} if name == "graph-disabled" else \
                {"protected_ops": 600 if name == "graph-loop-write" else 1, "skipped_graph": 0}
            want["skipped_full"] = 0
            got_counts = {k: counts.get(k) for k in want}
            check(got_counts == want, f"{tag}: counts {want}", json.dumps(counts)[:300])

    # A kernel node's managed argument: as an eager launch's (managed()).
    keys = cpu_has_pkeys()
    for mode in EXEC_MODES:
        for setting in ("managed", "1"):
            name = "graph-managed-read"
            tag = f"{name} ({mode}, HIPVIS_HOSTCHECK={setting})"
            trace, got = run_both(name, mode, setting, False, os.path.join(S.tmp, f"{name}-{mode}-{setting}.zst"), tag)
            counts = hostcheck_counts(trace)
            if setting == "1" and not keys:
                check(not got and counts.get("skipped_managed") == 1 and counts.get("protected_ops") == 0,
                      f"{tag}: managed skipped and counted, no finding", json.dumps(counts)[:300])
            else:
                check(counts.get("protected_ops") == 1 and counts.get("skipped_graph") == 0,
                      f"{tag}: the kernel node's argument protected", json.dumps(counts)[:300])
                race_found(tag, got, lines.get(name), "read")

    trace, got = run_both("callback-capture", "lazy", "1", True, os.path.join(S.tmp, "graph-host-node.zst"),
                          "callback-capture (graph host node)")
    counts = hostcheck_counts(trace)
    check(not got and counts.get("skipped_graph") == 2 and counts.get("protected_ops") == 0,
          "a graph with a host node: its memcpy node not protected, counted once per replay",
          json.dumps(counts)[:300])

    rc, text = analyze([os.path.join(S.tmp, "graph-pageable-lazy.zst")])
    check(rc == 3 and "coverage: host-access check: 2 of 2 in-flight operations not protected (0 managed, "
          "0 table full, 0 other, 2 graph), 0 accesses lost" in text and "a memcpy node's pageable host side" in text,
          "graph-pageable: the coverage line counts the replays' unprotected nodes, exit 3", f"rc {rc} {text[-600:]}")


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
    sys.exit(S.run_cases([cases, guarded, managed, python, off, host_fn_given, chain, coverage, graphs]))
