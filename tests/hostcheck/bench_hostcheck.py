#!/usr/bin/env python3
"""make bench-hostcheck: what HIPVIS_HOSTCHECK=1 costs, measured side by side.

Each workload runs under libhipvis.so with the check off, off again and on,
in alternating rounds (off, off2, on, off, off2, on, ...) so that drift on a
shared machine lands on every arm; the ratio on/off of each round's wall
time is printed with the median over the rounds, beside off2/off: the noise
floor of the comparison. Workloads, on the runtime double:
  decode_loop        tests/apps/decode_loop (pinned H2D copy + graph replay per step)
  host unprotected   hc_bench: two pinned copies a step, host work on its own memory
  host protected     hc_bench: the same, the host also reads the in-flight destination (a fault a step)
"""
import os
import statistics
import subprocess
import sys
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
PAIRS = int(os.environ.get("HC_BENCH_PAIRS", "7"))
LIB = os.path.abspath(os.path.join(BUILD, "libhipvis.so"))
DOUBLE = os.path.abspath(os.path.join(BUILD, "tests/double"))
WORK = [
    ("decode_loop", [os.path.join(BUILD, "tests/apps/decode_loop"), "--steps", "20000"]),
    ("host unprotected", [os.path.join(BUILD, "tests/hostcheck/hc_bench"), "unprotected", "20000"]),
    ("host protected", [os.path.join(BUILD, "tests/hostcheck/hc_bench"), "protected", "20000"]),
]


def once(cmd, on, tmp):
    e = {k: v for k, v in os.environ.items() if not k.startswith("HIPVIS_")}
    e.update(LD_LIBRARY_PATH=DOUBLE, LD_PRELOAD=LIB, HIPVIS_QUIET="1", HIPVIS_OUTPUT=os.path.join(tmp, "t.%p.zst"))
    if on:
        e["HIPVIS_HOSTCHECK"] = "1"
    else:
        e["HIPVIS_RECORD"] = "full"   # the check selects full records: compare like with like
    t0 = time.perf_counter()
    subprocess.run(cmd, env=e, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    import tempfile
    print(f"bench-hostcheck: {PAIRS} rounds of off, off2, on each, wall seconds (HIPVIS_RECORD=full in every arm)")
    with tempfile.TemporaryDirectory() as tmp:
        for name, cmd in WORK:
            once(cmd, False, tmp)   # warm the page cache
            ratios, noise, offs, ons = [], [], [], []
            for _ in range(PAIRS):
                off = once(cmd, False, tmp)
                off2 = once(cmd, False, tmp)
                on = once(cmd, True, tmp)
                offs.append(off)
                ons.append(on)
                ratios.append(on / off)
                noise.append(off2 / off)
                for f in os.listdir(tmp):
                    os.unlink(os.path.join(tmp, f))
            print(f"  {name:18s} off {statistics.median(offs):.3f} s  on {statistics.median(ons):.3f} s  "
                  f"on/off {statistics.median(ratios):.3f} ({min(ratios):.3f} .. {max(ratios):.3f})  "
                  f"noise off2/off {statistics.median(noise):.3f} ({min(noise):.3f} .. {max(noise):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
