/* Stream lifetime and device selection. */
#include "intercept/hip/hip_common.h"

static void trace_stream(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t *ps, hipStream_t s,
                         unsigned flags, int prio)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    hipStream_t h = ps ? (r == hipSuccess ? *ps : NULL) : s;
    c->a.stream.handle = (uint64_t)(uintptr_t)h;
    c->a.stream.flags = flags;
    c->a.stream.priority = prio;
    if (ps && h) {
        struct hv_stream_state *st = hv_stream_get(hv_tracer.streams, c->a.stream.handle, t->device);
        if (st)
            atomic_store_explicit(&st->flags, flags, memory_order_relaxed);
    }
    hv_call_commit(t, c);
}

static void trace_set_device(struct hv_thread_ctx *t, uint16_t api, hipError_t r, int dev)
{
    if (r == hipSuccess)
        t->device = dev;
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    c->a.raw[0] = (uint64_t)(int64_t)dev;
    hv_call_commit(t, c);
}

HV_HIP_WRAP(hipStreamCreate, (hipStream_t * ps), (ps), trace_stream(t_, api_, r_, ps, NULL, 0, 0))
HV_HIP_WRAP(hipStreamCreateWithFlags, (hipStream_t * ps, unsigned int f), (ps, f),
            trace_stream(t_, api_, r_, ps, NULL, f, 0))
HV_HIP_WRAP(hipStreamCreateWithPriority, (hipStream_t * ps, unsigned int f, int p), (ps, f, p),
            trace_stream(t_, api_, r_, ps, NULL, f, p))
HV_HIP_WRAP(hipStreamDestroy, (hipStream_t s), (s), trace_stream(t_, api_, r_, NULL, s, 0, 0))
HV_HIP_WRAP(hipSetDevice, (int dev), (dev), trace_set_device(t_, api_, r_, dev))
