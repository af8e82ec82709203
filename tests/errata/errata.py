#!/usr/bin/env python3
"""errata.py - the runtime errata (docs/errata.md) end to end on the runtime
double (tests/runtime-double, TEST-ONLY) with tests/errata/errata_graph.

usage: errata.py BUILD_DIR

For each erratum with a fault model of the double:
  - the decode-style loop shows stale reads only with the fault model on;
  - traced, hipvis-analyze reports a runtime-erratum finding naming it (a
    warning where the threads say the runtime and knobs have it) and the
    nodes that match;
  - hipvis-analyze --diagnose ranks it first;
  - hipvis experiment names the erratum and picks its workaround arm, and
    that arm's environment alone removes the stale reads.
Negative: the same graph shape on a release the threads call unaffected is
info only; a graph without the trigger gets no runtime-erratum finding.
A chosen ROCm release is given to the double the way a real install gives
it to the tracer: the library in DIR/lib and the release in
DIR/.info/version. Prints one line per check and "errata: N passed, M failed".
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

STEPS = "8"
FAIL = "stale_reads=[1-9]"
CLASSIC = {"DEBUG_HIP_GRAPH_CLASSIC_PATH": "1"}

# erratum id, shape args, fault model, knobs it needs, severity expected on
# the release used, the workaround arm, the first matching node, its "from"
ERRATA = [
    ("rocm-systems#11501", ["--shape", "fanout"], "rs11501", CLASSIC, "warning", "one-queue", 6, 0),
    ("rocm-systems#11357", ["--shape", "disabled"], "rs11357", CLASSIC, "warning", "one-queue", 3, 1),
    ("rocm-systems#11403", ["--shape", "sdma"], "rs11403", {}, "info", "no-sdma", 1, 0),
]


class Errata(Suite):
    def __init__(self, build):
        super().__init__(build, "errata")
        self.prog = os.path.join(self.build, "tests", "errata", "errata_graph")
        self.hipvis = os.path.join(self.build, "hipvis")
        self.n = 0
        self.trees = {}

    def tree(self, release):
        """A directory laid out like a ROCm install of `release` holding the
        double: the tracer reads the release from DIR/.info/version."""
        if release not in self.trees:
            root = os.path.join(self.tmp, f"rocm-{release}")
            os.makedirs(os.path.join(root, "lib"))
            os.makedirs(os.path.join(root, ".info"))
            shutil.copy(os.path.join(self.double, "libamdhip64.so.5"), os.path.join(root, "lib"))
            with open(os.path.join(root, ".info", "version"), "w") as f:
                f.write(release + "\n")
            self.trees[release] = os.path.join(root, "lib")
        return self.trees[release]

    def env(self, fault=None, extra=None, release="7.13.0"):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("HIPVIS_", "HIPDOUBLE_", "DEBUG_HIP_", "DEBUG_CLR_", "AMD_", "HSA_", "GPU_"))
               and k != "LD_PRELOAD"}
        env["LD_LIBRARY_PATH"] = self.tree(release)
        if fault:
            env["HIPDOUBLE_FAULT"] = fault
        env.update(extra or {})
        return env

    def stale(self, args, fault, extra, release="7.13.0"):
        p = subprocess.run([self.prog, "--steps", STEPS, *args], env=self.env(fault, extra, release),
                           capture_output=True, text=True, timeout=60)
        m = re.search(r"stale_reads=(\d+)", p.stdout)
        if p.returncode != 0 or not m:
            raise RuntimeError(f"errata_graph {' '.join(args)}: rc {p.returncode}: {p.stderr[-300:]}")
        return int(m.group(1))

    def trace(self, args, fault, extra, release="7.13.0"):
        self.n += 1
        path = os.path.join(self.tmp, f"t{self.n}.zst")
        env = self.env(fault, extra, release)
        env.update(LD_PRELOAD=self.lib, HIPVIS_OUTPUT=path, HIPVIS_QUIET="1")
        p = subprocess.run([self.prog, "--steps", STEPS, *args], env=env, capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"traced errata_graph {' '.join(args)}: rc {p.returncode}: {p.stderr[-300:]}")
        return path

    def report(self, path, *opts):
        # The program's kernels carry no code object, so its replays are
        # unchecked (exit 3): that is the verdict's business, not this rule's.
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", "--no-fail-on-unchecked", *opts, path],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {path}: rc {p.returncode}: {p.stderr[-300:]}")
        return json.loads(p.stdout)

    @staticmethod
    def errata_found(rep):
        return [f for f in rep["findings"] if f["rule"] == "runtime-erratum"]

    def case_table(self):
        p = subprocess.run([self.analyze, "--errata"], capture_output=True, text=True, timeout=30)
        with open("docs/errata.md") as f:
            doc = f.read()
        for eid, *_ in ERRATA:
            self.check(p.returncode == 0 and eid in p.stdout and f"## {eid}:" in doc,
                       f"hipvis-analyze --errata and docs/errata.md list {eid}")

    def case_symptom(self):
        for eid, args, fault, knobs, *_ in ERRATA:
            off, on = self.stale(args, None, knobs), self.stale(args, fault, knobs)
            self.check(off == 0 and on > 0, f"{eid}: stale reads only with HIPDOUBLE_FAULT={fault} "
                                            f"({off} without, {on} with)")

    def case_finding(self):
        for eid, args, fault, knobs, sev, arm, node, frm in ERRATA:
            rep = self.report(self.trace(args, fault, knobs))
            got = [f for f in self.errata_found(rep) if f.get("erratum") == eid]
            f = got[0] if got else {}
            self.check(len(self.errata_found(rep)) == 1 and f.get("severity") == sev and
                       f.get("count") == int(STEPS) and f.get("arm") == arm and
                       f["later"]["node_index"] == node and f["earlier"]["node_index"] == frm and
                       f["note"].startswith(eid) and "ROCm 7.13.0" in rep["traces"][0]["runtime"],
                       f"{eid}: one runtime-erratum group, {sev}, x{STEPS}, node {node} after node {frm}, arm {arm}",
                       json.dumps(got)[:400])

    def case_diagnose(self):
        for eid, args, fault, knobs, sev, *_ in ERRATA:
            rep = self.report(self.trace(args, fault, knobs), "--diagnose")
            ranked = rep.get("errata", [])
            self.check(ranked and ranked[0]["erratum"] == eid and ranked[0]["rank"] == 1 and
                       ranked[0]["severity"] == sev,
                       f"{eid}: --diagnose ranks it first", json.dumps(ranked)[:300])
        # Two traces: the one whose runtime has the bug ranks before the one that only has the trigger.
        warn = self.trace(["--shape", "fanout"], "rs11501", CLASSIC)
        info = self.trace(["--shape", "sdma"], "rs11403", {})
        p = subprocess.run([self.analyze, "--diagnose", "--fail-on", "none", info, warn], capture_output=True,
                           text=True, timeout=60)
        m = re.findall(r"^== erratum (\d+)/2  (\S+)  \[(\w+)", p.stdout, re.M)
        self.check(m == [("1", "rocm-systems#11501", "warning"), ("2", "rocm-systems#11403", "info")],
                   "--diagnose ranks the erratum the traced runtime has before one it is not known to have", str(m))

    def case_experiment(self):
        for eid, args, fault, knobs, _, arm, *_ in ERRATA:
            self.n += 1
            out = os.path.join(self.tmp, f"x{self.n}")
            p = subprocess.run([self.hipvis, "experiment", "-n", "4", "--fail-pattern", FAIL, "--arms",
                                f"stream-sync,{arm}", "-o", out, "--", self.prog, "--steps", STEPS, *args],
                               env=self.env(fault, knobs), capture_output=True, text=True, timeout=300)
            rep = None
            if os.path.exists(os.path.join(out, "report.json")):
                with open(os.path.join(out, "report.json")) as f:
                    rep = json.load(f)
            if not self.check(p.returncode == 0 and rep, f"{eid}: hipvis experiment ran", p.stderr[-300:]):
                continue
            d = rep["decision"]
            arms = {a["name"]: a for a in rep["arms"]}
            base = rep["runs"][0]
            self.check(d["verdict"] == "erratum" and d["erratum"] == eid and d["erratum_arm"] == arm and
                       arms[arm]["outcome"] == "removed" and eid in base["errata"] and
                       f"erratum   {eid}" in p.stdout,
                       f"{eid}: the experiment names it and picks its workaround arm {arm}", json.dumps(d)[:400])
            env = dict(e.split("=", 1) for e in arms[arm]["env"])
            self.check(self.stale(args, fault, {**knobs, **env}) == 0 and self.stale(args, fault, knobs) > 0,
                       f"{eid}: {arms[arm]['env']} alone removes the stale reads")

    def case_unaffected(self):
        # The same shapes on a release / with knobs the threads say do not have the bug: info only, and the
        # double (which follows the same executor choice) shows no stale read.
        for eid, args, fault, knobs, release in (
                ("rocm-systems#11501", ["--shape", "fanout"], "rs11501", {}, "7.13.0"),
                ("rocm-systems#11357", ["--shape", "disabled"], "rs11357", {}, "7.13.0"),
                ("rocm-systems#11403", ["--shape", "sdma"], "rs11403", CLASSIC, "7.13.0")):
            rep = self.report(self.trace(args, fault, knobs, release))
            got = self.errata_found(rep)
            self.check(len(got) == 1 and got[0]["erratum"] == eid and got[0]["severity"] == "info" and
                       got[0]["runtime_verdict"] == "unaffected" and self.stale(args, fault, knobs, release) == 0,
                       f"{eid}: the same graph on ROCm {release} {knobs or 'at default flags'}: info only "
                       f"(\"would hit\"), no stale read", json.dumps(got)[:300])
        # ROCm 7.2 at default flags has rocm-systems#11501 (its segment scheduler falls back to the classic path).
        rep = self.report(self.trace(["--shape", "fanout"], None, {}, "7.2.0"))
        got = self.errata_found(rep)
        self.check(len(got) == 1 and got[0]["severity"] == "warning" and got[0]["runtime_verdict"] == "affected",
                   "rocm-systems#11501: the fan-out traced on ROCm 7.2.0 at default flags is a warning",
                   json.dumps(got)[:300])

    def case_no_trigger(self):
        for what, args, fault, knobs in (
                ("a fan-out within the graph-queue count", ["--shape", "fanout", "--children", "4"], "rs11501",
                 CLASSIC),
                ("one graph queue", ["--shape", "fanout"], "rs11501",
                 {**CLASSIC, "DEBUG_HIP_FORCE_GRAPH_QUEUES": "1"}),
                ("the node kept enabled", ["--shape", "disabled", "--keep-enabled"], "rs11357", CLASSIC),
                ("a blit-sized copy node", ["--shape", "sdma", "--bytes", "8192"], "rs11403", {}),
                ("copies without SDMA", ["--shape", "sdma"], "rs11403", {"HSA_ENABLE_SDMA": "0"})):
            rep = self.report(self.trace(args, fault, knobs))
            self.check(not self.errata_found(rep) and self.stale(args, fault, knobs) == 0,
                       f"no runtime-erratum finding and no stale read for {what}")

    def case_records(self):
        # What the triggers need is in the trace: every runtime knob, the explicit memcpy-node adder, what the
        # program asked of a node's enabled state.
        path = self.trace(["--shape", "disabled"], None, {**CLASSIC, "AMD_LOG_LEVEL": "0", "GPU_MAX_HW_QUEUES": "2"})
        p = subprocess.run([self.dump, "--json", path], capture_output=True, text=True, timeout=60)
        recs = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]
        knobs = recs[0].get("knobs", "")
        self.check(knobs.startswith("DEBUG_HIP_GRAPH_CLASSIC_PATH=1;") and "AMD_LOG_LEVEL=0;" in knobs and
                   "GPU_MAX_HW_QUEUES=2;" in knobs, "the header records every DEBUG_HIP_/AMD_/GPU_ knob, the "
                   "analyzer's first", knobs)
        calls = {r.get("api"): r for r in recs if r.get("type") == "call"}
        se, ge = calls.get("hipGraphNodeSetEnabled", {}), calls.get("hipGraphNodeGetEnabled", {})
        self.check(se and ge and se.get("node") == ge.get("node") and se.get("node") != "0x0",
                   "hipGraphNodeSetEnabled and hipGraphNodeGetEnabled are traced with the node", json.dumps([se, ge]))
        path = self.trace(["--shape", "sdma"], None, {})
        p = subprocess.run([self.dump, "--json", path], capture_output=True, text=True, timeout=60)
        recs = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]
        add = [r for r in recs if r.get("api") == "hipGraphAddMemcpyNode1D"]
        nodes = [r for r in recs if r.get("type") == "graph_node" and r.get("node_type") == "memcpy"]
        self.check(len(add) == 1 and nodes and add[0].get("node") == nodes[0].get("node"),
                   "hipGraphAddMemcpyNode1D is traced with the node the walk at instantiate then describes",
                   json.dumps(add)[:300])


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    s = Errata(argv[1])
    return s.run_cases([s.case_table, s.case_symptom, s.case_finding, s.case_diagnose, s.case_experiment,
                        s.case_unaffected, s.case_no_trigger, s.case_records])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
