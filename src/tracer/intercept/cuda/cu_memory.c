/* Driver copies, memsets and allocations. Directions are explicit in the
 * entry point's name (cuMemcpyHtoD...); cuMemcpy(Async) is unified
 * addressing: resolved by address like cudaMemcpyDefault. */
#define HV_WRAP_COPIES 1   /* copy wrappers: intercept.h HV_CALL_PREFETCH */
#include <stddef.h>

#include "tracer/intercept/cuda/cuda_int.h"

#define COPY(spt, kind, flags) hv_trace_copy(t_, api_, r_, HV_CU_S(s, spt), HV_COPY1D(dst, src, n, kind, flags))
#define SYNC_COPY(spt, kind) \
    hv_trace_copy(t_, api_, r_, HV_CU_S(NULL, spt), HV_COPY1D(dst, src, n, kind, 0))
#define ASYNC HV_COPY_ASYNC
#define L HV_SPT_LEGACY
#define PT HV_SPT_PER_THREAD

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void *src, size_t n, CUstream s), (dst, src, n, s),
           COPY(L, HV_KIND_H2D, ASYNC))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuMemcpyHtoDAsync_v2_ptsz, (CUdeviceptr dst, const void *src, size_t n, CUstream s), (dst, src, n, s),
           COPY(PT, HV_KIND_H2D, ASYNC))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuMemcpyDtoHAsync_v2, (void *dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(L, HV_KIND_D2H, ASYNC))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuMemcpyDtoHAsync_v2_ptsz, (void *dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(PT, HV_KIND_D2H, ASYNC))
HV_CU_WRAP(cuMemcpyDtoDAsync_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(L, HV_KIND_D2D, ASYNC))
HV_CU_WRAP(cuMemcpyDtoDAsync_v2_ptsz, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(PT, HV_KIND_D2D, ASYNC))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuMemcpyAsync, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(L, HV_KIND_DEFAULT, ASYNC))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuMemcpyAsync_ptsz, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s),
           COPY(PT, HV_KIND_DEFAULT, ASYNC))
HV_CU_WRAP(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t n), (dst, src, n), SYNC_COPY(L, HV_KIND_H2D))
HV_CU_WRAP(cuMemcpyHtoD_v2_ptds, (CUdeviceptr dst, const void *src, size_t n), (dst, src, n),
           SYNC_COPY(PT, HV_KIND_H2D))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t n), (dst, src, n), SYNC_COPY(L, HV_KIND_D2H))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuMemcpyDtoH_v2_ptds, (void *dst, CUdeviceptr src, size_t n), (dst, src, n), SYNC_COPY(PT, HV_KIND_D2H))
HV_CU_WRAP(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n), (dst, src, n), SYNC_COPY(L, HV_KIND_D2D))
HV_CU_WRAP(cuMemcpyDtoD_v2_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t n), (dst, src, n),
           SYNC_COPY(PT, HV_KIND_D2D))
HV_CU_WRAP(cuMemcpy, (CUdeviceptr dst, CUdeviceptr src, size_t n), (dst, src, n), SYNC_COPY(L, HV_KIND_DEFAULT))
HV_CU_WRAP(cuMemcpy_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t n), (dst, src, n),
           SYNC_COPY(PT, HV_KIND_DEFAULT))

/* Peer copies name contexts, not devices: devices are left unknown (-1). */
#define PEER(spt)                                                                                               \
    hv_trace_copy(t_, api_, r_, HV_CU_S(s, spt),                                                                 \
                  &(struct hv_copy_desc){.dst = (void *)(uintptr_t)dst, .src = (void *)(uintptr_t)src, .bytes = n, \
                                         .kind = HV_KIND_D2D, .flags = ASYNC | HV_COPY_PEER, .dst_device = -1,     \
                                         .src_device = -1})
HV_CU_WRAP(cuMemcpyPeerAsync, (CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s),
           (dst, dc, src, sc, n, s), PEER(L))
HV_CU_WRAP(cuMemcpyPeerAsync_ptsz,
           (CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s),
           (dst, dc, src, sc, n, s), PEER(PT))

