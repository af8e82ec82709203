/*
 * What a call's record derives from its arguments, written once for the two
 * places that apply it: the wrappers at the call (intercept.h) and the
 * reader's derive stage for argument records (derive.c). Pure functions of
 * their inputs; `check-observe` compares the two paths' records field by
 * field.
 */
#ifndef HV_FORMAT_CALL_RULES_H
#define HV_FORMAT_CALL_RULES_H

#include <stdint.h>

#include "hipvis/trace.h"

/* A stream as the call named it, canonicalised (HV_STREAM_* in trace.h).
 * id 0: the API takes no stream. */
struct hv_sref {
    uint64_t id;
    uint8_t form;
};

/* Canonical id and form of stream handle `s` named by thread `tid` on
 * `device`. `spt`: the entry point's default stream is per-thread (HIP
 * `_spt`, CUDA `_ptsz`/`_ptds`). `per_thread` is the runtime's per-thread
 * handle (hipStreamPerThread, cudaStreamPerThread, CU_STREAM_PER_THREAD);
 * `legacy` its explicit legacy handle (hipStreamLegacy, cudaStreamLegacy,
 * CU_STREAM_LEGACY), 0 where it has none, recorded with form `legacy_form`
 * (the runtimes differ in what a synchronize on it covers). */
static inline struct hv_sref hv_sref_canon(uint64_t s, int spt, uint64_t legacy, uint64_t per_thread,
                                           uint8_t legacy_form, uint32_t tid, int32_t device)
{
    /* Selects, not branches: each case as a branch was a block of its own
     * (two or three more code lines per wrapper), and a serving
     * loop names the NULL stream as often as a created one. */
    int is_pt = s == per_thread, is_leg = legacy && s == legacy, is_null = s == 0;
    int per_thread_id = is_pt || (is_null && spt);
    uint64_t pt_id = HV_STREAM_PER_THREAD | tid, leg_id = HV_STREAM_LEGACY | (uint32_t)device;
    uint64_t id = per_thread_id ? pt_id : (is_leg || is_null) ? leg_id : s;
    uint8_t form = is_pt     ? HV_STREAM_FORM_PER_THREAD
                   : is_leg  ? legacy_form
                   : is_null ? (spt ? HV_STREAM_FORM_SPT_NULL : HV_STREAM_FORM_LEGACY_NULL)
                             : HV_STREAM_FORM_EXPLICIT;
    return (struct hv_sref){id, form};
}

/* The runtime memcpy kinds: hipMemcpyKind and cudaMemcpyKind number
 * HostToHost..Default 0..4 alike (front ends assert it). */
enum hv_copy_kind { HV_KIND_H2H = 0, HV_KIND_H2D = 1, HV_KIND_D2H = 2, HV_KIND_D2D = 3, HV_KIND_DEFAULT = 4 };

/* Direction of a copy: the runtime kind when it names one; for the Default
 * kind (or any other), by address, as the runtime decides, from the
 * allocations seen (untracked memory is taken to be host memory). */
static inline enum hv_dir hv_copy_dir(int kind, enum hv_mem dst, enum hv_mem src)
{
    switch (kind) {
    case HV_KIND_H2H: return HV_DIR_H2H;
    case HV_KIND_H2D: return HV_DIR_H2D;
    case HV_KIND_D2H: return HV_DIR_D2H;
    case HV_KIND_D2D: return HV_DIR_D2D;
    default: break;
    }
    int dst_dev = dst == HV_MEM_DEVICE || dst == HV_MEM_MANAGED;
    int src_dev = src == HV_MEM_DEVICE || src == HV_MEM_MANAGED;
    return dst_dev ? (src_dev ? HV_DIR_D2D : HV_DIR_H2D) : (src_dev ? HV_DIR_D2H : HV_DIR_H2H);
}

/* A host pointer the runtime never allocated or registered is pageable. */
static inline enum hv_mem hv_host_side(enum hv_mem m) { return m == HV_MEM_UNKNOWN ? HV_MEM_HOST_PAGEABLE : m; }

/* Declares `dir`, `dm` and `sm`: a copy's direction and both sides' memory
 * kinds from the runtime kind and the two sides' kinds as found (`kinds`:
 * the destination's in the low byte, the source's above, as
 * hv_alloc_copy_kinds answers); an unknown host side is pageable. A macro,
 * not a function returning the three: so written, the copy wrappers
 * compile to the same code as with the statements in place (a function
 * moved GCC's block layout in every copy wrapper). */
#define HV_COPY_SIDES(kind, kinds, dir, dm, sm)                                          \
    enum hv_mem dm = (enum hv_mem)((kinds) & 0xff), sm = (enum hv_mem)((kinds) >> 8);   \
    enum hv_dir dir = hv_copy_dir((kind), dm, sm);                                       \
    if (dir == HV_DIR_H2D || dir == HV_DIR_H2H)                                          \
        sm = hv_host_side(sm);                                                           \
    if (dir == HV_DIR_D2H || dir == HV_DIR_H2H)                                          \
        dm = hv_host_side(dm)

#endif
