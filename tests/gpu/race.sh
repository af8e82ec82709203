#!/usr/bin/env bash
# GPU validation of `hipvis experiment` (issue 15) on one H200, <= 3 minutes.
#   device run (nvidia-h200), carry [build/libhipvis.so, build/hipvis, build/hipvis-analyze, .devlibs]:
#   OUT=$OUT bash tests/gpu/race.sh
# Builds tests/gpu/race.cu (a graph reading a buffer copied on a side stream
# without a wait: real stale reads), runs it plain, then
#   hipvis experiment (all CUDA arms) on the racy variant: must find the
#     symptom in baseline, name the cause (a race: unordered-write) and the
#     cheapest arm that removes it, with its measured cost;
#   hipvis experiment on the --sync variant: must say "no symptom in N runs".
# Reports: $OUT/race/report.{txt,json}, $OUT/race-sync/report.{txt,json};
# traces and logs of every run: $OUT/race-runs.tar.gz. Summary at the end.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
tmp=$(mktemp -d /tmp/hvrace.XXXXXX)
# libhipvis.so and hipvis need libzstd / libmsgpackc / libelf; the device may lack
# them: carried in .devlibs (see tests/gpu/run_all.sh).
. "$root/tests/gpu/devlibs.sh"
[ -n "$libpath" ] && export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
nvcc --version | tail -1
nvcc -O2 -cudart shared -o "$tmp/racebin" tests/gpu/race.cu || exit 1
echo "== plain runs (no hipvis)"
"$tmp/racebin" --steps 200
"$tmp/racebin" --steps 200 --sync
echo "== hipvis experiment: racy variant"
timeout -k 5 110 build/hipvis experiment -n 6 --timeout 60 -o "$tmp/race" -- "$tmp/racebin" --steps 200 \
    > "$tmp/race.txt" 2> "$tmp/race.err"
echo "exit $?"; cat "$tmp/race.txt"; tail -3 "$tmp/race.err"
echo "== hipvis experiment: synchronized variant"
timeout -k 5 50 build/hipvis experiment -n 10 --arms baseline,copy-sync --timeout 30 -o "$tmp/race-sync" -- \
    "$tmp/racebin" --steps 200 --sync > "$tmp/race-sync.txt" 2> "$tmp/race-sync.err"
echo "exit $?"; cat "$tmp/race-sync.txt"; tail -3 "$tmp/race-sync.err"
for d in race race-sync; do
    mkdir -p "$OUT/$d"
    cp "$tmp/$d"/report.* "$OUT/$d/" 2>/dev/null
    cp "$tmp/$d.txt" "$tmp/$d.err" "$OUT/$d/" 2>/dev/null
done
tar -C "$tmp" -czf "$OUT/race-runs.tar.gz" race race-sync
echo "== summary"
for d in race race-sync; do
    python3 - "$OUT/$d/report.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[1]}: no report ({e})"); sys.exit()
d = r["decision"]
arms = " ".join(f"{a['name']}={a['symptom_runs']}/{a['runs']}:{a['outcome']}" +
                (f":x{a['cost_ratio']:.3f}" if a["cost_ratio"] else "") for a in r["arms"])
print(f"{' '.join(r['command'][-3:])}: runtime {r['runtime']}; verdict {d['verdict']} [{d['basis']}]; "
      f"cheapest fix {d['cheapest_fix']} x{d['cheapest_fix_cost_ratio']}; {arms}")
PY
done
