#!/usr/bin/env bash
# GPU check of names and Python frames, one H200, under 3 minutes:
#
#   bash tests/gpu/names.sh          (device run: carry build/libhipvis.so,
#                                     build/hipvis-analyze, .devlibs as for run_all.sh)
#
# 1. names.py loop under LD_PRELOAD=build/libhipvis.so: the trace, and the
#    analyzer's text and JSON of it when build/hipvis-analyze runs there (else
#    analyze $OUT/names-loop.zst on the build machine:
#    `build/hipvis-analyze --json gpu-out-names/names-loop.zst`).
# 2. names.py ab twice: HIPVIS_PYFRAMES=1 and =0, each an in-process A/B of
#    recording on/off; the Python-frames cost per step is the difference of
#    the two runs' (on - off).
# Written to $OUT (default ./gpu-out-names): names-loop.zst, report.txt,
# report.json, results.jsonl, summary.txt (also printed).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out-names}
mkdir -p "$OUT"
lib=$root/build/libhipvis.so
analyze=$root/build/hipvis-analyze
cd "$root"
. "$root/tests/gpu/devlibs.sh"   # libpath
export PYTHONUNBUFFERED=1 HIPVIS_QUIET=1 TRITON_CACHE_DIR=$(mktemp -d /tmp/hvnames.XXXXXX)
traced=(env LD_PRELOAD="$lib")
[ -n "$libpath" ] && traced+=(LD_LIBRARY_PATH="$libpath")
res=$OUT/results.jsonl
: > "$res"
step() { # step NAME cmd...: runs it (90 s at most), keeps its result line
    local name=$1
    shift
    timeout -k 5 90 "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
    echo "{\"name\":\"$name\",\"rc\":$?,\"out\":$(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()[-4000:]))' "$OUT/$name.out")}" >> "$res"
}
rm -f "$OUT/names-loop.zst"
step loop "${traced[@]}" HIPVIS_OUTPUT="$OUT/names-loop.zst" python3 tests/gpu/names.py loop
if env ${libpath:+LD_LIBRARY_PATH=$libpath} "$analyze" --version > /dev/null 2>&1; then
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$analyze" "$OUT/names-loop.zst" > "$OUT/report.txt" 2>&1
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$analyze" --json "$OUT/names-loop.zst" > "$OUT/report.json" 2>/dev/null
fi
step ab-frames "${traced[@]}" HIPVIS_PYFRAMES=1 HIPVIS_OUTPUT="$OUT/ab1.%p.zst" python3 tests/gpu/names.py ab --steps 2000 --blocks 20
step ab-noframes "${traced[@]}" HIPVIS_PYFRAMES=0 HIPVIS_OUTPUT="$OUT/ab0.%p.zst" python3 tests/gpu/names.py ab --steps 2000 --blocks 20
rm -f "$OUT"/ab*.zst
python3 tests/gpu/names_summary.py "$OUT" | tee "$OUT/summary.txt"
