#!/bin/sh
# check_double.sh - TEST-ONLY checks of the HIP runtime test double.
#
# usage: check_double.sh BUILD MODE
#   MODE 0    optimised build: everything, including the real-runtime
#             comparisons and the ctypes app
#   MODE 1    ASan/UBSan build: everything but the real runtime and Python
#   MODE tsan ThreadSanitizer build in BUILD/tests/double-tsan: thread-mode
#             unit tests and race-free decode loops
# Prints one line per check and "double: N passed, M failed"; exits non-zero
# on failure. Run from the repository root.
set -u
BUILD=$1
MODE=${2:-0}
DBL=$BUILD/tests/double
APPS=$BUILD/tests/apps
if [ "$MODE" = tsan ]; then
    DBL=$BUILD/tests/double-tsan
    APPS=$DBL
fi
PASS=0
FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { PASS=$((PASS + 1)); echo "  ok   $*"; }
bad() { FAIL=$((FAIL + 1)); echo "  FAIL $*"; }

# ---- the library itself ------------------------------------------------------
check_library() {
    lib=$DBL/libamdhip64.so.5
    if readelf -d "$lib" | grep -q 'SONAME.*\[libamdhip64.so.5\]'; then ok "soname"; else bad "soname"; fi
    if readelf -V "$lib" | grep -q 'Version definition'; then
        bad "no symbol-version definitions"
    else
        ok "no symbol-version definitions"
    fi
    # the library never calls its own API through the PLT
    plt=$(readelf -rW "$lib" | awk '/JUMP_SLOT/ {print $5}' | grep -E '^(hip|__hip|_Z24hip)' || true)
    if [ -z "$plt" ]; then ok "no PLT calls to its own API"; else bad "PLT calls to own API: $plt"; fi
    # only the HIP API and the hipdouble_* control entry points are exported
    extra=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -vE '^(hip|__hip|_Z24hipExtModuleLaunchKernel)' || true)
    if [ -z "$extra" ]; then ok "exports only the HIP API"; else bad "unexpected exports: $extra"; fi
    n=$(nm -D --defined-only "$lib" | grep -c ' T hip')
    if [ "$n" -ge 140 ]; then ok "exports $n hip* functions"; else bad "exports only $n hip* functions"; fi
}

# ---- unit tests ------------------------------------------------------------
run_unit() {
    mode=$1
    out=$(HIPDOUBLE_EXEC=$mode LD_LIBRARY_PATH=$DBL "$DBL/test_double" 2>"$TMP/unit.err")
    rc=$?
    line=$(printf '%s\n' "$out" | grep '^double-unit:')
    p=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
    f=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    if [ "$rc" -eq 0 ] && [ -n "$p" ] && [ "${f:-1}" -eq 0 ] && ! grep -q 'WARNING: ThreadSanitizer' "$TMP/unit.err"; then
        PASS=$((PASS + p))
        echo "  ok   unit tests ($mode): $p passed"
    else
        FAIL=$((FAIL + ${f:-1} + 1))
        echo "  FAIL unit tests ($mode): rc=$rc $line"
        sed 's/^/       /' "$TMP/unit.err" | head -40
    fi
}

# ---- decode loop -------------------------------------------------------------
# loop PROGRAM EXPECT ENV... -- ARGS...: EXPECT is "zero" or "stale"; the
# program prints "... stale_reads=N ... error=E" (decode_loop, errata_graph)
loop() {
    prog=$1
    expect=$2
    shift 2
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    out=$(env LD_LIBRARY_PATH="$DBL" $envs "$prog" "$@" 2>"$TMP/decode.err")
    rc=$?
    stale=$(printf '%s\n' "$out" | sed -n 's/.* stale_reads=\([0-9]*\) .*/\1/p')
    err=$(printf '%s\n' "$out" | sed -n 's/.* error=\(.*\)$/\1/p')
    label="${prog##*/}$envs $*: stale_reads=${stale:-?}"
    if [ "$rc" -ne 0 ] || [ -z "$stale" ] || [ "$err" != none ] ||
        grep -q 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|runtime error' "$TMP/decode.err"; then
        bad "$label rc=$rc error=${err:-?}"
        sed 's/^/       /' "$TMP/decode.err" | head -20
    elif [ "$expect" = zero ] && [ "$stale" -eq 0 ]; then
        ok "$label"
    elif [ "$expect" = stale ] && [ "$stale" -gt 0 ]; then
        ok "$label (expected)"
    else
        bad "$label, expected $expect"
    fi
}
decode() { loop "$APPS/decode_loop" "$@"; }

