#!/usr/bin/env bash
# demo.sh - `make demo`: the seed report's decode loop under hipvis.
#
#   demo.sh BUILD_DIR
#
# Runs tests/apps/decode_loop (a pinned H2D copy of cu_seqlens_q, then a
# replay of a captured graph whose kernel reads it, on the same stream;
# every 8th step an eager prefill) on the TEST-ONLY HIP runtime double with
# LD_PRELOAD=libhipvis.so, then shows what hipvis-analyze alone reports:
# the same-epoch-write finding naming the buffer and its reader, and what
# to do next. The loop names its buffers with hipvis_name (--name-buffers),
# so the report says cu_seqlens_q; its device code keeps its argument names
# (-fhip-kernel-arg-name), so the report adds "read as qo_indptr". Every
# command it prints is the one it runs, ready to paste.
# Exit 0; 1 if something is missing (no trace, no finding).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
steps=${DEMO_STEPS:-300}
out=$build/demo
trace=$out/decode_loop.zst
app=$build/tests/apps/decode_loop
analyze=$build/hipvis-analyze

# Prints a command as a shell would read it back, then runs it.
show() {
    printf '   $'
    printf ' %q' "$@"
    printf '\n'
}

rm -rf "$out"
mkdir -p "$out"

run=(env LD_LIBRARY_PATH="$build/tests/double" HIPVIS_OUTPUT="$trace" LD_PRELOAD="$build/libhipvis.so"
     "$app" --steps "$steps" --prefill-every 8 --print-buffers --name-buffers)
echo "== 1. decode_loop: $steps steps (pinned H2D copy of cu_seqlens_q, then graph replay, same stream;"
echo "      an eager prefill every 8th step), on the TEST-ONLY runtime double, under libhipvis;"
echo "      --name-buffers makes it call hipvis_name() on its buffers, as a user would (docs/names.md)"
show "${run[@]}"
"${run[@]}" >"$out/decode_loop.out" 2>"$out/decode_loop.err"
sed 's/^/   /' "$out/decode_loop.out"
sed 's/^/   /' "$out/decode_loop.err"
[ -s "$trace" ] || { echo "demo: FAILED: no trace at $trace" >&2; exit 1; }
echo "   stale_reads=0: on the double stream order holds. Its TEST-ONLY model of a stale scalar cache"
echo "   (HIPDOUBLE_FAULT=h3, see tests/runtime-double/README.md) shows the seed report's symptom with"
echo "   the same program and the same API calls:"
fault=(env LD_LIBRARY_PATH="$build/tests/double" HIPDOUBLE_FAULT=h3 "$app" --steps "$steps" --prefill-every 8)
show "${fault[@]}"
"${fault[@]}" | sed 's/^/   /'

echo
echo "== 2. What hipvis-analyze finds in the trace"
report=("$analyze" --fail-on=none "$trace")
show "${report[@]}"
set +e
"${report[@]}" >"$out/analysis.txt"
rc=$?
"$analyze" --fail-on=none --json "$trace" >"$out/analysis.json"
set -e
sed 's/^/   /; s/ *$//' "$out/analysis.txt"
[ "$rc" -eq 0 ] || { echo "demo: FAILED: hipvis-analyze exited $rc" >&2; exit 1; }
grep -q '^\[warning\] same-epoch-write' "$out/analysis.txt" ||
    { echo "demo: FAILED: hipvis-analyze reported no same-epoch-write" >&2; exit 1; }
grep -q 'buffer   "cu_seqlens_q", read as qo_indptr (kernel arg 0 of ' "$out/analysis.txt" ||
    { echo "demo: FAILED: the finding does not name cu_seqlens_q and its kernel argument qo_indptr" >&2; exit 1; }

echo
echo "== 3. The same analysis as one self-contained page (timeline, findings, graphs, input health; offline)"
html=("$analyze" --fail-on=none --html "$out/report.html" "$trace")
show "${html[@]}"
"${html[@]}" >/dev/null 2>"$out/report.err" ||
    { cat "$out/report.err" >&2; echo "demo: FAILED: hipvis-analyze --html" >&2; exit 1; }
echo "   HTML report: $out/report.html  (open file://$out/report.html in any browser)"
echo
echo "demo: trace $trace, report $out/analysis.txt, JSON $out/analysis.json"
