/*
 * Pointer arguments of a launch or graph kernel node. With code-object
 * metadata they are exact (which argument, read or write); without it, every
 * 8-byte word of the argument block that falls inside a tracked allocation is
 * reported as "inferred" — including pointers packed inside by-value structs,
 * which is how PyTorch passes them. A params array without a layout is read
 * entry by entry within a bound (kargs.c, scan_params).
 */
#ifndef HV_TRACER_CORE_KARGS_H
#define HV_TRACER_CORE_KARGS_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/hot.h"
#include "tracer/core/tracer.h"

#define HV_MAX_KARGS 64

/* Kernel `k`'s layout (hv_kernels_find; NULL when unknown) and either
 * `params` (array of pointers to each argument) or `block` (the packed
 * argument buffer, `block_bytes` long) describe the arguments. Returns the
 * number of entries written to out[]. `learnt`: 1 lets an eager launch read
 * only a kernel's learnt pointer words (kargs.c); 0 scans every word (graph
 * nodes and launches being captured: a replay runs them again and again).
 * `memo`: the calling thread's launch_memo (allocmap.h hv_alloc_span_memo),
 * or NULL to search the allocation map for every new span. */
struct hv_kernel_info;
HV_STEP_FN int hv_kargs_collect(const struct hv_kernel_info *k, void **params, const void *block, size_t block_bytes,
                     struct hv_karg *out, int max, int learnt, struct hv_span_memo *memo);

/* Emits one HV_REC_KARGS record (after the owning call was committed). */
HV_STEP_FN void hv_kargs_emit(struct hv_thread_ctx *t, uint64_t seq, uint64_t owner_node, uint64_t func, uint32_t name_id,
                   const struct hv_karg *args, int n);

#endif
