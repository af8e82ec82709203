#!/usr/bin/env python3
"""experiment.py - `hipvis experiment` end to end on the runtime double
(tests/runtime-double, TEST-ONLY) with the decode loop (tests/apps).

usage: experiment.py BUILD_DIR

For each fault model (HIPDOUBLE_FAULT=h1, h2a, h2b, h3, h4) the experiment
must name the model's hypothesis and a cheapest removing fix arm, and that
arm's environment must really remove the stale reads when the loop runs
with it alone, untraced. A clean loop gives "no symptom in N runs" with the
rule-of-three bound; a copy on a side stream without a wait is a program
race; a host race the job does not report (tests/hostcheck hc_cases, no
graphs) is caught by the hostcheck arm and removed by copy-sync, not by
stream-sync, while its synchronized twin shows nothing anywhere; where the
check protects nothing (hc_cases registered-only: registered memory on HIP)
the verdict is not no-symptom and no arm run with the check removes
anything, the why and the JSON say what it did not protect, and operations
it left unprotected beside protected ones are named; a hanging job is
killed after --timeout and counted; bad usage exits 2.
Prints one line per check and "experiment: N passed, M failed".
"""
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

STEPS = "24"
RUNS = "6"
FAIL = "stale_reads=[1-9]"

# fault, decode_loop args, the hypothesis the report must name
MODELS = [
    ("h1", ["--fork-join"], "H1"),
    ("h2a", [], "H2"),
    ("h2b", ["--host-rewrite"], "host-race"),
    ("h3", [], "H3"),
    ("h4", ["--graph-nodes", "160"], "H4"),
]


