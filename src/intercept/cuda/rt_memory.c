/* Runtime copies, memsets and allocations. */
#include "intercept/cuda/cuda_common.h"

#define COPY(s, spt, cp) hv_trace_copy(t_, api_, r_, HV_CU_S(s, spt), cp)
#define COPY2D(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = w, .dpitch = dp, .spitch = sp, .height = h, .kind = k, \
                            .flags = (flags_) | HV_COPY_2D, .dst_device = -1, .src_device = -1})
#define COPYPEER(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = n, .kind = HV_KIND_D2D, \
                            .flags = (flags_) | HV_COPY_PEER, .dst_device = dd, .src_device = sd})
#define ASYNC HV_COPY_ASYNC

HV_CUDART_WRAP(cudaMemcpy, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k), (dst, src, n, k),
               COPY(NULL, HV_SPT_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_CUDART_WRAP(cudaMemcpy_ptds, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k), (dst, src, n, k),
               COPY(NULL, HV_SPT_PER_THREAD, HV_COPY1D(dst, src, n, k, 0)))
HV_CUDART_WRAP(cudaMemcpyAsync, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s),
               (dst, src, n, k, s), COPY(s, HV_SPT_LEGACY, HV_COPY1D(dst, src, n, k, ASYNC)))
HV_CUDART_WRAP(cudaMemcpyAsync_ptsz, (void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s),
               (dst, src, n, k, s), COPY(s, HV_SPT_PER_THREAD, HV_COPY1D(dst, src, n, k, ASYNC)))
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
HV_CUDART_WRAP(cudaMemsetAsync, (void *dst, int v, size_t n, cudaStream_t s), (dst, v, n, s),
               SET(s, HV_SPT_LEGACY, 1))
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
