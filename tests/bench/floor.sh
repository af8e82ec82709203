#!/bin/sh
# The record floor next to the shipped library (make bench-floor): the same
# two benchmarks through builds whose traced calls write call records that
# carry only their header and call-level fields (HV_RECORD_FLOOR=1,
# measure.h: the ordered clock, the ring and the record's lines, nothing
# the record would say) or no record at all (HV_RECORD_FLOOR=2: the
# interposition alone). The three
# libraries alternate, ROUNDS runs each, so the machine's speed, which moves
# by tens of percent within minutes on the development VM, falls on all of
# them; each figure is the median of its library's runs.
# usage: floor.sh BENCH_DIR LIB_SHIPPED LIB_FLOOR LIB_NONE DOUBLE_DIR WORKDIR
bench=$1 ship=$2 floor=$3 none=$4 double=$5 work=$6
rounds=${ROUNDS:-3}
mkdir -p "$work"
res="$work/floor.$$"
trap 'rm -f "$res" "$work"/floor.$$.*.zst' EXIT
: >"$res"
for r in $(seq 1 "$rounds"); do
    for arm in shipped floor none; do
        case $arm in shipped) lib=$ship ;; floor) lib=$floor ;; none) lib=$none ;; esac
        # bench_intercept's threads section: 1 thread (fenced: three threads
        # have traced) and 2 threads at once, ns added per call.
        t=$(HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/floor.$$.%p.zst" LD_PRELOAD="$lib" \
            "$bench/bench_intercept" --threads 2>&1 |
            sed -n 's/.*libhipvis: 1 thread +\([0-9.-]*\) ns per call, 2 threads at once +\([0-9.-]*\) ns.*/\1 \2/p' |
            head -1)
        # bench_step: thread CPU added per step, 1 and 130 streams.
        s=$(HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/floor.$$.%p.zst" LD_LIBRARY_PATH="$double" LD_PRELOAD="$lib" \
            "$bench/bench_step" 2>&1 |
            sed -n 's/.*differences.*1 stream \([+0-9.-]*\) .*130 streams \([+0-9.-]*\) .*/\1 \2/p' | head -1)
        rm -f "$work"/floor.$$.*.zst
        [ -n "$t" ] && [ -n "$s" ] || { echo "bench-floor: $arm: a benchmark printed no figure" >&2; exit 1; }
        echo "$arm $t $s" >>"$res"
    done
done
. "$(dirname "$0")/median.sh"   # med
# The median of column COL over ARM's runs.
col() { awk -v arm="$1" -v c="$2" '$1 == arm {print $c}' "$res" | med; }
printf '%s\n' "bench-floor: what a traced call costs with the record it carries (shipped), with a record that carries only its header and call fields (floor: ordered clock, ring, the record's lines), and with no record (none: the interposition); median of $rounds alternated runs each, load average $(cut -d' ' -f1 /proc/loadavg)"
printf 'bench-floor: hipMemcpyAsync back to back, 1 thread (fenced) / 2 threads at once, ns added per call: shipped +%s / +%s, floor +%s / +%s, none +%s / +%s\n' \
    "$(col shipped 2)" "$(col shipped 3)" "$(col floor 2)" "$(col floor 3)" "$(col none 2)" "$(col none 3)"
printf 'bench-floor: bench-step thread CPU added per step, 1 stream / 130 streams: shipped %s / %s ns, floor %s / %s ns, none %s / %s ns\n' \
    "$(col shipped 4)" "$(col shipped 5)" "$(col floor 4)" "$(col floor 5)" "$(col none 4)" "$(col none 5)"