static void copy2d(struct hv_thread_ctx *t, uint16_t api, CUresult r, struct hv_sref s, const CUDA_MEMCPY2D *p,
                   uint8_t flags)
{
    struct hv_copy_desc cp = {.flags = flags | HV_COPY_2D, .dst_device = -1, .src_device = -1};
    if (p) {
        cp.dst = (const void *)(uintptr_t)hv_cu_operand(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstXInBytes,
                                                        p->dstY, p->dstPitch);
        cp.src = (const void *)(uintptr_t)hv_cu_operand(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcXInBytes,
                                                        p->srcY, p->srcPitch);
        cp.bytes = p->WidthInBytes;
        cp.height = p->Height;
        cp.dpitch = p->dstPitch;
        cp.spitch = p->srcPitch;
        cp.kind = hv_cu_copy_kind(p->dstMemoryType, p->srcMemoryType);
    }
    hv_trace_copy(t, api, (int32_t)r, s, &cp);
}

HV_CU_WRAP(cuMemcpy2DAsync_v2, (const CUDA_MEMCPY2D *p, CUstream s), (p, s),
           copy2d(t_, api_, r_, HV_CU_S(s, L), p, ASYNC))
HV_CU_WRAP(cuMemcpy2DAsync_v2_ptsz, (const CUDA_MEMCPY2D *p, CUstream s), (p, s),
           copy2d(t_, api_, r_, HV_CU_S(s, PT), p, ASYNC))
HV_CU_WRAP(cuMemcpy2D_v2, (const CUDA_MEMCPY2D *p), (p), copy2d(t_, api_, r_, HV_CU_S(NULL, L), p, 0))
HV_CU_WRAP(cuMemcpy2D_v2_ptds, (const CUDA_MEMCPY2D *p), (p), copy2d(t_, api_, r_, HV_CU_S(NULL, PT), p, 0))

/* 3D copies (docs/semantics.md C5, C6): rows, as the runtime's (hv_copy3d).
 * An array side, or one neither host nor device, has no address. */
static struct hv_pitched3d cu_side(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array, size_t pitch,
                                   size_t height, size_t x, size_t y, size_t z)
{
    uint64_t base = type == CU_MEMORYTYPE_ARRAY ? 0 : hv_cu_operand(type, host, dev, 0, 0, 0);
    return (struct hv_pitched3d){(const void *)(uintptr_t)base, pitch, height, x, y, z,
                                 type == CU_MEMORYTYPE_ARRAY ? (const void *)array : NULL};
}

static struct hv_copy_desc copy3d(const CUDA_MEMCPY3D *p, uint8_t flags)
{
    if (!p)
        return (struct hv_copy_desc){.dst_device = -1, .src_device = -1};
    struct hv_pitched3d d = cu_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch,
                                    p->dstHeight, p->dstXInBytes, p->dstY, p->dstZ);
    struct hv_pitched3d s = cu_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch,
                                    p->srcHeight, p->srcXInBytes, p->srcY, p->srcZ);
    return hv_copy3d(&d, &s, p->WidthInBytes, p->Height, p->Depth,
                     hv_cu_copy_kind(p->dstMemoryType, p->srcMemoryType), flags);
}
#define COPY3D(s, spt, flags_) hv_trace_copy(t_, api_, r_, HV_CU_S(s, spt), (struct hv_copy_desc[]){copy3d(p, flags_)})
HV_CU_WRAP(cuMemcpy3D_v2, (const CUDA_MEMCPY3D *p), (p), COPY3D(NULL, L, 0))
HV_CU_WRAP(cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *p), (p), COPY3D(NULL, PT, 0))
HV_CU_WRAP(cuMemcpy3DAsync_v2, (const CUDA_MEMCPY3D *p, CUstream s), (p, s), COPY3D(s, L, ASYNC))
HV_CU_WRAP(cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *p, CUstream s), (p, s), COPY3D(s, PT, ASYNC))

#define SET(s, spt, elem, a_) hv_trace_memset(t_, api_, r_, HV_CU_S(s, spt), HV_SET(dst, n, v, elem, a_))

