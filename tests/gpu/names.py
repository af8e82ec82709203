#!/usr/bin/env python3
"""GPU check of names and Python frames (issue 16; docs/names.md), one GPU.

The decode loop of decode.py (pinned cu_seqlens_q copied with
copy_(non_blocking=True), then CUDAGraph.replay() of a graph whose Triton
kernel reads it; an eager prefill every 8 steps), with cu_seqlens_q named
through the hipvis Python module and the loop inside hipvis.region("decode").

  names.py loop [--steps N]           the traced loop; its report must name
                                      cu_seqlens_q and the Python lines of the
                                      copy and of the replay
  names.py ab [--steps N --blocks N]  in-process A/B: blocks of N steps with
                                      recording on and off (hipvis_record_this_thread),
                                      alternating; run once with HIPVIS_PYFRAMES=1
                                      and once with =0 (names.sh does)

Prints one JSON line ("result": {...}): the buffer address, the source lines
the report must show (this file's copy line, decode.py's, torch's replay),
and timings.
"""
import argparse
import inspect
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import torch  # noqa: E402

import decode  # noqa: E402  (tests/gpu/decode.py: the loop)
import hipvis  # noqa: E402


class Named(decode.Decode):
    def __init__(self):
        super().__init__()
        hipvis.name(self.cu_seqlens_q, "cu_seqlens_q")
        hipvis.name(self.out, "seqlen_out")


def source_lines():
    """Where the report's Python lines must point: the copy in Decode.step
    and the replay (torch.cuda.graphs.CUDAGraph.replay's body, called from
    Decode.step)."""
    src, first = inspect.getsourcelines(decode.Decode.step)
    copy = [first + i for i, l in enumerate(src) if "cu_seqlens_q.copy_(self.pin_decode" in l]
    replay = [first + i for i, l in enumerate(src) if ".replay()" in l]
    return {"decode_py": os.path.abspath(decode.__file__), "copy_lines": copy, "replay_call_lines": replay,
            "torch_graphs_py": os.path.abspath(inspect.getsourcefile(torch.cuda.graphs))}


def case_loop(args):
    d = Named()
    with hipvis.region("decode"):
        for i in range(args.steps):
            hipvis.mark("step")
            d.step(i)
    torch.cuda.synchronize()
    r = d.facts()
    r.update(source_lines())
    r["steps"] = args.steps
    return r


def case_ab(args):
    if not hipvis.active():
        return {"error": "hipvis_record_this_thread not found: run under LD_PRELOAD=libhipvis.so"}
    d = Named()
    for i in range(200):
        d.step(i)
    on, off = [], []
    for b in range(args.blocks):
        for rec in ((1, 0) if b % 2 == 0 else (0, 1)):
            hipvis.record_this_thread(rec)
            (on if rec else off).append(decode.time_loop(d, args.steps))
    hipvis.record_this_thread(1)
    ratios = [a / b for a, b in zip(on, off)]
    return {"on_us": statistics.median(on), "off_us": statistics.median(off),
            "median_block_ratio": statistics.median(ratios),
            "median_on_minus_off_ns_per_step": statistics.median([(a - b) * 1e3 for a, b in zip(on, off)]),
            "blocks": args.blocks, "steps": args.steps, "pyframes": os.environ.get("HIPVIS_PYFRAMES", "1")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["loop", "ab"])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--blocks", type=int, default=30)
    args = ap.parse_args()
    result = case_loop(args) if args.case == "loop" else case_ab(args)
    result.update({"case": args.case, "hipvis": hipvis.active(), "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "python": sys.version.split()[0]})
    print(json.dumps({"result": result}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
