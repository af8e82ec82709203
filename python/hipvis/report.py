"""Typed view of `hipvis-analyze --json` (docs/analysis.md, "JSON (--json),
schema 1"; the Python side is docs/python.md).

Report schema 1 of this module maps JSON schema 1 of hipvis-analyze:
  Report(tool, version, schema, fail_on, traces, findings, bugs, diagnoses,
         coverage, errors, unusable, exit_status, raw)
Every class keeps what it does not name in `fields` (the JSON object's other
keys, values as in the JSON), so a key that a later hipvis-analyze adds
within schema 1 is there without a new release of this package. A document
of another schema raises SchemaError: the fields may mean something else.
Addresses of Buffer (lo, hi, alloc_base) are ints; elsewhere they stay the
JSON's hex strings.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

SCHEMA = 1                     # the hipvis-analyze --json schema this module reads
SEVERITIES = ("none", "info", "warning", "error")   # ascending


class SchemaError(ValueError):
    """The document is not hipvis-analyze's, or of a schema this package does not read."""


def _hex(v):
    if v is None or isinstance(v, int):
        return v
    return int(v, 16) if isinstance(v, str) and v.lower().startswith("0x") else int(v)


def _rest(obj, names):
    return {k: v for k, v in obj.items() if k not in names}


def severity_rank(sev):
    """0 none .. 3 error; unknown names rank lowest."""
    return SEVERITIES.index(sev) if sev in SEVERITIES else 0


@dataclass(frozen=True)
class Buffer:
    lo: int
    hi: int
    bytes: int
    name: Optional[str] = None           # hipvis_name() / NVTX name of the buffer, when it has one
    alloc_base: Optional[int] = None
    alloc_bytes: Optional[int] = None
    alloc_mem: Optional[str] = None
    alloc_seq: Optional[int] = None
    fields: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, o):
        if o is None:
            return None
        names = ("lo", "hi", "bytes", "name", "alloc_base", "alloc_bytes", "alloc_mem", "alloc_seq")
        return cls(lo=_hex(o["lo"]), hi=_hex(o["hi"]), bytes=o.get("bytes", 0), name=o.get("name"),
                   alloc_base=_hex(o.get("alloc_base")), alloc_bytes=o.get("alloc_bytes"),
                   alloc_mem=o.get("alloc_mem"), alloc_seq=o.get("alloc_seq"), fields=_rest(o, names))


@dataclass(frozen=True)
class Side:
    """One end of a finding: the write (or earlier op) or the exposed reader."""
    role: str                            # write | replay | release | read | observe
    kind: str                            # copy | memset | kernel | replay | free
    api: Optional[str] = None
    seq: Optional[int] = None
    stream: Optional[str] = None
    epoch: Optional[int] = None
    ts_ns: Optional[int] = None
    kernel: Optional[str] = None
    fields: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, o):
        if o is None:
            return None
        names = ("role", "kind", "api", "seq", "stream", "epoch", "ts_ns", "kernel")
        return cls(role=o.get("role", ""), kind=o.get("kind", ""), api=o.get("api"), seq=o.get("seq"),
                   stream=o.get("stream"), epoch=o.get("epoch"), ts_ns=o.get("ts_ns"), kernel=o.get("kernel"),
                   fields=_rest(o, names))


@dataclass(frozen=True)
class Finding:
    """A finding group: one rule, one place, `count` occurrences."""
    rule: str
    severity: str                        # info | warning | error
    pid: int
    count: int
    first_seq: int
    last_seq: int
    buffer: Optional[Buffer] = None
    earlier: Optional[Side] = None
    later: Optional[Side] = None
    note: Optional[str] = None
    detail: Optional[str] = None
    why: str = ""
    bug: Optional[int] = None            # index into Report.bugs
    occurrences: Tuple[Tuple[int, int], ...] = ()   # (earlier seq, later seq), with all_occurrences=True
    fields: Dict[str, Any] = field(default_factory=dict)   # rule-specific: write_bytes, queues, missing...

    @classmethod
    def from_json(cls, o):
        names = ("rule", "severity", "pid", "count", "first_seq", "last_seq", "buffer", "earlier", "later",
                 "note", "detail", "why", "bug", "occurrences")
        return cls(rule=o["rule"], severity=o["severity"], pid=o.get("pid", 0), count=o.get("count", 0),
                   first_seq=o.get("first_seq", 0), last_seq=o.get("last_seq", 0),
                   buffer=Buffer.from_json(o.get("buffer")), earlier=Side.from_json(o.get("earlier")),
                   later=Side.from_json(o.get("later")), note=o.get("note"), detail=o.get("detail"),
                   why=o.get("why", ""), bug=o.get("bug"),
                   occurrences=tuple(tuple(x) for x in o.get("occurrences") or ()), fields=_rest(o, names))