class Experiment(Suite):
    def __init__(self, build):
        super().__init__(build, "experiment")
        self.hipvis = os.path.join(self.build, "hipvis")
        self.loop = os.path.join(self.apps, "decode_loop")
        self.n = 0

    def env(self, fault=None, extra=None):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("HIPVIS_", "HIPDOUBLE_", "DEBUG_HIP_", "AMD_", "HSA_", "GPU_"))
               and k != "LD_PRELOAD"}
        env["LD_LIBRARY_PATH"] = self.double
        if fault:
            env["HIPDOUBLE_FAULT"] = fault
        env.update(extra or {})
        return env

    def experiment(self, fault, job, *opts, extra=None):
        self.n += 1
        out = os.path.join(self.tmp, f"x{self.n}")
        p = subprocess.run([self.hipvis, "experiment", *opts, "-o", out, "--", *job], env=self.env(fault, extra),
                           capture_output=True, text=True, timeout=300)
        rep = None
        if os.path.exists(os.path.join(out, "report.json")):
            with open(os.path.join(out, "report.json")) as f:
                rep = json.load(f)
        return p, rep, out

    def stale(self, fault, args, extra):
        """The loop's stale reads with `extra` alone; a guard needs the tracer
        loaded (it is what applies the pattern)."""
        extra = dict(extra)
        if any(k.startswith("HIPVIS_") for k in extra):
            self.n += 1
            extra.update(LD_PRELOAD=self.lib, HIPVIS_OUTPUT=os.path.join(self.tmp, f"s{self.n}.zst"),
                         HIPVIS_QUIET="1")
        p = subprocess.run([self.loop, "--steps", STEPS, *args], env=self.env(fault, extra), capture_output=True,
                           text=True, timeout=60)
        return int(re.search(r"stale_reads=(\d+)", p.stdout).group(1))

    def case_models(self):
        for fault, args, want in MODELS:
            p, rep, out = self.experiment(fault, [self.loop, "--steps", STEPS, *args], "-n", RUNS,
                                          "--fail-pattern", FAIL)
            if not self.check(p.returncode == 0 and rep, f"{fault}: hipvis experiment ran", p.stderr[-400:]):
                continue
            d = rep["decision"]
            arms = {a["name"]: a for a in rep["arms"]}
            base = arms["baseline"]
            self.check(base["symptom_runs"] == base["runs"] > 0 and "5 (libamdhip64.so.5" in base["runtime_versions"],
                       f"{fault}: the baseline shows the symptom in {base['symptom_runs']} of {base['runs']} runs, "
                       f"runtime recorded ({base['runtime_versions']})")
            self.check(want in d["verdict"].split("+"),
                       f"{fault}: verdict {d['verdict']} [{d['basis']}] names {want}", d["why"])
            fix = d["cheapest_fix"]
            ok = fix and arms[fix]["outcome"] == "removed" and arms[fix]["symptom_runs"] == 0
            if fix:
                env = dict(e.split("=", 1) for e in arms[fix]["env"])
                left = self.stale(fault, args, env)
                ok = ok and left == 0 and self.stale(fault, args, {}) > 0
            self.check(ok, f"{fault}: cheapest removing arm {fix} (cost x{d['cheapest_fix_cost_ratio']}) removes the "
                           f"stale reads when the loop runs with {arms[fix]['env'] if fix else '-'} alone")
            if fault == "h3":
                self.check(arms["release-event"]["outcome"] == "persists" and
                           arms["event-sync-nofence"]["outcome"] == "persists",
                           "h3: release-event and event-sync-nofence do not remove it (measured, not a fix)")
            if fault == "h2a":
                self.check(d["basis"] == "observed" and arms["probe"]["probe_mismatches"] > 0,
                           f"h2a: the probe arm recorded the stale buffer ({arms['probe']['probe_mismatches']} "
                           f"mismatching probes): observed")
            with open(os.path.join(out, "report.txt")) as f:
                txt = f.read()
            self.check(f"verdict   {d['verdict']}" in txt and (not fix or f"fix       {fix} removed" in txt),
                       f"{fault}: report.txt states the verdict and the fix")

    def case_clean(self):
        p, rep, _ = self.experiment(None, [self.loop, "--steps", STEPS], "-n", "8", "--arms", "baseline,stream-sync",
                                    "--fail-pattern", FAIL)
        d = rep["decision"] if rep else {}
        self.check(p.returncode == 0 and d.get("verdict") == "no-symptom" and d.get("no_symptom") and
                   abs(d.get("rate_upper_bound_rule_of_three", 0) - 3 / 8) < 1e-3 and
                   rep["arms"][0]["runs"] == 8 and "no symptom in 8 baseline runs" in p.stdout,
                   "clean loop: no symptom in 8 runs, rate < 3/8 (rule of three)", json.dumps(d)[:300])

    def case_race(self):
        p, rep, _ = self.experiment(None, [self.loop, "--steps", STEPS, "--side-stream-copy"], "-n", RUNS,
                                    "--fail-pattern", FAIL, "--arms", "guards,one-queue")
        d = rep["decision"] if rep else {}
        self.check(d.get("verdict") == "race" and d.get("cheapest_fix") == "copy-sync",
                   "--side-stream-copy (copy on another stream, no wait): a program race, copy-sync removes it",
                   json.dumps(d)[:300])

    def case_host_race(self):
        """hc_cases reads a pinned D2H destination / rewrites a pinned H2D
        source before its copy is known complete: the job exits 0 with the
        same output, so only the hostcheck arm sees it. 4 runs per arm: 0 of 3
        against 3 of 3 is not yet a difference at 95% (docs/experiment.md)."""
        cases = os.path.join(self.build, "tests", "hostcheck", "hc_cases")
        for case in ("d2h-read", "h2d-write"):
            for name in (case, case + "-sync"):
                p, rep, out = self.experiment(None, [cases, name], "-n", "4", "--arms",
                                              "baseline,hostcheck,copy-sync,stream-sync")
                if not self.check(p.returncode == 0 and rep, f"{name}: hipvis experiment ran", p.stderr[-400:]):
                    continue
                d = rep["decision"]
                arms = {a["name"]: a for a in rep["arms"]}
                counts = {n: (a["host_access_runs"], a["host_accesses"], a["runs"]) for n, a in arms.items()}
                checked = all("HIPVIS_HOSTCHECK=1" in arms[n]["env"] for n in ("hostcheck", "copy-sync", "stream-sync"))
                if name.endswith("-sync"):
                    self.check(d["verdict"] == "no-symptom" and checked and
                               all(c[1] == 0 and c[2] == 4 for c in counts.values()) and
                               not any(r["host_accesses"] for r in rep["runs"]),
                               f"{name}: no-symptom, no host access in any arm's 4 runs", f"{counts} {d['why']}")
                    continue
                hc, cs, ss = arms["hostcheck"], arms["copy-sync"], arms["stream-sync"]
                self.check(arms["baseline"]["symptom_runs"] == 0 and hc["host_access_runs"] == hc["runs"] == 4 and
                           hc["symptom_runs"] == 4 and checked,
                           f"{name}: the baseline shows nothing, the hostcheck arm catches the access in 4 of 4 runs; "
                           f"the waits run with the check", f"{counts}")
                self.check(d["verdict"] == "host-race" and
                           "copy-sync removes the host accesses the check caught" in d["why"] and
                           "stream-sync does not" in d["why"],
                           f"{name}: verdict {d['verdict']} [{d['basis']}]: copy-sync removes the accesses, "
                           f"stream-sync does not", d["why"])
                self.check(cs["outcome"] == "removed" and cs["host_accesses"] == 0 and cs["runs"] == 4 and
                           cs["judged_against"] == "hostcheck" and ss["outcome"] == "persists" and
                           ss["host_accesses"] > 0 and d["cheapest_fix"] == "copy-sync" and
                           d["removed_by"] == ["copy-sync"],
                           f"{name}: copy-sync REMOVED (0 of {cs['runs']} against {hc['symptom_runs']} of "
                           f"{hc['runs']}), stream-sync persists; cheapest fix copy-sync", f"{counts} {d}")
                with open(os.path.join(out, "report.txt")) as f:
                    txt = f.read()
                self.check("verdict   host-race" in txt and "fix       copy-sync removed" in txt and
                           "judged against the hostcheck arm" in txt,
                           f"{name}: report.txt states the verdict, the fix and the reference", txt[-600:])

    def case_unchecked(self):
        """The check protects nothing: a run with it shows no host access but
        cannot show that there was none."""
        cases = os.path.join(self.build, "tests", "hostcheck", "hc_cases")
        p, rep, out = self.experiment(None, [cases, "registered-only"], "-n", "4", "--arms",
                                      "baseline,hostcheck,copy-sync")
        if self.check(p.returncode == 0 and rep, "registered-only: hipvis experiment ran", p.stderr[-400:]):
            d = rep["decision"]
            arms = {a["name"]: a for a in rep["arms"]}
            self.check(d["verdict"] == "undetermined" and not d["no_symptom"] and d["basis"] == "none" and
                       "rate_upper_bound_rule_of_three" not in d and arms["baseline"]["symptom_runs"] == 0,
                       "registered-only: nothing seen anywhere, yet not no-symptom (the check did not look)",
                       json.dumps(d)[:400])
            self.check("did not look in 8 runs, so a host race is not excluded" in d["why"] and
                       "hostcheck: the host-access check protected 0 of 4 operations in 4 runs (4 other: HIP "
                       "registered memory, a 3D copy, or a range mprotect refused): it did not look in 4 of 4 runs" in d["why"] and
                       "copy-sync: the host-access check protected 0 of 4 operations" in d["why"],
                       "registered-only: the why names the unprotected operations of each arm run with the check",
                       d["why"])
            want = {"traces": 4, "traces_counted": 4, "operations": 4, "protected_ops": 0, "unprotected_ops": 4,
                    "skipped_managed": 0, "skipped_full": 0, "skipped_other": 4, "lost": 0, "blind_runs": 4,
                    "partial_runs": 0}
            got = {n: {k: arms[n]["hostcheck"][k] for k in want} for n in ("hostcheck", "copy-sync")}
            runs = [r["hostcheck"] for r in rep["runs"] if r["arm"] != "baseline"]
            self.check(all(g == want for g in got.values()) and arms["baseline"]["hostcheck"] is None and
                       arms["copy-sync"]["outcome"] == "undecided" and arms["copy-sync"]["judged_runs"] == 4 and
                       d["cheapest_fix"] is None and d["removed_by"] == [] and len(runs) == 8 and
                       all(r["looked"] is False and r["not_looked"] == "none protected" and r["protected_ops"] == 0 and
                           r["skipped_other"] == 1 for r in runs),
                       "registered-only: the JSON carries each arm's and run's counts (0 protected, 4 other, "
                       "4 blind runs); nothing removed", f"{got} {runs[:1]}")
            with open(os.path.join(out, "report.txt")) as f:
                txt = f.read()
            line = ("host-access check: protected 0 of 4 operations (not: 0 managed, 0 table full, 4 other, 0 graph), "
                    "0 accesses lost; did not look in 4 of 4 runs")
            self.check("verdict   undetermined [none]" in txt and txt.count(line) == 2 and
                       "registered memory on ROCm (hipHostRegister) is never protected" in txt,
                       "registered-only: report.txt gives the counts per arm and the analyzer's coverage words",
                       txt[-1500:])
        # One arm run with the check that protects nothing beside a hostcheck
        # arm that catches the access: judged against it, it is not REMOVED.
        job = ["sh", "-c", f"exec {cases} ${{HC_CASE:-d2h-read}}"]
        p, rep, _ = self.experiment(None, job, "-n", "4", "--arms",
                                    "baseline,hostcheck,copy-sync,blind:HIPVIS_HOSTCHECK=1+HC_CASE=registered-only")
        if self.check(p.returncode == 0 and rep, "blind arm: hipvis experiment ran", p.stderr[-400:]):
            d = rep["decision"]
            arms = {a["name"]: a for a in rep["arms"]}
            bl, cs = arms["blind"], arms["copy-sync"]
            self.check(d["verdict"] == "host-race" and bl["judged_against"] == "hostcheck" and
                       bl["symptom_runs"] == 0 and bl["runs"] == 4 and bl["judged_runs"] == 0 and
                       bl["outcome"] == "undecided" and bl["hostcheck"]["blind_runs"] == 4 and
                       cs["outcome"] == "removed" and cs["judged_runs"] == 4 and d["removed_by"] == ["copy-sync"] and
                       "blind: the host-access check protected 0 of 4 operations" in d["why"],
                       "an arm whose check protected nothing is not REMOVED against the hostcheck arm (0 of 4 runs "
                       "judged); copy-sync, which looked, is", f"{bl} {d['why']}")
        # Unprotected operations beside protected ones: named, the result
        # holds for the protected ones.
        p, rep, _ = self.experiment(None, [cases, "registered"], "-n", "4", "--arms", "baseline,hostcheck")
        if self.check(p.returncode == 0 and rep, "registered: hipvis experiment ran", p.stderr[-400:]):
            d = rep["decision"]
            hc = {a["name"]: a for a in rep["arms"]}["hostcheck"]["hostcheck"]
            self.check(d["verdict"] == "no-symptom" and hc["protected_ops"] == 4 and hc["unprotected_ops"] == 4 and
                       hc["partial_runs"] == 4 and hc["blind_runs"] == 0 and
                       "hostcheck: the host-access check protected 4 of 8 operations in 4 runs (4 other" in d["why"] and
                       "the result holds only for those it protected" in d["why"],
                       "registered (one protected, one not): no-symptom, the why names the unprotected operations",
                       f"{hc} {d['why']}")

    def case_custom_arm(self):
        p, rep, _ = self.experiment("h2a", [self.loop, "--steps", STEPS], "-n", "4", "--fail-pattern", FAIL,
                                    "--arms", "stream-sync,mine:HSA_ENABLE_SDMA=0+AMD_LOG_LEVEL=0")
        arms = {a["name"]: a for a in rep["arms"]} if rep else {}
        self.check(list(arms) == ["baseline", "stream-sync", "mine"] and arms["mine"]["outcome"] == "removed" and
                   arms["mine"]["env"] == ["HSA_ENABLE_SDMA=0", "AMD_LOG_LEVEL=0"],
                   "a custom arm NAME:VAR=VAL+VAR=VAL runs with its environment", json.dumps(rep)[:300])

    def case_hang(self):
        p, rep, _ = self.experiment(None, ["sleep", "30"], "-n", "1", "--arms", "baseline", "--timeout", "1")
        a = rep["arms"][0] if rep else {}
        self.check(p.returncode == 0 and a.get("hangs") == 1 and a.get("symptom_runs") == 1 and
                   rep["runs"][0]["timed_out"] and rep["runs"][0]["wall_s"] < 10,
                   "a job that hangs is killed after --timeout and counted as the symptom", json.dumps(a)[:300])
        p, rep, _ = self.experiment(None, ["sh", "-c", "echo boom; exit 3"], "-n", "2", "--arms", "baseline")
        a = rep["arms"][0] if rep else {}
        self.check(a.get("failures") == 2 and rep["runs"][0]["exit"] == 3,
                   "a job that exits non-zero shows the symptom (exit status recorded)")

    def case_env(self):
        # The user's shell asks for one launch in 16; the runs must not inherit it.
        p, rep, out = self.experiment(None, ["sh", "-c", "echo every=$HIPVIS_LAUNCH_EVERY"], "-n", "1",
                                      "--arms", "baseline", extra={"HIPVIS_LAUNCH_EVERY": "16"})
        text = ""
        logs = glob.glob(os.path.join(out, "**", "job.log"), recursive=True)
        for name in logs:
            with open(name) as f:
                text += f.read()
        self.check(p.returncode == 0 and "every=1\n" in text,
                   "every run counts every eager launch (HIPVIS_LAUNCH_EVERY=1 in the job's environment, "
                   "over the user's 16)",
                   f"{logs}: {text.strip()[:200]}")

    def case_usage(self):
        for args, want in ((["--arms", "bogus"], "unknown arm 'bogus'"),
                           (["--fail-pattern", "("], "--fail-pattern"),
                           (["-n", "0"], "bad value"),
                           ([], None)):
            argv = [self.hipvis, "experiment", *args, "-o", os.path.join(self.tmp, "u"), "--", "true"]
            if want is None:
                argv = [self.hipvis, "experiment", "--", "true"]
                want = "-o DIR is required"
            p = subprocess.run(argv, env=self.env(), capture_output=True, text=True, timeout=60)
            self.check(p.returncode == 2 and want in p.stderr, f"bad usage {args or ['(no -o)']}: exit 2, says "
                                                               f"'{want}'", p.stderr.strip()[-200:])
        p = subprocess.run([self.hipvis, "experiment", "--help"], capture_output=True, text=True)
        self.check(p.returncode == 0 and "DEBUG_HIP_GRAPH_CLASSIC_PATH=1" in p.stdout and "CUDA_LAUNCH_BLOCKING" in p.stdout,
                   "--help lists the arms with their HIP and CUDA knobs")

    def main(self):
        return self.run_cases((self.case_models, self.case_clean, self.case_race, self.case_host_race,
                               self.case_unchecked, self.case_custom_arm, self.case_hang, self.case_env,
                               self.case_usage))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(Experiment(sys.argv[1]).main())
