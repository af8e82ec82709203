#!/usr/bin/env bash
# tests/kernels end to end (see module.mk). Every program runs twice on a
# runtime — without and with LD_PRELOAD=libhipvis.so — and must print the
# same (addresses aside) and exit the same; the traced run's trace is then
# checked by check_kernels.py and co_extract.
#   run.sh BUILD_DIR CODEOBJ_INPUTS_DIR
set -u
build=$(cd "$1" && pwd); coin=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
kt=$build/tests/kernels; dbl=$build/tests/double
real=/usr/lib/x86_64-linux-gnu
lib=$build/libhipvis.so
dump=$build/hipvis-dump
readelf=${READELF22:-llvm-readelf-22}
check="python3 $here/check_kernels.py"
preload=$lib
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "PASS $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }

# run NAME RUNTIME_DIR [VAR=VALUE...] -- PROGRAM ARGS...: runs without and
# with the tracer (trace in $work/NAME.zst), compares stdout and exit codes.
run() {
  local name=$1 rt=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" LD_LIBRARY_PATH="$rt" "$@" > "$work/$name.plain" 2>/dev/null; local rc0=$?
  env "${envs[@]}" LD_LIBRARY_PATH="$rt" HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/$name.zst" LD_PRELOAD="$preload" \
    "$@" > "$work/$name.out" 2> "$work/$name.err"; local rc1=$?
  if [ $rc0 = $rc1 ] && diff <(grep -v '^addr ' "$work/$name.plain") <(grep -v '^addr ' "$work/$name.out") >/dev/null \
     && [ -s "$work/$name.zst" ]; then
    ok "$name: same output and exit code ($rc1) with and without hipvis"
  else
    bad "$name: exit $rc0 vs $rc1 with hipvis, or output differs, or no trace"; diff "$work/$name.plain" "$work/$name.out"
    head -5 "$work/$name.err"
  fi
}

# verify NAME CHECK ARGS...: check_kernels.py on NAME's trace.
verify() {
  local name=$1 what=$2; shift 2
  local out
  if out=$($check "$what" "$dump" "$work/$name.zst" "$@" 2>&1); then ok "$name: $out"; else bad "$name: $out"; fi
}

# stored NAME FILE...: the trace stored exactly these code objects, whole
# and byte-identical.
stored() {
  local name=$1; shift
  mkdir -p "$work/$name.co"
  local got want=$#
  got=$("$kt/co_extract" "$work/$name.zst" "$work/$name.co")
  local n_ok=0
  for f in "$@"; do
    local h; h=$("$kt/co_extract" --hash "$f" | cut -d' ' -f1)
    cmp -s "$f" "$work/$name.co/$h.co" && n_ok=$((n_ok+1))
  done
  if [ $n_ok = $want ] && [ "$(echo "$got" | grep -c complete)" = $want ] && ! echo "$got" | grep -q partial; then
    ok "$name: stored $want code object(s), whole and identical"
  else
    bad "$name: stored objects: $got (want $want identical to $*)"
  fi
}

have_real=1
[ -e "$real/libamdhip64.so.5" ] || { have_real=0; bad "Debian's libamdhip64.so.5 not installed: real-runtime cases cannot run"; }

# 1. hipcc fat binary registered at start-up on the real runtime (no device):
#    every kernel recorded with llvm-readelf's kernarg size and argument count.
fat_cos="$kt/kfat-gfx90a.co $kt/kfat-gfx940.co"
if [ $have_real = 1 ]; then
  run fat-real "$real" -- "$kt/kfat_app"
  verify fat-real kernels "$readelf" "$kt/kfat.hash" $fat_cos
fi
# 2. The same binary on the double: it launches saxpy; arguments exact; both
#    processors' objects stored (the GPU's processor is unknown here).
run fat-double "$dbl" -- "$kt/kfat_app"
verify fat-double kernels "$readelf" "$kt/kfat.hash" $fat_cos
verify fat-double launch "$readelf" "$kt/kfat-gfx90a.co" "$work/fat-double.out" hipLaunchKernel _Z5saxpyfPKfPfi - x y -
stored fat-double $fat_cos
# 3. With the GPU's processor known (gfx940): only its object, named by every kernel record.
run fat-gfx940 "$dbl" HSA_OVERRIDE_GFX_VERSION=9.4.0 -- "$kt/kfat_app"
"$kt/co_extract" --hash "$kt/kfat-gfx940.co" > "$work/gfx940.hash"
verify fat-gfx940 kernels "$readelf" "$work/gfx940.hash" "$kt/kfat-gfx940.co"
stored fat-gfx940 "$kt/kfat-gfx940.co"

