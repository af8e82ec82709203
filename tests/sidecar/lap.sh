#!/usr/bin/env bash
# bench-lap: a fresh ring's first lap against its later laps, per traced
# thread, with the file transport and with HIPVIS_SIDECAR=1 (a hipvis-sidecar
# in a private directory drains the rings); see tests/sidecar/bench_lap.c.
#   lap.sh BUILD_DIR [RING_KB]
set -u
build=$(cd "$1" && pwd)
ring_kb=${2:-4096}
bench=$build/tests/sidecar/bench_lap
lib=$build/libhipvis.so
work=$(mktemp -d /tmp/hipvis-lap.XXXXXX)
# The segments where they live by default: a tmpfs (/dev/shm), not /tmp's disk.
seg=$(mktemp -d /dev/shm/hipvis-lap.XXXXXX 2>/dev/null || mktemp -d /tmp/hipvis-lap-seg.XXXXXX)
SC=
trap '[ -n "$SC" ] && kill -KILL $SC 2>/dev/null; rm -rf "$work" "$seg"' EXIT

echo "== bench-lap without preload (no ring: the arms are the same direct calls)"
"$bench" "$ring_kb" || exit 1
echo "== bench-lap LD_PRELOAD=$lib, file transport (HIPVIS_RING_KB=$ring_kb)"
HIPVIS_QUIET=1 HIPVIS_RING_KB=$ring_kb HIPVIS_OUTPUT="$work/lap.%p.zst" LD_PRELOAD="$lib" "$bench" "$ring_kb" || exit 1
echo "== bench-lap LD_PRELOAD=$lib, HIPVIS_SIDECAR=1 (HIPVIS_RING_KB=$ring_kb)"
mkdir -p "$work/out"
"$build/hipvis-sidecar" --dir "$seg" -o "$work/out" --no-analysis -q 2>"$work/sidecar.log" &
SC=$!
sleep 0.3
HIPVIS_QUIET=1 HIPVIS_RING_KB=$ring_kb HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg" LD_PRELOAD="$lib" \
    "$bench" "$ring_kb" || exit 1
kill -TERM $SC; wait $SC; SC=