@dataclass(frozen=True)
class NextSteps:
    """What to run next for a bug (the text report's "next:" lines)."""
    diagnose: Optional[str] = None
    experiment: Optional[str] = None
    guard: Optional[str] = None
    guard_why: Optional[str] = None
    rerun_with: Optional[str] = None
    rerun_why: Optional[str] = None
    fix: Optional[str] = None
    docs: Optional[str] = None

    @classmethod
    def from_json(cls, o):
        o = o or {}
        return cls(**{k: o.get(k) for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Bug:
    """Finding groups that are one bug across execs and processes."""
    rule: str
    severity: str
    count: int
    processes: int
    execs: int
    groups: Tuple[int, ...]              # indexes into Report.findings
    next: NextSteps
    fields: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, o):
        names = ("rule", "severity", "count", "processes", "execs", "groups", "next")
        return cls(rule=o["rule"], severity=o["severity"], count=o.get("count", 0), processes=o.get("processes", 0),
                   execs=o.get("execs", 0), groups=tuple(o.get("groups", ())),
                   next=NextSteps.from_json(o.get("next")), fields=_rest(o, names))


@dataclass(frozen=True)
class Trace:
    """One input trace: its process and its input health."""
    path: str
    pid: int
    exe: str
    runtime: Optional[str] = None
    argv: Optional[Tuple[str, ...]] = None
    records: int = 0
    calls: int = 0
    failed_calls: int = 0
    launches: int = 0
    launches_unsampled: int = 0
    replays: int = 0
    dropped: int = 0
    chunk_gaps: int = 0
    late_records: int = 0
    execs_no_inventory: int = 0
    replays_unknown_exec: int = 0
    footer: bool = False
    complete: bool = False
    unusable: bool = False
    truncated: Optional[Dict[str, Any]] = None   # {"status", "offset", "records_salvaged", "what"}
    fields: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, o):
        names = set(cls.__dataclass_fields__) - {"fields"}
        kw = {k: o[k] for k in names if k in o}
        if kw.get("argv") is not None:
            kw["argv"] = tuple(kw["argv"])
        kw.setdefault("path", "")
        kw.setdefault("pid", 0)
        kw.setdefault("exe", "")
        return cls(fields=_rest(o, names), **kw)


@dataclass(frozen=True)
class InputError:
    """An input hipvis-analyze could not read at all."""
    path: str
    status: str
    offset: int
    what: str

    @classmethod
    def from_json(cls, o):
        return cls(path=o.get("path", ""), status=o.get("status", ""), offset=o.get("offset", 0),
                   what=o.get("what", ""))


@dataclass(frozen=True)
class Coverage:
    """What the analysis could not check, as the HTML report's Coverage panel
    counts it from the same document. `complete`: everything recorded was
    checked."""
    launches: int = 0
    launches_unsampled: int = 0          # recorded without kernel and arguments (HIPVIS_LAUNCH_EVERY)
    records_lost: int = 0                # dropped + chunk_gaps + late_records
    dropped: int = 0
    chunk_gaps: int = 0
    late_records: int = 0
    replays: int = 0
    replays_unchecked: int = 0           # replays of an exec without a node inventory
    execs_no_inventory: int = 0
    traces_cut: int = 0
    traces_without_footer: int = 0
    unreadable_inputs: int = 0
    unusable: bool = False
    # HIPVIS_HOSTCHECK: in-flight operations it did not protect, accesses its
    # queue lost (coverage.hostcheck; 0 when the check did not run)
    hostcheck_unprotected: int = 0
    hostcheck_lost: int = 0

    @classmethod
    def from_report(cls, doc, traces, errors):
        def total(name):
            return sum(getattr(t, name) for t in traces)
        dropped, gaps, late = total("dropped"), total("chunk_gaps"), total("late_records")
        hc = (doc.get("coverage") or {}).get("hostcheck") or {}
        return cls(hostcheck_unprotected=hc.get("unprotected_ops") or 0, hostcheck_lost=hc.get("lost") or 0,
                   launches=total("launches"), launches_unsampled=doc.get("launches_unsampled", 0),
                   records_lost=dropped + gaps + late, dropped=dropped, chunk_gaps=gaps, late_records=late,
                   replays=total("replays"), replays_unchecked=total("replays_unknown_exec"),
                   execs_no_inventory=total("execs_no_inventory"),
                   traces_cut=sum(1 for t in traces if t.truncated),
                   traces_without_footer=sum(1 for t in traces if not t.footer and not t.truncated),
                   unreadable_inputs=len(errors), unusable=bool(doc.get("unusable")))

    def gaps(self):
        """One line per gap, empty when complete."""
        out = []
        if self.unusable:
            out.append("no copy, memset, launch or replay succeeded: nothing was there to check")
        if self.launches_unsampled:
            out.append(f"{self.launches_unsampled} of {self.launches} launches recorded without kernel and "
                       "arguments (HIPVIS_LAUNCH_EVERY=1 sees every launch)")
        if self.records_lost:
            out.append(f"{self.records_lost} records lost ({self.dropped} dropped, {self.chunk_gaps} chunk gaps, "
                       f"{self.late_records} late)")
        if self.replays_unchecked:
            out.append(f"{self.replays_unchecked} of {self.replays} replays not checked (no node inventory)")
        if self.execs_no_inventory:
            out.append(f"{self.execs_no_inventory} graph execs without a recorded node inventory")
        if self.traces_cut:
            out.append(f"{self.traces_cut} traces cut short")
        if self.traces_without_footer:
            out.append(f"{self.traces_without_footer} traces without a footer")
        if self.unreadable_inputs:
            out.append(f"{self.unreadable_inputs} inputs could not be read")
        if self.hostcheck_unprotected or self.hostcheck_lost:
            out.append(f"host-access check: {self.hostcheck_unprotected} in-flight operations not protected, "
                       f"{self.hostcheck_lost} accesses lost (docs/hostcheck.md)")
        return out

    @property
    def complete(self):
        return not self.gaps()


