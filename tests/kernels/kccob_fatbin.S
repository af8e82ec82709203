/* TEST-ONLY. The same clang-22 device code (tests/codeobj/kernels22.hip,
 * gfx950 + gfx942) as a plain offload bundle and as a compressed one
 * (CCOB, --offload-compress), in read-only data where .hip_fatbin lives.
 * KCCOB_PLAIN / KCCOB_COMP are their paths, given by the makefile. */
    .section .rodata
    .balign 4096
    .globl kccob_plain
kccob_plain:
    .incbin KCCOB_PLAIN
    .balign 4096
    .globl kccob_comp
kccob_comp:
    .incbin KCCOB_COMP
    .section .note.GNU-stack,"",@progbits
