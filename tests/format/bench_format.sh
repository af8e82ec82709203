#!/usr/bin/env bash
# bench-format: the trace format's figures (issues 12 and 13), in one run.
#
#   bench_format.sh BUILD_DIR
#
#   1. bytes per record: the uniform fake-runtime loop (1 M hipMemcpyAsync at
#      500 k calls/s) and the decode loop on the runtime double (20,000 steps),
#      format 2 as written, and the same records rewritten as format 1;
#   2. dropped records at the defaults: the decode loop, 50,000 steps, and the
#      fake-runtime loop at 1.5 M calls/s (3 M calls);
#   3. hipvis-analyze on one core (taskset -c 0) on a 20 M-record decode-loop
#      trace (the 20,000-step trace's loop tiled), records/s and peak RSS, the
#      reader alone and the engine alone on the same file, and
#      babeltrace2's event counter on the same number of events of an LTTng-UST
#      trace, where babeltrace2 and lttng are installed.
# Timing on a shared machine is noisy: the load average is printed with it.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
lib=$build/libhipvis.so
tmp=$(mktemp -d /tmp/hv-bench-format.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
records() { "$build/hipvis-dump" --stats --json "$1" 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    o=json.loads(l)
    if o["type"]=="stats": print(o["records"])'; }
footer_drops() { "$build/hipvis-dump" --json "$1" 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    o=json.loads(l)
    if o["type"]=="footer":
        d={k:v for k,v in o["dropped"].items() if v}
        print(sum(o["dropped"].values()), "of", o["records_made"], "made", d if d else "")'; }
size() { stat -c %s "$1"; }
bpr() { python3 -c "print(f'{$1/$2:.2f}')"; }

echo "bench-format: $(nproc) CPUs, load average $(load) at start"
echo "== 1. bytes per record (file bytes / records in the file)"
HIPVIS_QUIET=1 HIPVIS_OUTPUT=$tmp/u.zst LD_PRELOAD=$lib "$build/tests/bench/uniform_loop" --calls 1000000 \
    --rate 500000 >/dev/null
LD_LIBRARY_PATH=$build/tests/double HIPVIS_QUIET=1 HIPVIS_OUTPUT=$tmp/d.zst LD_PRELOAD=$lib \
    "$build/tests/apps/decode_loop" --steps 20000 --prefill-every 8 >/dev/null
for t in u d; do
    name=$([ $t = u ] && echo "uniform loop (1 M hipMemcpyAsync, 500 k/s)" || echo "decode loop (20,000 steps, double)")
    n=$(records "$tmp/$t.zst")
    "$build/tests/format/trace_tool" rewrite "$tmp/$t.zst" "$tmp/$t.v1.zst" 1
    echo "  $name: $n records; format 2: $(bpr "$(size "$tmp/$t.zst")" "$n") B/record;" \
         "the same records as format 1: $(bpr "$(size "$tmp/$t.v1.zst")" "$n") B/record"
done

echo "== 2. dropped records at the defaults (load average $(load))"
LD_LIBRARY_PATH=$build/tests/double HIPVIS_QUIET=1 HIPVIS_OUTPUT=$tmp/d50.zst LD_PRELOAD=$lib \
    "$build/tests/apps/decode_loop" --steps 50000 --prefill-every 8 >/dev/null
echo "  decode loop, 50,000 steps on the double: dropped $(footer_drops "$tmp/d50.zst")"
# The same rate twice: steady from the first call's return, then with the
# loop's clock started before its first call, whose time (tracing's
# activation: HIPVIS_WRITER_STATS prints it) the loop catches up in one
# burst at full speed (uniform_loop.c --pace-from).
for from in first start; do
    out=$(HIPVIS_QUIET=1 HIPVIS_WRITER_STATS=1 HIPVIS_OUTPUT=$tmp/f.zst LD_PRELOAD=$lib \
        "$build/tests/bench/uniform_loop" --calls 3000000 --rate 1500000 --pace-from $from 2>&1)
    rate=$(echo "$out" | sed -n 's/^uniform_loop:.*rate=//p')
    act=$(echo "$out" | sed -n 's/.*writer: activation \([0-9.]* ms\).*/\1/p')
    echo "  fake-runtime loop, 3 M calls at $rate, paced from $from: dropped $(footer_drops "$tmp/f.zst"); activation $act"
done
rm -f "$tmp"/d50.zst "$tmp"/f.zst "$tmp"/*.v1.zst "$tmp/u.zst"

echo "== 3. reading on one core (taskset -c 0), 20 M records"
"$build/tests/format/trace_tool" tile "$tmp/d.zst" "$tmp/big.zst" 20000000 | sed 's/^/  /'
echo "  $(bpr "$(size "$tmp/big.zst")" 20000000) B/record on disk; load average $(load)"
for i in 1 2; do
    /usr/bin/time -f "  hipvis-analyze run $i: %e s wall (20 M records / wall = end to end), %U s user + %S s sys, peak RSS %M KiB" taskset -c 0 \
        "$build/hipvis-analyze" --stats --fail-on none "$tmp/big.zst" 2>&1 >/dev/null | grep -E "records/s|peak RSS" |
        sed 's/^ */  /'
done
# Where the time goes: the reader alone (decompression, v2 decoding, the
# reorder window and the per-thread merge), on the same core and file; the
# rest of the analyzer's time is the engine.
taskset -c 0 "$build/tests/format/trace_tool" read "$tmp/big.zst" | sed 's/^/  /'
# The engine alone on the same core and file (records read into memory
# first, untimed): the analyzer's per-record budget is the two together.
taskset -c 0 "$build/tests/analyze/bench_engine" "$tmp/big.zst" | sed 's/^/  /'
if command -v babeltrace2 >/dev/null && command -v lttng >/dev/null && command -v lttng-sessiond >/dev/null &&
    [ -x "$build/tests/bench/lttng_loop" ]; then
    bash "$here/../bench/lttng_count.sh" "$build" 20000000 "$tmp"
else
    echo "  babeltrace2, lttng-tools or liblttng-ust-dev not installed: babeltrace2 not measured"
fi
echo "bench-format: load average $(load) at the end"