@dataclass(frozen=True)
class Fix:
    pattern: str
    cost: Optional[str] = None
    guard: Optional[str] = None
    result: Optional[str] = None         # removes | does-not-remove | untested
    measured_on: Optional[str] = None

    @classmethod
    def from_json(cls, o):
        return cls(**{k: o.get(k) for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Hypothesis:
    hypothesis: str                      # H1 | host-race | H2 | H3 | H4
    score: int
    status: str                          # observed | consistent | excluded
    title: str = ""
    next_run: Optional[str] = None
    confirm: Optional[str] = None
    refute: Optional[str] = None
    fixes: Tuple[Fix, ...] = ()

    @classmethod
    def from_json(cls, o):
        return cls(hypothesis=o["hypothesis"], score=o.get("score", 0), status=o.get("status", ""),
                   title=o.get("title", ""), next_run=o.get("next_run"), confirm=o.get("confirm"),
                   refute=o.get("refute"), fixes=tuple(Fix.from_json(x) for x in o.get("fixes", ())))


@dataclass(frozen=True)
class Diagnosis:
    """--diagnose's ranking for one same-epoch-write (or probe) group."""
    pid: int
    trace: str
    verdict: str                         # H1 | host-race | H2 | H3 | H4 | undetermined
    basis: str                           # observed | none
    open: Tuple[str, ...]
    ranking: Tuple[Hypothesis, ...]
    group: Dict[str, Any] = field(default_factory=dict)
    runtime: Optional[str] = None
    evidence: Tuple[Dict[str, Any], ...] = ()
    scalar_exposure: Optional[Dict[str, Any]] = None
    fields: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, o):
        names = ("pid", "trace", "verdict", "basis", "open", "ranking", "group", "runtime", "evidence",
                 "scalar_exposure")
        return cls(pid=o.get("pid", 0), trace=o.get("trace", ""), verdict=o.get("verdict", ""),
                   basis=o.get("basis", ""), open=tuple(o.get("open", ())),
                   ranking=tuple(Hypothesis.from_json(h) for h in o.get("ranking", ())),
                   group=o.get("group") or {}, runtime=o.get("runtime"), evidence=tuple(o.get("evidence", ())),
                   scalar_exposure=o.get("scalar_exposure"), fields=_rest(o, names))


@dataclass(frozen=True)
class Report:
    tool: str
    version: str
    schema: int
    fail_on: str
    traces: Tuple[Trace, ...]
    findings: Tuple[Finding, ...]        # most severe first, a bug's groups together
    bugs: Tuple[Bug, ...]
    diagnoses: Tuple[Diagnosis, ...]     # with diagnose=True only
    coverage: Coverage
    errors: Tuple[InputError, ...]
    unusable: bool = False
    exit_status: Optional[int] = None    # hipvis-analyze's (0 clean, 1 unusable run, 2 unreadable input)
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, doc, exit_status=None):
        if not isinstance(doc, dict) or doc.get("tool") != "hipvis-analyze":
            raise SchemaError("not a hipvis-analyze --json document")
        if doc.get("schema") != SCHEMA:
            raise SchemaError(f"hipvis-analyze JSON schema {doc.get('schema')!r}; this package "
                              f"(report schema {SCHEMA}) reads schema {SCHEMA} only")
        traces = tuple(Trace.from_json(t) for t in doc.get("traces", ()))
        errors = tuple(InputError.from_json(e) for e in doc.get("errors", ()))
        return cls(tool=doc["tool"], version=doc.get("version", ""), schema=doc["schema"],
                   fail_on=doc.get("fail_on", ""), traces=traces,
                   findings=tuple(Finding.from_json(f) for f in doc.get("findings", ())),
                   bugs=tuple(Bug.from_json(b) for b in doc.get("bugs", ())),
                   diagnoses=tuple(Diagnosis.from_json(d) for d in doc.get("diagnoses", ())),
                   coverage=Coverage.from_report(doc, traces, errors), errors=errors,
                   unusable=bool(doc.get("unusable")), exit_status=exit_status, raw=doc)

    def at_or_above(self, severity):
        """Findings whose severity is `severity` or worse."""
        r = severity_rank(severity)
        return [f for f in self.findings if severity_rank(f.severity) >= r]

    def findings_of(self, bug):
        """The finding groups of a Bug (or of its index)."""
        b = self.bugs[bug] if isinstance(bug, int) else bug
        return [self.findings[i] for i in b.groups]

    def bug_of(self, finding):
        return None if finding.bug is None else self.bugs[finding.bug]
