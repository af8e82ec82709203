#!/bin/sh
# Instructions added by libhipvis, counted by callgrind: figures that do not
# move with the machine's load, unlike the timings next to them.
# `BENCH --count` runs each arm in a function of its own (count_*) and
# prints one line per comparison, "pair WHAT FN_BASE FN_TRACED N UNIT";
# callgrind counts each function's inclusive instructions on the calling
# thread only (the writer thread runs outside the toggled functions).
# With INSTR_CACHE=1 callgrind also simulates this CPU's first-level caches
# and a second line per comparison gives the L1 misses the traced arm adds
# (data reads and writes, instructions): what bench-step's 130-stream phase
# costs beyond the 1-stream one is such misses (issue 12), and the count,
# unlike the timing, does not move with the machine's load.
# usage: instr.sh BENCH_BIN LIBHIPVIS WORKDIR LABEL [VAR=VALUE...]
bin=$1 lib=$2 work=$3 label=$4
shift 4
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
    echo "$(basename "$bin"): instructions: skipped (valgrind not installed)"
    exit 0
fi
mkdir -p "$work"
out="$work/callgrind.$$"
pairs="$work/pairs.$$"
trap 'rm -f "$out" "$pairs" "$work"/instr.$$.*.zst' EXIT
env HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/instr.$$.%p.zst" LD_PRELOAD="$lib" "$@" \
    valgrind --tool=callgrind ${INSTR_CACHE:+--cache-sim=yes} --toggle-collect='count_*' --callgrind-out-file="$out" "$bin" --count \
    >"$pairs" 2>/dev/null </dev/null || { echo "$(basename "$bin"): instructions: callgrind failed" >&2; exit 1; }
show=Ir
[ -n "$INSTR_CACHE" ] && show=Ir,D1mr,D1mw,I1mr
callgrind_annotate --inclusive=yes --threshold=100 --show=$show "$out" 2>/dev/null | tr -d , | sed 's/([^)]*)//g' |
    awk -v label="$label" -v prog="$(basename "$bin")" -v pairs="$pairs" -v cache="$INSTR_CACHE" '
    # "1234 [D1mr D1mw I1mr]  file.c:count_x [binary]": inclusive counts of count_x
    match($0, /:count_[a-z0-9_]+ /) { fn = substr($0, RSTART + 1, RLENGTH - 2); ir[fn] = $1; dm[fn] = $2 + $3; im[fn] = $4 }
    END {
        while ((getline line < pairs) > 0) {
            split(line, f, " ")
            if (f[1] != "pair") continue
            what = f[2]; gsub(/_/, " ", what)
            if (!(f[3] in ir) || !(f[4] in ir)) { printf "%s: instructions: %s: not counted\n", prog, what; continue }
            printf "%s: instructions: %s, %s: +%.1f instructions per %s through libhipvis (%.1f without; callgrind, %d %ss per arm)\n",
                   prog, label, what, (ir[f[4]] - ir[f[3]]) / f[5], f[6], ir[f[3]] / f[5], f[5], f[6]
            if (cache)
                printf "%s: L1 misses: %s, %s: +%.2f data, +%.2f instruction per %s through libhipvis (%.2f / %.2f without; callgrind cache model)\n",
                       prog, label, what, (dm[f[4]] - dm[f[3]]) / f[5], (im[f[4]] - im[f[3]]) / f[5], f[6],
                       dm[f[3]] / f[5], im[f[3]] / f[5]
        }
    }'