decode_lazy() {
    L=HIPDOUBLE_EXEC=lazy
    # correct programs: no stale read
    decode zero $L -- --steps 200
    decode zero $L -- --fork-join
    decode zero $L -- --spt
    decode zero $L -- --threads 4
    decode zero $L -- --spt --threads 4 --fork-join
    decode zero $L -- --side-stream-copy --event-wait
    decode zero $L -- --event-sync-before-rewrite
    decode zero $L -- --free-realloc=same
    # application races, natural behaviour of the double
    decode stale $L -- --side-stream-copy
    decode stale $L -- --host-rewrite
    decode stale $L -- --free-realloc
    # fault models, each with the program pattern it needs, and its fix
    decode stale $L HIPDOUBLE_FAULT=h1 -- --fork-join
    decode zero $L HIPDOUBLE_FAULT=h1 -- --steps 200
    decode zero $L HIPDOUBLE_FAULT=h1 DEBUG_HIP_FORCE_GRAPH_QUEUES=1 -- --fork-join
    decode zero $L HIPDOUBLE_FAULT=h1 -- --fork-join --sync-before-replay
    decode stale $L HIPDOUBLE_FAULT=h2a -- --steps 200
    decode stale $L HIPDOUBLE_FAULT=h2a -- --sync-before-replay
    decode stale $L HIPDOUBLE_FAULT=h2b -- --host-rewrite
    decode zero $L HIPDOUBLE_FAULT=h2b -- --event-sync-before-rewrite
    decode stale $L HIPDOUBLE_FAULT=h3 -- --steps 200
    decode zero $L HIPDOUBLE_FAULT=h3 -- --sync-before-replay
}

decode_thread() {
    T=HIPDOUBLE_EXEC=thread
    decode zero $T -- --steps 200
    decode zero $T -- --fork-join
    decode zero $T -- --threads 4
    decode zero $T -- --spt --threads 3 --fork-join
    decode zero $T -- --side-stream-copy --event-wait
    decode zero $T -- --event-sync-before-rewrite
    decode zero $T -- --free-realloc=same
    if [ "$MODE" != tsan ]; then
        # deterministic even with worker threads; racy models are lazy-only
        decode stale $T HIPDOUBLE_FAULT=h2a -- --steps 200
        decode stale $T HIPDOUBLE_FAULT=h2b -- --host-rewrite
        decode stale $T HIPDOUBLE_FAULT=h3 -- --steps 200
    fi
}

# ---- runtime errata fault models (tests/errata/errata_graph) ---------------------
errata() { loop "$BUILD/tests/errata/errata_graph" "$@"; }

# Each model only with its executor and trigger; each workaround removes it.
errata_models() {
    C=DEBUG_HIP_GRAPH_CLASSIC_PATH=1
    for X in HIPDOUBLE_EXEC=lazy HIPDOUBLE_EXEC=thread; do
        errata zero $X $C -- --shape fanout
        errata stale $X $C HIPDOUBLE_FAULT=rs11501 -- --shape fanout
        errata zero $X HIPDOUBLE_FAULT=rs11501 -- --shape fanout
        errata zero $X $C HIPDOUBLE_FAULT=rs11501 DEBUG_HIP_FORCE_GRAPH_QUEUES=1 -- --shape fanout
        errata zero $X $C HIPDOUBLE_FAULT=rs11501 -- --shape fanout --children 5
        errata stale $X $C HIPDOUBLE_FAULT=rs11357 -- --shape disabled
        errata zero $X $C HIPDOUBLE_FAULT=rs11357 -- --shape disabled --keep-enabled
        errata zero $X HIPDOUBLE_FAULT=rs11357 -- --shape disabled
        errata zero $X $C HIPDOUBLE_FAULT=rs11357 DEBUG_HIP_FORCE_GRAPH_QUEUES=1 -- --shape disabled
        errata stale $X HIPDOUBLE_FAULT=rs11403 -- --shape sdma
        errata zero $X HIPDOUBLE_FAULT=rs11403 HSA_ENABLE_SDMA=0 -- --shape sdma
        errata zero $X $C HIPDOUBLE_FAULT=rs11403 -- --shape sdma
        errata zero $X HIPDOUBLE_FAULT=rs11403 -- --shape sdma --bytes 8192
    done
}

