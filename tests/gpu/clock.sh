#!/usr/bin/env bash
# The clock read on the GPU host (issue 13: a traced call's ordered clock read,
# `lfence; rdtsc`, is most of what it adds back to back; src/ring/clock.h):
#   1. tsc_cost.c: each read form back to back and after a load that misses
#      every cache (what `lfence` waits for);
#   2. whether tests/gpu/cost.py's loop reads the clock fenced: a traced
#      `cost.py step` run, and the threads that made records in its trace
#      (a second thread's first traced call switches every later call to
#      the fenced read; docs/trace-format.md "Per-thread sequences").
# About 30 s.  bash tests/gpu/clock.sh   (carry build/libhipvis.so,
# build/hipvis-dump, build/gpu-diag, .devlibs)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/hvclock.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/tests/gpu/devlibs.sh"   # libpath
lscpu | grep -E 'Model name|Hypervisor' | sed 's/^/clock: /'
# Built here by `make test-programs` and carried (build/gpu-diag); compiled
# there only when it did not travel.
tsc=$root/build/gpu-diag/tsc_cost
[ -x "$tsc" ] || { tsc=$work/tsc_cost; cc -std=c11 -O2 -o "$tsc" "$root/tests/gpu/tsc_cost.c"; }
taskset -c $(( $(nproc) > 2 ? 2 : 0 )) "$tsc"   # off CPU 0, where interrupts land, where there is room
env PYTHONUNBUFFERED=1 HIPVIS_QUIET=1 LD_PRELOAD="$root/build/libhipvis.so" HIPVIS_OUTPUT="$work/step.zst" \
    ${libpath:+LD_LIBRARY_PATH=$libpath} timeout -k 5 120 python3 "$root/tests/gpu/cost.py" step --steps 2000 |
    grep '^{"result"' | cut -c1-200
env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-dump" --json "$work/step.zst" | python3 -c '
import collections, json, sys
calls, recs, first = collections.Counter(), collections.Counter(), {}
for line in sys.stdin:
    r = json.loads(line)
    if "tid" not in r:
        continue
    recs[r["tid"]] += 1
    first.setdefault(r["tid"], (r["ts_ns"], r.get("api") or r.get("type")))
    calls[r["tid"]] += r.get("type") == "call"
order = sorted(first, key=lambda t: first[t][0])
print(f"clock: {len(order)} thread(s) left records; from the second one on every call fences its clock read"
      if len(order) > 1 else "clock: one thread left records: its calls read the clock unfenced")
for t in order:
    print(f"clock:   tid {t}: {recs[t]} records, {calls[t]} calls, first {first[t][1]}")
'
