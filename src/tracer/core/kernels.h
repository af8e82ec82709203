/*
 * Kernel argument layouts by function handle (host stub or hipFunction_t),
 * learnt from code-object metadata at registration / module load, read at
 * every launch and graph walk. Insert-only open addressing: lookups are
 * lock-free; inserts (cold, at load time) take a mutex. (Not the common
 * map, src/common/u64map.h: its growth moves slots under a lock-free reader.)
 */
#ifndef HV_TRACER_CORE_KERNELS_H
#define HV_TRACER_CORE_KERNELS_H

#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/hot.h"

enum hv_arg_kind { HV_ARGK_BY_VALUE = 0, HV_ARGK_POINTER = 1, HV_ARGK_HIDDEN = 2 };

#define HV_MAX_KERNEL_ARGS 256

struct hv_kernel_arg {
    uint32_t offset, size;
    uint8_t kind;       /* enum hv_arg_kind */
    uint8_t access;     /* enum hv_access */
};

struct hv_co_use;      /* core/costore.h */

/* What kargs.c learnt from full scans of a kernel's by-value parameters:
 * bit i set = some launch held a tracked pointer in the word whose byte
 * offset is 8 * i (bits past HV_LEARN_WORDS are never learnt: always
 * scanned). Written with atomic ORs by any launching thread. */
#define HV_LEARN_WORDS 512u    /* 4 KiB of parameters, CUDA's classic limit */
struct hv_karg_learn {
    _Atomic uint64_t ptr_words[HV_LEARN_WORDS / 64];
    _Atomic uint32_t full_scans;
};

struct hv_kernel_info {
    uint64_t func;
    uint32_t name_id;
    uint32_t kernarg_bytes;
    uint32_t nargs;     /* explicit (non-hidden) arguments, in order */
    const struct hv_kernel_arg *args;
    /* The code objects that define it (AMDGPU), stored into the trace on
     * its first use; NULL when none is known. Shared, not copied. */
    struct hv_co_use *co;
    /* Allocated by hv_kernels_add; NULL (no memory): every launch scans fully. */
    struct hv_karg_learn *learn;
};

/* Stores a copy of `info` (args copied too). Returns 0 or -1 (table full / no memory). */
int hv_kernels_add(const struct hv_kernel_info *info);
HV_STEP_FN const struct hv_kernel_info *hv_kernels_find(uint64_t func);

#endif
