/* Copy family: every copy is a write of [dst, dst+bytes) by its stream. */
#include "intercept/hip/hip_common.h"

static enum hv_dir resolve_dir(int kind, enum hv_mem dst, enum hv_mem src)
{
    switch (kind) {
    case hipMemcpyHostToHost: return HV_DIR_H2H;
    case hipMemcpyHostToDevice: return HV_DIR_H2D;
    case hipMemcpyDeviceToHost: return HV_DIR_D2H;
    case hipMemcpyDeviceToDevice: return HV_DIR_D2D;
    default: break;
    }
    /* hipMemcpyDefault: the runtime decides by address; so do we, from the
     * allocations we saw. Untracked memory is taken to be host memory. */
    int dst_dev = dst == HV_MEM_DEVICE || dst == HV_MEM_MANAGED;
    int src_dev = src == HV_MEM_DEVICE || src == HV_MEM_MANAGED;
    return dst_dev ? (src_dev ? HV_DIR_D2D : HV_DIR_H2D) : (src_dev ? HV_DIR_D2H : HV_DIR_H2H);
}

/* A host pointer the runtime never allocated or registered is pageable. */
static enum hv_mem host_side(enum hv_mem m) { return m == HV_MEM_UNKNOWN ? HV_MEM_HOST_PAGEABLE : m; }

void hv_hip_trace_copy(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                       enum hv_hip_stream_api spt, const struct hv_hip_copy *cp)
{
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, NULL);
    struct hv_copy_args *a = &c->a.copy;
    enum hv_mem dm = hv_alloc_kind(hv_tracer.allocs, (uint64_t)(uintptr_t)cp->dst);
    enum hv_mem sm = hv_alloc_kind(hv_tracer.allocs, (uint64_t)(uintptr_t)cp->src);
    a->dst = (uint64_t)(uintptr_t)cp->dst;
    a->src = (uint64_t)(uintptr_t)cp->src;
    a->height = cp->height ? cp->height : 1;
    a->bytes = (uint64_t)cp->bytes * a->height;
    a->dpitch = cp->dpitch;
    a->spitch = cp->spitch;
    a->kind = (uint32_t)cp->kind;
    a->dir = (uint8_t)resolve_dir(cp->kind, dm, sm);
    if (a->dir == HV_DIR_H2D || a->dir == HV_DIR_H2H)
        sm = host_side(sm);
    if (a->dir == HV_DIR_D2H || a->dir == HV_DIR_H2H)
        dm = host_side(dm);
    a->dst_mem = (uint8_t)dm;
    a->src_mem = (uint8_t)sm;
    a->flags = cp->flags;
    a->dst_device = (int16_t)cp->dst_device;
    a->src_device = (int16_t)cp->src_device;
    uint64_t seq = c->h.seq, stream = c->stream;
    int blocking = !(cp->flags & HV_COPY_ASYNC) && r == hipSuccess && !(c->flags & HV_CALL_CAPTURING);
    hv_call_commit(t, c);
    /* A blocking copy returns only after the stream's earlier work is done. */
    if (blocking)
        hv_observe_stream(t, seq, stream);
}

#define COPY1D(dst_, src_, n_, kind_, flags_) \
    (&(struct hv_hip_copy){.dst = (dst_), .src = (src_), .bytes = (n_), .kind = (kind_), .flags = (flags_), \
                           .dst_device = -1, .src_device = -1})

HV_HIP_WRAP(hipMemcpy, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpy_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_SPT, COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpyAsync, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY, COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyAsync_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_SPT, COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyWithStream, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY, COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t n), (dst, src, n),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPY1D(dst, src, n, hipMemcpyHostToDevice, 0)))
HV_HIP_WRAP(hipMemcpyDtoH, (void *dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPY1D(dst, src, n, hipMemcpyDeviceToHost, 0)))
HV_HIP_WRAP(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPY1D(dst, src, n, hipMemcpyDeviceToDevice, 0)))
HV_HIP_WRAP(hipMemcpyHtoDAsync, (hipDeviceptr_t dst, void *src, size_t n, hipStream_t s), (dst, src, n, s),
            hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY,
                              COPY1D(dst, src, n, hipMemcpyHostToDevice, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoHAsync, (void *dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY,
                              COPY1D(dst, src, n, hipMemcpyDeviceToHost, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoDAsync, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY,
                              COPY1D(dst, src, n, hipMemcpyDeviceToDevice, HV_COPY_ASYNC)))

#define COPY2D(flags_) \
    (&(struct hv_hip_copy){.dst = dst, .src = src, .bytes = w, .dpitch = dp, .spitch = sp, .height = h, .kind = k, \
                           .flags = (flags_) | HV_COPY_2D, .dst_device = -1, .src_device = -1})

HV_HIP_WRAP(hipMemcpy2D, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2D_spt, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_SPT, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2DAsync,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY, COPY2D(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpy2DAsync_spt,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_SPT, COPY2D(HV_COPY_ASYNC)))

#define COPYPEER(flags_) \
    (&(struct hv_hip_copy){.dst = dst, .src = src, .bytes = n, .kind = hipMemcpyDeviceToDevice, \
                           .flags = (flags_) | HV_COPY_PEER, .dst_device = dd, .src_device = sd})

HV_HIP_WRAP(hipMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n), (dst, dd, src, sd, n),
            hv_hip_trace_copy(t_, api_, r_, NULL, HV_HIP_LEGACY, COPYPEER(0)))
HV_HIP_WRAP(hipMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, hipStream_t s),
            (dst, dd, src, sd, n, s), hv_hip_trace_copy(t_, api_, r_, s, HV_HIP_LEGACY, COPYPEER(HV_COPY_ASYNC)))
