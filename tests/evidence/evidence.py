#!/usr/bin/env python3
"""evidence.py - evidence collection end to end (docs/evidence.md): the
decode loop (tests/apps, TEST-ONLY) traced on the HIP runtime test double
with payloads, the host-source rewrite check, three-point probes and
stacks, and the analyzer's host-source-rewritten / three-point-probe
findings, --find-value and symbolized stacks checked against the trace.

usage: evidence.py BUILD_DIR
Prints one line per check and "evidence: N passed, M failed"; exit 1 on any
failure.
"""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e import E2E, NSEQ_BYTES  # noqa: E402  (the shared plumbing: runs, dump, analyze)

NSEQ = NSEQ_BYTES // 4
# Payloads are off by default (user data, writer bandwidth: docs/evidence.md "Defaults").
PAYLOADS_ON = {"HIPVIS_PAYLOAD_BYTES": "4096"}


def expected_at(seed, b):
    """decode_loop's cu_seqlens_q contents: arange for decode, cumulative for a prefill."""
    return b if seed == 0 else sum(2 + (seed * 7 + j * 3) % 5 for j in range(b))


class Evidence(E2E):
    def __init__(self, build):
        super().__init__(build, "evidence")

    def analyze_json(self, trace, *extra):
        p = subprocess.run([self.analyze, "--json", "--fail-on", "none", *extra, trace], capture_output=True,
                           text=True)
        if p.returncode not in (0, 1):
            raise RuntimeError(f"hipvis-analyze {' '.join(extra)} {trace}: exit {p.returncode}: {p.stderr.strip()}")
        return json.loads(p.stdout)

    @staticmethod
    def rule(report, name):
        return [g for g in report["findings"] if g["rule"] == name]

    @staticmethod
    def of_type(recs, t):
        return [r for r in recs if r.get("type") == t]

    # ---- payloads and the rewrite check -----------------------------------
    def case_payloads(self):
        out, recs, rep, bufs = self.decode("payloads", "--steps", "12", env_add=PAYLOADS_ON)
        cu, pinned = bufs[0]["cu_seqlens_q"], bufs[0]["cu_seqlens_q_cpu"]
        seqs = self.by_seq(recs)
        enq = [p for p in self.of_type(recs, "payload") if p["when"] == 0]
        h2d = [c for c in self.calls(recs) if c.get("dir") == "H2D" and int(c["dst"], 16) == cu]
        self.check(len(enq) == len(h2d) and len(h2d) >= 12, "payloads: one enqueue payload per H2D copy",
                   f"{len(enq)} payloads, {len(h2d)} copies")
        want = struct.pack(f"<{NSEQ}i", *range(NSEQ)).hex()
        decode = [p for p in enq if p["data"] == want and int(p["src"], 16) == pinned]
        self.check(decode and all(seqs[p["seq"]]["dir"] == "H2D" for p in decode),
                   "payloads: decode steps record arange(0, 257) from the pinned buffer, after their copy")
        self.check(all(int(seqs[p["seq"]]["payload_hash"], 16) == int(p["hash"], 16) & 0xffffffff for p in enq),
                   "payloads: the copy record's payload_hash is the low half of the payload's hash")
        hdr = subprocess.run([self.dump, "--header", "--json", os.path.join(self.tmp, "payloads.zst")],
                             capture_output=True, text=True).stdout
        self.check('"payloads":true' in hdr.replace(" ", ""), "payloads: header flags payloads")
        self.check(not self.rule(rep, "host-source-rewritten"), "payloads: no rewrite without --host-rewrite")

    def case_host_rewrite(self):
        out, recs, rep, bufs = self.decode("rewrite", "--steps", "20", "--host-rewrite",
                                           env_add=dict(PAYLOADS_ON, HIPVIS_REWRITE_EVERY="1"))
        seqs = self.by_seq(recs)
        groups = self.rule(rep, "host-source-rewritten")
        if not self.check(groups, "host-rewrite: host-source-rewritten reported"):
            return
        g = groups[0]
        copy, obs = seqs[g["earlier"]["seq"]], seqs[g["later"]["seq"]]
        self.check(g["severity"] == "error" and self.base(copy["api"]) == "hipMemcpyAsync" and copy["dir"] == "H2D"
                   and copy["src_mem"] == "host_pinned", "host-rewrite: the earlier side is the pinned async H2D copy")
        self.check(obs["seq"] > copy["seq"] and g["later"]["role"] == "observe" and obs["api"] in (
            "hipMemcpyWithStream", "hipStreamSynchronize", "hipEventSynchronize"),
            "host-rewrite: the later side is the observing call", f"{obs['api']} seq {obs['seq']}")
        observed = [p for p in self.of_type(recs, "payload") if p["when"] == 1]
        self.check(any(p["seq"] == obs["seq"] for p in observed), "host-rewrite: the trace's observed payload "
                   "follows the observing call")
        self.check(g.get("detail") and "int32 [1]" in g["detail"] and g.get("first_changed_offset") == 4,
                   "host-rewrite: the bytes that changed are named", g.get("detail", ""))
        # the stale reads the double produced match the rewrites found
        stale = int(out.split("stale_reads=")[1].split()[0])
        self.check(stale > 0 and sum(x["count"] for x in groups) >= 1, "host-rewrite: the double copied rewritten "
                   f"data ({stale} stale reads) and hipvis saw the rewrite")

        # The defaults: no payloads; each thread's first 4096 eligible copies
        # checked (HIPVIS_REWRITE_FIRST), then one in 16 (HIPVIS_REWRITE_EVERY).
        def checked(tag, steps=40, *args, **env):
            """(eligible copies' seqs by thread, the checked ones, the findings)."""
            _, rs, rp, _ = self.decode(tag, "--steps", str(steps), *(args or ("--host-rewrite",)), env_add=env)
            eligible = {}
            for c in sorted(self.calls(rs), key=lambda c: c["seq"]):
                if (c.get("op") == "copy" and c.get("dir") == "H2D" and c.get("async") and c["result"] == 0
                        and c.get("src_mem") in ("host_pinned", "host_registered") and not c.get("capturing")
                        and not c.get("copy_2d") and int(c["src"], 16) and c["bytes"] <= 16 << 10):
                    eligible.setdefault(c["tid"], []).append(c["seq"])
            # Each checked copy has its enqueue payload record (hash only), no other copy has one.
            got = {(p["tid"], p["seq"]) for p in self.of_type(rs, "payload") if p["when"] in (0, 2)}
            return eligible, got, rp

        def pick(eligible, keep):
            return {(tid, s) for tid, seqs in eligible.items() for i, s in enumerate(seqs) if keep(i)}

        eligible, got, rep2 = checked("rewrite_hash")
        g2 = self.rule(rep2, "host-source-rewritten")
        self.check(g2 and not g2[0].get("detail") and "hash" in g2[0]["note"],
                   "host-rewrite: at the defaults (payloads off) the hash still tells")
        self.check(eligible and got == pick(eligible, lambda i: True),
                   "host-rewrite: at the defaults a short run's eligible copies are all checked "
                   "(within each thread's first 4096)", f"{len(got)} checked of {sum(map(len, eligible.values()))}")
        def windows(idx, start, e, n):
            """Checks in each whole window of e eligible copies from index start, and the places."""
            per = [[i - w for i in idx if w <= i < w + e] for w in range(start, n - e + 1, e)]
            return [len(x) for x in per], {p for x in per for p in x}

        def one_in_4(first, mode):
            """400 steps, one copy in 4 after a warm-up of `first`: (the checked
            copies' indices among the thread's eligible ones, how many those are,
            how many copies were checked, the findings)."""
            eligible, got, rep = checked(f"rewrite_first{first}_{mode}", 400, HIPVIS_REWRITE_FIRST=str(first),
                                         HIPVIS_REWRITE_EVERY="4", HIPVIS_RECORD=mode)
            (tid, seqs), = eligible.items()
            return [i for i, q in enumerate(seqs) if (tid, q) in got], len(seqs), len(got), rep

        # With no warm-up and one copy in 4: each thread's first eligible copy
        # (async H2D from pinned/registered memory that ran, 1D, at most
        # HIPVIS_REWRITE_CHECK_KB=16 KiB), then one in each window of 4 at a
        # drawn place, with argument records (the defaults: the turn is a tick
        # over async copies) and with full records (a count of eligible copies).
        for mode in ("args", "full"):
            idx, n, n_got, rep0 = one_in_4(0, mode)
            counts, places = windows(idx, 0, 4, n)
            self.check(idx[:1] == [0] and n_got == len(idx) and set(counts) == {1} and len(places) == 4,
                       f"host-rewrite: HIPVIS_REWRITE_FIRST=0 HIPVIS_REWRITE_EVERY=4 ({mode} records): the first "
                       f"eligible copy, then one in each of the {len(counts)} windows of 4, at every place of the "
                       "window", f"checked {idx[:12]}..., checks a window {sorted(set(counts))}, places {places}")
            self.check(self.rule(rep0, "host-source-rewritten"), f"host-rewrite: ({mode} records) sampled, "
                       "it still sees the rewrite")
        # A warm-up of 5: the first 5 eligible copies, then one in each window
        # of 4 from the warm-up's last (index 4).
        for mode in ("args", "full"):
            idx, n, _, _ = one_in_4(5, mode)
            counts, _ = windows(idx, 4, 4, n)
            self.check(idx[:5] == [0, 1, 2, 3, 4] and 5 not in idx and set(counts) == {1},
                       f"host-rewrite: HIPVIS_REWRITE_FIRST=5 ({mode} records) checks each thread's first 5 "
                       f"eligible copies, then one in each of the next {len(counts)} windows of 4",
                       f"checked {idx[:12]}..., checks a window {sorted(set(counts))}")
        # Copies from pageable memory are never eligible; with argument records
        # the warm-up counts the tick's turns all the same, so that such a loop
        # leaves it: past the first 5, one async H2D copy in 16 in full (the
        # window asked for: the default's 256 would leave none in 200 steps).
        self.decode("rewrite_pageable", "--steps", "200", "--pageable",
                    env_add={"HIPVIS_REWRITE_FIRST": "5", "HIPVIS_REWRITE_EVERY": "16"})
        p = subprocess.run([self.dump, "--raw", "--json", os.path.join(self.tmp, "rewrite_pageable.zst")],
                           capture_output=True, text=True, check=True)
        rs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
        h2d = [c for c in sorted(self.calls(rs), key=lambda c: c["seq"])
               if self.base(c["api"]) == "hipMemcpyAsync"]   # the loop's only async copies: H2D
        full = [c for c in h2d if not c.get("argument_record")]
        self.check(len(h2d) > 200 and h2d[:5] == full[:5] and 5 + len(h2d) // 16 - 1 <= len(full) <= 5 + len(h2d) // 16 + 1,
                   f"host-rewrite: pageable copies leave the warm-up (HIPVIS_REWRITE_FIRST=5): {len(full)} of "
                   f"{len(h2d)} async H2D copies in full, the first 5 and one in 16 after them",
                   f"{len(full)} in full")

        # A rewrite every 8th step (steps 7, 15, ...), one copy in 8 checked,
        # no warm-up: a fixed gap of 7 would check steps 0, 8, 16, ... for
        # ever and never see it; the drawn gaps land on its steps.
        eligible, got, rep8 = checked("rewrite_period8", 1600, "--host-rewrite-every", "8",
                                      HIPVIS_REWRITE_FIRST="0", HIPVIS_REWRITE_EVERY="8")
        phases = {i % 8 for tid, seqs in eligible.items() for i, q in enumerate(seqs) if (tid, q) in got}
        self.check(len(phases) == 8 and self.rule(rep8, "host-source-rewritten"),
                   "host-rewrite: a rewrite every 8th step is seen with one copy in 8 checked (the checks land "
                   f"on all {len(phases)} phases of the 8-step pattern)", f"phases {sorted(phases)}")

        out3, _, rep3, _ = self.decode("rewrite_fixed", "--steps", "20", "--event-sync-before-rewrite")
        self.check(not self.rule(rep3, "host-source-rewritten") and "stale_reads=0" in out3,
                   "host-rewrite: an event synchronize before the rewrite -> nothing",
                   json.dumps(self.rule(rep3, "host-source-rewritten"))[:300])

        # Two threads, each copying its own pinned buffer on the legacy stream
        # and synchronizing it before it rewrites the buffer for the next step:
        # safe, yet one thread's synchronize also observes the other's copy.
        # The second hash used to run after the lists' lock was released, so
        # the other thread could finish its own synchronize and rewrite first:
        # a false finding in about one run in three of 3000 steps here (and
        # once in CI's tests/observe). Twelve runs (~1 s) would almost surely
        # show it again; the same loop with the rewrite (--host-rewrite) is
        # still found.
        false = []
        for i in range(12):
            trace = os.path.join(self.tmp, f"rewrite_threads{i}.zst")
            rc, out, err = self.run([os.path.join(self.apps, "decode_loop"), "--steps", "3000", "--threads", "2"],
                                    dict(self.on_double(), HIPVIS_REWRITE_EVERY="1"), trace=trace)
            if rc != 0 or "error=none" not in out:
                raise RuntimeError(f"decode_loop --threads 2: rc={rc} {out.strip()} {err.strip()}")
            false += self.rule(self.analyze_json(trace), "host-source-rewritten")
        self.check(not false, "host-rewrite: two threads on the legacy stream, each synchronizing before its "
                   "rewrite: nothing in 12 runs of 3000 steps (the other thread's observation hashes before "
                   "the rewrite)", json.dumps(false)[:300])
        _, _, rep4, _ = self.decode("rewrite_threads_real", "--steps", "64", "--threads", "2", "--host-rewrite",
                                    env_add={"HIPVIS_REWRITE_EVERY": "1"})
        self.check(self.rule(rep4, "host-source-rewritten"),
                   "host-rewrite: two threads, rewriting while the copy is queued -> still reported")

    def case_pending_bounds(self):
        """The rewrite check's pending lists at their bounds (tests/evidence/pending_bounds.c): 64 streams
        with copies waiting for their observation, 32 copies a stream; a synchronize frees the lists."""
        trace = os.path.join(self.tmp, "pending_bounds.zst")
        env = dict(self.on_double(), HIPVIS_REWRITE_EVERY="1")
        rc, out, err = self.run([os.path.join(self.build, "tests", "evidence", "pending_bounds")], env, trace=trace)
        if not self.check(rc == 0 and "src=" in out, "pending-bounds: the program ran", f"rc={rc} {err.strip()}"):
            return
        src = int(out.split("src=")[1].split()[0], 16)
        recs = self.records(trace)
        syncs = sorted(c["seq"] for c in self.calls(recs) if c["api"] == "hipDeviceSynchronize")
        if not self.check(len(syncs) == 4, "pending-bounds: four device synchronizes", str(syncs)):
            return
        phases = [[], [], [], []]
        for p in self.of_type(recs, "payload"):
            phases[sum(1 for s in syncs if s < p["seq"])].append(p)
        when = [sorted(p["when"] for p in ph) for ph in phases]
        slice_of = lambda p: (int(p["src"], 16) - src) // 64  # noqa: E731
        self.check(when[0] == [0] * 64 + [2] * 6 and sorted(slice_of(p) for p in phases[0] if p["when"] == 2)
                   == list(range(64, 70)), "pending-bounds: 70 streams: the first 64 checked, the last 6 unchecked",
                   str(when[0]))
        self.check(when[1] == [0] * 3, "pending-bounds: after the synchronize the freed lists take new copies",
                   str(when[1]))
        self.check(when[2] == [0] * 32 + [2] * 8, "pending-bounds: 40 copies on one stream: 32 checked, 8 not",
                   str(when[2]))
        seen = [p for p in phases[3] if p["when"] == 1]
        self.check(when[3] == [0] * 10 + [1] and len(seen) == 1 and slice_of(seen[0]) == 7
                   and seen[0]["seq"] == syncs[3], "pending-bounds: the rewrite of stream 7's source is observed "
                   "by the device synchronize (a list that is not the first in use)", str(when[3]))

    # ---- three-point probe ------------------------------------------------
    def probe_run(self, name, fault, *args, env=None):
        env_add = {"HIPVIS_PROBE": "auto"}
        env_add.update(env or {})
        if fault:
            env_add["HIPDOUBLE_FAULT"] = fault
        out, recs, rep, bufs = self.decode(name, "--steps", "24", *args, env_add=env_add)
        return out, recs, self.rule(rep, "three-point-probe"), bufs

    def case_probe(self):
        out, recs, groups, bufs = self.probe_run("probe_ok", None)
        probes = self.of_type(recs, "probe")
        replays = [c for c in self.calls(recs) if self.base(c["api"]) == "hipGraphLaunch"]
        cu = bufs[0]["cu_seqlens_q"]
        self.check(len(probes) >= len(replays) - 4 and all(int(p["have"], 16) & 0xf == 0xf and p["status"] == 0 for p in probes),
                   "probe: every replay after the first of each size is probed, all four points read",
                   f"{len(probes)} probes, {len(replays)} replays")
        self.check(all(int(p["addr"], 16) == cu and p["len"] == NSEQ_BYTES for p in probes),
                   "probe: auto learnt cu_seqlens_q (the copy's whole destination)")
        self.check(groups and all(g["severity"] == "info" and g["point"] == "none" for g in groups),
                   "probe: normal execution -> all three snapshots match", json.dumps(groups)[:300])
        self.check("stale_reads=0" in out, "probe: the extra stream work did not change the program's result")

        out, recs, groups, _ = self.probe_run("probe_h2a", "h2a")
        bad = [g for g in groups if g["point"] != "none"]
        self.check(bad and all(g["point"] == "after-copy" and g["severity"] == "error" for g in bad),
                   "probe: a second writer landing after the copy (h2a) -> after-copy divergence",
                   json.dumps([(g["point"], g["severity"]) for g in groups]))
        self.check(bad and "int32 [1]" in bad[0]["detail"] and bad[0]["first_differing_offset"] == 4,
                   "probe: the stale element is named", bad[0]["detail"] if bad else "")

        # named ranges: a sub-range of cu_seqlens_q, addresses made stable with ASLR off
        setarch = ["setarch", os.uname().machine, "-R"]
        app = os.path.join(self.apps, "decode_loop")
        # traced too, so the heap is laid out as in the probed run
        rc, first, _ = self.run(setarch + [app, "--steps", "2", "--print-buffers"], self.on_double(),
                                trace=os.path.join(self.tmp, "probe_layout.zst"))
        cu = [line for line in first.splitlines() if "cu_seqlens_q=" in line]
        if rc != 0 or not cu:
            self.check(True, "probe: named ranges skipped (setarch -R unavailable)")
            return
        addr = int(cu[0].split("cu_seqlens_q=")[1].split()[0], 16)
        trace = os.path.join(self.tmp, "probe_named.zst")
        env = self.on_double()
        env.update(HIPVIS_PROBE=f"{addr + 4:#x}:8", HIPDOUBLE_FAULT="h2a")
        rc, _, _ = self.run(setarch + [app, "--steps", "24", "--print-buffers"], env, trace=trace)
        probes = self.of_type(self.records(trace), "probe")
        rep = self.analyze_json(trace)
        named = self.rule(rep, "three-point-probe")
        self.check(rc == 0 and probes and all((int(p["addr"], 16), p["len"]) == (addr + 4, 8) for p in probes),
                   "probe: HIPVIS_PROBE=ADDR:LEN probes exactly that range", f"{len(probes)} probes")
        self.check(any(g["point"] == "after-copy" and g["first_differing_offset"] == 0 for g in named),
                   "probe: named range sees the h2a element at its offset 0")

        _, err = self.run([app, "--steps", "1"], dict(self.on_double(), HIPVIS_PROBE="0x10:99999"),
                          trace=os.path.join(self.tmp, "bad.zst"))[1:]
        self.check("HIPVIS_PROBE" in err and "tracing disabled" in err, "probe: a bad HIPVIS_PROBE is named")

    # ---- value forensics --------------------------------------------------
    def case_find_value(self):
        # prefill every 8 steps: step 7 writes the cumulative values of seed 8
        out, recs, rep, bufs = self.decode("value", "--steps", "12", env_add=dict(PAYLOADS_ON, HIPDOUBLE_FAULT="h2a"))
        trace = os.path.join(self.tmp, "value.zst")
        cu = bufs[0]["cu_seqlens_q"]
        v = expected_at(8, 200)                  # only the prefill wrote this value, at element 200
        rep = self.analyze_json(trace, "--find-value", str(v), "--at", f"{cu:#x}:{NSEQ_BYTES}")
        t = rep["traces"][0]
        seqs = self.by_seq(recs)
        prefill = [c for c in self.calls(recs) if c.get("dir") == "H2D" and c["epoch"] == 8]
        self.check(rep["found"] and len(t["writes"]) == 1 and t["writes"][0]["offset"] == 800,
                   f"find-value: {v} found at +800", json.dumps(t["writes"])[:300])
        w = t["writes"][0]
        self.check(prefill and w["write"]["seq"] == prefill[0]["seq"] and w["write"]["dir"] == "H2D",
                   "find-value: written by the prefill step's H2D copy")
        last = max(c["seq"] for c in self.calls(recs) if self.base(c["api"]) == "hipGraphLaunch")
        self.check(t["replay"]["seq"] == last and w["epochs_before"] == seqs[last]["epoch"] - 8 == 4,
                   "find-value: 4 epochs before the last replay reading the buffer", json.dumps(w))
        # the replay right after the prefill: 1 epoch later
        nxt = min(c["seq"] for c in self.calls(recs) if self.base(c["api"]) == "hipGraphLaunch"
                  and c["seq"] > prefill[0]["seq"])
        rep = self.analyze_json(trace, "--find-value", str(v), "--at", f"{cu:#x}:{NSEQ_BYTES}", "--replay", str(nxt))
        w = rep["traces"][0]["writes"][0]
        self.check(w["epochs_before"] == 1 and w["relation"] == "before",
                   "find-value: 1 epoch before the decode replay after the prefill (--replay)")
        p = subprocess.run([self.analyze, "--find-value", str(v), "--at", f"{cu:#x}:{NSEQ_BYTES}", "--replay",
                            str(nxt), trace], capture_output=True, text=True)
        self.check(p.returncode == 0 and f"{v} at {cu:#x}+800 was written by hipMemcpyAsync H2D at seq "
                   f"{prefill[0]['seq']}" in p.stdout and f"1 epoch before replay seq {nxt}" in p.stdout,
                   "find-value: the text report reads as a sentence", p.stdout.strip()[:300])
        # by kernel argument: the buffer the graph's kernel reads as arg 0
        rep = self.analyze_json(trace, "--find-value", str(v), "--at",
                                "kernel:_convert_req_index_to_global_index_kernel:0")
        t = rep["traces"][0]
        self.check(int(t["lo"], 16) == cu and t["writes"] and t["writes"][0]["offset"] == 800,
                   "find-value: --at kernel:NAME:ARG resolves to cu_seqlens_q")
        p = subprocess.run([self.analyze, "--find-value", "123456789", "--at", f"{cu:#x}:{NSEQ_BYTES}", trace],
                           capture_output=True, text=True)
        self.check(p.returncode == 1 and "no recorded write put 123456789 there" in p.stdout,
                   "find-value: a value never written -> exit 1")

    # ---- stacks -----------------------------------------------------------
    def case_stacks(self):
        out, recs, rep, bufs = self.decode("stacks", "--steps", "12", env_add={"HIPVIS_STACKS": "1"})
        stacks, maps = self.of_type(recs, "stack"), self.of_type(recs, "maps")
        defs = [s for s in stacks if s["nframes"]]
        self.check(stacks and defs and len(defs) < len(stacks), "stacks: recorded and deduplicated",
                   f"{len(defs)} definitions, {len(stacks)} records")
        self.check(any(m["path"].endswith("/decode_loop") for m in maps), "stacks: memory map names the app")
        g = self.rule(rep, "same-epoch-write")
        frames = g[0]["earlier"].get("stack", []) if g else []
        names = [f["function"] for f in frames if f.get("function")]
        self.check(frames and frames[0]["module"].endswith("/decode_loop") and
                   any(n in ("step", "run", "main") for n in names),
                   "stacks: a finding's write has a symbolized stack with the app's functions", json.dumps(names))
        self.check(g and g[0]["later"].get("stack"), "stacks: and its replay")

    def case_launch_every(self):
        """HIPVIS_LAUNCH_EVERY=4 with no warm-up (HIPVIS_LAUNCH_FIRST=0): about one eager
        launch in four looks its kernel up and records its pointer arguments, drawn per
        launch (both kernels of the loop's fixed sequence are drawn, which a count of one
        in four would not do: the loop launches them in turn, two a prefill step); the
        others are recorded as launches flagged `unsampled`, with no kernel and no
        kernel-argument record; launches inside a capture are always drawn (graph nodes);
        the analyzer counts the undrawn ones where the reader sees them (each trace's
        header, the JSON's total, a "coverage:" line under the verdict); the graph
        findings stay. With the default warm-up (each thread's first 4096 launches) the
        loop's launches are all drawn; with HIPVIS_LAUNCH_FIRST=40 the thread's first 40
        launches are, and later eager ones only as drawn."""
        _, recs1, rep1, _ = self.decode("launch-every-1", "--steps", "400", env_add={"HIPVIS_LAUNCH_EVERY": "1"})
        _, recsd, repd, _ = self.decode("launch-first-default", "--steps", "400",
                                        env_add={"HIPVIS_LAUNCH_EVERY": "4"})
        _, recs, rep, _ = self.decode("launch-every-4", "--steps", "400",
                                      env_add={"HIPVIS_LAUNCH_EVERY": "4", "HIPVIS_LAUNCH_FIRST": "0"})
        _, recsw, _, _ = self.decode("launch-first-40", "--steps", "400",
                                     env_add={"HIPVIS_LAUNCH_EVERY": "4", "HIPVIS_LAUNCH_FIRST": "40"})
        eager = lambda rs: [r for r in self.calls(rs) if self.base(r.get("api")) == "hipLaunchKernel"]   # noqa: E731
        launches = eager(recs)
        un = [r for r in launches if r.get("unsampled")]
        drawn = [r for r in launches if not r.get("unsampled")]
        owners = {r["seq"] for r in self.of_type(recs, "kargs")}
        self.check(un and drawn and 0.1 < len(drawn) / len(launches) < 0.5,
                   f"launch every 4: {len(drawn)} of {len(launches)} eager launches drawn",
                   f"{len(un)} not drawn")
        self.check(not any(r.get("kernel") or r.get("nptr") or r["seq"] in owners for r in un),
                   "launch every 4: an undrawn launch has no kernel and no kernel-argument record")
        kernels = {r.get("kernel") for r in drawn if not r.get("captured")}
        self.check(len(kernels) == 2, f"launch every 4: both kernels of the loop drawn outside captures: {sorted(kernels)}")
        self.check(all(not r.get("unsampled") for r in launches if r.get("captured")) and
                   any(r.get("captured") for r in launches), "launch every 4: every captured launch drawn")
        counted = [t.get("launches_unsampled") for t in rep.get("traces", [])]
        self.check(counted == [len(un)], f"launch every 4: the analyzer counts {counted} undrawn launches",
                   f"the trace holds {len(un)}")
        self.check(rep.get("launches_unsampled") == len(un), "launch every 4: the report's total says so too",
                   f"{rep.get('launches_unsampled')}")
        self.check(not any(t.get("launches_unsampled") for t in rep1.get("traces", [])) and
                   rep1.get("launches_unsampled") == 0, "launch every 1: no launch undrawn")
        # The text report says, under its verdict, what the verdict could not see.
        text = lambda name: subprocess.run([self.analyze, os.path.join(self.tmp, name + ".zst")],   # noqa: E731
                                           capture_output=True, text=True).stdout
        t4, t1 = text("launch-every-4"), text("launch-every-1")
        tail = t4[t4.find("verdict:"):]
        self.check(f"coverage: {len(un)} of {rep['traces'][0]['launches']} launches were recorded without their kernel" in tail and
                   "HIPVIS_LAUNCH_EVERY=1" in tail, "launch every 4: the text report's coverage line follows the verdict",
                   tail[:400])
        self.check("verdict:" in t1 and "coverage:" not in t1, "launch every 1: no coverage line")
        dl = eager(recsd)
        self.check(dl and not any(r.get("unsampled") for r in dl) and
                   not any(t.get("launches_unsampled") for t in repd.get("traces", [])),
                   f"launch every 4, the default warm-up: the loop's {len(dl)} launches are all within "
                   "the thread's first 4096: all drawn")
        # The warm-up counts every launch of the thread, a capture's too.
        wl = sorted(eager(recsw), key=lambda r: r["seq"])
        first, later = wl[:40], [r for r in wl[40:] if not r.get("captured")]
        self.check(len(first) == 40 and not any(r.get("unsampled") for r in first) and later and
                   0.1 < sum(not r.get("unsampled") for r in later) / len(later) < 0.5,
                   "launch first 40: the thread's first 40 launches drawn, later eager ones one in about four",
                   f"{sum(not r.get('unsampled') for r in later)} of {len(later)} later ones drawn")
        rules = lambda r: sorted((g["rule"], g.get("count")) for g in r["findings"])   # noqa: E731
        self.check(rules(rep) == rules(rep1), f"launch every 4: the same findings as every launch: {rules(rep)}",
                   f"{rules(rep1)}")

    def main(self):
        return self.run_cases((self.case_payloads, self.case_host_rewrite, self.case_pending_bounds, self.case_probe,
                               self.case_find_value, self.case_stacks, self.case_launch_every))

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(Evidence(sys.argv[1]).main())
