#!/usr/bin/env python3
"""bench_pyframes.py BUILD - cost of Python frames per traced call (make bench-names).

Times a ctypes loop of hipMemcpyAsync + hipGraphLaunch-free copies on the HIP
runtime double under LD_PRELOAD=libhipvis.so, in child processes rotating
HIPVIS_PYFRAMES=1, =first and =0 (the option is fixed per process), and prints
the median ns per call of each and their differences from =0, with the load
average. The loop: `copy(dst, src, 1 KiB)` 200 000 times from one Python line, so every
call after the first is a repeat (the steady state of a decode loop).
Noisy on a shared machine: read the difference next to the spread.
"""
import ctypes
import os
import statistics
import subprocess
import sys
import time

CHILD = """
import ctypes, os, sys, time
hip = ctypes.CDLL(sys.argv[1])
vp = ctypes.c_void_p
hip.hipMalloc.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t]
hip.hipHostMalloc.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.c_uint]
hip.hipMemcpyAsync.argtypes = [vp, vp, ctypes.c_size_t, ctypes.c_int, vp]
d, h = vp(), vp()
hip.hipMalloc(ctypes.byref(d), 1024)
hip.hipHostMalloc(ctypes.byref(h), 1024, 0)
copy = hip.hipMemcpyAsync
n = int(sys.argv[2])
best = None
for rep in range(5):
    t0 = time.perf_counter_ns()
    for i in range(n):
        copy(d, h, 1024, 1, None)
    dt = (time.perf_counter_ns() - t0) / n
    best = dt if best is None else min(best, dt)
print(best)
"""


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    lib = os.path.abspath(os.path.join(build, "libhipvis.so"))
    dbl = os.path.abspath(os.path.join(build, "tests", "double", "libamdhip64.so.5"))
    arms = ("1", "first", "0")
    runs = {a: [] for a in arms}
    for i in range(6):
        for arm in arms[i % 3:] + arms[:i % 3]:
            env = dict(os.environ, LD_PRELOAD=lib, HIPVIS_PYFRAMES=arm, HIPVIS_QUIET="1",
                       HIPVIS_OUTPUT=f"/tmp/bench-pyframes.{os.getpid()}.%p.zst", HIPVIS_RING_KB="16384")
            out = subprocess.run([sys.executable, "-c", CHILD, dbl, "40000"], env=env, capture_output=True,
                                 text=True, check=True)
            runs[arm].append(float(out.stdout.strip()))
    for f in os.listdir("/tmp"):
        if f.startswith(f"bench-pyframes.{os.getpid()}."):
            os.unlink(os.path.join("/tmp", f))
    off = statistics.median(runs["0"])
    print(f"bench-names: ctypes hipMemcpyAsync loop on the double, best of 5 x 40000 calls per process, "
          f"6 processes per arm rotating; load average {os.getloadavg()[0]:.2f}")
    for arm in arms:
        med = statistics.median(runs[arm])
        diff = f"; {med - off:+.0f} ns/call against =0 (ratio {med / off:.4f})" if arm != "0" else ""
        print(f"  HIPVIS_PYFRAMES={arm}: median {med:.0f} ns/call (runs {', '.join('%.0f' % x for x in runs[arm])})"
              f"{diff}")


if __name__ == "__main__":
    main()
