/*
 * The process's decoded code objects (src/codeobj) and which loaded image
 * each came from — fat binaries registered at start-up, modules loaded at
 * run time — so a kernel is bound by its module and name: two Triton modules
 * may both define `add_kernel` with different arguments. Cold paths only,
 * under one mutex; what launches read is the kernels table
 * (core/kernels.h) this fills.
 */
#ifndef HV_TRACER_INTERCEPT_HIP_COTABLE_INT_H
#define HV_TRACER_INTERCEPT_HIP_COTABLE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "codeobj/codeobj.h"
#include "tracer/core/kernels.h"

/* What decoding one image found. */
struct hv_cotab_load {
    uint64_t image_hash;                      /* hv_co_hash64 of the image */
    uint32_t nkernels;                        /* kernels its code objects define */
    uint32_t problems;                        /* units skipped, all reasons */
    uint32_t errors[HV_CO_ERR__COUNT];        /* units skipped, by reason */
    uint64_t first_offset[HV_CO_ERR__COUNT];  /* image offset of the first, UINT64_MAX unknown */
};

/*
 * Decodes image[0, len) loaded as `module` (a hipModule_t, or the handle
 * __hipRegisterFatBinary returned). `copy`: the image is a heap copy the
 * table takes over (kept while an object points into it, else freed);
 * NULL: it is the caller's mapped image, readable until hv_cotab_unload.
 */
void hv_cotab_load(uint64_t module, const void *image, size_t len, void *copy, struct hv_cotab_load *out);

/* A fat binary is being unregistered: its image is about to go away. */
void hv_cotab_unload(uint64_t module);

/*
 * Fills info (args: room for HV_MAX_KERNEL_ARGS) with the layout of kernel
 * `name` of `module`, and info->co with the objects to store: the one per
 * processor of this machine's GPUs (gpu_procs_int.h), or every candidate when
 * those are unknown. names (room for HV_MAX_KERNEL_ARGS, or NULL) gets each
 * argument's metadata name, "" when the object gives none; the strings live
 * as long as the process. Returns the hash of the object the layout came
 * from, 0 when no code object describes the kernel.
 */
uint64_t hv_cotab_bind(uint64_t module, const char *name, struct hv_kernel_info *info, struct hv_kernel_arg *args,
                       const char **names);

#endif
