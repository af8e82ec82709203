/* Runtime copies, memsets and allocations. */
#define HV_WRAP_COPIES 1   /* copy wrappers: intercept.h HV_CALL_PREFETCH */
#include "tracer/intercept/cuda/cuda_int.h"

#define COPY(s, spt, cp) hv_trace_copy(t_, api_, r_, HV_CU_S(s, spt), cp)
#define COPY2D(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = w, .dpitch = dp, .spitch = sp, .height = h, .kind = k, \
                            .flags = (flags_) | HV_COPY_2D, .dst_device = -1, .src_device = -1})
#define COPYPEER(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = n, .kind = HV_KIND_D2D, \
                            .flags = (flags_) | HV_COPY_PEER, .dst_device = dd, .src_device = sd})
#define ASYNC HV_COPY_ASYNC

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CUDART_WRAP(cudaMemcpy, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k), (dst, src, n, k),
               COPY(NULL, HV_SPT_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_CUDART_WRAP(cudaMemcpy_ptds, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k), (dst, src, n, k),
               COPY(NULL, HV_SPT_PER_THREAD, HV_COPY1D(dst, src, n, k, 0)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_CUDART_WRAP(cudaMemcpyAsync, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s),
               (dst, src, n, k, s), COPY(s, HV_SPT_LEGACY, HV_COPY1D(dst, src, n, k, ASYNC)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CUDART_WRAP(cudaMemcpyAsync_ptsz, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s),
               (dst, src, n, k, s), COPY(s, HV_SPT_PER_THREAD, HV_COPY1D(dst, src, n, k, ASYNC)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CUDART_WRAP(cudaMemcpy2D,
               (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k),
               (dst, dp, src, sp, w, h, k), COPY(NULL, HV_SPT_LEGACY, COPY2D(0)))
HV_CUDART_WRAP(cudaMemcpy2D_ptds,
               (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k),
               (dst, dp, src, sp, w, h, k), COPY(NULL, HV_SPT_PER_THREAD, COPY2D(0)))
HV_CUDART_WRAP(cudaMemcpy2DAsync,
               (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
                cudaStream_t s),
               (dst, dp, src, sp, w, h, k, s), COPY(s, HV_SPT_LEGACY, COPY2D(ASYNC)))
HV_CUDART_WRAP(cudaMemcpy2DAsync_ptsz,
               (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
                cudaStream_t s),
               (dst, dp, src, sp, w, h, k, s), COPY(s, HV_SPT_PER_THREAD, COPY2D(ASYNC)))
HV_CUDART_WRAP(cudaMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n), (dst, dd, src, sd, n),
               COPY(NULL, HV_SPT_LEGACY, COPYPEER(0)))
HV_CUDART_WRAP(cudaMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s),
               (dst, dd, src, sd, n, s), COPY(s, HV_SPT_LEGACY, COPYPEER(ASYNC)))

#define SET(s, spt, a_) hv_trace_memset(t_, api_, r_, HV_CU_S(s, spt), HV_SET(dst, n, v, 1, a_))
#define SET2D(s, spt, a_)                                                                                 \
    hv_trace_memset(t_, api_, r_, HV_CU_S(s, spt),                                                           \
                    &(struct hv_memset_desc){.dst = dst, .count = w, .pitch = p, .height = h,              \
                                             .value = (uint32_t)v, .elem = 1, .async = (a_)})

HV_CUDART_WRAP(cudaMemset, (void *dst, int v, size_t n), (dst, v, n), SET(NULL, HV_SPT_LEGACY, 0))
HV_CUDART_WRAP(cudaMemset_ptds, (void *dst, int v, size_t n), (dst, v, n), SET(NULL, HV_SPT_PER_THREAD, 0))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CUDART_WRAP(cudaMemsetAsync, (void *dst, int v, size_t n, cudaStream_t s), (dst, v, n, s),
               SET(s, HV_SPT_LEGACY, 1))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CUDART_WRAP(cudaMemsetAsync_ptsz, (void *dst, int v, size_t n, cudaStream_t s), (dst, v, n, s),
               SET(s, HV_SPT_PER_THREAD, 1))
HV_CUDART_WRAP(cudaMemset2D, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
               SET2D(NULL, HV_SPT_LEGACY, 0))
HV_CUDART_WRAP(cudaMemset2D_ptds, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
               SET2D(NULL, HV_SPT_PER_THREAD, 0))
HV_CUDART_WRAP(cudaMemset2DAsync, (void *dst, size_t p, int v, size_t w, size_t h, cudaStream_t s),
               (dst, p, v, w, h, s), SET2D(s, HV_SPT_LEGACY, 1))
HV_CUDART_WRAP(cudaMemset2DAsync_ptsz, (void *dst, size_t p, int v, size_t w, size_t h, cudaStream_t s),
               (dst, p, v, w, h, s), SET2D(s, HV_SPT_PER_THREAD, 1))

/* Allocations feed the allocation map and the stale-pointer rule. */
#define ALLOC(n, f, mem, s) hv_trace_alloc(t_, api_, r_, HV_OUT(pp, r_), n, f, mem, s)
#define FREE(s) hv_trace_free(t_, api_, r_, HV_PTR(p), s)

HV_CUDART_WRAP(cudaMalloc, (void **pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_CUDART_WRAP(cudaMallocAsync, (void **pp, size_t n, cudaStream_t s), (pp, n, s),
               ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, HV_SPT_LEGACY)))
HV_CUDART_WRAP(cudaMallocAsync_ptsz, (void **pp, size_t n, cudaStream_t s), (pp, n, s),
               ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, HV_SPT_PER_THREAD)))
