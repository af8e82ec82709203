/* Copy family: every copy is a write of [dst, dst+bytes) by its stream. */
#define HV_WRAP_COPIES 1   /* copy wrappers: intercept.h HV_CALL_PREFETCH */
#include <stdatomic.h>
#include <string.h>

#include "tracer/intercept/hip/hip_int.h"

#define COPY(s, spt, cp) hv_trace_copy(t_, api_, r_, HV_HIP_S(s, spt), cp)

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipMemcpy, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpy_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            COPY(NULL, HV_HIP_SPT, HV_COPY1D(dst, src, n, k, 0)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_HIP_WRAP(hipMemcpyAsync, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipMemcpyAsync_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_SPT, HV_COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyWithStream, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyHostToDevice, 0)))
HV_HIP_WRAP(hipMemcpyDtoH, (void *dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToHost, 0)))
HV_HIP_WRAP(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToDevice, 0)))
HV_HIP_WRAP(hipMemcpyHtoDAsync, (hipDeviceptr_t dst, void *src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyHostToDevice, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoHAsync, (void *dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToHost, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoDAsync, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToDevice, HV_COPY_ASYNC)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)

#define COPY2D(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = w, .dpitch = dp, .spitch = sp, .height = h, .kind = k, \
                            .flags = (flags_) | HV_COPY_2D, .dst_device = -1, .src_device = -1})

HV_HIP_WRAP(hipMemcpy2D, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), COPY(NULL, HV_HIP_LEGACY, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2D_spt, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), COPY(NULL, HV_HIP_SPT, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2DAsync,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), COPY(s, HV_HIP_LEGACY, COPY2D(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpy2DAsync_spt,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), COPY(s, HV_HIP_SPT, COPY2D(HV_COPY_ASYNC)))

#define COPYPEER(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = n, .kind = hipMemcpyDeviceToDevice, \
                            .flags = (flags_) | HV_COPY_PEER, .dst_device = dd, .src_device = sd})

HV_HIP_WRAP(hipMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n), (dst, dd, src, sd, n),
            COPY(NULL, HV_HIP_LEGACY, COPYPEER(0)))
HV_HIP_WRAP(hipMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, hipStream_t s),
            (dst, dd, src, sd, n, s), COPY(s, HV_HIP_LEGACY, COPYPEER(HV_COPY_ASYNC)))

/* ---- symbol copies (docs/semantics.md C9, C10) ---- */

#define TO_SYM(flags_) HV_COPY1D(hv_symbol_at("hipGetSymbolAddress", sym, off, r_), src, n, k, flags_)
#define FROM_SYM(flags_) HV_COPY1D(dst, hv_symbol_at("hipGetSymbolAddress", sym, off, r_), n, k, flags_)

HV_HIP_WRAP(hipMemcpyToSymbol, (const void *sym, const void *src, size_t n, size_t off, hipMemcpyKind k),
            (sym, src, n, off, k), COPY(NULL, HV_HIP_LEGACY, TO_SYM(0)))
HV_HIP_WRAP(hipMemcpyToSymbol_spt, (const void *sym, const void *src, size_t n, size_t off, hipMemcpyKind k),
            (sym, src, n, off, k), COPY(NULL, HV_HIP_SPT, TO_SYM(0)))
HV_HIP_WRAP(hipMemcpyFromSymbol, (void *dst, const void *sym, size_t n, size_t off, hipMemcpyKind k),
            (dst, sym, n, off, k), COPY(NULL, HV_HIP_LEGACY, FROM_SYM(0)))
HV_HIP_WRAP(hipMemcpyFromSymbol_spt, (void *dst, const void *sym, size_t n, size_t off, hipMemcpyKind k),
            (dst, sym, n, off, k), COPY(NULL, HV_HIP_SPT, FROM_SYM(0)))