# ---- runtimes: double vs real, versioned references ---------------------------
compare_runtimes() {
    if [ ! -x "$APPS/passthrough" ]; then
        bad "passthrough missing"
        return
    fi
    LD_LIBRARY_PATH=$DBL "$APPS/passthrough" >"$TMP/pt_double.txt" 2>"$TMP/pt.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q 'test-double=1' "$TMP/pt_double.txt" &&
        ! grep -q -- '-> unavailable' "$TMP/pt_double.txt"; then
        ok "passthrough on the double ($(grep -c -- ' -> ' "$TMP/pt_double.txt") calls)"
    else
        bad "passthrough on the double rc=$rc"
    fi
    [ "$MODE" = 0 ] || return 0
    real=/usr/lib/x86_64-linux-gnu/libamdhip64.so.5
    if [ ! -e "$real" ] || [ ! -x "$APPS/passthrough_real" ]; then
        echo "  skip real-runtime comparisons (no $real)"
        return 0
    fi
    # a binary linked against the real runtime (versioned references) runs on the double
    LD_LIBRARY_PATH=$DBL "$APPS/passthrough_real" >"$TMP/pt_real_bin.txt" 2>/dev/null
    if [ $? -eq 0 ] && cmp -s "$TMP/pt_double.txt" "$TMP/pt_real_bin.txt"; then
        ok "versioned references (hipMemcpyAsync@hip_4.2 ...) bind to the double"
    else
        bad "binary linked against the real runtime does not run the same on the double"
    fi
    # the double-linked binary runs on the real runtime ("no device")
    env -u LD_LIBRARY_PATH "$APPS/passthrough" >"$TMP/pt_real.txt" 2>/dev/null
    if [ $? -eq 0 ] && grep -q 'test-double=0' "$TMP/pt_real.txt" &&
        grep -q '^hipGetDeviceCount -> 100$' "$TMP/pt_real.txt"; then
        ok "passthrough runs on the real runtime (no device)"
    else
        bad "passthrough on the real runtime"
    fi
    env -u LD_LIBRARY_PATH "$APPS/decode_loop" --steps 3 >"$TMP/dl_real.txt" 2>/dev/null
    if [ $? -eq 0 ] && grep -q 'error=hipHostMalloc:10[01]' "$TMP/dl_real.txt"; then
        ok "decode_loop starts on the real runtime and reports its error"
    else
        bad "decode_loop on the real runtime: $(cat "$TMP/dl_real.txt")"
    fi
}

ctypes_app() {
    [ "$MODE" = 0 ] || return 0
    py=$(command -v python3 || true)
    if [ -z "$py" ]; then
        echo "  skip ctypes_decode (no python3)"
        return 0
    fi
    for spec in "zero -" "stale --host-rewrite" "stale HIPDOUBLE_FAULT=h3" "zero HIPDOUBLE_EXEC=thread"; do
        set -- $spec
        expect=$1
        arg=$2
        case $arg in
        -) envs=""; opt="" ;;
        --*) envs=""; opt=$arg ;;
        *) envs=$arg; opt="" ;;
        esac
        out=$(env $envs "$py" tests/apps/ctypes_decode.py "$DBL/libamdhip64.so.5" --steps 64 $opt 2>&1)
        stale=$(printf '%s\n' "$out" | sed -n 's/.* stale_reads=\([0-9]*\) .*/\1/p')
        label="ctypes_decode $envs $opt: stale_reads=${stale:-?}"
        if [ -z "$stale" ] || ! printf '%s' "$out" | grep -q 'error=none'; then
            bad "$label: $out"
        elif { [ "$expect" = zero ] && [ "$stale" -eq 0 ]; } ||
            { [ "$expect" = stale ] && [ "$stale" -gt 0 ]; }; then
            ok "$label"
        else
            bad "$label, expected $expect"
        fi
    done
}

echo "double: checks in $DBL (mode $MODE)"
if [ "$MODE" = tsan ]; then
    run_unit thread
    run_unit lazy
    decode_thread
    # lazy mode with several host threads driving shared streams
    decode zero HIPDOUBLE_EXEC=lazy -- --threads 4 --fork-join
    decode zero HIPDOUBLE_EXEC=lazy -- --threads 4 --spt --event-wait
else
    check_library
    run_unit lazy
    run_unit thread
    decode_lazy
    decode_thread
    errata_models
    compare_runtimes
    ctypes_app
fi
echo "double: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
