#!/usr/bin/env python3
"""Where hipvis's cost goes in the serving loop of tests/gpu/cost.py, per CUDA API.

Run under LD_PRELOAD="calltime.so [libhipvis.so]" (tests/gpu/cost_attr.sh does).
In-process A/B as cost.py ab does (blocks of the same loop, recording on and off
for this thread, order alternating), and for every block calltime.so's per-API
call counts and time inside each call (hipvis wrapper + runtime). Prints one JSON
line {"result": ...}: per-arm step time, and per API calls per step, ns per call
on/off (medians over blocks) and the added ns per step it explains. What the per-API
rows do not explain is cost outside the calls (caches, the writer thread).
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cost import Loop, hipvis, record_counts  # noqa: E402


def snapshot(ct):
    out = {}
    calls, ticks = ctypes.c_uint64(0), ctypes.c_uint64(0)
    i = 0
    while True:
        name = ct.calltime_get(i, ctypes.byref(calls), ctypes.byref(ticks))
        if not name:
            break
        if calls.value:
            out[name.decode()] = (calls.value, ticks.value)
        i += 1
    return out


def block(loop, steps):
    """Mean µs per step over the block, and per kind: prefill steps (every
    PREFILL_EVERY-th: eager kernels) and replay steps (copy + graph)."""
    from cost import PREFILL_EVERY
    t = {True: 0.0, False: 0.0}
    n = {True: 0, False: 0}
    clock = time.perf_counter
    t_start = clock()
    for _ in range(steps):
        kind = loop.i % PREFILL_EVERY == 0
        t0 = clock()
        loop.step()
        t[kind] += clock() - t0
        n[kind] += 1
    total = (clock() - t_start) / steps * 1e6
    return total, {k: (t[k] / n[k] * 1e6 if n[k] else 0.0) for k in t}


def selftime(lib, reset=False):
    """{api: (calls, ticks)} of hipvis's own time (build-selftime/libhipvis.so), or None."""
    fn = getattr(lib, "hipvis_selftime", None)
    if fn is None:
        return None
    if reset:
        fn(0, 1, None, None, None)
        return None
    name, calls, ticks = ctypes.c_char_p(), ctypes.c_uint64(0), ctypes.c_uint64(0)
    out = {}
    i = 0
    while fn(i, 0, ctypes.byref(name), ctypes.byref(calls), ctypes.byref(ticks)) == 0:
        if calls.value:
            out[name.value.decode() if name.value else str(i)] = (calls.value, ticks.value)
        i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", type=int, default=20)
    ap.add_argument("--block-steps", type=int, default=1000)
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    lib = ctypes.CDLL(None)
    lib.calltime_get.restype = ctypes.c_char_p
    lib.calltime_ticks_per_ns.restype = ctypes.c_double
    tpn = lib.calltime_ticks_per_ns()
    switch, counts = hipvis()
    loop = Loop()
    for _ in range(200):
        loop.step()
    per = {1: [], 0: []}          # arm -> list of (step_us, {api: (calls, ticks)}, kinds)
    self_blocks = []              # recording-on blocks: hipvis's own time per API
    for k in range(args.blocks):
        for arm in ((1, 0) if k % 2 == 0 else (0, 1)):
            if switch is not None:
                switch(arm)
            lib.calltime_reset()
            selftime(lib, reset=True)
            us, kinds = block(loop, args.block_steps)
            per[arm].append((us, snapshot(lib), kinds))
            if arm == 1:
                st = selftime(lib)
                if st is not None:
                    self_blocks.append(st)
    if switch is not None:
        switch(1)
    n = args.block_steps
    apis = sorted({a for arm in per.values() for _, s, _k in arm for a in s})
    rows = []
    for a in apis:
        def med(arm, what):
            v = []
            for _, s, _k in per[arm]:
                c, t = s.get(a, (0, 0))
                v.append(c / n if what == "calls" else (t / tpn / c if c else 0.0))
            return statistics.median(v)
        on_ns, off_ns, cps = med(1, "ns"), med(0, "ns"), med(1, "calls")
        rows.append({"api": a, "calls_per_step": round(cps, 3), "on_ns": round(on_ns, 1),
                     "off_ns": round(off_ns, 1), "added_ns_per_call": round(on_ns - off_ns, 1),
                     "added_ns_per_step": round((on_ns - off_ns) * cps, 1)})
    ratios = sorted(x[0] / y[0] for x, y in zip(per[1], per[0]))
    on_us = statistics.median(x[0] for x in per[1])
    off_us = statistics.median(x[0] for x in per[0])
    kinds = {}
    for name, k in (("prefill", True), ("replay", False)):
        on = statistics.median(x[2][k] for x in per[1])
        off = statistics.median(x[2][k] for x in per[0])
        kinds[name] = {"on_us": round(on, 3), "off_us": round(off, 3), "added_us": round(
            statistics.median(x[2][k] - y[2][k] for x, y in zip(per[1], per[0])), 3)}
    self_rows = []
    for a in sorted({a for b in self_blocks for a in b}):
        cps = statistics.median(b.get(a, (0, 0))[0] / n for b in self_blocks)
        ns = statistics.median(b[a][1] / tpn / b[a][0] for b in self_blocks if a in b)
        self_rows.append({"api": a, "calls_per_step": round(cps, 3), "self_ns_per_call": round(ns, 1),
                          "self_ns_per_step": round(ns * cps, 1)})
    res = {"label": args.label, "hipvis": switch is not None, "ticks_per_ns": round(tpn, 3),
           "on_us": round(on_us, 3), "off_us": round(off_us, 3),
           "median_block_ratio": round(statistics.median(ratios), 4),
           "p10": round(ratios[len(ratios) // 10], 4), "p90": round(ratios[(9 * len(ratios)) // 10], 4),
           "added_us_per_step_median_of_pairs": round(statistics.median(x[0] - y[0] for x, y in zip(per[1], per[0])), 3),
           "explained_ns_per_step": round(sum(r["added_ns_per_step"] for r in rows), 1),
           "records": record_counts(counts), "kinds": kinds, "apis": rows,
           "selftime": self_rows}
    print(json.dumps({"result": res}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
