#!/bin/sh
# The record floor next to the shipped library (make bench-floor): the same
# two benchmarks through builds whose traced calls write call records that
# carry only their header and call-level fields (HV_RECORD_FLOOR=1,
# intercept.h: the ordered clock, the ring and the record's lines, nothing
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
awk -v rounds="$rounds" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
    function med(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { n[$1]++; one[$1, n[$1]] = $2; two[$1, n[$1]] = $3; s1[$1, n[$1]] = $4 + 0; s130[$1, n[$1]] = $5 + 0 }
    END {
        split("shipped floor none", arms, " ")
        for (k = 1; k <= 3; k++) {
            a = arms[k]
            for (i = 1; i <= n[a]; i++) { x[i] = one[a, i]; y[i] = two[a, i]; u[i] = s1[a, i]; v[i] = s130[a, i] }
            m1[a] = med(x, n[a]); m2[a] = med(y, n[a]); ms1[a] = med(u, n[a]); ms130[a] = med(v, n[a])
        }
        printf "bench-floor: what a traced call costs with the record it carries (shipped), with a record " \
               "that carries only its header and call fields (floor: ordered clock, ring, the record'"'"'s lines), " \
               "and with no record (none: the interposition); median of %d alternated runs each, " \
               "load average %s\n", rounds, load
        printf "bench-floor: hipMemcpyAsync back to back, 1 thread (fenced) / 2 threads at once, ns added " \
               "per call: shipped +%.1f / +%.1f, floor +%.1f / +%.1f, none +%.1f / +%.1f\n",
               m1["shipped"], m2["shipped"], m1["floor"], m2["floor"], m1["none"], m2["none"]
        printf "bench-floor: bench-step thread CPU added per step, 1 stream / 130 streams: " \
               "shipped %+d / %+d ns, floor %+d / %+d ns, none %+d / %+d ns\n",
               ms1["shipped"], ms130["shipped"], ms1["floor"], ms130["floor"], ms1["none"], ms130["none"]
    }' "$res"
