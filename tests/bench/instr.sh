#!/bin/sh
# Instructions added per intercepted call, counted by callgrind: a figure
# that does not move with the machine's load, unlike the timings of
# bench-intercept. bench_intercept --count N runs N direct and N traced
# hipMemcpyAsync calls (empty runtime function, back to back in blocks of
# 1000 with a pause for the writer), each arm in a function of its own;
# callgrind counts each function's inclusive instructions on the calling
# thread (the writer thread runs outside the toggled functions).
# usage: instr.sh BENCH_BIN LIBHIPVIS WORKDIR LABEL [VAR=VALUE...]
bin=$1 lib=$2 work=$3 label=$4
shift 4
n=20000
if ! command -v valgrind >/dev/null 2>&1; then
    echo "bench-intercept: instructions: skipped (valgrind not installed)"
    exit 0
fi
mkdir -p "$work"
count() {   # $1: the arm's function; prints its instructions
    out="$work/callgrind.$$.$1"
    rm -f "$out"
    env HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/instr.%p.zst" LD_PRELOAD="$lib" $vars \
        valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file="$out" "$bin" --count $n \
        >/dev/null 2>&1 || { echo "bench-intercept: instructions: callgrind failed" >&2; rm -f "$out"; return 1; }
    sed -n 's/^summary: *//p' "$out"
    rm -f "$out"
}
vars="$*"
d=$(count count_direct) && t=$(count count_traced) || exit 1
rm -f "$work"/instr.*.zst
awk -v d="$d" -v t="$t" -v n=$n -v label="$label" 'BEGIN {
    printf "bench-intercept: instructions: %s: +%.1f instructions per call through libhipvis (direct %.1f, traced %.1f; callgrind, %d hipMemcpyAsync calls per arm)\n",
           label, (t - d) / n, d / n, t / n, n }'