/* The four entry points of one element size: blocking and async, legacy
 * and per-thread. */
#define MEMSETS(bits, type, elem)                                                                           \
    HV_CU_WRAP(cuMemsetD##bits##_v2, (CUdeviceptr dst, type v, size_t n), (dst, v, n), SET(NULL, L, elem, 0)) \
    HV_CU_WRAP(cuMemsetD##bits##_v2_ptds, (CUdeviceptr dst, type v, size_t n), (dst, v, n),                   \
               SET(NULL, PT, elem, 0))                                                                        \
    HV_CU_WRAP(cuMemsetD##bits##Async, (CUdeviceptr dst, type v, size_t n, CUstream s), (dst, v, n, s),      \
               SET(s, L, elem, 1))                                                                            \
    HV_CU_WRAP(cuMemsetD##bits##Async_ptsz, (CUdeviceptr dst, type v, size_t n, CUstream s), (dst, v, n, s), \
               SET(s, PT, elem, 1))

MEMSETS(8, unsigned char, 1)
MEMSETS(16, unsigned short, 2)
MEMSETS(32, unsigned int, 4)

#define ALLOC(n, f, mem, s) hv_trace_alloc(t_, api_, r_, HV_OUT(pp, r_), n, f, mem, s)
#define FREE(s) hv_trace_free(t_, api_, r_, HV_PTR(p), s)

HV_CU_WRAP(cuMemAlloc_v2, (CUdeviceptr * pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_CU_WRAP(cuMemAllocAsync, (CUdeviceptr * pp, size_t n, CUstream s), (pp, n, s),
           ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, L)))
HV_CU_WRAP(cuMemAllocAsync_ptsz, (CUdeviceptr * pp, size_t n, CUstream s), (pp, n, s),
           ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, PT)))
HV_CU_WRAP(cuMemAllocFromPoolAsync, (CUdeviceptr * pp, size_t n, CUmemoryPool pool, CUstream s), (pp, n, pool, s),
           ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, L)))
HV_CU_WRAP(cuMemAllocFromPoolAsync_ptsz, (CUdeviceptr * pp, size_t n, CUmemoryPool pool, CUstream s),
           (pp, n, pool, s), ALLOC(n, 0, HV_MEM_DEVICE, HV_CU_S(s, PT)))
HV_CU_WRAP(cuMemAllocManaged, (CUdeviceptr * pp, size_t n, unsigned f), (pp, n, f),
           ALLOC(n, f, HV_MEM_MANAGED, HV_NO_STREAM))
