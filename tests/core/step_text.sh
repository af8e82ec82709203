#!/bin/sh
# check-step-text: the eager launch's code lies between the two markers that
# launch wrappers prefetch between (preload/hot.h hv_launch_code_prefetch,
# preload/steptext.c), the span stays small, and the step launch wrappers do
# prefetch it. The order comes from the linker (GNU ld sorts .text.sorted.*
# by name): this checks the library as built.
# usage: step_text.sh LIBHIPVIS
lib=$1
fail() { echo "check-step-text: FAIL: $*"; exit 1; }
syms=$(nm -n "$lib") || fail "nm $lib"
addr() { echo "$syms" | awk -v n="$1" '$3 == n { print $1; exit }'; }
lo=$(addr hv_launch_text_begin); hi=$(addr hv_launch_text_end)
[ -n "$lo" ] && [ -n "$hi" ] || fail "markers hv_launch_text_begin/end not in $lib"
lo=$(printf '%d' "0x$lo"); hi=$(printf '%d' "0x$hi")
[ "$hi" -gt "$lo" ] || fail "hv_launch_text_end ($hi) is not after hv_launch_text_begin ($lo)"
# The launch path (HV_LAUNCH_FN): each between the markers.
need="hv_trace_launch hv_kargs_collect hv_kargs_emit hv_kernels_find add_if_tracked"
echo "$syms" | grep -q ' hv_cu_kernel$' && need="$need hv_cu_kernel hv_cudart_kernel"
for f in $need; do
    a=$(addr "$f")
    [ -n "$a" ] || fail "$f not in $lib"
    a=$(printf '%d' "0x$a")
    [ "$a" -gt "$lo" ] && [ "$a" -lt "$hi" ] || fail "$f (at $a) is outside the launch text [$lo, $hi)"
done
# Every line between the markers is one prefetch on every launch: bounded.
span=$((hi - lo))
[ "$span" -le 8192 ] || fail "the launch text is $span bytes (more than 8 KiB: 128 prefetches per launch)"
# The step launch wrappers prefetch it before the real call.
for w in hipLaunchKernel cuLaunchKernel; do
    echo "$syms" | grep -q " T $w\$" || continue
    objdump -d --no-show-raw-insn --disassemble="$w" "$lib" | grep -q 'prefetcht1' ||
        fail "$w does not prefetch the launch text"
done
echo "check-step-text: the launch path ($(echo $need | wc -w) functions) lies in $span bytes between the markers; the step launch wrappers prefetch it"
