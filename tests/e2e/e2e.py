#!/usr/bin/env python3
"""e2e.py - hipvis end to end: real programs under LD_PRELOAD=libhipvis.so,
their traces read back with hipvis-dump --json, and hipvis-analyze --json
findings checked against what the trace says the program did.

usage: e2e.py BUILD_DIR

Programs (TEST-ONLY, tests/apps) run on the HIP runtime test double
(tests/runtime-double) or on Debian's real libamdhip64.so.5 ("no device").
decode_loop registers real gfx950 device code (decode_kernels.hip), so the
tracer knows every kernel's argument layout. Prints one line per check and
"e2e: N passed, M failed"; exits 1 on any failure.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

CONVERT = "_convert_req_index_to_global_index_kernel"
NSEQ_BYTES = 257 * 4
REAL_HIP = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5"


class E2E(Suite):
    def __init__(self, build, name="e2e"):
        super().__init__(build, name)

    # ---- plumbing ---------------------------------------------------------
    def run(self, argv, env_add=None, env_del=(), trace=None):
        env = dict(os.environ)
        for k in ("LD_PRELOAD", "HIPVIS_OUTPUT", "HIPDOUBLE_FAULT", "HIPDOUBLE_EXEC") + tuple(env_del):
            env.pop(k, None)
        env.update(env_add or {})
        if trace:
            env.update(LD_PRELOAD=self.lib, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1")
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def on_double(self):
        return {"LD_LIBRARY_PATH": self.double}

    def records(self, trace):
        p = subprocess.run([self.dump, "--json", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-dump --json {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]

    def findings(self, trace):
        # Findings only: whether every replay was checked is the verdict's
        # business (tests/cli), so exit 3 for unchecked replays is not asked for.
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", "--no-fail-on-unchecked", trace],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return json.loads(p.stdout)

    def decode(self, name, *args, env_add=None):
        """decode_loop traced on the double: (stdout lines, records, report, buffers)."""
        trace = os.path.join(self.tmp, f"{name}.zst")
        env = self.on_double()
        env.update(env_add or {})
        rc, out, err = self.run([os.path.join(self.apps, "decode_loop"), "--print-buffers", *args],
                                env, trace=trace)
        if rc != 0 or "error=none" not in out:
            raise RuntimeError(f"decode_loop {' '.join(args)}: rc={rc} {out.strip()} {err.strip()}")
        bufs = {}
        for line in out.splitlines():
            m = re.match(r"decode_loop: thread=(\d+) (.*)", line)
            if m:
                bufs[int(m.group(1))] = {k: int(v, 16) for k, v in re.findall(r"(\w+)=(0x[0-9a-f]+)", m.group(2))}
        return out, self.records(trace), self.findings(trace), bufs

    # ---- shared assertions ------------------------------------------------
    @staticmethod
    def calls(recs):
        return [r for r in recs if r.get("type") == "call"]

    @staticmethod
    def base(api):
        """hipMemcpyAsync_spt -> hipMemcpyAsync (per-thread default stream variants)."""
        return api[:-4] if api and api.endswith("_spt") else api

    @staticmethod
    def by_seq(recs):
        return {r["seq"]: r for r in recs if r.get("type") == "call"}

    def exact_same_epoch(self, label, recs, report, cu_addrs):
        """Every same-epoch-write names exactly the H2D copy's destination
        range (dst, bytes from the trace) and the graph's kernel argument
        that reads it; together they cover every replay."""
        groups = [g for g in report["findings"] if g["rule"] == "same-epoch-write"]
        if not self.check(groups, f"{label}: same-epoch-write reported"):
            return
        seqs = self.by_seq(recs)
        # (exec, node) -> pointer args: node handles of destroyed source
        # graphs get reused, so a handle alone is not a key; a node's kargs
        # record follows its graph_node record
        kargs, last = {}, None
        for r in recs:
            if r.get("type") == "graph_node":
                last = (r["exec"], r["node"])
            elif r.get("type") == "kargs" and last and r["owner_node"] == last[1]:
                kargs[last] = r["args"]
        problems = []
        for g in groups:
            b, w, rd = g["buffer"], g["earlier"], g["later"]
            copy = seqs.get(w["seq"], {})
            lo, hi = int(b["lo"], 16), int(b["hi"], 16)
            if not (self.base(copy.get("api")) == "hipMemcpyAsync" and copy.get("dir") == "H2D"
                    and copy.get("src_mem") == "host_pinned"):
                problems.append(f"writer seq {w['seq']} is not the pinned H2D copy: {copy.get('api')}")
                continue
            if (lo, hi - lo, b["bytes"]) != (int(copy["dst"], 16), copy["bytes"], copy["bytes"]):
                problems.append(f"range [{b['lo']},{b['hi']}) != copy dst {copy['dst']} +{copy['bytes']}")
            if copy["bytes"] != NSEQ_BYTES or lo not in cu_addrs:
                problems.append(f"range {b['lo']} +{copy['bytes']} is not cu_seqlens_q {sorted(map(hex, cu_addrs))}")
            if (w["api"], w["dir"], w["bytes"], w["dst"]) != (copy["api"], "H2D", copy["bytes"], copy["dst"]):
                problems.append(f"writer side {w}")
            rep = seqs.get(rd["seq"], {})
            if self.base(rep.get("api")) != "hipGraphLaunch" or rep.get("exec") != rd["exec"]:
                problems.append(f"reader seq {rd['seq']} is not a launch of exec {rd['exec']}")
            if rd["stream"] != w["stream"] or rep.get("stream") != copy.get("stream"):
                problems.append(f"copy on {w['stream']}, replay on {rd['stream']}")
            if (rd["node_type"], rd["kernel"], rd["arg_index"], rd["access"], rd["origin"], rd["node_index"]) != \
                    ("kernel", CONVERT, 0, "read", "metadata", 0):
                problems.append(f"reader {rd['node_type']} {rd['kernel']} arg {rd['arg_index']} "
                                f"{rd['access']}/{rd['origin']} node {rd['node_index']}")
            arg0 = [a for a in kargs.get((rd["exec"], rd["node"]), []) if a["index"] == 0]
            if not arg0 or int(arg0[0]["value"], 16) != lo or rd["pointer"] != arg0[0]["value"]:
                problems.append(f"exec {rd['exec']} node {rd['node']}: trace says arg0 {arg0}")
        self.check(not problems, f"{label}: each finding = the copy's dst/bytes, read by node 0 "
                   f"{CONVERT} arg 0 (read, metadata)", "; ".join(problems[:3]))
        replays = sum(1 for r in self.calls(recs) if self.base(r["api"]) == "hipGraphLaunch")
        total = sum(g["count"] for g in groups)
        self.check(total == replays == report["traces"][0]["replays"],
                   f"{label}: the findings cover every replay ({total} of {replays})")
        others = sorted({g["rule"] for g in report["findings"]} - {"same-epoch-write"})
        self.check(not others, f"{label}: no other rule fires", ", ".join(others))

    # ---- cases ------------------------------------------------------------
    def case_decode(self):
        label = "decode loop (copy then replay, same stream)"
        out, recs, report, bufs = self.decode("decode", "--steps", "200")
        self.exact_same_epoch(label, recs, report, {bufs[0]["cu_seqlens_q"]})
        g = report["findings"][0] if report["findings"] else {}
        self.check(g.get("severity") == "warning" and g.get("earlier", {}).get("src") == hex(bufs[0]["cu_seqlens_q_cpu"]),
                   f"{label}: warning, host source is the pinned cu_seqlens_q_cpu")
        kernels = {r["kernel"]: r for r in recs if r.get("type") == "kernel"}
        k = kernels.get(CONVERT, {})
        self.check(k.get("nargs") == 4 and k.get("kernarg_bytes") == 24 and k.get("code_object_hash") != "0x0",
                   f"{label}: {CONVERT} decoded from the registered gfx950 bundle (4 args, 24 B)", str(k))
        # the tracer does not change what the program computes
        for fault in ("", "h3", "h2a"):
            env = self.on_double()
            if fault:
                env["HIPDOUBLE_FAULT"] = fault
            argv = [os.path.join(self.apps, "decode_loop"), "--steps", "200"]
            plain = self.run(argv, env)
            traced = self.run(argv, env, trace=os.path.join(self.tmp, f"same-{fault or 'none'}.zst"))
            stale = re.search(r"stale_reads=(\d+)", plain[1])
            self.check(plain[:2] == traced[:2] and stale and (int(stale.group(1)) > 0) == bool(fault),
                       f"decode loop{' HIPDOUBLE_FAULT=' + fault if fault else ''}: same output and exit code "
                       f"with and without the tracer ({stale.group(1) if stale else '?'} stale reads)",
                       f"{plain[:2]} vs {traced[:2]}")

    def case_threads(self):
        label = "decode loop, 3 threads on per-thread default streams"
        out, recs, report, bufs = self.decode("spt", "--steps", "60", "--threads", "3", "--spt")
        self.exact_same_epoch(label, recs, report, {b["cu_seqlens_q"] for b in bufs.values()})
        streams = {g["later"]["stream"] for g in report["findings"]}
        self.check(len(streams) == 3 and all(s.startswith("per-thread:") for s in streams),
                   f"{label}: findings on 3 per-thread streams", str(streams))

    def case_sync(self):
        out, recs, report, bufs = self.decode("sync", "--steps", "200", "--sync-before-replay")
        syncs = sum(1 for r in self.calls(recs) if r["api"] == "hipStreamSynchronize")
        self.check(syncs > 0 and not report["findings"],
                   f"--sync-before-replay: no finding ({syncs} stream syncs traced)",
                   ", ".join(g["rule"] for g in report["findings"]))

    def case_side_stream(self):
        label = "--side-stream-copy (no event wait)"
        out, recs, report, bufs = self.decode("side", "--steps", "200", "--side-stream-copy")
        everything = [g for g in report["findings"] if g["rule"] == "unordered-write"]
        groups = [g for g in everything if g["later"]["role"] == "replay"]
        # the prefill steps read the buffer with an eager launch: a race too
        eager = [g for g in everything if g["later"]["role"] == "read"]
        seqs = self.by_seq(recs)
        bad = []
        for g in groups:
            copy = seqs.get(g["earlier"]["seq"], {})
            if g["severity"] != "error" or copy.get("api") != "hipMemcpyAsync" or \
                    g["buffer"]["lo"] != copy.get("dst") or g["buffer"]["bytes"] != copy.get("bytes") or \
                    int(copy["dst"], 16) != bufs[0]["cu_seqlens_q"] or \
                    g["earlier"]["stream"] == g["later"]["stream"] or g["later"]["kernel"] != CONVERT:
                bad.append(f"{g['buffer']} {g['earlier']['stream']} -> {g['later']['stream']}")
        replays = sum(1 for r in self.calls(recs) if r["api"] == "hipGraphLaunch")
        self.check(groups and not bad, f"{label}: unordered-write (error) on cu_seqlens_q, copy stream != replay stream",
                   "; ".join(bad[:3]) or "none reported")
        self.check(sum(g["count"] for g in groups) == replays, f"{label}: every replay is unordered")
        prefills = int(re.search(r"prefills=(\d+)", out).group(1))
        self.check(prefills > 0 and sum(g["count"] for g in eager) == prefills and
                   all(g["later"]["kernel"] == CONVERT and g["later"]["kind"] == "launch" for g in eager),
                   f"{label}: every prefill step's eager {CONVERT} launch is unordered too ({prefills})")
        self.check(not [g for g in report["findings"] if g["rule"] == "same-epoch-write"],
                   f"{label}: no same-epoch-write (the write is not on the replay's stream)")

    def case_event_wait(self):
        out, recs, report, bufs = self.decode("evwait", "--steps", "200", "--event-wait")
        waits = sum(1 for r in self.calls(recs) if r["api"] == "hipStreamWaitEvent")
        self.check(waits >= 200 and not [g for g in report["findings"] if g["rule"] == "unordered-write"],
                   f"--side-stream-copy --event-wait: no unordered-write ({waits} stream waits traced)",
                   ", ".join(g["rule"] for g in report["findings"]))

    def case_free_realloc(self):
        for mode, now in (("new", "freed"), ("same", "re-allocated")):
            label = f"--free-realloc={mode}"
            out, recs, report, bufs = self.decode(f"realloc-{mode}", "--steps", "200", f"--free-realloc={mode}")
            groups = [g for g in report["findings"] if g["rule"] == "stale-capture-pointer"]
            old = bufs[0]["cu_seqlens_q"]
            frees = [r for r in self.calls(recs) if r["api"] == "hipFree" and int(r["ptr"], 16) == old]
            bad = [g for g in groups
                   if g["severity"] != "error" or g["now"] != now or int(g["buffer"]["lo"], 16) != old
                   or g["later"]["kernel"] != CONVERT or g["later"]["arg_index"] != 0
                   or not frees or g["first_seq"] <= frees[0]["seq"]]
            self.check(groups and not bad, f"{label}: stale-capture-pointer ({now}) on the captured cu_seqlens_q, "
                       f"after its hipFree", str(bad[:1]) if bad else "none reported")

    def case_python(self):
        label = "python3 ctypes_decode.py"
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "ctypes_decode.py")
        hsaco = os.path.join(self.apps, "decode_kernels-gfx950.hsaco")
        lib = os.path.join(self.double, "libamdhip64.so.5")
        argv = [sys.executable, script, lib, "--steps", "120", "--code-object", hsaco, "--call-log"]
        log_plain, log_traced = os.path.join(self.tmp, "py-plain.log"), os.path.join(self.tmp, "py-traced.log")
        trace = os.path.join(self.tmp, "py.zst")
        plain = self.run(argv + [log_plain])
        traced = self.run(argv + [log_traced], trace=trace)
        self.check(plain[:2] == traced[:2] and plain[0] == 0 and "error=none" in plain[1],
                   f"{label}: same stdout and exit code under LD_PRELOAD", f"{plain[:2]} vs {traced[:2]}")
        want = [tuple(line.split()) for line in open(log_traced)]
        self.check(want == [tuple(line.split()) for line in open(log_plain)],
                   f"{label}: same HIP calls and results with and without the tracer")
        recs = self.records(trace)
        got = [(r["api"], str(r["result"])) for r in self.calls(recs)]
        self.check(got == want, f"{label}: trace holds every hip* call of the script, in order, with its result "
                   f"({len(got)} of {len(want)})",
                   next((f"#{i}: trace {a} vs script {b}" for i, (a, b) in enumerate(zip(got, want)) if a != b),
                        f"lengths {len(got)} vs {len(want)}"))
        report = self.findings(trace)
        cu = {int(r["dst"], 16) for r in self.calls(recs) if r["api"] == "hipMemcpyAsync"}
        self.exact_same_epoch(label, recs, report, cu)

    def inferred_same_epoch(self, label, recs, report, kernel, origin, deref, offset):
        """Every same-epoch-write reads the copied range through arg 0 of
        `kernel`, a pointer the tracer only inferred, with `origin` and
        `deref` after the analyzer looked at the kernel's code; at the rule's
        severity (warning), covering every replay."""
        groups = [g for g in report["findings"] if g["rule"] == "same-epoch-write"]
        if not self.check(groups, f"{label}: same-epoch-write reported"):
            return groups
        seqs = self.by_seq(recs)
        bad = []
        for g in groups:
            copy, rd = seqs.get(g["earlier"]["seq"], {}), g["later"]
            if (g["buffer"]["lo"], g["buffer"]["bytes"]) != (copy.get("dst"), copy.get("bytes")):
                bad.append(f"buffer {g['buffer']} is not the copy's dst {copy.get('dst')} +{copy.get('bytes')}")
            got = (g["severity"], rd["kernel"], rd["arg_index"], rd["origin"], rd.get("deref"), rd.get("arg_offset"))
            if got != ("warning", kernel, 0, origin, deref, offset) or rd["pointer"] != g["buffer"]["lo"]:
                bad.append(f"group {got} pointer {rd['pointer']}")
        self.check(not bad, f"{label}: each group is the copy's range read through {kernel} arg 0 "
                   f"({origin}, {deref}), at warning", "; ".join(bad[:3]))
        replays = sum(1 for r in self.calls(recs) if r["api"] == "hipGraphLaunch")
        self.check(sum(g["count"] for g in groups) == replays == report["traces"][0]["replays"],
                   f"{label}: the findings cover every replay ({replays})")
        others = sorted({g["rule"] for g in report["findings"]} - {"same-epoch-write"})
        self.check(not others, f"{label}: no other rule fires", ", ".join(others))
        return groups

    def case_struct_arg(self):
        """A pointer inside a by-value struct (struct_loop.c): the metadata
        says 16 bytes by value, the tracer infers the word, the kernel's own
        code (stored in the trace) confirms it."""
        label = "struct_loop (pointer inside a by-value struct)"
        trace = os.path.join(self.tmp, "struct.zst")
        rc, out, err = self.run([os.path.join(self.apps, "struct_loop"), "--steps", "40"], self.on_double(),
                                trace=trace)
        if rc != 0 or "error=none" not in out:
            raise RuntimeError(f"struct_loop: rc={rc} {out.strip()} {err.strip()}")
        recs = self.records(trace)
        nodes = [r for r in recs if r.get("type") == "kargs" and r.get("owner_node")]
        self.check(nodes and all([(a["index"], a["offset"], a["origin"]) for a in k["args"]][0] == (0, 0, "inferred")
                                 for k in nodes),
                   f"{label}: the trace holds the struct's first word as an inferred pointer (arg 0, offset 0)",
                   str(nodes[:1]))
        report = self.findings(trace)
        self.inferred_same_epoch(label, recs, report, "_span_lengths_kernel", "confirmed", "dereferenced", 0)
        self.check(report["inferred_groups"] == 0, f"{label}: no group left on an inferred pointer",
                   str(report["inferred_groups"]))
        p = subprocess.run([self.analyze, "--fail-on=warning", trace], capture_output=True, text=True)
        self.check(p.returncode == 1 and "arg 0 unknown (confirmed)" in p.stdout and
                   "pointer  arg 0, kernarg +0x0: confirmed: _span_lengths_kernel loads it" in p.stdout,
                   f"{label}: --fail-on=warning exits 1, the text says the pointer is confirmed",
                   f"exit {p.returncode}: {p.stdout[-600:]}")

    def case_python_no_layout(self):
        """ctypes_decode.py with its placeholder image: the tracer has no
        layout, reads the params array within a bound, and the finding is
        inferred but at the rule's severity; --code-object confirms it."""
        label = "python3 ctypes_decode.py, image hipvis cannot decode"
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "ctypes_decode.py")
        trace = os.path.join(self.tmp, "py-nolayout.zst")
        rc, out, err = self.run([sys.executable, script, os.path.join(self.double, "libamdhip64.so.5"),
                                 "--steps", "40"], trace=trace)
        if rc != 0 or "error=none" not in out:
            raise RuntimeError(f"ctypes_decode: rc={rc} {out.strip()} {err.strip()}")
        recs = self.records(trace)
        cu = {r["dst"] for r in self.calls(recs) if r["api"] == "hipMemcpyAsync"}
        nodes = [r for r in recs if r.get("type") == "kargs" and r.get("owner_node")]
        self.check(nodes and all(k["args"] and k["args"][0]["value"] in cu and k["args"][0]["index"] == 0 and
                                 k["args"][0]["offset"] == 0xffffffff and k["args"][0]["origin"] == "inferred"
                                 for k in nodes),
                   f"{label}: each graph node's params entry 0 recorded as an inferred pointer to cu_seqlens_q",
                   str(nodes[:1]))
        report = self.findings(trace)
        groups = self.inferred_same_epoch(label, recs, report, CONVERT, "inferred", "no-code-object", None)
        self.check(report["inferred_groups"] == len(groups) and report["inferred_groups_at_or_above_fail_on"] == 0 and
                   all(b["next"]["confirm"] for b in report["bugs"]),
                   f"{label}: the groups are counted as inferred and each bug says how to confirm it",
                   f"{report['inferred_groups']} {[b['next']['confirm'] for b in report['bugs']]}")
        p = subprocess.run([self.analyze, trace], capture_output=True, text=True)
        self.check(p.returncode == 1 and "on inferred pointers" in p.stdout and
                   "hipvis-analyze --code-object FILE" in p.stdout,
                   f"{label}: the default --fail-on exits 1 and the text says how to confirm",
                   f"exit {p.returncode}: {p.stdout[-600:]}")
        hsaco = os.path.join(self.apps, "decode_kernels-gfx950.hsaco")
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", "--no-fail-on-unchecked", "--code-object", hsaco,
                            trace],
                           capture_output=True, text=True)
        report = json.loads(p.stdout) if p.returncode == 0 else {"findings": [], "traces": [{}]}
        self.inferred_same_epoch(f"{label}, --code-object", recs, report, CONVERT, "confirmed", "dereferenced", None)

    def case_passthrough_real(self):
        app = os.path.join(self.apps, "passthrough_real")
        if not os.path.exists(REAL_HIP) or not os.access(app, os.X_OK):
            print(f"  skip passthrough on the real runtime (no {REAL_HIP} or {app})")
            return
        label = "passthrough_real on Debian's libamdhip64.so.5"
        trace = os.path.join(self.tmp, "real.zst")
        plain = self.run([app], env_del=("LD_LIBRARY_PATH",))
        traced = self.run([app], env_del=("LD_LIBRARY_PATH",), trace=trace)
        self.check(plain[:2] == traced[:2] and "test-double=0" in plain[1],
                   f"{label}: same stdout and exit code with and without LD_PRELOAD", f"{plain[0]} vs {traced[0]}")
        recs = self.records(trace)
        header = next(r for r in recs if r.get("type") == "header")
        self.check(os.path.realpath(header["runtime_path"]) == os.path.realpath(REAL_HIP),
                   f"{label}: trace header names the real runtime", header["runtime_path"])
        exported = set(subprocess.run(["nm", "-D", "--defined-only", self.lib], capture_output=True,
                                      text=True).stdout.split())
        printed = [tuple(line.strip().split(" -> ")) for line in plain[1].splitlines() if " -> " in line]
        # every printed call to an API the tracer intercepts (it exports a
        # wrapper of that name) that exists in HIP 5.2 ("unavailable": the
        # app found no such symbol), in order, with its code
        want = [(n, "0" if c == "null" else c) for n, c in printed if n in exported and c != "unavailable"]
        got = [(r["api"], str(r["result"])) for r in self.calls(recs)
               if r["api"] not in ("__hipRegisterFunction", "__hipUnregisterFatBinary")]
        failing = sum(1 for n, c in want if c not in ("0",))
        self.check(got == want and failing > 50,
                   f"{label}: trace holds every intercepted call, in order, with the runtime's error code "
                   f"({len(got)} calls, {failing} failed, {len(printed) - len(want)} printed calls not intercepted)",
                   next((f"#{i}: trace {a} vs app {b}" for i, (a, b) in enumerate(zip(got, want)) if a != b),
                        f"lengths {len(got)} vs {len(want)}"))
        versioned = subprocess.run(["readelf", "-W", "--dyn-syms", app], capture_output=True, text=True).stdout
        self.check("hipMemcpyAsync@hip_4.2" in versioned and ("hipMemcpyAsync", "101") in got,
                   f"{label}: versioned reference hipMemcpyAsync@hip_4.2 interposed")

    def main(self):
        return self.run_cases((self.case_decode, self.case_threads, self.case_sync, self.case_side_stream,
                               self.case_event_wait, self.case_free_realloc, self.case_python,
                               self.case_struct_arg, self.case_python_no_layout, self.case_passthrough_real))

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(E2E(sys.argv[1]).main())
