/* Host observations of completion: these advance stream epochs. */
#include "intercept/hip/hip_common.h"

/* hipSuccess from a sync or query means the stream's earlier work is done;
 * anything else (hipErrorNotReady, errors) observes nothing. */
static void trace_stream_sync(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                              enum hv_hip_stream_api spt)
{
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, NULL);
    uint64_t seq = c->h.seq;
    /* The legacy null stream synchronises with every blocking stream of the
     * device, so syncing it observes them all. */
    int legacy = c->stream_form == HV_STREAM_FORM_LEGACY_NULL;
    if (r == hipSuccess && !legacy)
        hv_observe_complete(t, c, c->stream, seq);
    hv_call_commit(t, c);
    if (r == hipSuccess && legacy)
        hv_observe_device(t, seq, t->device);
}

static void trace_device_sync(struct hv_thread_ctx *t, uint16_t api, hipError_t r)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    uint64_t seq = c->h.seq;
    c->a.sync.completed_seq = r == hipSuccess ? seq : 0;
    hv_call_commit(t, c);
    if (r == hipSuccess)
        hv_observe_device(t, seq, t->device);
}

/* An event sync observes its stream complete up to the event's record. */
static void trace_event_sync(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipEvent_t e)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    uint64_t stream = 0, rec_seq = 0, rec_epoch = 0;
    struct hv_event_state *es = hv_event_get(hv_tracer.streams, (uint64_t)(uintptr_t)e);
    int known = es && hv_event_read(es, &stream, &rec_seq, &rec_epoch);
    c->a.sync.event = (uint64_t)(uintptr_t)e;
    if (known) {
        hv_call_stream(t, c, stream, HV_STREAM_FORM_NONE);
        if (r == hipSuccess)
            hv_observe_complete(t, c, stream, rec_seq);
    }
    hv_call_commit(t, c);
}

HV_HIP_WRAP(hipStreamSynchronize, (hipStream_t s), (s), trace_stream_sync(t_, api_, r_, s, HV_HIP_LEGACY))
HV_HIP_WRAP(hipStreamSynchronize_spt, (hipStream_t s), (s), trace_stream_sync(t_, api_, r_, s, HV_HIP_SPT))
HV_HIP_WRAP(hipStreamQuery, (hipStream_t s), (s), trace_stream_sync(t_, api_, r_, s, HV_HIP_LEGACY))
HV_HIP_WRAP(hipStreamQuery_spt, (hipStream_t s), (s), trace_stream_sync(t_, api_, r_, s, HV_HIP_SPT))
HV_HIP_WRAP(hipDeviceSynchronize, (void), (), trace_device_sync(t_, api_, r_))
HV_HIP_WRAP(hipEventSynchronize, (hipEvent_t e), (e), trace_event_sync(t_, api_, r_, e))
HV_HIP_WRAP(hipEventQuery, (hipEvent_t e), (e), trace_event_sync(t_, api_, r_, e))
