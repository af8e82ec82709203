#!/usr/bin/env bash
# Sidecar mode against the defaults on the GPU decode loop (issue 12), in-process
# A/B with several processes per arm (tests/gpu/sidecar_cost.py says why and how),
# plus where each arm's rings live. One command, about 2.5 minutes (3 at most):
#   tests/gpu/sidecar_cost.sh                 # BUDGET_S=120 BLOCKS=50 BLOCK_STEPS=1000 (about 4 rounds)
# Carry: build/libhipvis.so, build/hipvis-sidecar, .devlibs (as cost.sh).
# Writes $OUT/sidecar_cost.jsonl (one line per process + the summary),
# $OUT/sidecar_cost.log (every child's output), $OUT/sidecar-*.log; prints the summary.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/hvsccost.XXXXXX)
export OUT HIPVIS_WORK=$work HIPVIS_LIB=$root/build/libhipvis.so PYTHONUNBUFFERED=1
. "$root/tests/gpu/devlibs.sh"   # libpath
export HIPVIS_LIBPATH=$libpath

# The host: what decides whether a ring can sit on huge pages, and whether
# /tmp is a disk.
echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), kernel $(uname -r)"
echo "host: THP enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)," \
     "shmem_enabled $(cat /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>/dev/null)," \
     "dirty_expire_centisecs $(cat /proc/sys/vm/dirty_expire_centisecs 2>/dev/null)"
echo "host: /dev/shm $(stat -f -c %T /dev/shm 2>/dev/null) ($(findmnt -no OPTIONS /dev/shm 2>/dev/null | head -1)), /tmp $(stat -f -c %T /tmp)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1

export SEG_TMPFS= SEG_DISK=
pids=()
start_sidecar() {   # DIR NAME
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-sidecar" --dir "$1" -o "$work/traces-$2" \
        --no-analysis --nice 0 -q > "$OUT/sidecar-$2.log" 2>&1 &
    pids+=($!)
}
mkdir -p "$work/traces-tmpfs" "$work/traces-disk"
if d=$(mktemp -d /dev/shm/hvsccost.XXXXXX 2>/dev/null); then
    SEG_TMPFS=$d; start_sidecar "$d" tmpfs
fi
case $(stat -f -c %T /tmp) in
    tmpfs|ramfs) echo "host: /tmp is a memory filesystem: no sidecar-disk arm" ;;
    *) mkdir -p "$work/seg"; SEG_DISK=$work/seg; start_sidecar "$SEG_DISK" disk ;;
esac
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    rm -rf "$work" ${SEG_TMPFS:+"$SEG_TMPFS"}
}
trap cleanup EXIT
sleep 0.5
BUDGET_S=${BUDGET_S:-120} timeout 178 python3 "$root/tests/gpu/sidecar_cost.py"
rc=$?
echo "sidecar_cost: results in $OUT/sidecar_cost.jsonl (exit $rc)"
exit $rc
