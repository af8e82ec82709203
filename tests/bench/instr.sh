#!/bin/sh
# Instructions added by libhipvis, counted by callgrind: figures that do not
# move with the machine's load, unlike the timings next to them.
# `BENCH --count` runs each arm in a function of its own (count_*) and
# prints one line per comparison, "pair WHAT FN_BASE FN_TRACED N UNIT";
# callgrind counts each function's inclusive instructions on the calling
# thread only (the writer thread runs outside the toggled functions).
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
    valgrind --tool=callgrind --toggle-collect='count_*' --callgrind-out-file="$out" "$bin" --count \
    >"$pairs" 2>/dev/null </dev/null || { echo "$(basename "$bin"): instructions: callgrind failed" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | tr -d , |
    awk -v label="$label" -v prog="$(basename "$bin")" -v pairs="$pairs" '
    # "1234 (12.3%)  file.c:count_x [binary]": inclusive instructions of count_x
    match($0, /:count_[a-z0-9_]+ /) { ir[substr($0, RSTART + 1, RLENGTH - 2)] = $1 }
    END {
        while ((getline line < pairs) > 0) {
            split(line, f, " ")
            if (f[1] != "pair") continue
            what = f[2]; gsub(/_/, " ", what)
            if (!(f[3] in ir) || !(f[4] in ir)) { printf "%s: instructions: %s: not counted\n", prog, what; continue }
            printf "%s: instructions: %s, %s: +%.1f instructions per %s through libhipvis (%.1f without; callgrind, %d %ss per arm)\n",
                   prog, label, what, (ir[f[4]] - ir[f[3]]) / f[5], f[6], ir[f[3]] / f[5], f[5], f[6]
        }
    }'
