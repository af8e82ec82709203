#!/usr/bin/env bash
# Where the two step-time modes of tests/gpu/cost.py's loop come from (issue 12):
# whole processes of `cost.py step` (no hipvis) fall into a fast (~40-46 us) and a
# slow (~52-75 us) step on the H200 host, which blurs every whole-process pair.
# This runs plain step processes unpinned and pinned to CPU sets, prints the
# host's topology (NUMA, the GPU's CPU affinity) and each process's us/step and
# last CPU. About 2-3 minutes.
#
#   bash tests/gpu/modes.sh            (device run; no carry needed: plain python + torch)
#   SETS="none 0-7 8-15" REPS=3 bash tests/gpu/modes.sh
#   REPS=0 LOOPS=4 PROCS=4 bash tests/gpu/modes.sh   # several loops per process
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out-modes}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{
    nproc
    lscpu | grep -E 'Model name|NUMA|Thread|Core|Socket|MHz'
    nvidia-smi topo -m 2>&1 | head -8
    cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo "governor: n/a"
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,pstate --format=csv,noheader 2>&1
} > "$OUT/topo.txt" 2>&1
cat "$OUT/topo.txt"
REPS=${REPS:-3}
SETS=${SETS:-none 0-3 4-7 8-11 12-15 0-15}
res=$OUT/modes.jsonl
: > "$res"
for k in $(seq 1 "$REPS"); do
    for set in $SETS; do
        pin=
        [ "$set" != none ] && pin="taskset -c $set"
        line=$(timeout -k 5 90 $pin python3 "$root/tests/gpu/cost.py" step --steps 2000 2> "$OUT/err.$set.$k" | grep '^{"result"')
        echo "{\"set\":\"$set\",\"rep\":$k,\"out\":${line:-null}}" >> "$res"
    done
done
# Is the mode the process's or its buffers'? LOOPS loops (fresh graphs, pool, pinned buffer)
# one after the other in each of PROCS processes: a mode that changes between the loops of one
# process comes from what the loop allocated, one that never does from the process.
if [ "${LOOPS:-0}" -gt 0 ]; then
    for k in $(seq 1 "${PROCS:-4}"); do
        timeout -k 5 120 python3 - "$root/tests/gpu" "$LOOPS" <<'PY' 2>&1 | tail -1
import statistics, sys
sys.path.insert(0, sys.argv[1])
import cost
keep, out = [], []
for k in range(int(sys.argv[2])):
    loop = cost.Loop(pool_streams=(k == 0))
    keep.append(loop)
    for _ in range(200):
        loop.step()
    out.append(round(statistics.median(loop.block_us(400) for _ in range(3)), 1))
print(f"modes: loops in one process (us/step): {out} cpu{cost.last_cpu()}")
PY
    done
fi
python3 - "$res" <<'PY'
import json, sys, collections
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    o = json.loads(line)
    r = (o["out"] or {}).get("result")
    by[o["set"]].append(r)
for s, rs in by.items():
    cells = [f"{r['us_per_step']:.1f}us@cpu{r.get('cpu')}" if r else "FAILED" for r in rs]
    print(f"modes: cpus {s:6} " + "  ".join(cells))
PY