# 4. gfx950 module on the double: three launch forms and a fork/join graph.
"$kt/co_extract" --hash "$kt/k950.co" > "$work/k950.hash"
run module "$dbl" -- "$kt/kmod_app" "$kt/k950.co"
verify module kernels "$readelf" "$work/k950.hash" "$kt/k950.co"
verify module module "$readelf" "$kt/k950.co" "$work/module.out"
stored module "$kt/k950.co"
# 5. A 16 KiB ring: the object goes in several pieces, never crowding out calls.
run module-small-ring "$dbl" HIPVIS_RING_KB=16 -- "$kt/kmod_app" "$kt/k950.co"
stored module-small-ring "$kt/k950.co"
pieces=$("$dump" --json "$work/module-small-ring.zst" | grep -c '"type":"codeobj"')
if [ "$pieces" -gt 1 ] && "$dump" "$work/module-small-ring.zst" | grep -q 'footer.*ring_full=0 too_large=0'; then
  ok "module-small-ring: $pieces pieces, no record dropped"
else
  bad "module-small-ring: $pieces pieces, or records dropped"
fi
# 6. Storage off: nothing stored, and the trace says so.
run module-no-store "$dbl" HIPVIS_CODEOBJ_MB=0 -- "$kt/kmod_app" "$kt/k950.co"
verify module-no-store notes disabled
# 7. Triton's launcher: the runtime only reached through dlopen + dlsym.
run triton "$dbl" -- "$kt/ktriton_app" "$kt/k950.co"
verify triton launch "$readelf" "$kt/k950.co" "$work/triton.out" hipModuleLaunchKernel producer in out -
# 8. hipGetProcAddress hands out wrappers.
run procaddr "$dbl" -- "$kt/kgpa_app" "$kt/k950.co"
verify procaddr gpa
if [ $have_real = 1 ]; then
  run module-real "$real" -- "$kt/kmod_app" "$kt/k950.co"
  verify module-real traced hipModuleLoadData hipModuleGetFunction hipModuleLaunchKernel
  run triton-real "$real" -- "$kt/ktriton_app" "$kt/k950.co"
  verify triton-real traced hipModuleLoadData hipModuleGetFunction hipModuleLaunchKernel
fi

# 9. A compressed bundle gives the same kernels and objects as its plain form.
for form in plain ccob; do
  run "ccob-$form" "$dbl" -- "$kt/kccob_app" $form _Z5scalePffi _Z14first_of_groupPKiPi _Z11take_struct4pairPl \
      _Z9read_view4viewPi
  stored "ccob-$form" "$coin/hip22-gfx950.co" "$coin/hip22-gfx942.co"
done
"$kt/co_extract" --hash "$coin/hip22-gfx950.co" "$coin/hip22-gfx942.co" > "$work/hip22.hash"
verify ccob-ccob kernels "$readelf" "$work/hip22.hash" "$coin/hip22-gfx950.co" "$coin/hip22-gfx942.co"
verify ccob-plain same "$work/ccob-ccob.zst"

# 10. Bad code objects: skipped, counted, named; the program unaffected.
run bad "$dbl" -- "$kt/kbad_app" "$kt/bad"
verify bad bad
if [ $have_real = 1 ]; then
  run bad-real "$real" -- "$kt/kbad_app" "$kt/bad"
  verify bad-real bad --real
fi
# 11. A fat binary unloaded while its object is being stored (16 KiB ring):
#     the rest is not read from the unmapped image, and the trace says so.
run unload "$dbl" HIPVIS_RING_KB=16 -- "$kt/kunload_app" "$coin/libkernels.so"
verify unload notes image_unloaded

echo "kernels: $pass passed, $fail failed"
[ $fail = 0 ]
