#!/usr/bin/env python3
"""Cache lines and pages the tracer's own instructions touch per window,
and the branches they take.

Reads valgrind lackey's --trace-mem=yes log and the traced program's
stdout (`BENCH --footprint`), which names the marker variable ("fp mark
ADDR"), its TLS block ("fp tls ADDR") and its mappings ("fp map LINE",
/proc/self/maps). The program stores to the marker before and after each
window (a call, or a step); every instruction executed in between whose
address lies in the library's code counts, with the data it loads and
stores. Prints, per window (the median over the windows): distinct 64-byte
lines of code and of data, distinct 4 KiB pages of each, the branches the
library's code takes, and the data lines by region, so a layout change shows
as a count that does not move with the machine's load (verbose: each branch
site taken, by library offset).

usage: footprint.py LACKEY_LOG STDOUT LIBNAME LABEL
"""
import re
import statistics
import sys


def main():
    log, out, lib, label = sys.argv[1:5]
    mark = tls = sp = None
    maps = []  # (lo, hi, perms, name)
    for line in open(out):
        f = line.split()
        if line.startswith("fp mark "):
            mark = int(f[2], 16)
        elif line.startswith("fp tls "):
            tls = int(f[2], 16)
        elif line.startswith("fp stack "):
            sp = int(f[2], 16)
        elif line.startswith("fp map "):
            lo, hi = (int(x, 16) for x in f[2].split("-"))
            maps.append((lo, hi, f[3], f[7] if len(f) > 7 else ""))
    if mark is None or not maps:
        sys.exit("footprint: no marker or maps in the program's output")
    code = [(lo, hi) for lo, hi, p, n in maps if n.endswith(lib) and "x" in p]
    image_lo = min(lo for lo, hi, p, n in maps if n.endswith(lib))
    image_hi = max(hi for lo, hi, p, n in maps if n.endswith(lib))
    # The library's .bss continues in the anonymous mapping right after it.
    for lo, hi, p, n in maps:
        if lo == image_hi and not n:
            image_hi = hi
    stack = [(lo, hi) for lo, hi, p, n in maps if n == "[stack]"]

    def region(a):
        if image_lo <= a < image_hi:
            return "library image (.data .bss .got)"
        if any(lo <= a < hi for lo, hi in stack) or (sp is not None and abs(a - sp) < 0x10000):
            return "stack"
        if tls is not None and abs(a - tls) < 0x4000:
            return "thread-local"
        for lo, hi, p, n in maps:
            if lo <= a < hi:
                return n if n else "anonymous (rings, tables)"
        return "unmapped"

    def in_code(a):
        return any(lo <= a < hi for lo, hi in code)

    windows = []
    cur = None
    nstores = 0
    ours = False
    pc = 0
    pc_end = 0
    with open(log) as fh:
        for line in fh:
            if line.startswith("I"):
                if cur is None:
                    continue
                a, s = line[1:].strip().split(",")
                a = int(a, 16)
                # A taken control transfer out of the library's code (jump,
                # taken conditional branch, call, return): the next
                # instruction is not the one after the last. A count that
                # does not move with the machine's load; what such branches
                # cost in a serving loop, where the predictor has lost them
                # between two calls: docs/performance.md.
                if ours and a != pc_end:
                    cur["taken"] += 1
                    cur["sites"][pc] = cur["sites"].get(pc, 0) + 1
                ours = in_code(a)
                pc = a
                pc_end = a + int(s)
                if ours:
                    for l in range(a >> 6, (a + int(s) - 1 >> 6) + 1):
                        cur["code"].add(l)
                continue
            if not line.startswith(" "):
                continue
            kind = line[1]
            a, s = line[3:].strip().split(",")
            a = int(a, 16)
            if kind in "SM" and a == mark:
                nstores += 1
                if nstores % 2:
                    cur = {"code": set(), "data": {}, "taken": 0, "sites": {}}
                else:
                    windows.append(cur)
                    cur = None
                ours = False
                continue
            if cur is None or not ours:
                continue
            for l in range(a >> 6, (a + int(s) - 1 >> 6) + 1):
                cur["data"][l] = region(l << 6)
                cur.setdefault("by", {}).setdefault(l, pc)
    if not windows:
        sys.exit("footprint: no window found in the trace")

    def med(f):
        return statistics.median(f(w) for w in windows)

    def nostack(w):
        return {l: r for l, r in w["data"].items() if r != "stack"}

    cl = med(lambda w: len(w["code"]))
    cp = med(lambda w: len({l >> 6 for l in w["code"]}))
    dl = med(lambda w: len(nostack(w)))
    dp = med(lambda w: len({l >> 6 for l in nostack(w)}))
    sl = med(lambda w: sum(1 for r in w["data"].values() if r == "stack"))
    tk = med(lambda w: w["taken"])
    print("footprint: %s: per %s, libhipvis's own instructions touch %d code lines on %d pages, "
          "%d data lines on %d pages (+%d stack lines), and take %d branches; median of %d windows (valgrind lackey)"
          % (label, "window", cl, cp, dl, dp, sl, tk, len(windows)))
    if len(sys.argv) > 5:
        # Each window on its own: a serving loop's rarer steps (bench_step's
        # eager prefill, one step in 8; a sampled rewrite check) touch more
        # than the median step, and in situ those lines are the coldest.
        print("footprint: %s: windows (code lines / data lines / taken branches / code pages): %s" % (
            label, " ".join("%d/%d/%d/%d" % (len(w["code"]), len(nostack(w)), w["taken"],
                                             len({l >> 6 for l in w["code"]})) for w in windows)))
    regions = {}
    for w in windows:
        for r in set(w["data"].values()):
            regions.setdefault(r, []).append(
                (sum(1 for x in w["data"].values() if x == r),
                 len({l >> 6 for l, x in w["data"].items() if x == r})))
    if len(sys.argv) > 5:   # verbose: each data line of the last window, with the first instruction
        w = windows[-1]
        for a, n in sorted(w["sites"].items()):
            print("  taken branch at library offset %#x (x%d)" % (a - image_lo, n))
        for l, r in sorted(w["data"].items(), key=lambda x: (x[1], x[0])):
            print("  %-34s %#x  first touched by pc %#x (library offset %#x)" % (r, l << 6, w["by"][l], w["by"][l] - image_lo))
    for r, v in sorted(regions.items()):
        if r == "stack":
            continue
        print("footprint: %s:   data in %s: %g lines on %g pages"
              % (label, r, statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)))


main()