HV_HIP_WRAP(hipMemcpyToSymbolAsync,
            (const void *sym, const void *src, size_t n, size_t off, hipMemcpyKind k, hipStream_t s),
            (sym, src, n, off, k, s), COPY(s, HV_HIP_LEGACY, TO_SYM(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyToSymbolAsync_spt,
            (const void *sym, const void *src, size_t n, size_t off, hipMemcpyKind k, hipStream_t s),
            (sym, src, n, off, k, s), COPY(s, HV_HIP_SPT, TO_SYM(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyFromSymbolAsync,
            (void *dst, const void *sym, size_t n, size_t off, hipMemcpyKind k, hipStream_t s),
            (dst, sym, n, off, k, s), COPY(s, HV_HIP_LEGACY, FROM_SYM(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyFromSymbolAsync_spt,
            (void *dst, const void *sym, size_t n, size_t off, hipMemcpyKind k, hipStream_t s),
            (dst, sym, n, off, k, s), COPY(s, HV_HIP_SPT, FROM_SYM(HV_COPY_ASYNC)))

/* ---- 3D and parameter-block 2D copies (C3-C6) ---- */

#define copy3d(p, flags) HV_COPY3D_PARMS(p, flags)

#define COPY3D(s, spt, flags_) COPY(s, spt, (struct hv_copy_desc[]){copy3d(p, flags_)})

HV_HIP_WRAP(hipMemcpy3D, (const hipMemcpy3DParms *p), (p), COPY3D(NULL, HV_HIP_LEGACY, 0))
HV_HIP_WRAP(hipMemcpy3D_spt, (const hipMemcpy3DParms *p), (p), COPY3D(NULL, HV_HIP_SPT, 0))
HV_HIP_WRAP(hipMemcpy3DAsync, (const hipMemcpy3DParms *p, hipStream_t s), (p, s),
            COPY3D(s, HV_HIP_LEGACY, HV_COPY_ASYNC))
HV_HIP_WRAP(hipMemcpy3DAsync_spt, (const hipMemcpy3DParms *p, hipStream_t s), (p, s),
            COPY3D(s, HV_HIP_SPT, HV_COPY_ASYNC))

/* hip_Memcpy2D names each side by host pointer, device pointer or array;
 * hipMemoryType is numbered differently before and after ROCm 6, so the
 * side is the pointer that is set. An array side has no address. */
static const void *side(const void *host, hipDeviceptr_t dev, const void *array, size_t x, size_t y, size_t pitch)
{
    const char *p = array ? NULL : dev ? (const char *)dev : (const char *)host;
    return p ? p + y * pitch + x : NULL;
}

static struct hv_copy_desc param2d(const hip_Memcpy2D *c, uint8_t flags)
{
    if (!c)
        return (struct hv_copy_desc){.dst_device = -1, .src_device = -1};
    const void *d = side(c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, c->dstPitch);
    return (struct hv_copy_desc){.dst = d,
                                 .src = side(c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY,
                                             c->srcPitch),
                                 .bytes = d ? c->WidthInBytes : 0, .dpitch = c->dstPitch, .spitch = c->srcPitch,
                                 .height = c->Height, .kind = hipMemcpyDefault, .flags = flags | HV_COPY_2D,
                                 .dst_device = -1, .src_device = -1};
}

HV_HIP_WRAP(hipMemcpyParam2D, (const hip_Memcpy2D *c), (c),
            COPY(NULL, HV_HIP_LEGACY, (struct hv_copy_desc[]){param2d(c, 0)}))
/* hipDrvMemcpy2DUnaligned: the same copy (CLR: HIP_MEMCPY3D of depth 1). */
HV_HIP_WRAP(hipDrvMemcpy2DUnaligned, (const hip_Memcpy2D *c), (c),
            COPY(NULL, HV_HIP_LEGACY, (struct hv_copy_desc[]){param2d(c, 0)}))
HV_HIP_WRAP(hipMemcpyParam2DAsync, (const hip_Memcpy2D *c, hipStream_t s), (c, s),
            COPY(s, HV_HIP_LEGACY, (struct hv_copy_desc[]){param2d(c, HV_COPY_ASYNC)}))

/* ---- batch copies (C11, C12) ---- */

_Static_assert(sizeof(hipMemcpy3DParms) > 0 && sizeof(void *) == sizeof(uint64_t), "pointer arrays");

/* hipMemcpyFlagExtOpSwap (ROCm 7.x driver_types.h): the copy exchanges
 * both sides, so the source is written too. */
#define HIP_MEMCPY_FLAG_EXT_OP_SWAP 0x200u

HV_HIP_WRAP(hipMemcpyBatchAsync,
            (void **dsts, void **srcs, size_t *sizes, size_t count, void *attrs, size_t *idxs, size_t nattrs,
             size_t *fail, hipStream_t s),
            (dsts, srcs, sizes, count, attrs, idxs, nattrs, fail, s),
            hv_trace_copy_batch(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY), count, hv_batch1d_elem,
                                &(struct hv_batch1d){(const uint64_t *)dsts, (const uint64_t *)srcs, sizes,
                                                     (const struct hv_copy_attr *)attrs, idxs, nattrs,
                                                     HIP_MEMCPY_FLAG_EXT_OP_SWAP}))
HV_HIP_WRAP(hipMemcpy3DBatchAsync, (size_t n, void *ops, size_t *fail, unsigned long long flags, hipStream_t s),
            (n, ops, fail, flags, s),
            hv_trace_copy_batch(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY), ops ? n : 0, hv_batch3d_elem, ops))

/* ---- hipDrvMemcpy3D(Async) (C5, C6) ---- */

/* HIP_MEMCPY3D's layout and hipMemoryType's numbers changed in ROCm 6:
 * offsets, pitches and sizes became size_t, and the memory types were
 * renumbered (5: host 0, device 1, array 2, unified 3; 6: unregistered 0,
 * host 1, device 2, managed 3, array 10, unified 11). Which one the runtime
 * speaks is read from what it exports: ROCm 6.0 introduced the R0600
 * versioned entry points (hipGetDevicePropertiesR0600), ROCm 5 has none. */
static int rocm6_layout(void)
{
    static _Atomic int known; /* 0 unknown, 1 ROCm 5, 2 ROCm 6+ */
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        k = hv_runtime_sym("hipGetDevicePropertiesR0600") ? 2 : 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
}

/* The side's address: the device pointer for device, managed and unified
 * memory, the host pointer for host memory; arrays have none. */
static struct hv_pitched3d drv_side(int r6, int type, const void *host, hipDeviceptr_t dev, hipArray_t array,
                                    size_t pitch, size_t height, size_t x, size_t y, size_t z)
{
    int is_array = r6 ? type == 10 : type == 2;
    int is_host = r6 ? type == 0 || type == 1 : type == 0;
    const void *p = is_array ? NULL : is_host ? host : (const void *)dev;
    return (struct hv_pitched3d){.ptr = p, .pitch = pitch, .ysize = height, .x = x, .y = y, .z = z,
                                 .array = is_array ? (array ? (const void *)array : (const void *)1) : NULL};
}

static struct hv_copy_desc drv3d_as(const HIP_MEMCPY3D *c, int r6, uint8_t flags)
{
    if (!c)
        return (struct hv_copy_desc){.dst_device = -1, .src_device = -1};
    if (r6) {
        const hv_HIP_MEMCPY3D_R6 *p = (const hv_HIP_MEMCPY3D_R6 *)(const void *)c;
        struct hv_pitched3d d = drv_side(1, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch,
                                         p->dstHeight, p->dstXInBytes, p->dstY, p->dstZ);
        struct hv_pitched3d s = drv_side(1, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch,
                                         p->srcHeight, p->srcXInBytes, p->srcY, p->srcZ);
        return hv_copy3d(&d, &s, p->WidthInBytes, p->Height, p->Depth, HV_KIND_DEFAULT, flags);
    }
    struct hv_pitched3d d = drv_side(0, (int)c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstPitch,
                                     c->dstHeight, c->dstXInBytes, c->dstY, c->dstZ);
    struct hv_pitched3d s = drv_side(0, (int)c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch,
                                     c->srcHeight, c->srcXInBytes, c->srcY, c->srcZ);
    return hv_copy3d(&d, &s, c->WidthInBytes, c->Height, c->Depth, HV_KIND_DEFAULT, flags);
}
static struct hv_copy_desc drv3d(const HIP_MEMCPY3D *c, uint8_t flags) { return drv3d_as(c, rocm6_layout(), flags); }

HV_HIP_WRAP(hipDrvMemcpy3D, (const HIP_MEMCPY3D *c), (c),
            COPY(NULL, HV_HIP_LEGACY, (struct hv_copy_desc[]){drv3d(c, 0)}))
HV_HIP_WRAP(hipDrvMemcpy3DAsync, (const HIP_MEMCPY3D *c, hipStream_t s), (c, s),
            COPY(s, HV_HIP_LEGACY, (struct hv_copy_desc[]){drv3d(c, HV_COPY_ASYNC)}))

/* hipDrvGraphExecMemcpyNodeSetParams (ROCm 6+, so ROCm 6's HIP_MEMCPY3D;
 * docs/semantics.md G7): the exec's memcpy node as it now is. */
static void drv_exec_memcpy(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t e, hipGraphNode_t n,
                            const HIP_MEMCPY3D *c)
{
    struct hv_copy_desc cp = drv3d_as(c, 1, 0);
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    hv_node_memcpy(&d, HV_PTR(cp.dst), HV_PTR(cp.src), (uint64_t)cp.bytes * (cp.height ? cp.height : 1),
                   HV_KIND_DEFAULT);
    if (cp.height > 1)
        d.shape = HV_NODE_SHAPE_ROWS;
    hv_trace_exec_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), c ? &d : NULL);
}
HV_HIP_WRAP(hipDrvGraphExecMemcpyNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, const HIP_MEMCPY3D *c, hipCtx_t x),
            (e, n, c, x), drv_exec_memcpy(t_, api_, r_, e, n, c))
