/* kd.h - the AMDHSA kernel descriptor ("<kernel>.kd", 64 bytes): where a
 * kernel's code starts and which SGPRs the hardware preloads, in
 * particular the pair holding the kernarg segment pointer, which is where
 * every kernel argument is read from. Layout: LLVM AMDGPUUsage, "Kernel
 * Descriptor"; llvm/Support/AMDHSAKernelDescriptor.h. No LLVM needed. */
#ifndef HV_CODEOBJ_KD_H
#define HV_CODEOBJ_KD_H

#include "codeobj/codeobj.h"

#include <stddef.h>
#include <stdint.h>

struct hv_co_kd {
    uint64_t kd_vaddr;
    uint64_t entry_vaddr;     /* kd_vaddr + kernel_code_entry_byte_offset */
    size_t code_off, code_len; /* the kernel's code in the ELF, from its
                                  FUNC symbol; both 0 when it is missing */
    uint32_t kernarg_size;
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t code_properties;  /* KERNEL_CODE_PROPERTY_* bits */
    uint8_t user_sgpr_count;   /* COMPUTE_PGM_RSRC2.USER_SGPR_COUNT */
    int8_t kernarg_sgpr;       /* first SGPR of the kernarg pointer pair,
                                  -1 when the kernel does not enable it */
    uint8_t preload_sgpr;      /* first SGPR of preloaded kernargs */
    uint8_t preload_dwords;    /* KERNARG_PRELOAD length (dwords), 0: none */
    uint16_t preload_offset;   /* ... starting at this kernarg dword */
};

/* Read the descriptor of kernel k from its code object. Returns 0, -EINVAL,
 * -ENOENT (no such symbol / not in the file), or -EPROTO (bad ELF). */
int hv_co_read_kd(const void *elf, size_t len, const struct hv_co_kernel *k,
                  struct hv_co_kd *out);

#endif
