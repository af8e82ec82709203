/* decode_fatbin.S - TEST-ONLY: embeds decode_kernels.hip's offload bundle.
 *
 * Where clang puts a HIP program's device code: section .hip_fatbin, 4 KiB
 * aligned, in a loaded read-only segment (the tracer bounds the bundle by
 * that segment). DECODE_FATBIN is the bundle's path, given by
 * tests/apps/module.mk; decode_loop.c wraps hv_decode_fatbin in the
 * "HIPF" wrapper hipcc generates and registers it. */
#ifndef DECODE_FATBIN
#error "DECODE_FATBIN (path of the clang-22 offload bundle) must be defined"
#endif
    .section .hip_fatbin, "a", @progbits
    .p2align 12
    .globl hv_decode_fatbin
    .hidden hv_decode_fatbin
    .type hv_decode_fatbin, @object
hv_decode_fatbin:
    .incbin DECODE_FATBIN
    .size hv_decode_fatbin, . - hv_decode_fatbin

    .section .note.GNU-stack, "", @progbits
