#!/usr/bin/env bash
# What hipvis costs the serving loop users run (issue 12), on one H200:
# tests/gpu/cost.py's decode loop (pinned H2D copy per step, three CUDA graphs
# in one pool, per-step synchronize + .item(), prefill every 8th step
# rewriting the pinned buffer, ~129 live pool streams), measured as
#   - in-process A/B blocks (hipvis_record_this_thread 1|0): the defaults,
#     HIPVIS_SIDECAR=1, and the same alternation without hipvis (noise floor);
#     then, in the same processes, THREAD_BLOCKS (20) more block pairs with
#     THREADS (2) threads calling the runtime: the loop plus a helper thread
#     (its own stream: pinned H2D copy, two kernels, .item(), every
#     HELPER_US (1000) us), both switched together (cost.py says how);
#   - one 50,000-step run at the defaults: records made, written, dropped;
#   - whole-process rounds: no hipvis, defaults, sidecar, order rotating.
# One command, about 5-6 minutes on an H200 (torch start-up dominates):
#   tests/gpu/cost.sh                       # everything
#   PAIRS=5 BLOCKS=10 LONG=5000 tests/gpu/cost.sh   # shrunk (minutes -> ~1)
#   PARTS=pairs PAIRS=40 tests/gpu/cost.sh  # only the whole-process rounds (also ab, long)
# Carry: build/libhipvis.so, build/hipvis-dump, build/hipvis-sidecar, .devlibs
# (see run_all.sh for .devlibs: libzstd, libmsgpackc, libdw, libelf when missing).
# Writes $OUT/cost.jsonl (one JSON line per process + the summary),
# $OUT/cost.log (every child's output), $OUT/sidecar.log, prints the summary.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out}
work=$(mktemp -d /tmp/hvcost.XXXXXX)
mkdir -p "$OUT" "$work/seg" "$work/sidecar-traces"
: > "$OUT/cost.jsonl"
: > "$OUT/cost.log"
export OUT
export HIPVIS_LIB=$root/build/libhipvis.so HIPVIS_DUMP=$root/build/hipvis-dump HIPVIS_WORK=$work
export PYTHONUNBUFFERED=1 HIPVIS_QUIET=1
. "$root/tests/gpu/devlibs.sh"   # libpath
export HIPVIS_LIBPATH=$libpath
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1

# The sidecar arm: a private segment directory and its own hipvis-sidecar,
# stopped by its pid at the end. The segments go on a tmpfs (/dev/shm), as
# docs/sidecar.md asks: under /tmp on a disk filesystem the kernel writes the
# rings back every ~30 s and their pages then fault again (until session 5
# this script did that; SEGDIR=/some/dir measures another place).
seg=$(mktemp -d "${SEGDIR:-/dev/shm}/hvcost-seg.XXXXXX" 2>/dev/null) || seg=$work/seg
echo "cost: sidecar segments in $seg ($(stat -f -c %T "$seg"))"
export HIPVIS_SIDECAR_DIR=$seg
sidecar_pid=
SIDECAR=${SIDECAR:-1}
if [ "$SIDECAR" = 1 ]; then
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-sidecar" --dir "$seg" \
        -o "$work/sidecar-traces" --no-analysis --nice 0 -q > "$OUT/sidecar.log" 2>&1 &
    sidecar_pid=$!
    sleep 0.5
fi
cleanup() {
    [ -n "$sidecar_pid" ] && kill "$sidecar_pid" 2>/dev/null && wait "$sidecar_pid" 2>/dev/null
    rm -rf "$work" "$seg"
}
trap cleanup EXIT

python3 "$root/tests/gpu/cost.py" drive --pairs "${PAIRS:-20}" --blocks "${BLOCKS:-30}" \
    --steps "${STEPS:-2000}" --block-steps "${BLOCK_STEPS:-1000}" --long-steps "${LONG:-50000}" \
    --sidecar "$SIDECAR" --budget-s "${BUDGET_S:-360}" --threads "${THREADS:-2}" \
    --thread-blocks "${THREAD_BLOCKS:-20}" --helper-period-us "${HELPER_US:-1000}" \
    --parts "${PARTS:-ab,long,pairs}"
rc=$?
echo "cost: results in $OUT/cost.jsonl (exit $rc)"
exit $rc
