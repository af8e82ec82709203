#!/usr/bin/env bash
# TEST-ONLY: the CUDA pass-through checks (make check-cuda).
#
#   run_check.sh BUILD_TEST_DIR LIBHIPVIS HIPVIS_DUMP
#
# For each program (the runtime one against the real libcudart.so.13, the
# driver one against the stand-in driver): run it without and with
# LD_PRELOAD of the library; stdout and exit code must be identical; then
# check_trace.py checks the trace against what the program printed.
set -euo pipefail
dir=$1 lib=$(realpath "$2") dump=$3
here=$(dirname "$0")

run_pair() { # name kind cmd...
    local name=$1 kind=$2
    shift 2
    rm -f "$dir/$name".*
    set +e
    "$@" > "$dir/$name.plain.out" 2> "$dir/$name.plain.err"
    local rc_plain=$?
    HIPVIS_QUIET=1 HIPVIS_OUTPUT="$dir/$name.trace.zst" LD_PRELOAD="$lib" "$@" \
        > "$dir/$name.traced.out" 2> "$dir/$name.traced.err"
    local rc_traced=$?
    set -e
    if [ "$rc_plain" != "$rc_traced" ]; then
        echo "check-cuda: FAIL: $name exits $rc_plain without hipvis, $rc_traced with it"
        cat "$dir/$name.traced.err"
        return 1
    fi
    if ! cmp -s "$dir/$name.plain.out" "$dir/$name.traced.out"; then
        echo "check-cuda: FAIL: $name prints differently under hipvis:"
        diff "$dir/$name.plain.out" "$dir/$name.traced.out" | head -20
        return 1
    fi
    "$dump" --json "$dir/$name.trace.zst" > "$dir/$name.trace.json"
    if [ "$kind" = learn ]; then
        python3 "$here/check_learn.py" "$dir/$name.traced.out" "$dir/$name.trace.json"
    else
        python3 "$here/check_trace.py" "$kind" "$dir/$name.traced.out" "$dir/$name.trace.json"
    fi
    echo "check-cuda: $name: identical output and exit code ($rc_plain) with and without hipvis"
}

run_pair rt rt "$dir/rt_passthrough"
run_pair drv drv "$dir/drv_passthrough" "$dir/fake/libcuda.so.1"
run_pair learn learn "$dir/karg_learn"

# An interposer preloaded ahead of hipvis (tests/cuda/stack_shim.c) forwards
# through dlsym(RTLD_NEXT): same output and exit code as without either
# library, every forward reaches hipvis (never the shim itself), and hipvis
# still records the calls.
set +e
"$dir/rt_passthrough" > "$dir/stack.plain.out" 2> /dev/null
rc_plain=$?
HIPVIS_QUIET=1 HIPVIS_OUTPUT="$dir/stack.trace.zst" LD_PRELOAD="$dir/stack_shim.so $lib" \
    timeout 60 "$dir/rt_passthrough" > "$dir/stack.out" 2> "$dir/stack.err"
rc_stack=$?
set -e
if [ "$rc_stack" != "$rc_plain" ] || ! cmp -s "$dir/stack.plain.out" "$dir/stack.out"; then
    echo "check-cuda: FAIL: with an interposer ahead of hipvis: exit $rc_stack (plain $rc_plain)"
    diff "$dir/stack.plain.out" "$dir/stack.out" | head -5
    exit 1
fi
if ! grep -q "stack_shim: forwarded [1-9][0-9]*, own function returned 0" "$dir/stack.err"; then
    echo "check-cuda: FAIL: the interposer's dlsym(RTLD_NEXT) did not reach hipvis: $(grep stack_shim "$dir/stack.err")"
    exit 1
fi
if ! "$dump" "$dir/stack.trace.zst" | grep -q "cudaSetDevice"; then
    echo "check-cuda: FAIL: with an interposer ahead of hipvis, cudaSetDevice is not in the trace"
    exit 1
fi
echo "check-cuda: stack: an interposer preloaded ahead of hipvis forwards to hipvis, same output and exit code ($rc_plain)"

