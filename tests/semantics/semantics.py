#!/usr/bin/env python3
"""semantics.py - docs/semantics.md end to end: each rule's positive case
(the hazard must be found) and negative case (the ordered or
non-overlapping twin must be silent), run by sem_app on the runtime double
under LD_PRELOAD=libhipvis.so, checked with hipvis-dump --json and
hipvis-analyze --json.

usage: semantics.py BUILD_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "observe"))
from hvsuite import Suite  # noqa: E402
from derive_check import mismatches  # noqa: E402


class Semantics(Suite):
    def __init__(self, build):
        super().__init__(build, "semantics")
        self.app = os.path.join(self.build, "tests", "semantics", "sem_app")
        self.co = os.path.join(self.build, "tests", "kernels", "k950.co")

    def trace(self, case, variant):
        """(call records, all records, analyzer report) of one traced run."""
        out = os.path.join(self.tmp, f"{case}-{variant}.zst")
        env = dict(os.environ, LD_LIBRARY_PATH=self.double, LD_PRELOAD=self.lib, HIPVIS_OUTPUT=out,
                   HIPVIS_QUIET="1",
                   SEM_VSYM_SHIM=os.path.join(self.build, "tests", "semantics", "libvsym_shim.so"),
                   SEM_R6_SHIM=os.path.join(self.build, "tests", "semantics", "r6", "libamdhip64.so.7"))
        for k in ("HIPDOUBLE_FAULT", "HIPDOUBLE_EXEC"):
            env.pop(k, None)
        p = subprocess.run([self.app, self.co, case, variant], env=env, capture_output=True, text=True,
                           timeout=60)
        self.stdout = p.stdout
        if p.returncode != 0 or "sem: done" not in p.stdout:
            raise RuntimeError(f"sem_app {case} {variant}: rc={p.returncode} {p.stdout.strip()} {p.stderr.strip()}")
        d = subprocess.run([self.dump, "--json", out], capture_output=True, text=True)
        if d.returncode != 0:
            raise RuntimeError(f"hipvis-dump {out}: {d.stderr.strip()}")
        recs = [json.loads(x) for x in d.stdout.splitlines() if x.strip()]
        # What the library derived at each call, derived again from the records alone (issue 12).
        bad = mismatches(recs)
        self.check(not bad, f"{case} {variant}: epochs, capture state and memory kinds derivable from the records",
                   "; ".join(f"seq {q} {a}: {w}" for q, a, w in bad[:3]))
        a = subprocess.run([self.analyze, "--json", "--fail-on", "none", out], capture_output=True, text=True)
        if a.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {out}: {a.stderr.strip()}")
        return [r for r in recs if r.get("type") == "call"], recs, json.loads(a.stdout)

    @staticmethod
    def rules(report):
        return sorted({g["rule"] for g in report["findings"]})

    def pair(self, case, rule, extra=None):
        """pos must report `rule`, neg nothing; `extra(variant, calls, recs,
        report)` adds case-specific checks."""
        for variant in ("pos", "neg"):
            calls, recs, report = self.trace(case, variant)
            got = self.rules(report)
            want = [rule] if variant == "pos" else []
            self.check(got == want, f"{case} {variant}: findings {want}", f"got {got}")
            if extra:
                extra(variant, calls, recs, report)

    # ---- item 3: kernel nodes captured from the `extra` form -------------
    def extra_capture(self):
        def kargs(variant, calls, recs, report):
            nodes = [r for r in recs if r.get("type") == "graph_node" and r.get("node_type", r.get("kind")) in
                     ("kernel", 1)]
            self.check(nodes and all(n.get("nptr", 0) == 2 for n in nodes),
                       f"extra_capture {variant}: the kernel node has its 2 pointer arguments",
                       str([n.get("nptr") for n in nodes]))
            sp = [c for c in calls if c["api"] == "hipGraphExecKernelNodeSetParams"]
            ks = [r for r in recs if r.get("type") == "kargs" and sp and r["seq"] == sp[0]["seq"]]
            self.check(len(ks) == 1 and len(ks[0]["args"]) == 2,
                       f"extra_capture {variant}: SetParams(extra) records its 2 pointer arguments", str(ks))
            if variant == "pos":
                groups = [g for g in report["findings"] if g["rule"] == "unordered-write"]
                self.check(len(groups) == 2, "extra_capture pos: both replays race their side-stream copy",
                           str(len(groups)))
        self.pair("extra_capture", "unordered-write", kargs)

    # ---- item 7: dlvsym ----------------------------------------------------
    def dlvsym(self):
        def traced(variant, calls, recs, report):
            self.check(any(c["api"] == "hipMemsetAsync" for c in calls),
                       f"dlvsym {variant}: the call through dlvsym's pointer is traced")
            self.check("called 1 time(s)" in self.stdout, f"dlvsym {variant}: the versioned function itself ran",
                       self.stdout.strip())
        self.pair("dlvsym", "unordered-write", traced)

    # ---- item 5: exact 2D rows --------------------------------------------
    def copy2d(self):
        self.pair("copy2d", "same-epoch-write")

    def memset2d(self):
        self.pair("memset2d", "same-epoch-write")

    # ---- families (docs/semantics.md) ------------------------------------
    def write_wait_value(self):
        self.pair("write_wait_value", "unordered-write")

    def batch_memop(self):
        def recs(variant, calls, recs, report):
            b = [c for c in calls if c["api"] == "hipStreamBatchMemOp"]
            self.check(len(b) == 2 and {c.get("memop") for c in b} == {1, 2},
                       f"batch_memop {variant}: one record per entry (a write and a wait)", str(b))
        self.pair("batch_memop", "unordered-write", recs)

    def host_func(self):
        def recs(variant, calls, recs, report):
            h = [c for c in calls if c["api"] == "hipLaunchHostFunc"]
            self.check(len(h) == 1 and h[0]["stream"] != "0x0", f"host_func {variant}: recorded on its stream",
                       str(h))
        self.pair("host_func", "same-epoch-write", recs)

    def symbol(self):
        def recs(variant, calls, recs, report):
            c = [c for c in calls if c["api"] == "hipMemcpyToSymbolAsync"]
            self.check(len(c) == 1 and c[0]["bytes"] == 64, f"symbol {variant}: the copy writes symbol+64, 64 B",
                       str(c))
        self.pair("symbol", "unordered-write", recs)

    def memset3d(self):
        self.pair("memset3d", "same-epoch-write")

    def copy3d(self):
        self.pair("copy3d", "same-epoch-write")

    def coop(self):
        self.pair("coop", "unordered-write")

    def exec_memcpy(self):
        self.pair("exec_memcpy", "unordered-write")

    def ctx_sync(self):
        self.pair("ctx_sync", "same-epoch-write")

    def batch(self):
        def recs(variant, calls, recs, report):
            b = [c for c in calls if c["api"] == "hipMemcpyBatchAsync"]
            self.check(len(b) == 2 and [c["bytes"] for c in b] == [64, 256],
                       f"batch {variant}: one copy record per pair, each its own size", str(b))
        self.pair("batch", "same-epoch-write", recs)

    def batch_side(self):
        self.pair("batch_side", "unordered-write")

    def batch3d(self):
        def recs(variant, calls, recs, report):
            b = [c for c in calls if c["api"] == "hipMemcpy3DBatchAsync"]
            self.check(len(b) == 1 and b[0]["bytes"] == 64 * 12, f"batch3d {variant}: 12 rows of 64 B", str(b))
        self.pair("batch3d", "same-epoch-write", recs)

    def drv3d(self, case="drv3d"):
        def recs(variant, calls, recs, report):
            b = [c for c in calls if c["api"] == "hipDrvMemcpy3DAsync"]
            self.check(len(b) == 1 and b[0]["bytes"] == 64 * 12 and b[0]["dpitch"] == 1024,
                       f"{case} {variant}: 12 rows of 64 B at pitch 1024", str(b))
        self.pair(case, "same-epoch-write", recs)

    def drv3d_r6(self):
        self.drv3d("drv3d_r6")

    def node_enabled(self):
        def recs(variant, calls, recs, report):
            nodes = [r for r in recs if r.get("type") == "graph_node" and r.get("graph") in ("0x0", 0)]
            want = ["empty", "memcpy"] if variant == "pos" else ["empty"]
            self.check([n.get("node_type") for n in nodes] == want,
                       f"node_enabled {variant}: the node recorded as {want}", str(nodes))
        self.pair("node_enabled", "unordered-write", recs)

    def exec_memcpy3d(self):
        self.pair("exec_memcpy3d", "unordered-write")

    def param2d(self):
        self.pair("param2d", "same-epoch-write")

    def launch_ex(self):
        def recs(variant, calls, recs, report):
            self.check(any(c["api"] == "hipDrvLaunchKernelEx" for c in calls),
                       f"launch_ex {variant}: the launch through dlsym's pointer is traced")
        self.pair("launch_ex", "unordered-write", recs)

    def exec_from_symbol(self):
        def recs(variant, calls, recs, report):
            c = [r for r in calls if r["api"] == "hipGraphExecMemcpyNodeSetParamsFromSymbol"]
            n = [r for r in recs if r.get("type") == "graph_node" and c and r["seq"] == c[0]["seq"]]
            w = [r["dst"] for r in calls if r["api"] == "hipMemsetAsync"]
            self.check(len(n) == 1 and n[0]["bytes"] == 256 and [n[0]["src"]] == w,
                       f"exec_from_symbol {variant}: the node reads symbol+256 (where the side write lands), 256 B",
                       str((n, w)))
        self.pair("exec_from_symbol", "unordered-write", recs)

    def drv_exec_memcpy(self):
        def recs(variant, calls, recs, report):
            c = [r for r in calls if r["api"] == "hipDrvGraphExecMemcpyNodeSetParams"]
            n = [r for r in recs if r.get("type") == "graph_node" and c and r["seq"] == c[0]["seq"]]
            w = [r["dst"] for r in calls if r["api"] == "hipMemsetAsync"]
            self.check(len(n) == 1 and n[0]["bytes"] == 256 and [n[0]["src"]] == w,
                       f"drv_exec_memcpy {variant}: the node now reads the side write's 256 B", str((n, w)))
        self.pair("drv_exec_memcpy", "unordered-write", recs)


FAMILIES = ("write_wait_value", "batch_memop", "host_func", "symbol", "memset3d", "copy3d", "coop", "exec_memcpy",
            "ctx_sync", "batch", "batch_side", "batch3d", "drv3d",
            "node_enabled", "exec_memcpy3d", "param2d", "launch_ex", "drv3d_r6",
            "exec_from_symbol", "drv_exec_memcpy")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    s = Semantics(sys.argv[1])
    return s.run_cases([s.extra_capture, s.dlvsym, s.copy2d, s.memset2d] + [getattr(s, f) for f in FAMILIES])


if __name__ == "__main__":
    sys.exit(main())
