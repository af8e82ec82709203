#!/bin/sh
# Where the L1 misses recording adds fall, object by object: in libhipvis's
# own code and data, or in the program, its runtime and libc (their lines
# displaced by hipvis's). bench-step's 130-stream phase costs more than its
# 1-stream phase although hipvis runs the same instructions in both; this
# says which side misses more (docs/performance.md "bench-step").
# One callgrind run per arm (`BENCH --count`'s count_{off,on}_{1,130}, each
# alone under --toggle-collect, so that each function's own counts belong to
# one arm), two at a time; figures that do not move with the machine's load.
# usage: displaced.sh BENCH_BIN LIBHIPVIS WORKDIR LABEL
bin=$1 lib=$2 work=$3 label=$4
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
    echo "$(basename "$bin"): displaced misses: skipped (valgrind not installed)"
    exit 0
fi
mkdir -p "$work"
trap 'rm -f "$work"/cg.$$.* "$work"/disp.$$.*.zst' EXIT
arm() {
    env HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/disp.$$.%p.zst" LD_PRELOAD="$lib" \
        valgrind --tool=callgrind --cache-sim=yes --toggle-collect="$1" --callgrind-out-file="$work/cg.$$.$1" \
        "$bin" --count >"$work/cg.$$.$1.out" 2>/dev/null </dev/null
}
for n in 1 130; do
    arm count_off_$n & a=$!
    arm count_on_$n || { echo "$(basename "$bin"): displaced misses: callgrind failed" >&2; exit 1; }
    wait $a || { echo "$(basename "$bin"): displaced misses: callgrind failed" >&2; exit 1; }
done
# Each arm's self counts summed by object: "Ir I1mr D1mr D1mw  file:fn [object]".
sums() {
    callgrind_annotate --show=I1mr,D1mr,D1mw --threshold=100 "$work/cg.$$.$1" 2>/dev/null | tr -d , |
        sed 's/([^)]*)//g' | awk -v arm="$1" -v lib="$(basename "$lib")" '
        /\[[^]]*\]$/ && $1 ~ /^[0-9]+$/ {
            obj = $NF; gsub(/[][]/, "", obj); n = split(obj, part, "/"); side = part[n] == lib ? "hipvis" : "app"
            for (i = 1; i <= 3; i++) if ($i == ".") $i = 0
            im[side] += $1; dm[side] += $2 + $3
        }
        END { printf "%s %d %d %d %d\n", arm, im["hipvis"], dm["hipvis"], im["app"], dm["app"] }'
}
# Steps per arm: the "pair WHAT FN_BASE FN_TRACED N UNIT" lines the runs printed (instr.sh).
steps=$(sed -n '1s/^pair [^ ]* [^ ]* [^ ]* \([0-9]*\) .*/\1/p' "$work/cg.$$.count_on_1.out")
[ -n "$steps" ] || { echo "$(basename "$bin"): displaced misses: no step count" >&2; exit 1; }
for n in 1 130; do
    { sums count_off_$n; sums count_on_$n; } | awk -v prog="$(basename "$bin")" -v label="$label" -v n="$n" -v steps="$steps" '
        { im_h[NR] = $2; dm_h[NR] = $3; im_a[NR] = $4; dm_a[NR] = $5 }
        END {
            printf "%s: L1 misses by object: %s, step with %d stream%s: in libhipvis +%.2f data, +%.2f instruction; " \
                   "in the program, runtime and libc (lines displaced) +%.2f data, +%.2f instruction per step (callgrind cache model)\n",
                   prog, label, n, n == 1 ? "" : "s", (dm_h[2] - dm_h[1]) / steps, (im_h[2] - im_h[1]) / steps,
                   (dm_a[2] - dm_a[1]) / steps, (im_a[2] - im_a[1]) / steps
        }'
done
