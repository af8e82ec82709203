#!/usr/bin/env bash
# GPU validation of the CUDA front end, one call on a lent H200 machine.
#
#   tests/gpu/run_all.sh single   cases a-d (decode.py) and the overhead runs (f), one GPU
#   tests/gpu/run_all.sh tp       case e (tp.py): two ranks, NCCL, two GPUs
#
# Builds nothing and needs no network: build/libhipvis.so and
# build/hipvis-dump come with the working tree (x86-64 Debian 12 build).
# If the machine lacks libzstd.so.1 or libmsgpackc.so.2 (the H200 image lacks
# the latter), they are taken from .devlibs/, for the traced processes only.
# Prepare and carry it from the build machine:
#   mkdir -p .devlibs && cp -L /usr/lib/x86_64-linux-gnu/{libzstd.so.1,libmsgpackc.so.2,libdw.so.1,libelf.so.1} .devlibs/
#   echo /.devlibs/ >> .git/info/exclude
#   device run: carry [build/libhipvis.so, build/hipvis-dump, .devlibs]
#
# Every traced case runs under LD_PRELOAD=build/libhipvis.so with
# HIPVIS_OUTPUT in a work folder. Written to $OUT (default ./gpu-out):
#   results.jsonl  one line per process: case, exit code, seconds, what it printed
#   summary.txt    the table (also printed last)
#   traces.tar.gz  the case traces, for hipvis-analyze on the development machine
#   logs.tar.gz    every process's stdout/stderr and the trace statistics
#   progress.log   each process's exit code and last lines, written as it ends
#   env.txt        GPU, driver, library versions
# NVLink multicast stays off: NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1,
# NVSHMEM_DISABLE_NVLS=1.
set -u
mode=${1:-single}
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out}
work=$(mktemp -d /tmp/hvgpu.XXXXXX)
mkdir -p "$OUT" "$work/traces" "$work/logs" "$work/overhead"
lib=$root/build/libhipvis.so
dump=$root/build/hipvis-dump
res=$OUT/results.jsonl
: > "$res"
: > "$OUT/progress.log"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1 TRITON_CACHE_DIR=$work/triton HIPVIS_QUIET=1
cd "$root"

