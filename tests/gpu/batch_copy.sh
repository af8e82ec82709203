#!/usr/bin/env bash
# GPU validation of issue 14's batch copies on CUDA 13 (one H200, < 1 minute).
#   device run (nvidia-h200), carry [build/libhipvis.so, build/hipvis-dump, build/hipvis-analyze, .devlibs]:
#   OUT=$OUT bash tests/gpu/batch_copy.sh
# Builds tests/gpu/batch_copy.cu and runs it, racy and --sync, without and
# with LD_PRELOAD=build/libhipvis.so. Checks: the same exit code and output
# with and without hipvis (the sum of the racy run excepted: it is the race);
# the trace has one copy record per batch pair (1024 B each), the 3D batch
# as 12 rows of 64 B at pitch 1024, the capture query's status and id, two
# cudaGraphNodeSetEnabled records; hipvis-analyze reports unordered-write
# on the racy run and nothing on the --sync run. Writes $OUT/batch_copy/
# (traces, dumps, reports, logs); prints one PASS/FAIL line per check.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
res=$OUT/batch_copy
mkdir -p "$res"
. "$root/tests/gpu/devlibs.sh"
[ -n "$libpath" ] && export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
nvcc --version | tail -1
nvcc -O2 -cudart shared -o "$res/batch_copy" tests/gpu/batch_copy.cu || { echo "FAIL build"; exit 1; }
fails=0
for v in racy sync; do
    arg=; [ $v = sync ] && arg=--sync
    timeout -k 5 30 "$res/batch_copy" $arg > "$res/$v.plain.out" 2> "$res/$v.plain.err"; rc_plain=$?
    HIPVIS_QUIET=1 HIPVIS_OUTPUT="$res/$v.zst" LD_PRELOAD="$root/build/libhipvis.so" \
        timeout -k 5 30 "$res/batch_copy" $arg > "$res/$v.traced.out" 2> "$res/$v.traced.err"; rc_traced=$?
    echo "$v plain: rc=$rc_plain $(cat "$res/$v.plain.out")"
    echo "$v traced: rc=$rc_traced $(cat "$res/$v.traced.out")"
    strip() { sed 's/ sum=[0-9-]*//' "$1"; }
    if [ "$rc_plain" = "$rc_traced" ] && [ "$rc_plain" = 0 ] &&
       { [ $v = racy ] && [ "$(strip "$res/$v.plain.out")" = "$(strip "$res/$v.traced.out")" ] ||
         cmp -s "$res/$v.plain.out" "$res/$v.traced.out"; }; then
        echo "PASS $v: same exit code (0) and output with and without hipvis"
    else
        echo "FAIL $v: exit $rc_plain / $rc_traced, outputs differ or the copies failed"; fails=$((fails + 1))
    fi
    build/hipvis-dump --json "$res/$v.zst" > "$res/$v.dump.json" 2> "$res/$v.dump.err"
    build/hipvis-analyze --json --fail-on none "$res/$v.zst" > "$res/$v.report.json" 2> "$res/$v.analyze.err"
    python3 - "$v" "$res/$v.dump.json" "$res/$v.report.json" <<'PY' || fails=$((fails + 1))
import json, sys
v, dump, report = sys.argv[1:]
recs = [json.loads(l) for l in open(dump) if l.strip()]
calls = [r for r in recs if r.get("type") == "call"]
rules = sorted({f["rule"] for f in json.load(open(report))["findings"]})
bad = 0
def check(ok, what, got):
    global bad
    print(("PASS " if ok else "FAIL ") + f"{v}: {what}" + ("" if ok else f": {got}"))
    bad += not ok
b = [(c["bytes"], c["result"]) for c in calls if c["api"].startswith("cudaMemcpyBatchAsync")]
check(b == [(1024, 0), (1024, 0)], "cudaMemcpyBatchAsync: one record per pair, 1024 B each", b)
b3 = [(c["bytes"], c["dpitch"], c["height"]) for c in calls if c["api"].startswith("cudaMemcpy3DBatchAsync")]
check(b3 == [(768, 1024, 12)], "cudaMemcpy3DBatchAsync: 12 rows of 64 B at pitch 1024", b3)
ci = [c["raw"][:3] for c in calls if c["api"].startswith("cudaStreamGetCaptureInfo")]
check(len(ci) == 1 and int(ci[0][0], 16) == 1 and int(ci[0][1], 16) != 0 and int(ci[0][2], 16) != 0,
      "cudaStreamGetCaptureInfo: status active, capture id and graph recorded", ci)
en = [c["result"] for c in calls if c["api"] == "cudaGraphNodeSetEnabled"]
check(en == [0, 0], "cudaGraphNodeSetEnabled: off and on recorded", en)
want = ["unordered-write"] if v == "racy" else []
check(("unordered-write" in rules) if v == "racy" else rules == [], f"hipvis-analyze findings {want}", rules)
sys.exit(1 if bad else 0)
PY
done
echo "batch_copy: $fails failed"
exit $((fails > 0))
