/* TEST-ONLY. A bad offload bundle (mkbad.py's fat_bad.bundle: an unknown
 * target entry and a truncated code object) in read-only data, where a
 * compiler puts .hip_fatbin: kbad_app registers it as a fat binary.
 * KBAD_FATBIN is the bundle's path, given by the makefile. */
    .section .rodata
    .balign 4096
    .globl kbad_fatbin
kbad_fatbin:
    .incbin KBAD_FATBIN
    .section .note.GNU-stack,"",@progbits