. "$root/tests/gpu/devlibs.sh"   # libpath
{
    date -u +"date %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__, "gpus", torch.cuda.device_count())'
    echo "missing libs taken from: ${libpath:-none}"
    ldd "$lib" | grep -E "zstd|msgpack"
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

# "${traced[@]}" HIPVIS_OUTPUT=TRACE cmd...: cmd under hipvis (%p in TRACE = pid)
traced=(env LD_PRELOAD="$lib")
[ -n "$libpath" ] && traced+=(LD_LIBRARY_PATH="$libpath")

# run NAME cmd...: runs cmd (timeout $STEP_TIMEOUT s), logs it, appends its
# result line. The tail of each process's output also goes to
# $OUT/progress.log at once, so a call cut short still brings back why.
STEP_TIMEOUT=${STEP_TIMEOUT:-240}
run() {
    local name=$1
    shift
    local t0 t1 rc
    t0=$(date +%s.%N)
    timeout -k 5 "$STEP_TIMEOUT" "$@" > "$work/logs/$name.out" 2> "$work/logs/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    python3 - "$name" "$rc" "$t0" "$t1" "$work/logs/$name.out" >> "$res" <<'PY'
import json, sys
name, rc, t0, t1, out = sys.argv[1:]
result = None
for line in open(out, errors="replace"):
    if line.startswith('{"result"'):
        result = json.loads(line)["result"]
print(json.dumps({"name": name, "rc": int(rc), "seconds": round(float(t1) - float(t0), 1), "result": result}))
PY
    echo "== $name: exit $rc, $(python3 -c "print(round($t1 - $t0, 1))") s"
    [ "$rc" = 0 ] || tail -5 "$work/logs/$name.err"
    { echo "== $name: exit $rc"; tail -40 "$work/logs/$name.err"; tail -3 "$work/logs/$name.out"; } >> "$OUT/progress.log"
}

trace_stats() { # summarise each trace of the case (records, drops) into the logs
    local f
    for f in "$work"/traces/"$1".*.zst; do
        [ -e "$f" ] || continue
        echo "## $f" >> "$work/logs/trace-stats.txt"
        env ${libpath:+LD_LIBRARY_PATH=$libpath} "$dump" --stats "$f" 2>&1 | tail -4 >> "$work/logs/trace-stats.txt"
    done
}

if [ "$mode" = single ]; then
    # (a)-(d): the hazard cases, traced.
    run a-same-epoch "${traced[@]}" HIPVIS_OUTPUT="$work/traces/a.%p.zst" python3 tests/gpu/decode.py same-epoch
    trace_stats a
    run b-synced "${traced[@]}" HIPVIS_OUTPUT="$work/traces/b.%p.zst" python3 tests/gpu/decode.py synced
    trace_stats b
    run c-side-stream "${traced[@]}" HIPVIS_OUTPUT="$work/traces/c.%p.zst" python3 tests/gpu/decode.py side-stream
    trace_stats c
    run d-stale "${traced[@]}" HIPVIS_OUTPUT="$work/traces/d.%p.zst" python3 tests/gpu/decode.py stale
    trace_stats d
    # (f) overhead: alternating whole-process runs, hipvis vs none; then
    # torch.profiler vs none; then the in-process A/B.
    # alternate A B N cmd...: N pairs of runs named A-i and B-i (A first in
    # odd pairs, B first in even ones); each arm's command follows its name
    # word in "$@" as: A-args... -- B-args...
    alternate() {
        local a=$1 b=$2 n=$3 i arm
        shift 3
        local -a cmd_a=() cmd_b=()
        while [ "$1" != -- ]; do cmd_a+=("$1"); shift; done
        shift
        cmd_b=("$@")
        for i in $(seq 1 "$n"); do
            for arm in $([ $((i % 2)) = 1 ] && echo "$a $b" || echo "$b $a"); do
                if [ "$arm" = "$a" ]; then run "$arm-$i" "${cmd_a[@]}"; else run "$arm-$i" "${cmd_b[@]}"; fi
            done
        done
    }
    loop=(python3 tests/gpu/decode.py time --steps 2000 --blocks 5)
    alternate f-none f-hipvis "${PAIRS:-10}" "${loop[@]}" -- \
        "${traced[@]}" HIPVIS_OUTPUT="$work/overhead/f.%p.zst" "${loop[@]}"
    alternate p-none p-profiler "${PROF_PAIRS:-5}" "${loop[@]}" -- "${loop[@]}" --profiler
    run f-ab "${traced[@]}" HIPVIS_OUTPUT="$work/traces/ab.%p.zst" python3 tests/gpu/decode.py ab --steps 2000 --blocks 30
    # one overhead trace comes back too (its size and record counts)
    ls -l "$work/overhead" > "$work/logs/overhead-traces.txt"
    cp "$(ls "$work"/overhead/*.zst | head -1)" "$work/traces/" 2>/dev/null
elif [ "$mode" = tp ]; then
    # One host: NCCL's bootstrap on loopback; NCCL says what it picked.
    export NCCL_SOCKET_IFNAME=${NCCL_SOCKET_IFNAME:-lo} NCCL_DEBUG=${NCCL_DEBUG:-INFO}
    STEP_TIMEOUT=${TP_STEP_TIMEOUT:-120}
    port=$((29500 + RANDOM % 1000))
    ranks=${TP:-2}   # TP=8 on nvidia-h200-x8
    for arm in none hipvis; do
        for r in $(seq 0 $((ranks - 1))); do
            if [ "$arm" = none ]; then
                RANK=$r WORLD_SIZE=$ranks MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
                    run "e-$arm-rank$r" python3 tests/gpu/tp.py &
            else
                RANK=$r WORLD_SIZE=$ranks MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
                    run "e-$arm-rank$r" "${traced[@]}" HIPVIS_OUTPUT="$work/traces/e.rank$r.%p.zst" python3 tests/gpu/tp.py &
            fi
        done
        wait
        port=$((port + 1))
    done
    trace_stats e
else
    echo "usage: $0 single|tp" >&2
    exit 2
fi

(cd "$work" && tar czf "$OUT/traces.tar.gz" traces && tar czf "$OUT/logs.tar.gz" logs)
python3 tests/gpu/summarize.py "$res" | tee "$OUT/summary.txt"
rm -rf "$work"
