#!/usr/bin/env python3
"""GPU validation cases on one GPU (run by tests/gpu/run_all.sh, with or
without LD_PRELOAD=build/libhipvis.so).

A vLLM-style decode loop: a pinned CPU buffer is copied with
copy_(non_blocking=True) into a persistent GPU cu_seqlens_q (257 int32),
then CUDAGraph.replay() of a graph whose Triton kernel reads it and
PyTorch ops follow; three graphs for three batch sizes share one pool; an
eager "prefill" step (its own copy and kernels) every 8 steps.

  decode.py same-epoch     the loop as is             -> same-epoch-write on cu_seqlens_q
  decode.py synced         stream sync before replay  -> no finding
  decode.py side-stream    the copy on a side stream, no wait_stream -> unordered-write
  decode.py stale          a captured buffer freed and replaced, then replay -> stale-capture-pointer
  decode.py time [--profiler] [--steps N]   step time of the loop (overhead runs)
  decode.py ab [--blocks N]                 in-process A/B with hipvis_record_this_thread

Prints one JSON line ("result": {...}) with the facts the table needs:
buffer addresses (so the analyzer's findings can be matched to them), the
Triton kernel's name, and timings.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import torch
import triton
import triton.language as tl

N = 256  # requests; cu_seqlens_q has N + 1 int32
SIZES = (64, 128, 256)


@triton.jit
def seqlen_kernel(cu_seqlens_q, out, n, BLOCK: tl.constexpr):
    # qo_start/qo_end of every request, like the seed's kernel.
    offs = tl.arange(0, BLOCK)
    m = offs < n
    start = tl.load(cu_seqlens_q + offs, mask=m, other=0)
    end = tl.load(cu_seqlens_q + offs + 1, mask=m, other=0)
    tl.store(out + offs, (end - start).to(tl.float32), mask=m)


@triton.jit
def read_kernel(buf, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(buf + offs, mask=offs < n, other=0)
    tl.store(out + offs, x.to(tl.float32), mask=offs < n)


def hipvis_switch():
    """hipvis_record_this_thread when the library is preloaded, else None."""
    try:
        return ctypes.CDLL(None).hipvis_record_this_thread
    except AttributeError:
        return None


class Decode:
    """The loop's buffers and graphs. Subclasses change `body` (what each
    graph runs) and `capture_mode` (tp.py: NCCL inside the graphs)."""

    capture_mode = "global"

    def __init__(self, dev="cuda"):
        # Persistent buffers first: cu_seqlens_q is the lowest address of its
        # segment, like a serving engine's input buffers allocated at start.
        self.cu_seqlens_q = torch.zeros(N + 1, dtype=torch.int32, device=dev)
        self.out = torch.zeros(N, device=dev)
        self.hidden = torch.randn(N, 64, device=dev)
        self.pin_decode = torch.arange(N + 1, dtype=torch.int32).pin_memory()
        self.pin_prefill = (torch.arange(N + 1, dtype=torch.int32) * 4).pin_memory()
        self.pool = torch.cuda.graph_pool_handle()
        self.graphs = {}
        self.body(N)  # compile the Triton kernel (and create communicators) eagerly, outside capture
        torch.cuda.synchronize()
        for bs in SIZES:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self.body(bs)
            torch.cuda.current_stream().wait_stream(side)
            torch.cuda.synchronize()
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, pool=self.pool, capture_error_mode=self.capture_mode):
                res = self.body(bs)
            self.graphs[bs] = (g, res)
        torch.cuda.synchronize()

    def body(self, bs):
        seqlen_kernel[(1,)](self.cu_seqlens_q, self.out, bs, BLOCK=N)
        y = self.hidden[:bs] * self.out[:bs, None]
        return torch.relu(y).sum(dim=1)

    def prefill(self):
        self.cu_seqlens_q.copy_(self.pin_prefill, non_blocking=True)
        seqlen_kernel[(1,)](self.cu_seqlens_q, self.out, N, BLOCK=N)
        self.prefill_res = (self.hidden * self.out[:, None]).sum()

    def step(self, i, sync=False, side=None):
        if side is None and i % 8 == 0:
            self.prefill()
        bs = SIZES[i % len(SIZES)]
        if side is not None:
            with torch.cuda.stream(side):
                self.cu_seqlens_q.copy_(self.pin_decode, non_blocking=True)
        else:
            self.cu_seqlens_q.copy_(self.pin_decode, non_blocking=True)
        if sync:
            torch.cuda.current_stream().synchronize()
        self.graphs[bs][0].replay()

    def facts(self):
        return {
            "cu_seqlens_q": hex(self.cu_seqlens_q.data_ptr()),
            "cu_seqlens_q_bytes": self.cu_seqlens_q.numel() * 4,
            "out": hex(self.out.data_ptr()),
            "triton_kernel": seqlen_kernel.fn.__name__,
            "default_stream": hex(torch.cuda.current_stream().cuda_stream),
        }


def case_loop(args, sync=False, side_stream=False):
    d = Decode()
    side = torch.cuda.Stream() if side_stream else None
    for i in range(args.steps):
        d.step(i, sync=sync, side=side)
        if side_stream:
            torch.cuda.synchronize()  # one host observation per step, after the replay
    torch.cuda.synchronize()
    r = d.facts()
    if side is not None:
        r["side_stream"] = hex(side.cuda_stream)
    return r


def case_stale(args):
    d = Decode()
    nbytes = 64 << 20  # its own segment: freeing it returns the memory to the driver
    buf = torch.ones(nbytes // 4, dtype=torch.int32, device="cuda")
    res = torch.zeros(1024, device="cuda")
    read_kernel[(1,)](buf, res, 1024, BLOCK=1024)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, pool=d.pool):
        read_kernel[(1,)](buf, res, 1024, BLOCK=1024)
        total = res.sum()
    g.replay()
    torch.cuda.synchronize()
    old = buf.data_ptr()
    del buf
    torch.cuda.empty_cache()  # cudaFree of the segment
    buf2 = torch.full((nbytes // 4,), 7, dtype=torch.int32, device="cuda")
    same = buf2.data_ptr() == old
    if same:  # replay only into live memory: the replacement sits at the captured address
        for i in range(3):
            g.replay()
        torch.cuda.synchronize()
    r = d.facts()
    r.update({"captured_buffer": hex(old), "replacement": hex(buf2.data_ptr()), "replayed": same,
              "read_after_replace": float(total.item())})
    return r


def time_loop(d, steps):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(steps):
        d.step(i)
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / steps * 1e6


def case_time(args):
    d = Decode()
    for i in range(200):
        d.step(i)
    if args.profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
            us = [time_loop(d, args.steps) for _ in range(args.blocks)]
    else:
        us = [time_loop(d, args.steps) for _ in range(args.blocks)]
    return {"us_per_step": statistics.median(us), "blocks_us": us, "steps": args.steps}


def case_ab(args):
    """Alternating blocks with recording on and off in one process."""
    switch = hipvis_switch()
    if switch is None:
        return {"error": "hipvis_record_this_thread not found: run under LD_PRELOAD=libhipvis.so"}
    d = Decode()
    for i in range(200):
        d.step(i)
    on, off = [], []
    for b in range(args.blocks):
        order = (1, 0) if b % 2 == 0 else (0, 1)
        for rec in order:
            switch(rec)
            (on if rec else off).append(time_loop(d, args.steps))
    switch(1)
    ratios = [a / b for a, b in zip(on, off)]
    return {"on_us": statistics.median(on), "off_us": statistics.median(off),
            "median_block_ratio": statistics.median(ratios), "min_on_over_min_off": min(on) / min(off),
            "blocks": args.blocks, "steps": args.steps}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["same-epoch", "synced", "side-stream", "stale", "time", "ab"])
    ap.add_argument("--steps", type=int, default=48)
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--profiler", action="store_true")
    args = ap.parse_args()
    run = {
        "same-epoch": lambda: case_loop(args),
        "synced": lambda: case_loop(args, sync=True),
        "side-stream": lambda: case_loop(args, side_stream=True),
        "stale": lambda: case_stale(args),
        "time": lambda: case_time(args),
        "ab": lambda: case_ab(args),
    }[args.case]
    result = run()
    result.update({"case": args.case, "hipvis": hipvis_switch() is not None, "gpu": torch.cuda.get_device_name(),
                   "torch": torch.__version__, "triton": triton.__version__})
    print(json.dumps({"result": result}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
