/* decode_fatbin.S - TEST-ONLY: embeds decode_kernels.hip's offload bundle
 * (or, with FATBIN_SYMBOL, another test program's: struct_loop.c's).
 *
 * Where clang puts a HIP program's device code: section .hip_fatbin, 4 KiB
 * aligned, in a loaded read-only segment (the tracer bounds the bundle by
 * that segment). DECODE_FATBIN is the bundle's path, given by
 * tests/apps/module.mk; decode_loop.c wraps hv_decode_fatbin in the
 * "HIPF" wrapper hipcc generates and registers it. */
#ifndef DECODE_FATBIN
#error "DECODE_FATBIN (path of the clang-22 offload bundle) must be defined"
#endif
#ifndef FATBIN_SYMBOL
#define FATBIN_SYMBOL hv_decode_fatbin
#endif
    .section .hip_fatbin, "a", @progbits
    .p2align 12
    .globl FATBIN_SYMBOL
    .hidden FATBIN_SYMBOL
    .type FATBIN_SYMBOL, @object
FATBIN_SYMBOL:
    .incbin DECODE_FATBIN
    .size FATBIN_SYMBOL, . - FATBIN_SYMBOL

    .section .note.GNU-stack, "", @progbits
