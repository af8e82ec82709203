#!/usr/bin/env python3
"""cost.py - what hipvis costs the serving loop users run (issue 12), on one GPU.

The step, as a vLLM-style decode loop does it on PyTorch's default stream:
  - a pinned host metadata buffer (2 KiB) copied with copy_(non_blocking=True);
  - a CUDA-graph replay: three graphs (batch 64/128/256) captured in one pool;
  - a stream synchronize and a .item() of the sampled token;
  - every 8th step an eager "prefill": the host rewrites the pinned buffer,
    copies it and runs the ops eagerly instead of replaying;
  and ~129 live streams: PyTorch's stream pools, filled through torch.cuda.Stream
  at every priority, as a serving process has them.

Several threads calling (--threads N, N >= 2): N - 1 helper threads run next to the decode loop,
each doing what a tokenizer / input-preparation thread of a serving process does: on a stream of
its own, write a small pinned host buffer (token ids), copy it to the device with
copy_(non_blocking=True), run two small kernels on it and read one value back with .item()
(a D2H copy and a synchronize of its stream), paced at one iteration per --helper-period-us.
hipvis_record_this_thread switches only the calling thread, so every thread applies the arm
itself: before each timed block the loop thread publishes the arm and waits until every helper
has switched to it at the top of its next iteration (a handshake, at most one helper period), so
all the threads of a block record, or none does. No other thread of this process calls the
runtime (PyTorch starts none for this loop); one that did would stay recorded in both arms.

Subcommands (one process each; each prints one JSON line {"result": ...}):
  cost.py step [--steps N]            median us/step over blocks (whole-process pairs)
  cost.py ab [--blocks N --steps S]   in-process A/B: blocks alternate hipvis_record_this_thread(1|0);
                                      without libhipvis the same alternation of two identical arms
                                      (the A/B noise floor)
             [--feature-arms M+M...]   groups of blocks instead of pairs: off, on, and on with the
                                      evidence features of each mask off (hipvis_measure_features_off:
                                      1 Python frames, 2 the rewrite check; env COST_AB_FEATURES),
                                      each mask's cost against the defaults in the same process
             [--threads N --thread-blocks B]
                                      then, in the same process, B more block pairs with N - 1 helper
                                      threads running (result "threads"): the A/B with several
                                      threads calling, next to the single-thread figure
  cost.py long [--steps N]            one long run; records made/dropped from hipvis_record_counts
  cost.py drive [--pairs N --blocks N --steps S --long-steps N --sidecar 0|1]
                                      runs all of the above as subprocesses (tests/gpu/cost.sh calls it),
                                      writes JSON lines under $OUT and prints the summary, with the
                                      whole processes split by step mode (step_modes)
  cost.py modes FILE                  that split again, from a cost.jsonl drive wrote (no GPU needed)
"""
import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time

META_INTS = 512          # 2 KiB of int32 metadata
SIZES = (64, 128, 256)
HIDDEN = 64
PREFILL_EVERY = 8


def feature_switch():
    """hipvis_measure_features_off when libhipvis is preloaded (and has it), else None."""
    return getattr(ctypes.CDLL(None), "hipvis_measure_features_off", None)


def hipvis():
    """(record_this_thread, record_counts) when libhipvis is preloaded, else (None, None)."""
    lib = ctypes.CDLL(None)
    try:
        switch = lib.hipvis_record_this_thread
    except AttributeError:
        return None, None
    counts = getattr(lib, "hipvis_record_counts", None)
    return switch, counts


def record_counts(counts):
    if counts is None:
        return None
    made, dropped = ctypes.c_uint64(0), ctypes.c_uint64(0)
    if counts(ctypes.byref(made), ctypes.byref(dropped)) != 0:
        return None
    return {"made": made.value, "dropped": dropped.value}


