#!/usr/bin/env bash
# Where hipvis's cost goes in the serving loop of issue 12 (tests/gpu/cost.py's
# decode step), per CUDA API, on one H200, in about 3 minutes:
#
#   bash tests/gpu/cost_attr.sh
#   (device run: carry build/libhipvis.so, build/hipvis-dump, build/gpu-diag,
#    build/tests/bench, .devlibs, and build-selftime/libhipvis.so for the
#    selftime arms; build/gpu-diag/calltime.so comes from `make test-programs`,
#    build-selftime/ from `make selftime`)
#
# Each arm is one process of tests/gpu/cost_attr.py under
# LD_PRELOAD="calltime.so [libhipvis.so]": in-process A/B blocks (recording on
# and off for the loop's thread) with the time inside each CUDA call measured
# by calltime.so. Arms: no hipvis (noise), the defaults, HIPVIS_PYFRAMES=0,
# and core records (no Python frames, no payloads, no rewrite check). Then a
# short traced run whose trace gives the traced calls per step by API, and
# bench_intercept on this host's CPU when carried. $OUT/attr.jsonl holds
# every result; a table is printed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out-attr}
mkdir -p "$OUT"
lib=$root/build/libhipvis.so
ct=$root/build/gpu-diag/calltime.so
. "$root/tests/gpu/devlibs.sh"   # libpath
export PYTHONUNBUFFERED=1 HIPVIS_QUIET=1
res=$OUT/attr.jsonl
: > "$res"
BLOCKS=${BLOCKS:-20}
stlib=$root/build-selftime/libhipvis.so
# An older selftime library to compare with in the same run (optional):
# build it at the older commit and carry it as build-selftime-base/libhipvis.so.
stbase=$root/build-selftime-base/libhipvis.so
arm() { # arm LABEL [hipvis|selftime|plain] ENV...
    local label=$1 kind=$2
    shift 2
    local pre=$ct
    local next=
    [ "$kind" = hipvis ] && pre="$ct $lib" && next=$lib
    [ "$kind" = selftime ] && pre="$ct $stlib" && next=$stlib
    [ "$kind" = selftime-base ] && pre="$ct $stbase" && next=$stbase
    env LD_PRELOAD="$pre" CALLTIME_NEXT="$next" ${libpath:+LD_LIBRARY_PATH=$libpath} HIPVIS_OUTPUT=/tmp/hvattr.$label.%p.zst "$@" \
        timeout -k 5 120 ${PIN:+taskset -c "$PIN"} python3 "$root/tests/gpu/cost_attr.py" --blocks "$BLOCKS" --label "$label" \
        > "$OUT/$label.out" 2> "$OUT/$label.err"
    grep '^{"result"' "$OUT/$label.out" >> "$res" || echo "{\"result\":{\"label\":\"$label\",\"failed\":true}}" >> "$res"
    rm -f /tmp/hvattr.$label.*.zst
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
command -v perf > /dev/null && echo "perf: $(perf --version 2>&1)" || echo "perf: not installed"
# PIN=CPULIST runs every arm under taskset (steps of unpinned processes on
# this host fall into a fast and a slow mode, ~40 vs ~60 us).
echo "cpus: $(nproc); numa: $(lscpu | awk -F: '/NUMA node[0-9]+ CPU/ {gsub(/ /,"",$2); printf "%s ", $2}'); pin: ${PIN:-none}"
if [ -n "${BASE_AB:-}" ] && [ -f "$stbase" ] && [ -f "$stlib" ]; then
    # BASE_AB=N: only the two selftime libraries, alternated N times.
    for k in $(seq 1 "$BASE_AB"); do
        arm "selftime-base.$k" selftime-base
        arm "selftime.$k" selftime
    done
else
arm plain plain
if [ -n "${SELFTIME_ONLY:-}" ] && [ -f "$stlib" ]; then
    # SELFTIME_ONLY=N: the selftime library only, N rounds of the defaults,
    # the rewrite check off, and the check on every eligible copy (what a
    # checked copy costs when its path stays warm, against one in 16), so
    # the check's share of hipvis's own time reads by difference.
    for k in $(seq 1 "$SELFTIME_ONLY"); do
        arm "selftime.$k" selftime
        arm "selftime-nocheck.$k" selftime HIPVIS_REWRITE_CHECK_KB=0
        arm "selftime-every1.$k" selftime HIPVIS_REWRITE_EVERY=1
    done
elif [ -f "$stlib" ]; then # hipvis's own time per API (make selftime; carry build-selftime/libhipvis.so)
    arm selftime selftime
    arm selftime-core selftime HIPVIS_PYFRAMES=0 HIPVIS_REWRITE_CHECK_KB=0
fi
if [ -z "${SELFTIME_ONLY:-}" ]; then
if [ -f "$stbase" ]; then
    arm selftime-base selftime-base
    [ -f "$stlib" ] && arm selftime2 selftime
fi
arm defaults hipvis
arm nopyframes hipvis HIPVIS_PYFRAMES=0
arm core hipvis HIPVIS_PYFRAMES=0 HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0
arm nopayload hipvis HIPVIS_PAYLOAD_BYTES=0
arm norewrite hipvis HIPVIS_REWRITE_CHECK_KB=0
arm defaults2 hipvis
arm plain2 plain
for extra in ${EXTRA_ARMS:-}; do # EXTRA_ARMS="label:VAR=x,VAR=y ..."
    arm "${extra%%:*}" hipvis $(echo "${extra#*:}" | tr ',' ' ')
done

# traced calls per step by API: a short traced run of cost.py's loop
tr=/tmp/hvattr.count.zst
rm -f $tr
env LD_PRELOAD="$lib" ${libpath:+LD_LIBRARY_PATH=$libpath} HIPVIS_OUTPUT=$tr \
    timeout -k 5 120 python3 "$root/tests/gpu/cost.py" step --steps 2000 > "$OUT/count.out" 2>&1
if [ -s $tr ]; then
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-dump" --json $tr 2> /dev/null |
        python3 -c '
import json, sys, collections
c = collections.Counter()
for line in sys.stdin:
    try:
        o = json.loads(line)
    except ValueError:
        continue
    c[(o.get("type"), o.get("api"))] += 1
print(json.dumps({"counts": [[t, a, n] for (t, a), n in c.most_common(40)]}))' >> "$res"
fi
if [ -x "$root/build/tests/bench/bench_intercept" ]; then
    env HIPVIS_QUIET=1 HIPVIS_OUTPUT=/tmp/hvattr.bench.%p.zst LD_PRELOAD="$lib" ${libpath:+LD_LIBRARY_PATH=$libpath} \
        "$root/build/tests/bench/bench_intercept" > "$OUT/bench_intercept.txt" 2>&1
    rm -f /tmp/hvattr.bench.*.zst
    tail -n 25 "$OUT/bench_intercept.txt"
fi
fi # SELFTIME_ONLY
fi # BASE_AB
python3 - "$res" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "counts" in o:
        print("records in a 2000+1200-step traced run (type, api, n):")
        for t, a, n in o["counts"][:25]:
            print(f"  {t!s:12} {a!s:32} {n}")
        continue
    r = o["result"]
    if r.get("failed"):
        print(f"{r['label']}: FAILED")
        continue
    print(f"\n{r['label']}: step on {r['on_us']} us, off {r['off_us']} us, median block ratio "
          f"{r['median_block_ratio']} (p10 {r['p10']}, p90 {r['p90']}), added per step "
          f"{r['added_us_per_step_median_of_pairs']} us, explained by calls {r['explained_ns_per_step']} ns; "
          f"records {r['records']}")
    for k, v in r.get("kinds", {}).items():
        print(f"  {k} steps: on {v['on_us']} us, off {v['off_us']} us, added {v['added_us']} us (median of pairs)")
    for a in r.get("selftime", []):
        print(f"  self {a['api']:26} {a['calls_per_step']:6} /step  {a['self_ns_per_call']:9} ns/call "
              f"{a['self_ns_per_step']:8} ns/step")
    for a in r["apis"]:
        print(f"  {a['api']:26} {a['calls_per_step']:6} /step  on {a['on_ns']:9} ns  off {a['off_ns']:9} ns  "
              f"added {a['added_ns_per_call']:8} ns/call {a['added_ns_per_step']:8} ns/step")
EOF
