#!/usr/bin/env bash
# bench-sidecar-step: the serving-loop step of issue 12 (tests/bench/bench_step
# on the runtime double: recording off/on blocks in one process, 1 stream then
# 130) at the defaults and with HIPVIS_SIDECAR=1 (a hipvis-sidecar draining a
# private /dev/shm directory), the two alternating RUNS times in one run, with
# the load average; then callgrind's instructions per step for both, which do
# not move with the load. docs/sidecar.md "Cost against the defaults".
#   step.sh BUILD_DIR [RUNS]
set -u
build=$(cd "$1" && pwd)
runs=${2:-3}
bench=$build/tests/bench/bench_step
lib=$build/libhipvis.so
export LD_LIBRARY_PATH=$build/tests/double
work=$(mktemp -d /tmp/hipvis-sc-step.XXXXXX)
seg=$(mktemp -d /dev/shm/hipvis-sc-step.XXXXXX 2>/dev/null || mktemp -d "$work/seg.XXXXXX")
SC=
trap '[ -n "$SC" ] && kill -KILL $SC 2>/dev/null; rm -rf "$work" "$seg"' EXIT
mkdir -p "$work/out"
"$build/hipvis-sidecar" --dir "$seg" -o "$work/out" --no-analysis -q 2>"$work/sidecar.log" &
SC=$!
sleep 0.3

# added ARM: "+A/+B" ns per step (1 stream / 130 streams) from one bench_step run.
added() {
  local env
  if [ "$1" = sidecar ]; then env=(HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg"); else env=(HIPVIS_OUTPUT="$work/step.%p.zst"); fi
  env "${env[@]}" HIPVIS_QUIET=1 LD_PRELOAD="$lib" "$bench" |
    sed -n 's/.*: +\(-\{0,1\}[0-9]*\) ns per step wall.*/\1/p' | paste -sd/ -
}
declare -A all
for i in $(seq "$runs"); do
  line="bench-sidecar-step: run $i (load $(cut -d' ' -f1 /proc/loadavg)): added ns per step, 1 / 130 streams:"
  for arm in defaults sidecar; do
    a=$(added $arm) || exit 1
    [ -n "$a" ] || { echo "bench-sidecar-step: bench_step printed no figures ($arm)" >&2; exit 1; }
    all[$arm]="${all[$arm]:-} $a"
    line="$line $arm $(printf '%+d/%+d' "${a%/*}" "${a#*/}")"
  done
  echo "$line"
  rm -f "$work"/step.*.zst
done
. "$(dirname "$0")/../bench/median.sh"   # med
for arm in defaults sidecar; do
  one=$(for x in ${all[$arm]}; do echo "${x%/*}"; done | med)
  many=$(for x in ${all[$arm]}; do echo "${x#*/}"; done | med)
  printf 'bench-sidecar-step: %s: median of %s runs %+d / %+d ns per step (1 / 130 streams)\n' "$arm" "$runs" "$one" "$many"
done
kill -TERM $SC; wait $SC; SC=
# Instructions: the same hot path in both transports.
sh "$(dirname "$0")/../bench/instr.sh" "$bench" "$lib" "$work/instr" defaults
# A sidecar for the counted run too (the rings fill otherwise; the count is the traced thread's).
"$build/hipvis-sidecar" --dir "$seg" -o "$work/out" --no-analysis -q 2>>"$work/sidecar.log" &
SC=$!
sleep 0.3
sh "$(dirname "$0")/../bench/instr.sh" "$bench" "$lib" "$work/instr" "HIPVIS_SIDECAR=1" HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg"
kill -TERM $SC; wait $SC; SC=
