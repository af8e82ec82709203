#!/usr/bin/env python3
"""Cost of each synchronization / fix pattern of ROCm/hip#3902 on the PyTorch
decode loop of tests/gpu/decode.py, measured in ONE process: blocks of
--steps steps, the patterns in a rotating order inside each block, and per
pattern the median over blocks of (pattern step time / baseline step time
of the same block). Alternating inside one process cancels clock, thermal
and allocator drift that separate runs would mix into the ratio.

Patterns (docs/case-study-rocm-hip-3902.md, "fix patterns"):
  baseline       host rewrites the pinned source, copy_(non_blocking=True), replay
  stream-sync    + current_stream().synchronize() between copy and replay
  event-sync     + an event recorded after the copy, host waits on it, replay
  memcpy-node    the copy captured into each graph as a memcpy node (own graphs)
  double-buffer  two pinned sources used alternately; the host waits for the
                 slot's previous copy (event) before rewriting it

Guard modes (only under LD_PRELOAD=build/libhipvis.so with HIPVIS_GUARD set,
which arms the guard; the script switches the active mode in-process with
hipvis_guard_set): guard-off, guard-stream-sync, guard-event-sync,
guard-copy-sync - ratios against guard-off of the same block, so the tracer's
own cost cancels. CUDA events have no scope flags: event-sync-nofence and
release-event are HIP-only experiments and are not measured here.

usage:
  python3 tests/gpu/fix_patterns.py [--steps 64] [--blocks 15]
  HIPVIS_GUARD=stream-sync HIPVIS_OUTPUT=/tmp/fp.zst LD_PRELOAD=build/libhipvis.so \\
      python3 tests/gpu/fix_patterns.py --guards
Prints one JSON line {"result": {...}}: per pattern the median step time
(us), the median ratio to its baseline and the min/max ratio over blocks.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode import N, SIZES, Decode  # noqa: E402


class CopyInGraph(Decode):
    """The same loop with the H2D copy captured as each graph's first node."""

    def body(self, bs):
        self.cu_seqlens_q.copy_(self.pin_decode, non_blocking=True)
        return super().body(bs)


class Loop:
    def __init__(self):
        self.d = Decode()
        self.g = CopyInGraph()
        self.host = torch.arange(N + 1, dtype=torch.int32)  # what prepare_inputs computes each step
        self.ev = torch.cuda.Event()
        self.pins = [torch.empty(N + 1, dtype=torch.int32).pin_memory() for _ in range(2)]
        self.slot_ev = [torch.cuda.Event(), torch.cuda.Event()]
        for e in self.slot_ev:
            e.record()
        lib = ctypes.CDLL(None)
        self.guard_set = getattr(lib, "hipvis_guard_set", None)

    def prepare(self, pin):
        pin.copy_(self.host)  # the host rewrites the pinned source

    def step(self, pattern, i):
        d = self.g if pattern == "memcpy-node" else self.d
        if i % 8 == 0:
            d.prefill()
        bs = SIZES[i % len(SIZES)]
        if pattern == "memcpy-node":
            self.prepare(d.pin_decode)
        elif pattern == "double-buffer":
            k = i % 2
            self.slot_ev[k].synchronize()  # that slot's previous copy has read it
            self.prepare(self.pins[k])
            d.cu_seqlens_q.copy_(self.pins[k], non_blocking=True)
            self.slot_ev[k].record()
        else:
            self.prepare(d.pin_decode)
            d.cu_seqlens_q.copy_(d.pin_decode, non_blocking=True)
            if pattern == "stream-sync":
                torch.cuda.current_stream().synchronize()
            elif pattern == "event-sync":
                self.ev.record()
                self.ev.synchronize()
        d.graphs[bs][0].replay()

    def block(self, pattern, steps):
        if pattern.startswith("guard-"):
            mode = pattern[len("guard-"):]
            if self.guard_set(mode.encode()) != 0:
                raise SystemExit(f"hipvis_guard_set({mode}) failed: is HIPVIS_GUARD set?")
            pattern = "baseline"
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for i in range(steps):
            self.step(pattern, i)
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / steps * 1e6


def measure(loop, patterns, baseline, steps, blocks):
    times = {p: [] for p in patterns}
    ratios = {p: [] for p in patterns}
    for b in range(blocks):
        order = patterns[b % len(patterns):] + patterns[:b % len(patterns)]
        got = {p: loop.block(p, steps) for p in order}
        for p in patterns:
            times[p].append(got[p])
            ratios[p].append(got[p] / got[baseline])
    return {p: {"us_per_step": statistics.median(times[p]), "ratio": statistics.median(ratios[p]),
                "ratio_min": min(ratios[p]), "ratio_max": max(ratios[p])} for p in patterns}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("--blocks", type=int, default=15)
    ap.add_argument("--guards", action="store_true", help="measure hipvis guard modes (needs HIPVIS_GUARD)")
    args = ap.parse_args()
    loop = Loop()
    if args.guards and loop.guard_set is None:
        raise SystemExit("--guards: run under LD_PRELOAD=build/libhipvis.so with HIPVIS_GUARD set")
    for p in ("baseline", "memcpy-node", "double-buffer"):
        loop.block(p, 200)  # warm-up: allocator, graph upload, Triton
    patterns = ["baseline", "stream-sync", "event-sync", "memcpy-node", "double-buffer"]
    result = {"patterns": measure(loop, patterns, "baseline", args.steps, args.blocks)}
    if args.guards:
        guards = ["guard-off", "guard-stream-sync", "guard-event-sync", "guard-copy-sync"]
        result["guards"] = measure(loop, guards, "guard-off", args.steps, args.blocks)
        loop.guard_set(b"off")
    result.update({"steps": args.steps, "blocks": args.blocks, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "hipvis": loop.guard_set is not None,
                   "guard_armed": os.environ.get("HIPVIS_GUARD")})
    print(json.dumps({"result": result}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
