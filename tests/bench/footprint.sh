#!/bin/sh
# Cache lines and pages one traced call (or step) touches, counted by
# valgrind's lackey: figures that do not move with the machine's load. What
# a call costs when Python, torch and the driver have evicted the tracer
# between two calls (bench-intercept's "isolated calls, cold") grows with
# these counts. `BENCH --footprint` prints its marker, TLS address and maps
# and stores to the marker around each window (footprint.py).
# usage: footprint.sh BENCH_BIN LIBHIPVIS WORKDIR LABEL [VAR=VALUE...]
bin=$1 lib=$2 work=$3 label=$4
shift 4
if ! command -v valgrind >/dev/null 2>&1; then
    echo "$(basename "$bin"): footprint: skipped (valgrind not installed)"
    exit 0
fi
mkdir -p "$work"
log="$work/lackey.$$" out="$work/fpout.$$"
trap 'rm -f "$log" "$out" "$work"/fp.$$.*.zst' EXIT
env HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/fp.$$.%p.zst" LD_PRELOAD="$lib" "$@" \
    valgrind --tool=lackey --trace-mem=yes --log-file="$log" "$bin" --footprint >"$out" 2>/dev/null </dev/null ||
    { echo "$(basename "$bin"): footprint: lackey failed" >&2; exit 1; }
python3 "$(dirname "$0")/footprint.py" "$log" "$out" "$(basename "$lib")" "$label" $FOOTPRINT_VERBOSE
