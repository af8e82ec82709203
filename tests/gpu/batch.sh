#!/usr/bin/env bash
# One device call for what remains after run_all.sh single: the TP=2 case
# (two GPUs), the fix-pattern and guard costs (issue 7) and the evidence
# options' overhead and findings (issue 6). Everything comes back as one
# archive, $OUT/gpu.tar.gz, plus summary lines at the end of the output.
#   device run (nvidia-h200-x2), carry [build/libhipvis.so, build/hipvis-dump, .devlibs]:
#   OUT=$OUT bash tests/gpu/batch.sh [all|evidence]
# `evidence` runs only the evidence options (one GPU is enough).
set -u
mode=${1:-all}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
res=$(mktemp -d /tmp/hvbatch.XXXXXX)
mkdir -p "$OUT" "$res/tp" "$res/traces"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
lib=$root/build/libhipvis.so
. "$root/tests/gpu/devlibs.sh"   # libpath
traced=(env LD_PRELOAD="$lib" HIPVIS_QUIET=1)
[ -n "$libpath" ] && traced+=(LD_LIBRARY_PATH="$libpath")

if [ "$mode" = all ]; then
echo "== tp (case e)"
OUT=$res/tp STEP_TIMEOUT=120 timeout -k 5 220 bash tests/gpu/run_all.sh tp > "$res/tp.log" 2>&1
tail -15 "$res/tp.log"

echo "== fix patterns (issue 7)"
timeout -k 5 100 python3 tests/gpu/fix_patterns.py --steps 64 --blocks 15 > "$res/fix_patterns.log" 2>&1
tail -12 "$res/fix_patterns.log"
echo "== guard modes (issue 7)"
timeout -k 5 100 "${traced[@]}" HIPVIS_GUARD=stream-sync HIPVIS_OUTPUT=/tmp/fp.%p.zst \
    python3 tests/gpu/fix_patterns.py --steps 64 --blocks 15 --guards > "$res/guards.log" 2>&1
tail -12 "$res/guards.log"
fi

echo "== evidence options: step time of the decode loop (issue 6), alternating with no-hipvis runs"
ev() {  # ev NAME ENV...: one timed run of the decode loop under hipvis with ENV
    local name=$1; shift
    timeout -k 5 90 "${traced[@]}" HIPVIS_OUTPUT="$res/traces/ev-$name.%p.zst" "$@" \
        python3 tests/gpu/decode.py time --steps 2000 --blocks 5 > "$res/ev-$name.log" 2>&1
    echo "$name: $(grep '"result"' "$res/ev-$name.log" | tail -1)"
}
for round in 1 2 3; do
    timeout -k 5 90 python3 tests/gpu/decode.py time --steps 2000 --blocks 5 > "$res/ev-none$round.log" 2>&1
    echo "none$round: $(grep '"result"' "$res/ev-none$round.log" | tail -1)"
    ev core$round HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0
    ev defaults$round
    ev probe$round HIPVIS_PROBE=auto
    ev stacks$round HIPVIS_STACKS=1
done
for f in "$res"/traces/ev-*.zst; do
    echo "$(basename "$f"): $(LD_LIBRARY_PATH=$libpath "$root/build/hipvis-dump" --json "$f" 2>/dev/null | tail -1)"
done
echo "== evidence findings: same-epoch case with probe and stacks"
timeout -k 5 90 "${traced[@]}" HIPVIS_PROBE=auto HIPVIS_STACKS=1 HIPVIS_OUTPUT="$res/traces/probe.%p.zst" \
    python3 tests/gpu/decode.py same-epoch > "$res/probe.log" 2>&1
tail -3 "$res/probe.log"
ls -l "$res/traces" | tail -8
tar -C "$res" -czf "$OUT/gpu.tar.gz" . && ls -l "$OUT/gpu.tar.gz"
