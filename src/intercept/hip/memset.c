/* Memset family: writes of [dst, dst+bytes). */
#include "intercept/hip/hip_common.h"

struct hv_hip_memset {
    const void *dst;
    size_t count;           /* elements (width for 2D) */
    size_t pitch, height;
    uint32_t value;
    uint8_t elem;
};

static void trace_memset(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                         enum hv_hip_stream_api spt, const struct hv_hip_memset *m, int async)
{
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, NULL);
    struct hv_memset_args *a = &c->a.memset;
    uint64_t rows = m->height ? m->height : 1;
    a->dst = (uint64_t)(uintptr_t)m->dst;
    a->width = (uint64_t)m->count * m->elem;
    a->bytes = a->width * rows;
    a->pitch = m->pitch;
    a->height = rows;
    a->value = m->value;
    a->elem_size = m->elem;
    uint64_t seq = c->h.seq, stream = c->stream;
    int blocking = !async && r == hipSuccess && !(c->flags & HV_CALL_CAPTURING);
    hv_call_commit(t, c);
    if (blocking)
        hv_observe_stream(t, seq, stream);
}

#define SET(dst_, n_, v_, elem_) (&(struct hv_hip_memset){.dst = (dst_), .count = (n_), .value = (uint32_t)(v_), .elem = (elem_)})
#define SET2D(elem_) (&(struct hv_hip_memset){.dst = dst, .count = w, .pitch = p, .height = h, .value = (uint32_t)v, .elem = (elem_)})

HV_HIP_WRAP(hipMemset, (void *dst, int v, size_t n), (dst, v, n),
            trace_memset(t_, api_, r_, NULL, HV_HIP_LEGACY, SET(dst, n, v, 1), 0))
HV_HIP_WRAP(hipMemset_spt, (void *dst, int v, size_t n), (dst, v, n),
            trace_memset(t_, api_, r_, NULL, HV_HIP_SPT, SET(dst, n, v, 1), 0))
HV_HIP_WRAP(hipMemsetAsync, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            trace_memset(t_, api_, r_, s, HV_HIP_LEGACY, SET(dst, n, v, 1), 1))
HV_HIP_WRAP(hipMemsetAsync_spt, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            trace_memset(t_, api_, r_, s, HV_HIP_SPT, SET(dst, n, v, 1), 1))
HV_HIP_WRAP(hipMemsetD8, (hipDeviceptr_t dst, unsigned char v, size_t n), (dst, v, n),
            trace_memset(t_, api_, r_, NULL, HV_HIP_LEGACY, SET(dst, n, v, 1), 0))
HV_HIP_WRAP(hipMemsetD8Async, (hipDeviceptr_t dst, unsigned char v, size_t n, hipStream_t s), (dst, v, n, s),
            trace_memset(t_, api_, r_, s, HV_HIP_LEGACY, SET(dst, n, v, 1), 1))
HV_HIP_WRAP(hipMemsetD16, (hipDeviceptr_t dst, unsigned short v, size_t n), (dst, v, n),
            trace_memset(t_, api_, r_, NULL, HV_HIP_LEGACY, SET(dst, n, v, 2), 0))
HV_HIP_WRAP(hipMemsetD16Async, (hipDeviceptr_t dst, unsigned short v, size_t n, hipStream_t s), (dst, v, n, s),
            trace_memset(t_, api_, r_, s, HV_HIP_LEGACY, SET(dst, n, v, 2), 1))
HV_HIP_WRAP(hipMemsetD32, (hipDeviceptr_t dst, int v, size_t n), (dst, v, n),
            trace_memset(t_, api_, r_, NULL, HV_HIP_LEGACY, SET(dst, n, v, 4), 0))
HV_HIP_WRAP(hipMemsetD32Async, (hipDeviceptr_t dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            trace_memset(t_, api_, r_, s, HV_HIP_LEGACY, SET(dst, n, v, 4), 1))
HV_HIP_WRAP(hipMemset2D, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
            trace_memset(t_, api_, r_, NULL, HV_HIP_LEGACY, SET2D(1), 0))
HV_HIP_WRAP(hipMemset2D_spt, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
            trace_memset(t_, api_, r_, NULL, HV_HIP_SPT, SET2D(1), 0))
HV_HIP_WRAP(hipMemset2DAsync, (void *dst, size_t p, int v, size_t w, size_t h, hipStream_t s), (dst, p, v, w, h, s),
            trace_memset(t_, api_, r_, s, HV_HIP_LEGACY, SET2D(1), 1))
HV_HIP_WRAP(hipMemset2DAsync_spt, (void *dst, size_t p, int v, size_t w, size_t h, hipStream_t s),
            (dst, p, v, w, h, s), trace_memset(t_, api_, r_, s, HV_HIP_SPT, SET2D(1), 1))
