#!/usr/bin/env bash
# demo.sh - `make demo`: the seed report's decode loop under hipvis.
#
#   demo.sh BUILD_DIR
#
# Runs tests/apps/decode_loop (a pinned H2D copy of cu_seqlens_q, then a
# replay of a captured graph whose kernel reads it, on the same stream;
# every 8th step an eager prefill) on the TEST-ONLY HIP runtime double with
# LD_PRELOAD=libhipvis.so, shows what the trace holds and one decode step,
# then runs hipvis-analyze on it. Ends with the same-epoch-write finding
# naming the buffer and its reader. Exit 0; 1 if something is missing
# (no trace, no finding).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
steps=${DEMO_STEPS:-300}
out=$build/demo
trace=$out/decode_loop.zst
app=$build/tests/apps/decode_loop
dump=$build/hipvis-dump
analyze=$build/hipvis-analyze
summary() { python3 "$here/trace_summary.py" "$dump" "$trace" "$out/decode_loop.out" "$@"; }

rm -rf "$out"
mkdir -p "$out"

echo "== 1. decode_loop: $steps steps (pinned H2D copy of cu_seqlens_q, then graph replay, same stream;"
echo "      an eager prefill every 8th step), on the TEST-ONLY runtime double, under libhipvis"
echo "   \$ HIPVIS_OUTPUT=$trace LD_PRELOAD=$build/libhipvis.so $app --steps $steps --print-buffers"
LD_LIBRARY_PATH=$build/tests/double HIPVIS_OUTPUT=$trace LD_PRELOAD=$build/libhipvis.so \
    "$app" --steps "$steps" --prefill-every 8 --print-buffers >"$out/decode_loop.out" 2>"$out/decode_loop.err"
sed 's/^/   /' "$out/decode_loop.out"
sed 's/^/   /' "$out/decode_loop.err"
[ -s "$trace" ] || { echo "demo: FAILED: no trace at $trace" >&2; exit 1; }
echo "   stale_reads=0: on the double stream order holds. Its TEST-ONLY model of a stale scalar cache"
echo "   (HIPDOUBLE_FAULT=h3, see tests/runtime-double/README.md) shows the seed report's symptom with"
echo "   the same program and the same API calls:"
LD_LIBRARY_PATH=$build/tests/double HIPDOUBLE_FAULT=h3 "$app" --steps "$steps" --prefill-every 8 | sed 's/^/   /'

echo
echo "== 2. What the trace holds"
summary trace

echo
echo "== 3. One decode step, as hipvis-dump prints it"
summary step

echo
echo "== 4. hipvis-analyze $trace"
set +e
"$analyze" --fail-on none "$trace" | sed 's/^/   /; s/ *$//'
rc=${PIPESTATUS[0]}
"$analyze" --fail-on none --json "$trace" >"$out/analysis.json"
set -e
[ "$rc" -eq 0 ] || { echo "demo: FAILED: hipvis-analyze exited $rc" >&2; exit 1; }

echo
echo "== 5. Finding"
summary conclude "$out/analysis.json"

echo
echo "== 6. The same analysis as one self-contained page (timeline, findings, graphs, input health; offline)"
"$analyze" --fail-on none --html "$out/report.html" "$trace" >/dev/null 2>"$out/report.err" ||
    { cat "$out/report.err" >&2; echo "demo: FAILED: hipvis-analyze --html" >&2; exit 1; }
echo "   HTML report: $out/report.html  (open file://$out/report.html in any browser)"