class Loop:
    def __init__(self, pool_streams=True):
        import torch
        self.torch = torch
        dev = "cuda"
        self.streams = []
        if pool_streams:
            # PyTorch's pools: 32 streams per priority level, created lazily
            # on first use; touching each slot at every priority fills them.
            try:
                lo, hi = torch.cuda.Stream.priority_range()
            except (AttributeError, RuntimeError):
                lo, hi = 0, -1
            prios = range(min(lo, hi), max(lo, hi) + 1)
            for p in prios:
                for _ in range(32):
                    self.streams.append(torch.cuda.Stream(priority=p))
        self.meta = torch.zeros(META_INTS, dtype=torch.int32, device=dev)
        self.hidden = torch.randn(max(SIZES), HIDDEN, device=dev)
        self.pin = torch.arange(META_INTS, dtype=torch.int32).pin_memory()
        self.pool = torch.cuda.graph_pool_handle()
        self.graphs = {}
        torch.cuda.synchronize()
        for bs in SIZES:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self.body(bs)   # warm-up outside capture
            torch.cuda.current_stream().wait_stream(side)
            torch.cuda.synchronize()
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, pool=self.pool):
                res = self.body(bs)
            self.graphs[bs] = (g, res)
        torch.cuda.synchronize()
        self.i = 0

    def body(self, bs):
        w = self.meta[:bs].float()
        y = self.hidden[:bs] * w[:, None]
        return self.torch.argmax(y.sum(dim=1))

    def step(self):
        torch = self.torch
        i = self.i
        self.i += 1
        if i % PREFILL_EVERY == 0:
            self.pin.copy_(torch.arange(META_INTS, dtype=torch.int32) * ((i // PREFILL_EVERY) % 7 + 2))
            self.meta.copy_(self.pin, non_blocking=True)
            tok = self.body(max(SIZES))
        else:
            self.meta.copy_(self.pin, non_blocking=True)
            g, tok = self.graphs[SIZES[i % len(SIZES)]]
            g.replay()
        torch.cuda.current_stream().synchronize()
        return tok.item()

    def block_us(self, steps):
        t0 = time.perf_counter()
        for _ in range(steps):
            self.step()
        return (time.perf_counter() - t0) / steps * 1e6


class Helper:
    """One helper thread (see the module docstring): its own stream, pinned buffer and pacing.
    `want` is the arm the loop thread asks for; `cur` the arm this thread has switched to."""

    def __init__(self, torch, switch, period_us, k):
        import threading
        self.torch, self.switch, self.period = torch, switch, period_us / 1e6
        self.stream = torch.cuda.Stream()
        self.pin = torch.zeros(256, dtype=torch.int32).pin_memory()   # 1 KiB of token ids
        self.dev = torch.zeros(256, dtype=torch.int32, device="cuda")
        self.want = self.cur = 1
        self.iters = 0
        self.stop = False
        self.k = k
        self.thread = threading.Thread(target=self.run, name=f"cost-helper-{k}", daemon=True)

    def run(self):
        torch = self.torch
        nxt = time.perf_counter()
        i = 0
        while not self.stop:
            want = self.want
            if want != self.cur:
                if self.switch is not None:
                    self.switch(want)
                self.cur = want
            i += 1
            self.pin[i % 256] = i + self.k            # the host writes the ids (no runtime call)
            with torch.cuda.stream(self.stream):
                self.dev.copy_(self.pin, non_blocking=True)
                (self.dev * 3 + 1).sum().item()        # kernels, a D2H copy, its stream synchronized
            self.iters += 1
            nxt += self.period
            delay = nxt - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            else:
                nxt = time.perf_counter()             # behind: no burst to catch up


def set_arm(switch, helpers, arm):
    """Every thread of the arm records (1) or not (0) before the block starts."""
    if switch is not None:
        switch(arm)
    for h in helpers:
        h.want = arm
    for h in helpers:
        while h.cur != arm:
            time.sleep(0.0001)


def median_ci95(sorted_vals):
    """A distribution-free 95% confidence interval for the median of sorted_vals: the order
    statistics n/2 -+ 1.96 sqrt(n)/2 (binomial, normal approximation). With 30 block pairs it
    spans about the 31st-69th percentile; it narrows as 1/sqrt(n)."""
    n = len(sorted_vals)
    if n == 0:
        return None
    half = 0.98 * n ** 0.5
    lo = max(0, int(n / 2 - half))
    hi = min(n - 1, int(n / 2 + half + 0.999))
    return [sorted_vals[lo], sorted_vals[hi]]


def paired_rounds(ref, arm):
    """An arm against a reference arm of the same call, round by round: ref and arm map a round to
    that round's process median (tests/gpu/ab_arms.sh runs every arm once a round, one after the
    other). The difference arm - ref of each round both finished cancels what moves the whole
    call (the host's mode, the machine lent: the defaults read 1.0134-1.0198 in four calls of one
    library, docs/performance.md). Returns None without a common round, else
    {"rounds", "median", "ci95" (distribution-free, as median_ci95), "mean", "half95" (Student's t
    half-width of the mean's 95% interval, None for one round: the resolution the rounds give),
    "below", "above", "sign_p"}: rounds the arm read below / above the reference, and the two-sided
    sign test's p."""
    from math import comb
    d = sorted(arm[r] - ref[r] for r in ref if r in arm)
    if not d:
        return None
    below, above = sum(x < 0 for x in d), sum(x > 0 for x in d)
    n, k = below + above, min(below, above)
    p = min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    df = len(d) - 1
    half = T95[min(df, len(T95)) - 1] * statistics.stdev(d) / len(d) ** 0.5 if df else None
    return {"rounds": len(d), "median": statistics.median(d), "ci95": median_ci95(d), "mean": statistics.mean(d),
            "half95": half, "below": below, "above": above, "sign_p": p}


# Student's t, two-sided 95%, for 1..30 degrees of freedom (beyond: the last, near 1.96).
T95 = (12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11,
       2.10, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04)


def fisher_p(a, b, c, d):
    """Two-sided Fisher exact test of the 2x2 table [[a, b], [c, d]]: the probability, with the
    margins fixed, of a table as unlikely as this one or less."""
    from math import comb
    n, r1, c1 = a + b + c + d, a + b, a + c
    def p(x):
        return comb(r1, x) * comb(n - r1, c1 - x) / comb(n, c1)
    p0 = p(a)
    return min(1.0, sum(p(x) for x in range(max(0, c1 - (n - r1)), min(r1, c1) + 1) if p(x) <= p0 * (1 + 1e-9)))


def step_modes(per_arm, ref="plain"):
    """The whole-process step times of this loop fall in two modes on the H200 host, each process in one
    for its whole life (docs/performance.md "Method"): a pair ratio then compares
    modes as often as it compares arms. per_arm: {arm: [us/step of each process]}. Splits all processes
    at the widest gap between two neighbours of the pooled sorted times (among the middle 80%), when
    that gap is at least 5% of the lower time (in the thirteenth session 6.2%, 43.3 -> 46.0 us, where no
    other gap of the middle 80% passed 4.5%); returns None for one mode. Per arm: how many processes
    ran in each mode, each mode's median, the fast-mode median over `ref`'s, and Fisher's exact p of
    the arm's mode counts against `ref`'s (does recording change which mode a process lands in?)."""
    pooled = sorted(v for vals in per_arm.values() for v in vals)
    n = len(pooled)
    if n < 8:
        return None
    lo, hi = int(n * 0.1), int(n * 0.9)
    gap, at = max((pooled[i + 1] / pooled[i], i) for i in range(lo, max(lo + 1, hi - 1)))
    if gap < 1.05:
        return None
    split = (pooled[at] + pooled[at + 1]) / 2
    out = {"split_us": split, "arms": {}}
    for arm, vals in per_arm.items():
        fast, slow = [v for v in vals if v < split], [v for v in vals if v >= split]
        out["arms"][arm] = {"fast": len(fast), "slow": len(slow),
                            "fast_median_us": statistics.median(fast) if fast else None,
                            "slow_median_us": statistics.median(slow) if slow else None}
    r = out["arms"].get(ref)
    for arm, m in out["arms"].items():
        if arm == ref or not r:
            continue
        if m["fast_median_us"] and r["fast_median_us"]:
            m["fast_ratio"] = m["fast_median_us"] / r["fast_median_us"]
        m["mode_counts_p"] = fisher_p(r["fast"], r["slow"], m["fast"], m["slow"])
    return out


def modes_line(modes, ref="plain"):
    """One line for step_modes' answer."""
    if not modes:
        return "cost: step modes: one mode (no gap of 5% between the processes' step times)"
    parts = []
    for arm, m in modes["arms"].items():
        t = f"{arm} {m['fast']} fast / {m['slow']} slow"
        if m["fast_median_us"]:
            t += f", fast median {m['fast_median_us']:.2f} us"
        if "fast_ratio" in m:
            t += f" ({m['fast_ratio']:.3f} of {ref}'s)"
        if "mode_counts_p" in m:
            t += f", counts against {ref}'s p={m['mode_counts_p']:.2f}"
        parts.append(t)
    return f"cost: step modes (split at {modes['split_us']:.1f} us/step): " + "; ".join(parts)


def process_times(lines):
    """{arm: [us/step of each whole process that ran]} from cost.jsonl's lines."""
    per = {}
    for o in lines:
        if o.get("kind") == "process" and o.get("rc") == 0 and o.get("result"):
            per.setdefault(o["arm"], []).append(o["result"]["us_per_step"])
    return per


def ring_mappings():
    """What backs this process's hipvis rings (docs/sidecar.md): the mappings of its sidecar segment
    (hipvis.*.ring), or at the defaults the anonymous mappings at least one ring's size (HIPVIS_RING_KB + the
    4 KiB header page: the kernel merges a ring with its anonymous neighbours, so these hold the rings and
    maybe more); their sizes and huge-page kB from /proc/self/smaps."""
    ring_kb = int(os.environ.get("HIPVIS_RING_KB", "4096")) + 4
    keys = ("Size", "Rss", "AnonHugePages", "ShmemPmdMapped", "FilePmdMapped")
    out = {"kind": None, "mappings": 0, **{k: 0 for k in keys}}
    cur, take = None, False
    try:
        lines = open("/proc/self/smaps").read().splitlines()
    except OSError:
        return None
    for line in lines + ["0-0 x 0 0:0 0"]:
        f = line.split()
        if "-" in f[0] and len(f) >= 5 and not f[0].endswith(":"):
            if cur and take:
                out["mappings"] += 1
                for k in keys:
                    out[k] += cur.get(k, 0)
            path = f[5] if len(f) > 5 else ""
            cur, take = {}, None
            if "/hipvis." in path and path.endswith(".ring"):
                take, out["kind"], out["segment_dir"] = True, "segment", os.path.dirname(path)
            elif not path:
                take = "anon"
        elif cur is not None and f[0].rstrip(":") in keys + ("Size",):
            cur[f[0].rstrip(":")] = int(f[1])
            if take == "anon" and f[0] == "Size:":
                take = int(f[1]) >= ring_kb
                if take:
                    out["kind"] = out["kind"] or "anonymous, >= one ring"
    if out.get("segment_dir"):
        out["segment_fs"] = fs_type(out["segment_dir"])
    return out


def fs_type(path):
    """The filesystem type of the mount holding `path` (/proc/self/mountinfo: the longest mount point that
    is a prefix of it), e.g. tmpfs, ext4, overlay."""
    best, kind = "", None
    path = os.path.realpath(path)
    try:
        for line in open("/proc/self/mountinfo"):
            left, right = line.split(" - ", 1)
            mnt = left.split()[4]
            if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
                best, kind = mnt, right.split()[0]
    except (OSError, ValueError, IndexError):
        return None
    return kind


def minflt():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def ab_blocks(loop, switch, helpers, blocks, steps):
    """Alternating A/B block pairs; returns the medians, the block-ratio spread and the helpers'
    iterations per block in each arm."""
    a, b, it_a, it_b = [], [], [], []
    for k in range(blocks):
        # order alternates so drift hits both arms alike
        for arm in ((1, 0) if k % 2 == 0 else (0, 1)):
            set_arm(switch, helpers, arm)
            i0 = sum(h.iters for h in helpers)
            (a if arm else b).append(loop.block_us(steps))
            (it_a if arm else it_b).append(sum(h.iters for h in helpers) - i0)
    set_arm(switch, helpers, 1)
    ratios = sorted(x / y for x, y in zip(a, b))
    out = {"arm_on_us": statistics.median(a), "arm_off_us": statistics.median(b), **block_summary(ratios),
           "blocks": blocks, "steps": steps, "ratios": [round(x, 5) for x in ratios]}
    if helpers:
        out["helper_iters_per_block_on"] = statistics.median(it_a)
        out["helper_iters_per_block_off"] = statistics.median(it_b)
    return out


def block_summary(ratios):
    """The median of sorted block ratios, its spread and its distribution-free 95% interval."""
    n = len(ratios)
    return {"median_block_ratio": statistics.median(ratios), "p10": ratios[n // 10], "p90": ratios[(9 * n) // 10],
            "median_ci95": median_ci95(ratios)}


def ab_feature_blocks(loop, switch, features, groups, steps, masks):
    """Groups of blocks in one process: recording off, on at the defaults, and on with the features
    of each mask off (features(mask): hipvis_measure_features_off), the order rotated group by group
    so that each state takes each place in turn. Returns ab_blocks's figures for on against off and,
    under "feature_arms", each mask's block against the defaults' block of its group: what the masked
    features cost, with the host's state of that moment on both sides of each ratio."""
    states = [None, 0] + [m for m in masks if m]   # None: recording off; 0: the defaults
    t = {st: [] for st in states}
    for k in range(groups):
        r = k % len(states)
        for st in states[r:] + states[:r]:
            set_arm(switch, [], 0 if st is None else 1)
            if st is not None:
                features(st)
            t[st].append(loop.block_us(steps))
    set_arm(switch, [], 1)
    features(0)
    ratios = sorted(x / y for x, y in zip(t[0], t[None]))
    out = {"arm_on_us": statistics.median(t[0]), "arm_off_us": statistics.median(t[None]), **block_summary(ratios),
           "blocks": groups, "steps": steps, "ratios": [round(x, 5) for x in ratios], "feature_arms": {}}
    for m in states[2:]:
        fr = sorted(x / y for x, y in zip(t[m], t[0]))
        out["feature_arms"][str(m)] = {**block_summary(fr), "arm_us": statistics.median(t[m]),
                                       "ratios": [round(x, 5) for x in fr]}
    return out


# Steps run before anything is timed: past the ring's claim and the writer's start, and past
# hipvis's per-thread warm-ups, so that every figure is a long-running loop's steady state: each
# thread's first 4096 eligible pinned copies are all rewrite-checked (HIPVIS_REWRITE_FIRST, one a
# step here) and, with HIPVIS_LAUNCH_EVERY above 1, its first 4096 kernel launches all carry their
# evidence (HIPVIS_LAUNCH_FIRST; ~0.5 a step here: a prefill's ~4 every 8th step). ~0.4 s.
WARM_STEPS = 10000
HELPER_WARM_ITERS = 4200


def sub_step(args):
    loop = Loop()
    for _ in range(WARM_STEPS):
        loop.step()
    _, counts = hipvis()
    blocks = [loop.block_us(args.steps // 5) for _ in range(5)]
    return {"us_per_step": statistics.median(blocks), "blocks_us": blocks, "steps": args.steps,
            "records": record_counts(counts), "cpu": last_cpu()}


def last_cpu():
    """The CPU this (main) thread last ran on: /proc/self/stat's 39th field. Step times of this
    loop on the H200 host fall into two modes by process; this says where each process ran."""
    try:
        with open("/proc/thread-self/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        return None


def sub_ab(args):
    switch, counts = hipvis()
    loop = Loop()
    for _ in range(WARM_STEPS):
        loop.step()
    before = record_counts(counts)
    f0 = minflt()
    masks = [int(x) for x in args.feature_arms.replace(",", "+").split("+") if x.strip()]
    features = feature_switch() if masks and switch is not None else None
    if features is not None:
        out = ab_feature_blocks(loop, switch, features, args.blocks, args.block_steps, masks)
    else:
        out = ab_blocks(loop, switch, [], args.blocks, args.block_steps)
    out.update({"hipvis": switch is not None, "records_before": before, "records_after": record_counts(counts),
                "minflt_blocks": minflt() - f0, "rings": ring_mappings() if switch is not None else None})
    if args.threads > 1 and args.thread_blocks > 0:
        helpers = [Helper(loop.torch, switch, args.helper_period_us, k) for k in range(args.threads - 1)]
        for h in helpers:
            h.thread.start()
        # Helpers warm: rings claimed, recording on, and past their own warm-ups (WARM_STEPS' note):
        # 4096 checked copies each, one an iteration, ~4 s at the default period (at most 30 s).
        t_end = time.perf_counter() + 30
        while min(h.iters for h in helpers) < HELPER_WARM_ITERS and time.perf_counter() < t_end:
            loop.step()
        t_before = record_counts(counts)
        th = ab_blocks(loop, switch, helpers, args.thread_blocks, args.block_steps)
        for h in helpers:
            h.stop = True
        for h in helpers:
            h.thread.join()
        th.update({"threads": args.threads, "helper_period_us": args.helper_period_us,
                   "records_before": t_before, "records_after": record_counts(counts)})
        out["threads"] = th
    return out


def sub_long(args):
    _, counts = hipvis()
    loop = Loop()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        loop.step()
    us = (time.perf_counter() - t0) / args.steps * 1e6
    return {"steps": args.steps, "us_per_step": us, "records": record_counts(counts)}


# ---------------------------------------------------------------- driver

def run_child(argv, env, log):
    t0 = time.time()
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    with open(log, "a") as f:
        f.write(f"$ {' '.join(argv)}\n{p.stdout}{p.stderr}\n")
    result = None
    for line in p.stdout.splitlines():
        if line.startswith('{"result"'):
            result = json.loads(line)["result"]
    return {"rc": p.returncode, "seconds": round(time.time() - t0, 1), "result": result,
            "stderr_tail": p.stderr.strip().splitlines()[-3:] if p.returncode else []}


def trace_footer(dump, path):
    """Records written and dropped per the trace's footer (hipvis-dump --json)."""
    p = subprocess.run([dump, "--json", path], capture_output=True, text=True)
    footer = None
    for line in p.stdout.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") == "footer":
            footer = o
    return footer


def child_env(arm, output=None, segdir=None):
    """The environment of one child process: no hipvis ("plain"); the preload writing `output`
    ("defaults"); or sidecar mode into `segdir` (any other arm; None keeps HIPVIS_SIDECAR_DIR as set).
    HIPVIS_LIB names the library, HIPVIS_LIBPATH the libraries it may need (cost.sh)."""
    e = dict(os.environ, PYTHONUNBUFFERED="1", HIPVIS_QUIET="1")
    for k in ("LD_PRELOAD", "HIPVIS_SIDECAR", "HIPVIS_OUTPUT"):
        e.pop(k, None)
    if arm == "plain":
        return e
    e["LD_PRELOAD"] = os.environ["HIPVIS_LIB"]
    extra_ld = os.environ.get("HIPVIS_LIBPATH", "")
    if extra_ld:
        e["LD_LIBRARY_PATH"] = extra_ld + (":" + e["LD_LIBRARY_PATH"] if e.get("LD_LIBRARY_PATH") else "")
    if arm == "defaults":
        e["HIPVIS_OUTPUT"] = output
    else:
        e["HIPVIS_SIDECAR"] = "1"
        if segdir:
            e["HIPVIS_SIDECAR_DIR"] = segdir
    return e


def pair_ratios(lines, arm, ref, pairs):
    """Whole-process pairs: per round, `arm`'s step time over `ref`'s (the rounds where both ran
    and succeeded), in round order. Against "plain" it is the arm's cost; the sidecar against the
    defaults is what the sidecar adds to the same recording, paired as closely as the rounds allow."""
    out = []
    for r in range(pairs):
        p = [o for o in lines if o["kind"] == "process" and o["round"] == r and o["rc"] == 0 and o["result"]]
        a = [o["result"]["us_per_step"] for o in p if o["arm"] == arm]
        b = [o["result"]["us_per_step"] for o in p if o["arm"] == ref]
        if a and b:
            out.append(a[0] / b[0])
    return out


DRIVE_PARTS = ("ab", "long", "pairs")


def drive(args):
    out = os.environ.get("OUT") or "gpu-out"
    os.makedirs(out, exist_ok=True)
    dump = os.environ.get("HIPVIS_DUMP", "")
    work = os.environ.get("HIPVIS_WORK", "/tmp")
    res_path = os.path.join(out, "cost.jsonl")
    log = os.path.join(out, "cost.log")
    me = os.path.abspath(__file__)
    parts = [x for x in args.parts.split(",") if x]
    if not parts or any(x not in DRIVE_PARTS for x in parts):
        print(f"cost: --parts {args.parts!r}: a comma-separated list of {', '.join(DRIVE_PARTS)}", file=sys.stderr)
        return 2

    def arm_env(arm, tag):
        return child_env(arm, output=os.path.join(work, f"cost.{tag}.%p.hvt"))

    arms = ["plain", "defaults"] + (["sidecar"] if args.sidecar else [])
    lines = []

    def emit(obj):
        lines.append(obj)
        with open(res_path, "a") as f:
            f.write(json.dumps(obj) + "\n")

    t_start = time.time()
    # 1. in-process A/B: noise floor (no hipvis), defaults, sidecar
    for arm in (["plain"] + arms[1:]) if "ab" in parts else []:
        x = run_child([sys.executable, me, "ab", "--blocks", str(args.blocks), "--block-steps",
                       str(args.block_steps), "--threads", str(args.threads), "--thread-blocks",
                       str(args.thread_blocks), "--helper-period-us", str(args.helper_period_us)],
                      arm_env(arm, "ab"), log)
        emit({"kind": "ab", "arm": arm, **x})
        print(f"cost: A/B {arm}: {json.dumps(x['result'])[:200] if x['result'] else x}", flush=True)
    # 2. one long run at the defaults
    if "long" in parts:
        long_trace = os.path.join(work, "cost.long.%p.hvt")
        e = arm_env("defaults", "long")
        e["HIPVIS_OUTPUT"] = long_trace
        x = run_child([sys.executable, me, "long", "--steps", str(args.long_steps)], e, log)
        footer = None
        if dump:
            import glob
            for path in glob.glob(os.path.join(work, "cost.long.*.hvt")):
                footer = trace_footer(dump, path)
        emit({"kind": "long", "arm": "defaults", "footer": footer, **x})
        print(f"cost: long run: {json.dumps(x['result'])[:200] if x['result'] else x}; footer {footer}", flush=True)
    # 3. whole-process rounds, every arm once per round, order rotating,
    # until --pairs rounds or the time budget (what ran is reported)
    rounds = 0
    for r in range(args.pairs if "pairs" in parts else 0):
        if time.time() - t_start > args.budget_s:
            break
        order = arms[r % len(arms):] + arms[:r % len(arms)]
        for arm in order:
            x = run_child([sys.executable, me, "step", "--steps", str(args.steps)], arm_env(arm, f"step{r}"), log)
            emit({"kind": "process", "round": r, "arm": arm, **x})
        rounds += 1
        print(f"cost: round {r + 1}/{args.pairs} done at {time.time() - t_start:.0f} s", flush=True)

    # summary
    def med(arm):
        v = [o["result"]["us_per_step"] for o in lines if o["kind"] == "process" and o["arm"] == arm
             and o["rc"] == 0 and o["result"]]
        return statistics.median(v) if v else None

    summary = {"kind": "summary", "seconds": round(time.time() - t_start, 1), "parts": parts,
               "pairs_asked": args.pairs, "rounds_run": rounds,
               "steps_per_process": args.steps, "blocks": args.blocks, "arms": {}}
    for arm in arms:
        summary["arms"][arm] = {"median_us_per_step": med(arm)}
    for arm in arms[1:]:
        ratios = pair_ratios(lines, arm, "plain", args.pairs)
        summary["arms"][arm]["pair_ratio_median"] = statistics.median(ratios) if ratios else None
        summary["arms"][arm]["pair_ratio_ci95"] = median_ci95(sorted(ratios))
        summary["arms"][arm]["pairs"] = len(ratios)
        drops = [o["result"]["records"]["dropped"] for o in lines if o["kind"] == "process" and o["arm"] == arm
                 and o["result"] and o["result"].get("records")]
        summary["arms"][arm]["dropped_per_run"] = drops
    if "sidecar" in arms:
        vs = pair_ratios(lines, "sidecar", "defaults", args.pairs)
        summary["arms"]["sidecar"]["vs_defaults_pair_ratio_median"] = statistics.median(vs) if vs else None
        summary["arms"]["sidecar"]["vs_defaults_pair_ratio_ci95"] = median_ci95(sorted(vs))
    keys = ("median_block_ratio", "p10", "p90", "median_ci95", "blocks", "arm_on_us", "arm_off_us")
    for o in lines:
        if o["kind"] == "ab" and o["result"]:
            summary["arms"].setdefault(o["arm"], {})["ab"] = {k: o["result"][k] for k in keys}
            th = o["result"].get("threads")
            if th:
                summary["arms"][o["arm"]]["ab_threads"] = {
                    k: th.get(k) for k in keys + ("blocks", "threads", "helper_period_us", "helper_iters_per_block_on",
                                                  "helper_iters_per_block_off")}
    for lg in [o for o in lines if o["kind"] == "long"][:1]:
        ft = lg["footer"] or {}
        summary["long"] = {"steps": args.long_steps, "rc": lg["rc"],
                           "records": lg["result"]["records"] if lg["result"] else None,
                           "footer_records_made": ft.get("records_made"),
                           "footer_records_written": ft.get("records_written"),
                           "footer_lost": (ft["records_made"] - ft["records_written"]) if "records_made" in ft else None}
    # What a pair-ratio median of this many pairs reads when both arms are the same: pairs of two plain
    # processes drawn from this run's (a process of this loop settles at its own step time for the whole
    # run, 36-65 us/step on the H200 in session 4, whatever it preloads). An arm's pair median inside this
    # interval is not told apart from no cost.
    plain = [o["result"]["us_per_step"] for o in lines if o["kind"] == "process" and o["arm"] == "plain"
             and o["rc"] == 0 and o["result"]]
    if len(plain) >= 4 and rounds:
        import random
        rnd = random.Random(7)
        meds = sorted(statistics.median(rnd.choice(plain) / rnd.choice(plain) for _ in range(rounds))
                      for _ in range(4000))
        summary["pair_ratio_null90"] = [meds[200], meds[3800]]
    summary["step_modes"] = step_modes(process_times(lines))
    emit(summary)
    print(json.dumps(summary, indent=1))
    # The in-process A/B side by side: one thread calling, then several (same process).
    for arm in ["plain"] + arms[1:]:
        st = summary["arms"].get(arm, {})
        one, th = st.get("ab"), st.get("ab_threads")
        if not one:
            continue
        ci = one.get("median_ci95") or [0, 0]
        line = (f"cost: A/B {arm:8s} 1 thread: {one['median_block_ratio']:.3f} (p10-p90 {one['p10']:.3f}-{one['p90']:.3f},"
                f" median 95% CI {ci[0]:.3f}-{ci[1]:.3f}, {one.get('blocks')} pairs)")
        if th:
            line += (f"; {th['threads']} threads: {th['median_block_ratio']:.3f} ({th['p10']:.3f}-{th['p90']:.3f}),"
                     f" {th['blocks']} pairs, helper iterations per block on/off"
                     f" {th['helper_iters_per_block_on']}/{th['helper_iters_per_block_off']}")
        print(line, flush=True)
    if "pair_ratio_null90" in summary:
        lo, hi = summary["pair_ratio_null90"]
        print(f"cost: whole-process pair ratio medians: " + ", ".join(
            f"{a} {summary['arms'][a]['pair_ratio_median']:.3f}" for a in arms[1:]
            if summary["arms"][a].get("pair_ratio_median")) +
            f"; two plain arms would read {lo:.3f}-{hi:.3f} (90%, {rounds} pairs resampled from this run)", flush=True)
    sv = summary["arms"].get("sidecar", {})
    if sv.get("vs_defaults_pair_ratio_median"):
        ci = sv.get("vs_defaults_pair_ratio_ci95") or [0, 0]
        print(f"cost: whole-process pairs, sidecar over defaults: {sv['vs_defaults_pair_ratio_median']:.3f}"
              f" (median 95% CI {ci[0]:.3f}-{ci[1]:.3f})", flush=True)
    print(modes_line(summary["step_modes"]), flush=True)
    ok = all(o["rc"] == 0 for o in lines if "rc" in o)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["step", "ab", "long", "drive", "modes"])
    ap.add_argument("file", nargs="?", help="modes: a cost.jsonl that drive wrote (read again on any machine)")
    ap.add_argument("--steps", type=int, default=2000, help="steps per whole process (step)")
    ap.add_argument("--block-steps", type=int, default=1000, help="steps per A/B block")
    ap.add_argument("--budget-s", type=float, default=300,
                    help="drive: start no new whole-process round after this many seconds")
    ap.add_argument("--blocks", type=int, default=30, help="A/B block pairs")
    ap.add_argument("--feature-arms", default=os.environ.get("COST_AB_FEATURES", ""),
                    help="ab: masks for hipvis_measure_features_off, e.g. 1+2 (block groups instead of pairs)")
    ap.add_argument("--pairs", type=int, default=20, help="whole-process rounds (each arm once per round)")
    ap.add_argument("--long-steps", type=int, default=50000)
    ap.add_argument("--sidecar", type=int, default=1, help="1: also the HIPVIS_SIDECAR=1 arm")
    ap.add_argument("--parts", default="ab,long,pairs",
                    help="drive: which parts run, comma-separated: ab (in-process A/B), long (the 50,000-step run), "
                         "pairs (whole-process rounds)")
    ap.add_argument("--threads", type=int, default=1,
                    help="ab: threads calling the runtime in the threads arm (the loop + N-1 helpers); 1: none")
    ap.add_argument("--thread-blocks", type=int, default=20, help="ab: block pairs of the threads arm")
    ap.add_argument("--helper-period-us", type=float, default=1000,
                    help="ab: one helper iteration (H2D copy, two kernels, .item()) per this many us")
    args = ap.parse_args()
    if args.cmd == "drive":
        return drive(args)
    if args.cmd == "modes":
        if not args.file:
            ap.error("modes needs the cost.jsonl to read")
        with open(args.file) as f:
            print(modes_line(step_modes(process_times(json.loads(x) for x in f if x.strip()))))
        return 0
    result = {"step": sub_step, "ab": sub_ab, "long": sub_long}[args.cmd](args)
    import torch
    result.update({"cmd": args.cmd, "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "hipvis": hipvis()[0] is not None})
    print(json.dumps({"result": result}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
