#!/usr/bin/env python3
"""observe.py - host observations end to end on the runtime double.

usage: observe.py BUILD_DIR

Each case of tests/observe/sync_cases.c writes buffer A, makes one host
observation (or none), and replays a graph that reads A. The analyzer must
conclude what the runtime guarantees (ROCm CLR, docs/semantics.md "Host
observations"): a hazard where the observation does not cover the write, no
finding where it does. And every observation must cost a constant number of
records, whatever the number of live streams (issue 12). And what the library
derives at each call from its tables (epochs, capture state, an event's last
record, memory kinds and copy directions, kernel arguments' allocations) must
be what a reader derives from the records alone (derive_streams.py,
derive_kinds.py), on tests/observe/derive_cases.c, on every case here and on
the decode loop. And the default argument records (HIPVIS_RECORD=args: the
step's calls as their arguments, the reader's derive stage the rest) must
read, record for record and finding for finding, as HIPVIS_RECORD=full.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from derive_check import mismatches  # noqa: E402

# case -> rules the analyzer must report (empty: none at all)
CASES = {
    "null-sync-nonblocking": {"unordered-write"},
    "null-query-nonblocking": {"unordered-write"},
    "null-sync-blocking": set(),
    "device-sync-nonblocking": set(),
    "stream-sync-nonblocking": set(),
    "legacy-handle-replay": {"same-epoch-write"},
    "legacy-handle-sync": set(),
    "pageable-blocking-copy": {"unordered-write"},
    "pinned-blocking-copy": set(),
}


class Observe(Suite):
    def __init__(self, build):
        super().__init__(build, "observe")
        self.prog = os.path.join(self.build, "tests", "observe", "sync_cases")

    def trace(self, case, streams=0):
        return self.trace_of(f"{case}.{streams}", [self.prog, case, str(streams)])

    def trace_of(self, name, argv, **env_extra):
        out = os.path.join(self.tmp, f"{name}.hvt")
        env = dict(os.environ, LD_LIBRARY_PATH=self.double, LD_PRELOAD=self.lib, HIPVIS_OUTPUT=out,
                   HIPVIS_QUIET="1", **env_extra)
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise RuntimeError(f"{os.path.basename(argv[0])} {name}: exit {p.returncode}: {p.stderr.strip()}")
        return out

    def rules(self, trace):
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return {f["rule"] for f in json.loads(p.stdout)["findings"]}

    def records(self, trace):
        p = subprocess.run([self.dump, "--json", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-dump --json {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]

    def case_semantics(self):
        for case, want in CASES.items():
            got = self.rules(self.trace(case))
            self.check(got == want, f"{case}: findings {sorted(got)}", f"expected {sorted(want)}")

    def case_constant_records(self):
        """A legacy-stream synchronize with 1 and with 130 live streams: the
        same records after the setup (no per-stream epoch records)."""
        tails = {}
        for streams in (0, 130):
            recs = self.records(self.trace("null-sync-nonblocking", streams))
            sync = [r for r in recs if r.get("api") == "hipStreamSynchronize"]
            if not sync:
                raise RuntimeError("no hipStreamSynchronize record")
            seq = sync[0]["seq"]
            tails[streams] = [r.get("type", r.get("api")) for r in recs if r.get("seq") == seq]
            epochs = sum(1 for r in recs if r.get("type") == "epoch")
            self.check(epochs == 0, f"{streams} extra streams: no epoch records", f"{epochs} epoch records")
        self.check(tails[0] == tails[130] and len(tails[0]) == 1,
                   "legacy-stream synchronize: one record with 1 or 131 streams", repr(tails))

    def case_thread_handoff(self):
        """Per-thread seqs (HV_HDR_THREAD_SEQ): a synchronize on one thread
        handed to another through a mutex, a condition variable or an
        atomic flag orders that thread's replay after it, also when the
        handing thread traced alone until then (clock reads without a
        fence) and the replay is the other thread's first traced call;
        without the handover the replay races the copy."""
        prog = os.path.join(self.build, "tests", "observe", "handoff")
        for mode, want in (("mutex", set()), ("condvar", set()), ("flag", set()), ("alone", set()),
                          ("race", {"unordered-write"})):
            out = os.path.join(self.tmp, f"handoff.{mode}.hvt")
            env = dict(os.environ, LD_LIBRARY_PATH=self.double, LD_PRELOAD=self.lib, HIPVIS_OUTPUT=out,
                       HIPVIS_QUIET="1")
            p = subprocess.run([prog, mode], env=env, capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                raise RuntimeError(f"handoff {mode}: exit {p.returncode}: {p.stderr.strip()}")
            got = self.rules(out)
            self.check(got == want, f"handoff {mode}: findings {sorted(got)}", f"expected {sorted(want)}")

    def case_derivable(self):
        """Epochs, capture state, memory kinds and arguments' allocations as a
        reader derives them from the records alone: the same as the library
        recorded at each call: the rules the library's tables follow, stated
        independently of them (written for moving that derivation off the
        calling thread, which measured would save nothing on the GPU:
        docs/performance.md)."""
        prog = os.path.join(self.build, "tests", "observe", "derive_cases")
        recs = self.records(self.trace_of("derive_cases", [prog], HIPDOUBLE_DEVICES="2"))
        bad = mismatches(recs)
        self.check(not bad, f"derive_cases: {len(recs)} records, every derived field derivable",
                   "; ".join(f"seq {q} {a}: {w}" for q, a, w in bad[:5]))
        # The sequence must exercise what the rules are about, or the check proves nothing.
        calls = [r for r in recs if r.get("type") == "call" and r.get("stream", "0x0") != "0x0"]
        epochs = {(r["stream"], r["epoch"]) for r in calls}
        devices = {r["device"] for r in recs if r.get("type") == "call"}
        self.check(len(epochs) >= 20 and sum(r["capturing"] for r in calls) >= 6 and devices == {0, 1}
                   and any(r.get("type") == "epoch" for r in recs)
                   and any(r.get("record_stream", "0x0") != "0x0" for r in calls)
                   and len({(r["dir"], r["dst_mem"], r["src_mem"]) for r in calls if r.get("kind") == 4}) >= 15,
                   f"derive_cases: {len(epochs)} stream epochs, captures, an epoch record, an event wait, "
                   f"two devices, Default-kind copies between every kind", f"devices {sorted(devices)}")
        traces = {case: self.trace_of(f"derive.{case}", [self.prog, case, "0"]) for case in CASES}
        traces["decode_loop"] = self.trace_of("decode_loop", [os.path.join(self.apps, "decode_loop"), "--steps",
                                                               "200", "--prefill-every", "8"])
        for name, trace in traces.items():
            recs = self.records(trace)
            bad = mismatches(recs)
            args = sum(len(r.get("args", [])) for r in recs if r.get("type") == "kargs")
            self.check(not bad and (name != "decode_loop" or args > 0),
                       f"{name}: every derived field derivable" + (f" ({args} kernel arguments)" if args else ""),
                       "; ".join(f"seq {q} {a}: {w}" for q, a, w in bad[:5]) or "no kernel arguments")

    def case_args_records(self):
        """HIPVIS_RECORD=args, the default (argument records for the step's
        calls, the rest derived by the reader, src/format/derive.c): the same
        program traced with HIPVIS_RECORD=full and with args reads the same,
        record for record and field for field, and the analyzer reports the
        same findings. Twice: with the rewrite check off (every step call an
        argument record) and with it on every copy (HIPVIS_REWRITE_EVERY=1:
        async copies and the synchronizes that observe them take the full
        path, the graph launches stay argument records: the two kinds
        mixed); at the default sampling the two modes may check different
        copies (args counts async copies of kind H2D or Default, full mode
        eligible ones). Address randomisation off (setarch
        -R), so that both runs see the same pointers; a per-thread stream's id
        holds its thread id, which differs between runs and is compared as
        the record's own thread."""
        decode = os.path.join(self.apps, "decode_loop")
        hsaco = os.path.join(self.apps, "decode_kernels-gfx950.hsaco")
        ctypes_app = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "ctypes_decode.py")
        programs = {
            "derive_cases": ([os.path.join(self.build, "tests", "observe", "derive_cases")], {"HIPDOUBLE_DEVICES": "2"}),
            "decode_loop": ([decode, "--steps", "64", "--prefill-every", "8"], {}),
            "decode_loop --spt": ([decode, "--steps", "24", "--spt"], {}),
            "decode_loop --event-sync-before-rewrite": ([decode, "--steps", "24", "--event-sync-before-rewrite"], {}),
            "decode_loop --fork-join --event-wait": ([decode, "--steps", "24", "--fork-join", "--event-wait"], {}),
            "ctypes_decode.py (Python sites)": ([sys.executable, ctypes_app, os.path.join(self.double, "libamdhip64.so.5"),
                                                 "--steps", "16", "--prefill-every", "8", "--code-object", hsaco], {}),
        }
        programs.update({f"sync_cases {c}": ([self.prog, c, "3"], {}) for c in CASES})
        for check, evidence in (("rewrite check off", {"HIPVIS_REWRITE_CHECK_KB": "0"}),
                                ("every copy checked", {"HIPVIS_REWRITE_EVERY": "1"})):
            for name, (argv, env) in programs.items():
                tag = (check + "." + name).replace(" ", "_").replace("/", "_")
                full = self.trace_of(f"full.{tag}", ["setarch", "-R", *argv], HIPVIS_RECORD="full", **evidence, **env)
                args = self.trace_of(f"args.{tag}", ["setarch", "-R", *argv], **evidence, **env)
                a, b = comparable(self.records(full)), comparable(self.records(args))
                diff = [(x, y) for x, y in zip(a, b) if x != y]
                raw = self.raw_records(args)
                n_args = sum(1 for r in raw if r.get("type") == "call" and r.get("argument_record"))
                flagged = raw[0].get("argument_records") and not self.raw_records(full)[0].get("argument_records")
                self.check(len(a) == len(b) and not diff and n_args > 0 and flagged,
                           f"{check}, {name}: {len(b)} records the same ({n_args} argument records rebuilt)",
                           f"{len(a)} / {len(b)} records; first differing: "
                           + (repr({k: (v, diff[0][1].get(k)) for k, v in diff[0][0].items() if diff[0][1].get(k) != v})
                              if diff else "none") + ("" if n_args else "; no argument record written")
                           + ("" if flagged else "; header flags wrong"))
                fa, fb = self.findings(full), self.findings(args)
                self.check(fa == fb, f"{check}, {name}: the same {len(fa)} findings", f"{fa} / {fb}")
        # Two calling threads: their interleaving and their threads' heaps differ
        # between runs, so findings by rule and buffer (name and size), not address.
        two = [decode, "--steps", "64", "--threads", "2"]
        fa = self.findings(self.trace_of("full.threads", two, HIPVIS_RECORD="full"), by_name=True)
        fb = self.findings(self.trace_of("args.threads", two), by_name=True)
        self.check(fa == fb and fa, f"decode_loop --threads 2: the same findings ({fa})", f"{fa} / {fb}")
        # Past the warm-up (none here) the rewrite check samples the copies in args mode.
        recs = self.raw_records(self.trace_of("args.sampled", [decode, "--steps", "64", "--host-rewrite"],
                                              HIPVIS_REWRITE_FIRST="0"))
        full_copies = [r for r in recs if r.get("api") == "hipMemcpyAsync" and not r.get("argument_record")]
        args_copies = [r for r in recs if r.get("api") == "hipMemcpyAsync" and r.get("argument_record")]
        hashed = [r for r in full_copies if r.get("payload_hash", "0x0") != "0x0"]
        self.check(hashed and len(args_copies) > 10 * len(full_copies),
                   f"sampled: {len(hashed)} of {len(full_copies) + len(args_copies)} async copies checked "
                   f"(full records), the rest argument records",
                   f"{len(full_copies)} full, {len(args_copies)} argument records, {len(hashed)} hashed")

    def case_args_conflicts(self):
        """HIPVIS_RECORD=args with a setting that needs the full record at the
        call, or a bad value: tracing off, the message naming the variable, no
        trace written; the same setting without HIPVIS_RECORD traces in full."""
        for i, (env, want) in enumerate((({"HIPVIS_RECORD": "args", "HIPVIS_GUARD": "stream-sync"}, "HIPVIS_GUARD"),
                                         ({"HIPVIS_RECORD": "args", "HIPVIS_PAYLOAD_BYTES": "64"}, "HIPVIS_PAYLOAD_BYTES"),
                                         ({"HIPVIS_RECORD": "args", "HIPVIS_START": "profiler"}, "HIPVIS_START"),
                                         ({"HIPVIS_RECORD": "argz"},
                                          'HIPVIS_RECORD="argz" is not accepted: expected full or args'))):
            out = os.path.join(self.tmp, f"conflict{i}.hvt")
            e = dict(os.environ, LD_LIBRARY_PATH=self.double, LD_PRELOAD=self.lib, HIPVIS_OUTPUT=out, **env)
            p = subprocess.run([self.prog, "null-sync-blocking", "0"], env=e, capture_output=True, text=True,
                               timeout=60)
            self.check(p.returncode == 0 and want in p.stderr and "tracing disabled" in p.stderr
                       and not os.path.exists(out), f"{env}: refused, naming {want.split('=')[0]}",
                       f"rc {p.returncode}, stderr {p.stderr.strip()!r}")
        raw = self.raw_records(self.trace_of("payload.full", [self.prog, "null-sync-blocking", "0"],
                                             HIPVIS_PAYLOAD_BYTES="64"))
        self.check(not raw[0].get("argument_records") and not any(r.get("argument_record") for r in raw),
                   "HIPVIS_PAYLOAD_BYTES=64 alone: full records", repr(raw[0]))

    def raw_records(self, trace):
        p = subprocess.run([self.dump, "--raw", "--json", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-dump --raw --json {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]

    def findings(self, trace, by_name=False):
        """(rule, buffer) of each finding, sorted; `by_name`: the buffer as its name and size."""
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", trace], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hipvis-analyze {trace}: exit {p.returncode}: {p.stderr.strip()}")
        found = json.loads(p.stdout)["findings"]
        if by_name:
            # Which rule on which buffer, once each: how many groups a buffer's
            # finding splits into (one per exec, per node, per stream) follows
            # how two threads interleaved in that run.
            return sorted({(f["rule"], (f.get("buffer") or {}).get("name"), (f.get("buffer") or {}).get("bytes"))
                           for f in found})
        return sorted((f["rule"], json.dumps(f.get("buffer"), sort_keys=True)) for f in found)

    def main(self):
        return self.run_cases([self.case_semantics, self.case_constant_records, self.case_thread_handoff,
                               self.case_derivable, self.case_args_records, self.case_args_conflicts])


# Fields that differ between two runs of one program whatever the mode.
RUN_FIELDS = {"ts_ns", "tid", "pid", "ppid", "start_ns", "start_realtime_ns", "end_ns", "knobs", "seconds"}
PER_THREAD = 0x4000000000000000


def comparable(records):
    """The records of a trace as two runs of one program can be compared:
    header and footer out (times, settings), run-dependent fields out, a
    per-thread stream id as its thread's order of first appearance."""
    order = {}
    out = []
    for r in records:
        if r.get("type") in ("header", "footer"):
            continue
        tid = order.setdefault(r.get("tid"), len(order))
        c = {}
        for k, v in r.items():
            if k in RUN_FIELDS:
                continue
            if isinstance(v, str) and v.startswith("0x4") and len(v) == 18 and int(v, 16) & PER_THREAD:
                v = f"per-thread stream of thread {order.setdefault(int(v, 16) & 0xffffffff, len(order))}"
            c[k] = v
        c["thread"] = tid
        out.append(c)
    return out


if __name__ == "__main__":
    sys.exit(Observe(sys.argv[1]).main())
