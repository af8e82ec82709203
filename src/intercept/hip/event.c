/* Events: record/wait give the analyzer its cross-stream happens-before edges. */
#include "intercept/hip/hip_common.h"

static void trace_record(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipEvent_t e, hipStream_t s,
                         enum hv_hip_stream_api spt, unsigned flags)
{
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, NULL);
    c->a.event.event = (uint64_t)(uintptr_t)e;
    c->a.event.flags = flags;
    if (r == hipSuccess) {
        struct hv_event_state *es = hv_event_get(hv_tracer.streams, c->a.event.event);
        if (es)
            hv_event_set(es, c->stream, c->h.seq, c->epoch);
    }
    hv_call_commit(t, c);
}

static void trace_wait(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s, hipEvent_t e,
                       enum hv_hip_stream_api spt, unsigned flags)
{
    struct hv_stream_state *waiter;
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, &waiter);
    struct hv_event_args *a = &c->a.event;
    a->event = (uint64_t)(uintptr_t)e;
    a->flags = flags;
    struct hv_event_state *es = hv_event_get(hv_tracer.streams, a->event);
    if (es && hv_event_read(es, &a->record_stream, &a->record_seq, &a->record_epoch) && r == hipSuccess && waiter) {
        /* Waiting on an event of a capturing stream pulls this stream into
         * the capture (fork of a multi-stream capture). */
        struct hv_stream_state *src = hv_stream_get(hv_tracer.streams, a->record_stream, t->device);
        uint64_t cap = src ? atomic_load_explicit(&src->capture_id, memory_order_acquire) : 0;
        if (cap) {
            hv_capture_join(waiter, cap);
            c->flags |= HV_CALL_CAPTURING;
            c->capture = HV_CAPTURE_ACTIVE;
        }
    }
    hv_call_commit(t, c);
}

static void trace_event_handle(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipEvent_t *pe,
                               hipEvent_t e, unsigned flags)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    c->a.event.event = (uint64_t)(uintptr_t)(pe ? (r == hipSuccess ? *pe : NULL) : e);
    c->a.event.flags = flags;
    hv_call_commit(t, c);
}

HV_HIP_WRAP(hipEventRecord, (hipEvent_t e, hipStream_t s), (e, s), trace_record(t_, api_, r_, e, s, HV_HIP_LEGACY, 0))
HV_HIP_WRAP(hipEventRecord_spt, (hipEvent_t e, hipStream_t s), (e, s), trace_record(t_, api_, r_, e, s, HV_HIP_SPT, 0))
HV_HIP_WRAP(hipEventRecordWithFlags, (hipEvent_t e, hipStream_t s, unsigned int f), (e, s, f),
            trace_record(t_, api_, r_, e, s, HV_HIP_LEGACY, f))
HV_HIP_WRAP(hipStreamWaitEvent, (hipStream_t s, hipEvent_t e, unsigned int f), (s, e, f),
            trace_wait(t_, api_, r_, s, e, HV_HIP_LEGACY, f))
HV_HIP_WRAP(hipStreamWaitEvent_spt, (hipStream_t s, hipEvent_t e, unsigned int f), (s, e, f),
            trace_wait(t_, api_, r_, s, e, HV_HIP_SPT, f))
HV_HIP_WRAP(hipEventCreate, (hipEvent_t * pe), (pe), trace_event_handle(t_, api_, r_, pe, NULL, 0))
HV_HIP_WRAP(hipEventCreateWithFlags, (hipEvent_t * pe, unsigned f), (pe, f), trace_event_handle(t_, api_, r_, pe, NULL, f))
HV_HIP_WRAP(hipEventDestroy, (hipEvent_t e), (e), trace_event_handle(t_, api_, r_, NULL, e, 0))
