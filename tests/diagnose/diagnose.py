#!/usr/bin/env python3
"""diagnose.py - issue 7 end to end: the decode loop (tests/apps, TEST-ONLY)
on the HIP runtime double (tests/runtime-double) under LD_PRELOAD=libhipvis.so,
for each fault model and guard mode, read back with hipvis-analyze --diagnose
and hipvis-dump --json.

usage: diagnose.py BUILD_DIR

Runs the unit and file tests (test_diagnose) first. Prints one line per check
and closes with "diagnose: N passed, M failed"; exits 1 on any failure.

The verdicts are computed by hipvis-analyze from the trace alone: the fault
models change only what the double executes, never the API calls, so a run
without a fault model and a run with one can produce the same trace - which
this test checks too (the h3 trace and the fault-free trace diagnose alike).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

CONVERT = "_convert_req_index_to_global_index_kernel"
STEPS = "48"

# (fault, decode_loop args, extra env, expected verdict, basis, leading open hypothesis)
# A verdict is "observed" only with the symptom recorded (a probe snapshot
# that differs where the hypothesis predicts); otherwise "undetermined", with
# the hypothesis the predictions favour first among the open ones.
U = "undetermined"
MODELS = [
    ("h1", ["--fork-join"], {}, U, "none", "H1"),
    ("h2a", [], {"HIPVIS_PROBE": "auto"}, "H2", "observed", "H2"),
    ("h2b", ["--host-rewrite"], {}, U, "none", "host-race"),
    ("h3", [], {}, U, "none", "H3"),
]

# The same races with the double's worker threads (HIPDOUBLE_EXEC=thread:
# h2b delays the pinned-source read so the host rewrite wins the race).
THREADED = [("h2b", ["--host-rewrite"], {"HIPDOUBLE_EXEC": "thread", "HIPVIS_PROBE": "auto"}, "host-race",
             "observed", "host-race")]

# Guard modes that must remove every stale read, per fault model, and those
# that cannot (and why, for the report):
#  - h1: any host wait before the launch orders the free-running root after
#    the copy; release-event adds no wait for the parallel queue.
#  - h2a: the older write lands after the current copy whatever the host
#    waits for: nothing at the launch or the copy can fix it.
#  - h2b: the race is between the host and the copy; copy-sync closes it for
#    every reader; launch-point modes only for reads after the launch (the
#    eager prefill kernel still reads the rewritten source).
#  - h3: only a host wait with a system-scope fence invalidates the double's
#    scalar cache: event-sync-nofence and release-event do not.
MODES = ["stream-sync", "event-sync", "event-sync-nofence", "release-event", "copy-sync"]
FIXES = {
    "h1": {"stream-sync", "event-sync", "event-sync-nofence", "copy-sync"},
    "h2a": set(),
    "h2b": {"copy-sync"},
    "h3": {"stream-sync", "event-sync", "copy-sync"},
}
HOST_WAIT = {"stream-sync", "event-sync", "event-sync-nofence"}

# Fault model -> (decode_loop args it needs, the hypothesis it is).
MATRIX_MODELS = {
    "h1": (["--fork-join"], "H1"),
    "h2a": ([], "H2"),
    "h2b": (["--host-rewrite"], "host-race"),
    "h3": ([], "H3"),
    "h4": (["--graph-nodes", "160"], "H4"),
}
EVIDENCE = [
    ("no evidence options", {"HIPVIS_PAYLOAD_BYTES": "0", "HIPVIS_REWRITE_CHECK_KB": "0"}),
    ("defaults", {}),
    ("defaults + HIPVIS_PROBE=auto", {"HIPVIS_PROBE": "auto"}),
]


class Diagnose(Suite):
    def __init__(self, build):
        super().__init__(build, "diagnose")
        self.nollvm = os.path.join(self.build, "tests", "diagnose", "hipvis-analyze-nollvm")
        self.hsaco = os.path.join(self.apps, "decode_kernels-gfx950.hsaco")
        self.n = 0

    # ---- plumbing ---------------------------------------------------------
    def run(self, argv, env_add=None, traced=True):
        """Runs argv on the double; returns (rc, stdout, stderr, trace path)."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("HIPVIS_", "HIPDOUBLE_")) and k != "LD_PRELOAD"}
        env["LD_LIBRARY_PATH"] = self.double
        trace = None
        if traced:
            self.n += 1
            trace = os.path.join(self.tmp, f"t{self.n}.zst")
            env.update(LD_PRELOAD=self.lib, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1")
        env.update(env_add or {})
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr, trace

    def decode(self, fault, args=(), env=None, traced=True):
        e = dict(env or {})
        if fault:
            e["HIPDOUBLE_FAULT"] = fault
        rc, out, err, trace = self.run([os.path.join(self.apps, "decode_loop"), "--steps", STEPS, *args], e, traced)
        m = re.search(r"stale_reads=(\d+)", out)
        if rc != 0 or "error=none" not in out or not m:
            raise RuntimeError(f"decode_loop {fault} {args}: rc={rc} {out.strip()} {err.strip()}")
        counts = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", out)}
        return int(m.group(1)), trace, counts, err

    def report(self, trace, *extra, tool=None):
        p = subprocess.run([tool or self.analyze, "--json", "--diagnose", "--fail-on", "none", *extra, trace],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return json.loads(p.stdout)

    def text(self, trace, *extra, tool=None):
        return subprocess.run([tool or self.analyze, "--diagnose", "--fail-on", "none", *extra, trace],
                              capture_output=True, text=True).stdout

    def records(self, trace):
        p = subprocess.run([self.dump, "--json", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-dump {trace}: {p.stderr.strip()}")
        return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]

    @staticmethod
    def verdicts(rep):
        return {(d["verdict"], d["basis"]) for d in rep["diagnoses"]}

    @staticmethod
    def answer(rep):
        """What a diagnosis concluded, without addresses and pids."""
        return sorted((d["verdict"], tuple((r["hypothesis"], r["score"]) for r in d["ranking"]),
                       tuple(sorted(re.sub(r"0x[0-9a-f]+|seq \d+", "#", e["text"]) for e in d["evidence"])))
                      for d in rep["diagnoses"])

    # ---- cases ------------------------------------------------------------
    def case_unit(self):
        unit = os.path.join(self.build, "tests", "diagnose", "test_diagnose")
        scalar = os.path.join(self.build, "tests", "codeobj", "in", "scalar-gfx950.co")
        for tool in (self.analyze, self.nollvm):
            p = subprocess.run([unit, tool, os.path.join(self.tmp, "unit"), scalar, self.hsaco],
                               capture_output=True, text=True, timeout=300)
            m = re.search(r"unit: (\d+) passed, (\d+) failed", p.stdout)
            for line in p.stdout.splitlines():
                if line.startswith("  ok") or line.startswith("  FAIL"):
                    print(line + f" ({os.path.basename(tool)})")
            self.check(p.returncode == 0 and m and m.group(2) == "0",
                       f"test_diagnose with {os.path.basename(tool)}: {m.group(1) if m else '?'} checks",
                       p.stderr.strip()[-400:])

    def case_models(self):
        plain = {}
        for fault, args, env, want, basis, lead in MODELS + THREADED:
            label = f"HIPDOUBLE_FAULT={fault} {' '.join(args)}{' (thread mode)' if env.get('HIPDOUBLE_EXEC') else ''}"
            label = label.strip()
            stale, trace, counts, _ = self.decode(fault, args, env)
            rep = self.report(trace)
            self.check(stale > 0, f"{label}: the fault model reproduces a stale read ({stale})")
            got = self.verdicts(rep)
            leads = {d["ranking"][0]["hypothesis"] for d in rep["diagnoses"]}
            self.check(rep["diagnoses"] and got == {(want, basis)} and leads == {lead},
                       f"{label}: --diagnose says {want} ({basis}), {lead} first in all {len(rep['diagnoses'])} "
                       f"groups", f"{got} {leads}")
            d = rep["diagnoses"][0] if rep["diagnoses"] else {}
            fixes = [f["pattern"] for f in d.get("ranking", [{}])[0].get("fixes", [])]
            self.check(d.get("group", {}).get("reader", {}).get("kernel") == CONVERT and fixes and
                       d["ranking"][0]["confirm"],
                       f"{label}: names the reader, observables and {len(fixes)} fix patterns")
            if fault in ("h1", "h3") and not env:
                plain[fault] = rep
        # The fault models are invisible in the API trace: the same program
        # without them diagnoses the same (exposure, not a symptom).
        for fault, args in (("h3", []), ("h1", ["--fork-join"])):
            _, trace, _, _ = self.decode(None, args)
            self.check(self.answer(self.report(trace)) == self.answer(plain[fault]),
                       f"decode_loop {' '.join(args)} without a fault model: the same diagnosis as {fault} "
                       f"(verdicts come from the trace, not from the model)")

    def case_matrix(self):
        """Every fault model and every pair, each with no evidence options,
        the defaults (payloads, rewrite check) and the defaults + probes:
        --diagnose is never confidently wrong (an "observed" verdict names a
        model that was active), and without a recorded symptom (a probe
        snapshot that differs from the source) it is "undetermined"."""
        singles = list(MATRIX_MODELS)
        runs = [(a,) for a in singles] + [(a, b) for i, a in enumerate(singles) for b in singles[i + 1:]]
        wrong, undetermined_bad, observed, total = [], [], 0, 0
        for combo in runs:
            args = [x for f in combo for x in MATRIX_MODELS[f][0]]
            for ev_name, ev in EVIDENCE:
                stale, trace, _, _ = self.decode(",".join(combo), args, ev)
                rep = self.report(trace)
                true = {MATRIX_MODELS[f][1] for f in combo}
                probes = [r for r in self.records(trace) if r.get("type") == "probe"] if "HIPVIS_PROBE" in ev else []
                for d in rep["diagnoses"]:
                    total += 1
                    v, basis = d["verdict"], d["basis"]
                    if basis == "observed":
                        observed += 1
                        if v not in true:
                            wrong.append(f"{'+'.join(combo)} {ev_name}: {v} observed, active {sorted(true)}")
                        if not [e for e in d["evidence"] if e["symptom_of"]]:
                            undetermined_bad.append(f"{'+'.join(combo)} {ev_name}: observed without a symptom item")
                    elif v != U:
                        wrong.append(f"{'+'.join(combo)} {ev_name}: verdict {v} with basis {basis}")
                    if not probes and v != U:
                        undetermined_bad.append(f"{'+'.join(combo)} {ev_name}: {v} without probe records")
        self.check(not wrong, f"fault-model matrix ({len(runs)} combinations x {len(EVIDENCE)} evidence settings, "
                              f"{total} diagnoses, {observed} observed): no observed verdict names an inactive model",
                   "; ".join(wrong[:6]))
        self.check(not undetermined_bad, "fault-model matrix: without a recorded symptom the verdict is undetermined",
                   "; ".join(undetermined_bad[:6]))

    def case_sync_ab(self):
        """The A/B run of the docs for H2: h2a with a stream synchronize
        before the replay. The probe records it (the host saw the copy
        complete before the launch) and the analyzer reports the mismatch
        and diagnoses H2 from it."""
        app = os.path.join(self.apps, "decode_loop")
        for explicit in (False, True):
            env = {"HIPDOUBLE_FAULT": "h2a", "HIPVIS_PROBE": "auto"}
            argv = ["setarch", "-R", app, "--steps", STEPS, "--sync-before-replay", "--print-buffers"]
            if explicit:
                # The buffer's address from a first traced run without
                # address randomization (setarch -R), then the same run
                # probing exactly that range.
                _, out, _, _ = self.run(argv, dict(env, HIPVIS_PROBE="0x1000:4"))
                env["HIPVIS_PROBE"] = re.search(r"cu_seqlens_q=(0x[0-9a-f]+)", out).group(1) + ":1028"
            _, out, err, trace = self.run(argv, env)
            stale = int(re.search(r"stale_reads=(\d+)", out).group(1))
            probes = [r for r in self.records(trace) if r.get("type") == "probe"]
            rep = self.report(trace)
            errs = [g for g in rep["findings"] if g["rule"] == "three-point-probe" and g["severity"] == "error"]
            got = self.verdicts(rep)
            self.check(stale > 0 and probes and errs and got == {("H2", "observed")},
                       f"h2a --sync-before-replay HIPVIS_PROBE={env['HIPVIS_PROBE']}: {len(probes)} probe records, "
                       f"{sum(g['count'] for g in errs)} mismatches reported, H2 observed ({stale} stale reads)",
                       f"stale={stale} probes={len(probes)} errs={len(errs)} {got}")

    def case_clean(self):
        for fault in ("", "h3"):
            _, trace, _, _ = self.decode(fault or None, ["--sync-before-replay"])
            rep = self.report(trace)
            txt = self.text(trace)
            self.check(rep["diagnoses"] == [] and "diagnose: no verdict" in txt,
                       f"--sync-before-replay{' (h3)' if fault else ''}: no same-epoch-write, no verdict")

    def case_guards(self):
        base = {}
        for fault, args, env, *_ in MODELS:
            base[fault], _, _, _ = self.decode(fault, args, env, traced=False)
        for fault, args, env, *_ in MODELS:
            for mode in MODES:
                e = dict(env, HIPVIS_GUARD=mode)
                stale, trace, counts, err = self.decode(fault, args, e)
                fixed = mode in FIXES[fault]
                recs = self.records(trace)
                guards = [r for r in recs if r.get("type") == "guard"]
                ok_records = guards and all(r["result"] == 0 for r in guards) and \
                    guards[-1]["count"] == len(guards)
                if mode == "copy-sync":
                    ok_records = ok_records and all(r["exec"] == "0x0" for r in guards)
                else:
                    ok_records = ok_records and len(guards) == counts["replays"]
                label = f"HIPVIS_GUARD={mode} on {fault}"
                if fixed:
                    self.check(stale == 0 and ok_records,
                               f"{label}: no stale read (was {base[fault]}), {len(guards)} guard records",
                               f"stale={stale} guards={len(guards)} replays={counts['replays']}")
                else:
                    self.check(stale > 0 and ok_records,
                               f"{label}: cannot fix it, {stale} stale reads remain ({len(guards)} guard records)")
                if fault == "h3" and mode in ("stream-sync", "release-event"):
                    rules = {g["rule"] for g in self.report(trace)["findings"]}
                    waited = mode in HOST_WAIT
                    self.check(("same-epoch-write" in rules) != waited,
                               f"{label}: the analyzer {'no longer' if waited else 'still'} reports same-epoch-write "
                               f"(the host {'did' if waited else 'did not'} observe the stream)", str(rules))

    def case_guard_safety(self):
        app = os.path.join(self.apps, "passthrough")
        plain = self.run([app], traced=False)
        for mode in ("stream-sync", "event-sync"):
            guarded = self.run([app], {"HIPVIS_GUARD": mode, "HIPVIS_GUARD_WHEN": "always"})
            n = sum(1 for r in self.records(guarded[3]) if r.get("type") == "guard")
            self.check(plain[:2] == guarded[:2] and n > 0,
                       f"passthrough under HIPVIS_GUARD={mode} HIPVIS_GUARD_WHEN=always ({n} guarded launches): "
                       f"every call returns what it returns without hipvis", f"{plain[0]} vs {guarded[0]}")
        # hipvis_guard_set: switches an armed guard in-process (fix_patterns.py)
        probe = ("import ctypes, sys; f = ctypes.CDLL(sys.argv[1]).hipvis_guard_set; "
                 "print(f(b'event-sync'), f(b'off'), f(b'bogus'))")
        got = {}
        for armed in ("", "stream-sync"):
            env = {k: v for k, v in os.environ.items() if not k.startswith("HIPVIS_")}
            if armed:
                env["HIPVIS_GUARD"] = armed
            got[armed] = subprocess.run([sys.executable, "-c", probe, self.lib], env=env, capture_output=True,
                                        text=True).stdout.split()
        self.check(got[""] == ["-1", "-1", "-1"] and got["stream-sync"] == ["0", "0", "-1"],
                   "hipvis_guard_set switches the mode only when HIPVIS_GUARD armed the guard", str(got))
        # The CUDA front end's guard (driver calls), on tests/cuda's stand-in driver.
        cuda = os.path.join(self.build, "tests", "cuda")
        drv, fake = os.path.join(cuda, "drv_passthrough"), os.path.join(cuda, "fake", "libcuda.so.1")
        if os.access(drv, os.X_OK) and os.path.exists(fake):
            plain = self.run([drv, fake], traced=False)
            guarded = self.run([drv, fake], {"HIPVIS_GUARD": "stream-sync"})
            g = [r for r in self.records(guarded[3]) if r.get("type") == "guard"]
            self.check(plain[:2] == guarded[:2] and len(g) == 1 and g[0]["result"] == 0 and g[0]["copy_seq"] > 0,
                       "CUDA driver API (stand-in libcuda): the flagged cuGraphLaunch is guarded, output unchanged",
                       str(g))
        else:
            print("  skip CUDA guard (make check-cuda builds tests/cuda first)")
        _, _, _, err = self.decode("h3", (), {"HIPVIS_GUARD": "bogus"})
        self.check("HIPVIS_GUARD=bogus: expected off, stream-sync" in err,
                   "an unknown HIPVIS_GUARD value is reported and disables guards", err.strip())

    def case_eager_unordered(self):
        stale, trace, counts, _ = self.decode(None, ["--side-stream-copy", "--sync-before-replay"])
        rep = self.report(trace)
        groups = [g for g in rep["findings"] if g["rule"] == "unordered-write"]
        eager = [g for g in groups if g["later"]["kind"] == "launch"]
        self.check(stale > 0 and eager and len(eager) == len(groups) and
                   sum(g["count"] for g in eager) == counts["prefills"] and
                   all(g["later"]["kernel"] == CONVERT and g["later"]["arg_index"] == 0 for g in eager),
                   f"--side-stream-copy --sync-before-replay: the {counts['prefills']} eager prefill launches are "
                   f"unordered-write ({stale} stale reads), the synchronized replays are not",
                   json.dumps(groups)[:300])

    def case_placement_rule(self):
        _, trace, counts, _ = self.decode(None, ["--fork-join"])
        rep = self.report(trace)
        groups = [g for g in rep["findings"] if g["rule"] == "parallel-queue-read"]
        self.check(groups and sum(g["count"] for g in groups) == counts["replays"] and
                   all(g["later"]["kernel"] == CONVERT and g["placement"] == "root-no-wait" for g in groups),
                   "--fork-join: parallel-queue-read on every replay, reader = a root of the two-root graph")
        _, trace, _, _ = self.decode(None, ["--fork-join"], {"DEBUG_HIP_FORCE_GRAPH_QUEUES": "1"})
        rep = self.report(trace)
        self.check(not [g for g in rep["findings"] if g["rule"] == "parallel-queue-read"] and
                   self.verdicts(rep) == {(U, "none")} and
                   {d["ranking"][0]["hypothesis"] for d in rep["diagnoses"]} == {"H3"},
                   "--fork-join with DEBUG_HIP_FORCE_GRAPH_QUEUES=1 (header knob): no parallel queue, H1 refuted")

    def case_code_objects(self):
        _, trace, _, _ = self.decode("h3", (), {"HIPVIS_CODEOBJ_MB": "0"})
        rep = self.report(trace)
        self.check(self.verdicts(rep) == {(U, "none")} and
                   any("no code object" in e["text"] for e in rep["diagnoses"][0]["evidence"]),
                   "HIPVIS_CODEOBJ_MB=0: no code object in the trace, the load path is unknown, undetermined")
        rep = self.report(trace, "--code-object", self.hsaco)
        sx = rep["diagnoses"][0]["scalar_exposure"]
        self.check(self.verdicts(rep) == {(U, "none")} and rep["diagnoses"][0]["ranking"][0]["hypothesis"] == "H3" and
                   sx["read_path"] == "scalar" and sx["origin"] == self.hsaco and sx["arch"] == "gfx950",
                   "--code-object decode_kernels-gfx950.hsaco: qo_indptr read through s_load, H3 leads the open "
                   "hypotheses (a load path is exposure, not a symptom: undetermined)")
        _, trace, _, _ = self.decode("h3")
        rep = self.report(trace, tool=self.nollvm)
        txt = self.text(trace, tool=self.nollvm)
        self.check(rep["diagnose"]["scalar_exposure"] is False and self.verdicts(rep) == {(U, "none")} and
                   "scalar-load exposure unavailable: built without LLVM" in txt,
                   "analyzer built without LLVM: still diagnoses, says the scalar evidence is missing")

    def case_header(self):
        _, trace, _, _ = self.decode(None)
        hdr = next(r for r in self.records(trace) if r.get("type") == "header")
        self.check(hdr["runtime_path"].endswith("libamdhip64.so.5") and
                   hdr["runtime_version"].startswith("5 (libamdhip64.so.5"),
                   f"trace header: runtime_path and runtime_version ({hdr['runtime_version']})")

    def main(self):
        return self.run_cases((self.case_unit, self.case_models, self.case_matrix, self.case_sync_ab, self.case_clean, self.case_guards,
                               self.case_guard_safety, self.case_eager_unordered, self.case_placement_rule,
                               self.case_code_objects, self.case_header))

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(Diagnose(sys.argv[1]).main())
