/*
 * The CUDA front end: runtime (libcudart) and driver (libcuda) wrappers on
 * the neutral record fillers of src/tracer/intercept/common. Nothing here links
 * either library: real functions come from the wrapper registry (dlsym),
 * helpers hipvis calls itself from the driver handle (hv_cu_sym).
 *
 * Wrapper names are exported symbol names. cuda.h maps public names onto
 * versioned ones (cuMemcpyHtoDAsync -> cuMemcpyHtoDAsync_v2) and, with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM, onto `_ptsz`/`_ptds` ones; the headers
 * are included without that macro, so a per-thread wrapper's declaration is
 * its HV_WRAP line (same parameters as the legacy one).
 */
#ifndef HV_TRACER_INTERCEPT_CUDA_CUDA_INT_H
#define HV_TRACER_INTERCEPT_CUDA_CUDA_INT_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "tracer/intercept/common/intercept.h"

/* core/hot.h HV_STEP_fn: this front end's step wrappers, together. */
#define HV_STEP_FRONT_END "1cuda"

#define HV_CUDART_WRAP(name, params, args, trace) \
    HV_WRAP(cudaError_t, cudaErrorSharedObjectSymbolNotFound, name, params, args, trace)
#define HV_CU_WRAP(name, params, args, trace) \
    HV_WRAP(CUresult, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, name, params, args, trace)

/* Canonical stream of a runtime or driver stream argument: both know an
 * explicit legacy handle (0x1) and a per-thread handle (0x2). */
/* cudaStreamLegacy is the legacy stream in every respect: a synchronize on
 * it is a synchronize on stream 0 (form LEGACY_NULL). */
#define HV_CU_SREF(t, s, spt)                                                                            \
    hv_sref_of((t), (uintptr_t)(s), (spt), (uintptr_t)CU_STREAM_LEGACY, (uintptr_t)CU_STREAM_PER_THREAD, \
               HV_STREAM_FORM_LEGACY_NULL)
#define HV_CU_S(s, spt) HV_CU_SREF(t_, s, spt)
_Static_assert((uintptr_t)cudaStreamLegacy == (uintptr_t)CU_STREAM_LEGACY &&
                   (uintptr_t)cudaStreamPerThread == (uintptr_t)CU_STREAM_PER_THREAD,
               "runtime and driver special streams");

/* cudaMemcpyKind numbers its kinds like enum hv_copy_kind. */
_Static_assert((int)cudaMemcpyHostToHost == HV_KIND_H2H && (int)cudaMemcpyHostToDevice == HV_KIND_H2D &&
                   (int)cudaMemcpyDeviceToHost == HV_KIND_D2H && (int)cudaMemcpyDeviceToDevice == HV_KIND_D2D &&
                   (int)cudaMemcpyDefault == HV_KIND_DEFAULT,
               "cudaMemcpyKind values");

/* Copy kind (enum hv_copy_kind) of a driver copy between memory types. */
static inline int hv_cu_copy_kind(CUmemorytype dst, CUmemorytype src)
{
    if (dst == CU_MEMORYTYPE_UNIFIED || src == CU_MEMORYTYPE_UNIFIED)
        return HV_KIND_DEFAULT;
    int d = dst != CU_MEMORYTYPE_HOST, s = src != CU_MEMORYTYPE_HOST;
    return d ? (s ? HV_KIND_D2D : HV_KIND_H2D) : (s ? HV_KIND_D2H : HV_KIND_H2H);
}

/* Address of a driver copy operand: host pointer or device (unified)
 * address, plus its x/y offset. 0 when neither is set (arrays). */
static inline uint64_t hv_cu_operand(CUmemorytype type, const void *host, CUdeviceptr dev, size_t x, size_t y,
                                     size_t pitch)
{
    uint64_t base = type == CU_MEMORYTYPE_HOST ? HV_PTR(host) : (uint64_t)dev;
    return base ? base + x + (uint64_t)y * pitch : 0;
}