HV_CU_WRAP(cuMemAllocHost_v2, (void **pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_CU_WRAP(cuMemHostAlloc, (void **pp, size_t n, unsigned f), (pp, n, f),
           ALLOC(n, f, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_CU_WRAP(cuMemHostRegister_v2, (void *p, size_t n, unsigned f), (p, n, f),
           hv_trace_alloc(t_, api_, r_, r_ == CUDA_SUCCESS ? HV_PTR(p) : 0, n, f, HV_MEM_HOST_REGISTERED,
                          HV_NO_STREAM))
HV_CU_WRAP(cuMemFree_v2, (CUdeviceptr p), (p), FREE(HV_NO_STREAM))
HV_CU_WRAP(cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, s), FREE(HV_CU_S(s, L)))
HV_CU_WRAP(cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s), (p, s), FREE(HV_CU_S(s, PT)))
HV_CU_WRAP(cuMemFreeHost, (void *p), (p), FREE(HV_NO_STREAM))
HV_CU_WRAP(cuMemHostUnregister, (void *p), (p), FREE(HV_NO_STREAM))
HV_CU_WRAP(cuMemAllocPitch_v2, (CUdeviceptr * pp, size_t *pitch, size_t w, size_t h, unsigned elem),
           (pp, pitch, w, h, elem), ALLOC(pitch && !r_ ? *pitch * h : 0, 0, HV_MEM_DEVICE, HV_NO_STREAM))
size_t hv_cu_range(CUdeviceptr p, int ok)
{
    CUdeviceptr base = 0;
    size_t n = 0;
    CUresult (*get)(CUdeviceptr *, size_t *, CUdeviceptr) =
        ok && p ? (CUresult(*)(CUdeviceptr *, size_t *, CUdeviceptr))hv_cu_sym("cuMemGetAddressRange_v2") : NULL;
    return get && get(&base, &n, p) == CUDA_SUCCESS ? n : 0;
}
HV_CU_WRAP(cuIpcOpenMemHandle_v2, (CUdeviceptr * pp, CUipcMemHandle h, unsigned f), (pp, h, f),
           ALLOC(hv_cu_range(pp ? *pp : 0, r_ == CUDA_SUCCESS), f, HV_MEM_DEVICE, HV_NO_STREAM))
HV_CU_WRAP(cuIpcCloseMemHandle, (CUdeviceptr p), (p), FREE(HV_NO_STREAM))

/* ---- batch copies (docs/semantics.md C11, C12) ----
 *
 * Each exported name has one signature: the CUDA 12.8 names take failIdx
 * before the stream, the `_v2` names (CUDA 13, what cuda.h maps the public
 * names to) do not (cuda.h, cudaTypedefs.h PFN_cuMemcpyBatchAsync_v12080 /
 * _v13000). The unversioned names are wrapped as the 12.8 functions. */
#undef cuMemcpyBatchAsync
#undef cuMemcpy3DBatchAsync
_Static_assert(sizeof(CUmemcpyAttributes) == sizeof(struct hv_copy_attr) &&
                   sizeof(CUDA_MEMCPY3D_BATCH_OP) == sizeof(struct hv_copy_op3d) &&
                   offsetof(CUDA_MEMCPY3D_BATCH_OP, extent) == offsetof(struct hv_copy_op3d, width) &&
                   offsetof(CUmemcpy3DOperand, op.ptr.rowLength) ==
                       offsetof(struct hv_copy_operand, op.ptr.row_length),
               "batch copy layouts");

#define BATCH1D(spt)                                                                                        \
    hv_trace_copy_batch(t_, api_, r_, HV_CU_S(s, spt), count, hv_batch1d_elem,                                 \
                        &(struct hv_batch1d){(const uint64_t *)dsts, (const uint64_t *)srcs, sizes,             \
                                             (const struct hv_copy_attr *)attrs, idxs, nattrs, 0})
#define BATCH3D(spt) hv_trace_copy_batch(t_, api_, r_, HV_CU_S(s, spt), ops ? n : 0, hv_batch3d_elem, ops)
#define BATCH1D_P CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, \
                  size_t *idxs, size_t nattrs
#define BATCH1D_A dsts, srcs, sizes, count, attrs, idxs, nattrs

HV_CU_WRAP(cuMemcpyBatchAsync_v2, (BATCH1D_P, CUstream s), (BATCH1D_A, s), BATCH1D(L))
HV_CU_WRAP(cuMemcpyBatchAsync_v2_ptsz, (BATCH1D_P, CUstream s), (BATCH1D_A, s), BATCH1D(PT))
HV_CU_WRAP(cuMemcpyBatchAsync, (BATCH1D_P, size_t *fail, CUstream s), (BATCH1D_A, fail, s), BATCH1D(L))
HV_CU_WRAP(cuMemcpyBatchAsync_ptsz, (BATCH1D_P, size_t *fail, CUstream s), (BATCH1D_A, fail, s), BATCH1D(PT))
HV_CU_WRAP(cuMemcpy3DBatchAsync_v2, (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long f, CUstream s),
           (n, ops, f, s), BATCH3D(L))
HV_CU_WRAP(cuMemcpy3DBatchAsync_v2_ptsz, (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long f, CUstream s),
           (n, ops, f, s), BATCH3D(PT))
HV_CU_WRAP(cuMemcpy3DBatchAsync,
           (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long f, CUstream s),
           (n, ops, fail, f, s), BATCH3D(L))
HV_CU_WRAP(cuMemcpy3DBatchAsync_ptsz,
           (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long f, CUstream s),
           (n, ops, fail, f, s), BATCH3D(PT))
