#!/usr/bin/env python3
"""test_api.py - the installed hipvis package against the real tools
(run by tests/python/python.sh inside the venv it installed the package in;
HVPY_BUILD: the build directory).

- analyze() on the demo's trace: typed objects (dataclasses, ints for the
  buffer's addresses, the bug's groups linked back), the same findings,
  bugs and coverage counts as the JSON it parsed, diagnoses with
  diagnose=True, every occurrence with all_occurrences=True;
- an unreadable input is in Report.errors; a bad option raises
  AnalyzeError; another schema raises SchemaError;
- the tool search: HIPVIS_ANALYZE first (a wrapper that logs its calls),
  a HIPVIS_ANALYZE that is not executable is an error, not skipped;
- python -m hipvis run -- CMD runs CMD traced (a trace analyze() reads) and
  exits with CMD's status.
"""
import dataclasses
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

import hipvis  # noqa: E402  (the venv's installed copy)
from hipvis import report as hr  # noqa: E402


class Api(Suite):
    def __init__(self, build):
        super().__init__(build, "python")
        self.trace = os.path.join(self.build, "demo", "decode_loop.zst")

    def case_types(self):
        os.environ["HIPVIS_ANALYZE"] = self.analyze
        r = hipvis.analyze(self.trace)
        raw = json.loads(subprocess.run([self.analyze, "--json", "--fail-on=none", self.trace],
                                        capture_output=True, check=False).stdout)
        self.check(isinstance(r, hipvis.Report) and dataclasses.is_dataclass(r), "analyze() returns a Report dataclass")
        self.check(r.schema == hipvis.SCHEMA == 1 and r.tool == "hipvis-analyze", "schema 1, tool hipvis-analyze")
        self.check(r.version == hipvis.__version__, "the report's version is the package's", r.version)
        self.check(len(r.findings) == len(raw["findings"]) and len(r.bugs) == len(raw["bugs"]),
                   f"{len(r.findings)} findings and {len(r.bugs)} bugs, as in the JSON")
        f = r.findings[0]
        self.check(isinstance(f, hipvis.Finding) and f.rule == "same-epoch-write" and f.severity == "warning",
                   "findings[0]: a warning same-epoch-write Finding")
        self.check(isinstance(f.buffer, hipvis.Buffer) and isinstance(f.buffer.lo, int) and
                   f.buffer.hi - f.buffer.lo == f.buffer.bytes and f.buffer.name == "cu_seqlens_q",
                   "its Buffer: int addresses, bytes = hi - lo, named cu_seqlens_q", repr(f.buffer))
        self.check(f.buffer.lo == int(raw["findings"][0]["buffer"]["lo"], 16), "... lo as the JSON's hex")
        self.check(isinstance(f.earlier, hipvis.Side) and f.earlier.role == "write" and f.earlier.kind == "copy" and
                   f.earlier.api == "hipMemcpyAsync" and f.earlier.fields.get("src_mem") == "pinned",
                   "earlier: the pinned hipMemcpyAsync (fields keep the rest)", repr(f.earlier))
        self.check(f.later.role == "replay" and f.later.kernel == "_convert_req_index_to_global_index_kernel",
                   "later: the replay and its kernel", repr(f.later))
        self.check(f.fields.get("write_bytes") == raw["findings"][0]["write_bytes"],
                   "rule-specific keys in Finding.fields")
        b = r.bug_of(f)
        self.check(isinstance(b, hipvis.Bug) and f in r.findings_of(b) and b.next.docs ==
                   "docs/triage.md#same-epoch-write", "bug_of / findings_of link a finding and its Bug")
        self.check(r.at_or_above("warning") and not [x for x in r.at_or_above("error") if x.severity != "error"],
                   "at_or_above(severity)")
        t = r.traces[0]
        self.check(isinstance(t, hipvis.Trace) and t.pid == f.pid and t.path == self.trace and t.footer,
                   "traces[0]: the demo's process, with its footer", repr(t)[:200])
        c = r.coverage
        rt = raw["traces"]
        self.check(isinstance(c, hipvis.Coverage) and c.launches == sum(x["launches"] for x in rt) and
                   c.launches_unsampled == raw["launches_unsampled"] and
                   c.records_lost == sum(x["dropped"] + x["chunk_gaps"] + x["late_records"] for x in rt),
                   "coverage counts = the JSON's sums", repr(c))
        self.check(c.complete == (not c.gaps()), "coverage.complete: no gap", str(c.gaps()))
        hc = {"traces": 1, "traces_counted": 1, "operations": 2, "protected_ops": 1, "unprotected_ops": 1,
              "skipped_managed": 0, "skipped_full": 0, "skipped_other": 1, "accesses": 0, "lost": 0}
        g = hr.Coverage.from_report(dict(raw, coverage=dict(raw.get("coverage") or {}, hostcheck=hc)), r.traces, [])
        self.check(g.hostcheck_unprotected == 1 and not g.complete and any("host-access" in x for x in g.gaps()),
                   "coverage.hostcheck: an operation the check did not protect is a gap", str(g.gaps()))
        n = hr.Coverage.from_report(dict(raw, coverage=dict(raw.get("coverage") or {}, hostcheck=None)), r.traces, [])
        self.check(n.hostcheck_unprotected == 0 and n.complete == c.complete, "coverage.hostcheck null: no gap")
        self.check(r.diagnoses == () and r.errors == () and r.exit_status == 0, "no diagnoses, no errors, exit 0")
        frozen = False
        try:
            f.rule = "x"
        except dataclasses.FrozenInstanceError:
            frozen = True
        self.check(frozen, "the objects are frozen")

    def case_options(self):
        r = hipvis.analyze(self.trace, diagnose=True, all_occurrences=True)
        self.check(r.diagnoses and isinstance(r.diagnoses[0], hipvis.Diagnosis) and
                   isinstance(r.diagnoses[0].ranking[0], hipvis.Hypothesis) and r.diagnoses[0].verdict,
                   "diagnose=True: Diagnosis objects with their ranking",
                   repr(r.diagnoses[:1])[:200])
        f = r.findings[0]
        self.check(len(f.occurrences) == f.count and all(len(o) == 2 for o in f.occurrences),
                   "all_occurrences=True: one (earlier, later) pair per occurrence", f"{len(f.occurrences)} of {f.count}")
        r = hipvis.analyze(self.trace, disable=["same-epoch-write"])
        self.check(not [x for x in r.findings if x.rule == "same-epoch-write"], "disable= turns a rule off")
        r = hipvis.analyze([self.trace, os.path.join(self.tmp, "missing.zst")])
        self.check(len(r.traces) == 1 and len(r.errors) == 1 and r.errors[0].status == "io" and
                   r.coverage.unreadable_inputs == 1 and not r.coverage.complete and r.exit_status == 2,
                   "an unreadable input: Report.errors, coverage says so, exit status 2", repr(r.errors))
        try:
            hipvis.analyze(self.trace, disable=["no-such-rule"])
            self.check(False, "a bad option raises AnalyzeError")
        except hipvis.AnalyzeError as e:
            self.check(e.returncode == 2 and "no-such-rule" in e.stderr, "a bad option raises AnalyzeError",
                       str(e))
        doc = dict(r.raw, schema=2)
        try:
            hipvis.Report.from_json(doc)
            self.check(False, "schema 2 raises SchemaError")
        except hipvis.SchemaError as e:
            self.check("schema 2" in str(e), "a document of another schema raises SchemaError", str(e))

    def case_search(self):
        log = os.path.join(self.tmp, "calls.log")
        wrapper = os.path.join(self.tmp, "my-analyze")
        with open(wrapper, "w") as w:
            w.write(f'#!/bin/sh\necho "$@" >>{log}\nexec {self.analyze} "$@"\n')
        os.chmod(wrapper, 0o755)
        os.environ["HIPVIS_ANALYZE"] = wrapper
        r = hipvis.analyze(self.trace)
        self.check(os.path.exists(log) and r.findings, "HIPVIS_ANALYZE names the hipvis-analyze that runs")
        os.environ["HIPVIS_ANALYZE"] = os.path.join(self.tmp, "calls.log")
        try:
            hipvis.analyze(self.trace)
            self.check(False, "a HIPVIS_ANALYZE that is not executable is an error")
        except hipvis.ToolNotFound as e:
            self.check("HIPVIS_ANALYZE" in str(e), "a HIPVIS_ANALYZE that is not executable is an error", str(e))
        del os.environ["HIPVIS_ANALYZE"]
        if self.build == os.path.abspath("build"):
            found = hipvis._tools.analyzer()
            self.check(found == os.path.abspath("build/hipvis-analyze"),
                       "unset, not on PATH: the checkout's build/hipvis-analyze", found)

    def case_run(self):
        out = os.path.join(self.tmp, "run")
        env = dict(os.environ, HIPVIS_ANALYZE=self.analyze, HIPVIS_QUIET="1",
                   LD_LIBRARY_PATH=self.double)
        p = subprocess.run([sys.executable, "-m", "hipvis", "run", "-o", out, "--",
                            os.path.join(self.apps, "decode_loop"), "--steps", "40", "--prefill-every", "8"],
                           env=env, capture_output=True, text=True, timeout=120)
        traces = sorted(os.listdir(out)) if os.path.isdir(out) else []
        self.check(p.returncode == 0 and len(traces) == 1, "python -m hipvis run -o DIR -- decode_loop: one trace",
                   f"exit {p.returncode}, {traces}, {p.stderr[-300:]}")
        if traces:
            os.environ["HIPVIS_ANALYZE"] = self.analyze
            r = hipvis.analyze(out)
            self.check(any(f.rule == "same-epoch-write" for f in r.findings), "... which analyze(DIR) reads")
        p = subprocess.run([sys.executable, "-m", "hipvis", "run", "--", "sh", "-c", "exit 7"], env=env,
                           capture_output=True, timeout=60)
        self.check(p.returncode == 7, "python -m hipvis run exits with the command's status", str(p.returncode))
        p = subprocess.run([sys.executable, "-m", "hipvis", "--help"], env=env, capture_output=True, text=True,
                           timeout=60)
        self.check(p.returncode == 0 and "run" in p.stdout and "usage: hipvis" in p.stdout,
                   "python -m hipvis --help is the launcher's", p.stdout[:200])
        self.check(hr.severity_rank("error") > hr.severity_rank("warning") > hr.severity_rank("info"),
                   "severity order")


if __name__ == "__main__":
    s = Api(os.environ["HVPY_BUILD"])
    sys.exit(s.run_cases([s.case_types, s.case_options, s.case_search, s.case_run]))