HV_CUDART_WRAP(cudaMallocManaged, (void **pp, size_t n, unsigned f), (pp, n, f),
               ALLOC(n, f, HV_MEM_MANAGED, HV_NO_STREAM))
HV_CUDART_WRAP(cudaHostAlloc, (void **pp, size_t n, unsigned f), (pp, n, f),
               ALLOC(n, f, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_CUDART_WRAP(cudaMallocHost, (void **pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_CUDART_WRAP(cudaHostRegister, (void *p, size_t n, unsigned f), (p, n, f),
               hv_trace_alloc(t_, api_, r_, r_ == cudaSuccess ? HV_PTR(p) : 0, n, f, HV_MEM_HOST_REGISTERED,
                              HV_NO_STREAM))
HV_CUDART_WRAP(cudaFree, (void *p), (p), FREE(HV_NO_STREAM))
HV_CUDART_WRAP(cudaFreeAsync, (void *p, cudaStream_t s), (p, s), FREE(HV_CU_S(s, HV_SPT_LEGACY)))
HV_CUDART_WRAP(cudaFreeAsync_ptsz, (void *p, cudaStream_t s), (p, s), FREE(HV_CU_S(s, HV_SPT_PER_THREAD)))
HV_CUDART_WRAP(cudaFreeHost, (void *p), (p), FREE(HV_NO_STREAM))
HV_CUDART_WRAP(cudaHostUnregister, (void *p), (p), FREE(HV_NO_STREAM))

/* Symbol copies (docs/semantics.md C9, C10): the symbol's device address
 * from cudaGetSymbolAddress after the copy. */
#define TO_SYM(flags_) HV_COPY1D(hv_symbol_at("cudaGetSymbolAddress", sym, off, r_), src, n, k, flags_)
#define FROM_SYM(flags_) HV_COPY1D(dst, hv_symbol_at("cudaGetSymbolAddress", sym, off, r_), n, k, flags_)
#define SYMBOL_COPIES(to, from, sfx, spt, s_, flags_, ...)                                                    \
    HV_CUDART_WRAP(to##sfx, (const void *sym, const void *src, size_t n, size_t off, enum cudaMemcpyKind k __VA_ARGS__), \
                   (sym, src, n, off, k HV_CU_ARGS_##s_), COPY(s_, spt, TO_SYM(flags_)))                      \
    HV_CUDART_WRAP(from##sfx, (void *dst, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k __VA_ARGS__), \
                   (dst, sym, n, off, k HV_CU_ARGS_##s_), COPY(s_, spt, FROM_SYM(flags_)))
#define HV_CU_ARGS_NULL
#define HV_CU_ARGS_s , s
SYMBOL_COPIES(cudaMemcpyToSymbol, cudaMemcpyFromSymbol, , HV_SPT_LEGACY, NULL, 0)
SYMBOL_COPIES(cudaMemcpyToSymbol, cudaMemcpyFromSymbol, _ptds, HV_SPT_PER_THREAD, NULL, 0)
SYMBOL_COPIES(cudaMemcpyToSymbolAsync, cudaMemcpyFromSymbolAsync, , HV_SPT_LEGACY, s, ASYNC, , cudaStream_t s)
SYMBOL_COPIES(cudaMemcpyToSymbolAsync, cudaMemcpyFromSymbolAsync, _ptsz, HV_SPT_PER_THREAD, s, ASYNC, , cudaStream_t s)

/* 3D copies and memsets (C5, C6, M5, M6): rows, as HIP's (hv_copy3d). */
#define copy3d(p, flags) HV_COPY3D_PARMS(p, flags)
HV_CUDART_WRAP(cudaMemcpy3D, (const struct cudaMemcpy3DParms *p), (p),
               COPY(NULL, HV_SPT_LEGACY, (struct hv_copy_desc[]){copy3d(p, 0)}))
HV_CUDART_WRAP(cudaMemcpy3D_ptds, (const struct cudaMemcpy3DParms *p), (p),
               COPY(NULL, HV_SPT_PER_THREAD, (struct hv_copy_desc[]){copy3d(p, 0)}))
HV_CUDART_WRAP(cudaMemcpy3DAsync, (const struct cudaMemcpy3DParms *p, cudaStream_t s), (p, s),
               COPY(s, HV_SPT_LEGACY, (struct hv_copy_desc[]){copy3d(p, ASYNC)}))
HV_CUDART_WRAP(cudaMemcpy3DAsync_ptsz, (const struct cudaMemcpy3DParms *p, cudaStream_t s), (p, s),
               COPY(s, HV_SPT_PER_THREAD, (struct hv_copy_desc[]){copy3d(p, ASYNC)}))

#define SET3D(s, spt, a_)                                                                                   \
    hv_trace_memset(t_, api_, r_, HV_CU_S(s, spt),                                                           \
                    &(struct hv_memset_desc){.dst = pp.ptr, .count = e.width, .pitch = pp.pitch,            \
                                             .height = hv_rows3d(e.height, e.depth, pp.ysize),              \
                                             .value = (uint32_t)v, .elem = 1, .async = (a_)})
HV_CUDART_WRAP(cudaMemset3D, (struct cudaPitchedPtr pp, int v, struct cudaExtent e), (pp, v, e),
               SET3D(NULL, HV_SPT_LEGACY, 0))
HV_CUDART_WRAP(cudaMemset3D_ptds, (struct cudaPitchedPtr pp, int v, struct cudaExtent e), (pp, v, e),
               SET3D(NULL, HV_SPT_PER_THREAD, 0))
HV_CUDART_WRAP(cudaMemset3DAsync, (struct cudaPitchedPtr pp, int v, struct cudaExtent e, cudaStream_t s),
               (pp, v, e, s), SET3D(s, HV_SPT_LEGACY, 1))
HV_CUDART_WRAP(cudaMemset3DAsync_ptsz, (struct cudaPitchedPtr pp, int v, struct cudaExtent e, cudaStream_t s),
               (pp, v, e, s), SET3D(s, HV_SPT_PER_THREAD, 1))

/* Allocators (A1-A3). */
#define RT_ALLOC(ptr, n, mem, s) hv_trace_alloc(t_, api_, r_, r_ == cudaSuccess ? HV_PTR(ptr) : 0, n, 0, mem, s)
HV_CUDART_WRAP(cudaMallocPitch, (void **pp, size_t *pitch, size_t w, size_t h), (pp, pitch, w, h),
               RT_ALLOC(pp ? *pp : NULL, pitch && !r_ ? *pitch * h : 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_CUDART_WRAP(cudaMalloc3D, (struct cudaPitchedPtr * pp, struct cudaExtent e), (pp, e),
               RT_ALLOC(pp ? pp->ptr : NULL, pp && !r_ ? pp->pitch * e.height * (e.depth ? e.depth : 1) : 0,
                        HV_MEM_DEVICE, HV_NO_STREAM))
HV_CUDART_WRAP(cudaMallocFromPoolAsync, (void **pp, size_t n, cudaMemPool_t pool, cudaStream_t s), (pp, n, pool, s),
               RT_ALLOC(pp ? *pp : NULL, n, HV_MEM_DEVICE, s ? HV_CU_S(s, HV_SPT_LEGACY) : HV_NO_STREAM))
HV_CUDART_WRAP(cudaMallocFromPoolAsync_ptsz, (void **pp, size_t n, cudaMemPool_t pool, cudaStream_t s),
               (pp, n, pool, s), RT_ALLOC(pp ? *pp : NULL, n, HV_MEM_DEVICE, HV_CU_S(s, HV_SPT_PER_THREAD)))
HV_CUDART_WRAP(cudaIpcOpenMemHandle, (void **pp, cudaIpcMemHandle_t h, unsigned int f), (pp, h, f),
               RT_ALLOC(pp ? *pp : NULL, hv_cu_range((CUdeviceptr)(uintptr_t)(pp ? *pp : NULL), r_ == cudaSuccess), HV_MEM_DEVICE, HV_NO_STREAM))
HV_CUDART_WRAP(cudaIpcCloseMemHandle, (void *p), (p), hv_trace_free(t_, api_, r_, HV_PTR(p), HV_NO_STREAM))