/* A driver function hipvis calls itself (layouts, names, the graph walk):
 * from the libcuda.so.1 the process loaded; NULL when it has none. */
void *hv_cu_sym(const char *name);
/* Size of the allocation range holding p (cuMemGetAddressRange), 0 unknown
 * or when !ok (the call that made p failed): an IPC mapping's size. */
size_t hv_cu_range(CUdeviceptr p, int ok);

/*
 * The layout (cuFuncGetParamInfo: offset and size of each parameter) and
 * name (cuFuncGetName) of kernel `f`, cached in the kernels table under
 * `key` — the handle records carry: a runtime host stub, a CUfunction or a
 * CUkernel. Learnt on first use; *fresh says this call learnt it (its
 * HV_REC_KERNEL is then the caller's to emit, after its call record).
 * `is_kernel`: f is a CUkernel (cuKernelGetParamInfo / cuKernelGetName).
 * Every parameter is scanned word by word for pointers (origin inferred):
 * the driver gives sizes, not types.
 */
const struct hv_kernel_info *hv_cu_kernel(struct hv_thread_ctx *t, uint64_t key, void *f, int is_kernel, int *fresh);

/* The kernel behind runtime host stub `stub` (cudaGetFuncBySymbol of the
 * runtime that launched it, `real` being any of its functions). */
const struct hv_kernel_info *hv_cudart_kernel(struct hv_thread_ctx *t, const void *stub, void *real, int *fresh);

/* Graph inventory through the driver's query API (cudaGraph_t is a CUgraph). */
void hv_cu_inventory(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph);

/* cudaGraphNodeSetEnabled / cuGraphNodeSetEnabled: the node, described
 * through the driver when enabled (hv_trace_set_enabled). */
void hv_cu_set_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *node, unsigned on);

/* A host function or stream callback `fn` with data `user` enqueued on
 * stream `s` (cudaLaunchHostFunc, cuLaunchHostFunc, cudaStreamAddCallback,
 * cuStreamAddCallback; `callback` 1 for the callback signature): under
 * HIPVIS_HOSTCHECK the runtime runs the check's trampoline (intercept.h
 * HV_WRAP_HOST_FN). */
#define HV_CU_HOST_FUNC(spt) \
    hv_trace_launch(t_, api_, r_, HV_CU_S(s, spt), &(struct hv_launch_desc){.func = HV_PTR(fn), .form = HV_LAUNCH_HOST_FUNC})
#define HV_CU_HOST_FN_ARGS (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER)
#define HV_CU_CALLBACK_ARGS (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER, f)
#define HV_CUDART_HOST_FN(name, params, args, spt, callback)                                                \
    HV_WRAP_HOST_FN(cudaError_t, cudaErrorSharedObjectSymbolNotFound, name, params, args, HV_CU_S(s, spt), \
                    callback, HV_CU_HOST_FUNC(spt))
#define HV_CU_HOST_FN(name, params, args, spt, callback)                                                        \
    HV_WRAP_HOST_FN(CUresult, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, name, params, args, HV_CU_S(s, spt), \
                    callback, HV_CU_HOST_FUNC(spt))

/* Launch record of a CUDA launch of kernel k (announced when `fresh`). */
static inline void hv_cu_trace_launch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                                      struct hv_launch_desc *l, const struct hv_kernel_info *k, int fresh)
{
    l->announce = fresh ? k : NULL;
    l->kernel = k;   /* looked up by l->func (hv_cu_kernel, hv_cudart_kernel): once is enough */
    l->known = 1;
    hv_trace_launch(t, api, r, s, l);
}

/* The packed argument block of a CUDA `extra` array, NULL when none. */
static inline const void *hv_cu_extra_block(void **extra, size_t *bytes)
{
    return hv_extra_block(extra, CU_LAUNCH_PARAM_END, CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_SIZE,
                          bytes);
}

#endif
