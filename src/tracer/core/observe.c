/*
 * Host observations of completion (tracer.h): stream epochs advanced,
 * epoch records, and the features' observers told through their table
 * (struct hv_feature) while one waits for an observation.
 */
#include "tracer/core/tracer_int.h"

int hv_obs_covers(const struct hv_obs *o, uint64_t stream)
{
    if (stream == o->stream)
        return 1;
    if (o->scope == HV_OBS_STREAM)
        return 0;
    struct hv_stream_state *s = hv_stream_get(hv_hot.streams, stream, o->device);
    if (!s || atomic_load_explicit(&s->device, memory_order_relaxed) != o->device)
        return 0;
    return o->scope == HV_OBS_DEVICE || hv_stream_blocking(s);
}

void hv_observe_complete(struct hv_thread_ctx *t, struct hv_call *c, uint64_t stream, uint64_t completed_seq)
{
    struct hv_stream_state *s = HV_LEAN & 1 ? NULL : hv_stream_cached(t, stream);
    c->a.sync.completed_stream = stream;
    c->a.sync.completed_seq = completed_seq;
    c->a.sync.new_epoch = s ? hv_stream_advance(hv_hot.streams, s) : HV_LEAN & 1 ? 0 : HV_EPOCH_UNKNOWN;
}

void hv_observe_scope(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, int32_t device, uint8_t scope)
{
    if (!(HV_LEAN & 1))
        hv_stream_advance_device(hv_hot.streams, device, scope == HV_OBS_LEGACY);
    /* Features that wait for completion (the rewrite check, the probe's
     * read-back): bounded by what is pending, not by the number of streams. */
    hv_observed(t, seq, &(struct hv_obs){HV_STREAM_LEGACY | (uint32_t)device, device, scope}, ts);
}

void hv_observe_stream(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, uint64_t stream, int record)
{
    struct hv_stream_state *s = HV_LEAN & 1 ? NULL : hv_stream_cached(t, stream);
    if (!s && !(HV_LEAN & 1))
        return;
    uint64_t epoch = s ? hv_stream_advance(hv_hot.streams, s) : 0;
    struct hv_epoch *e = record ? hv_aux_begin(t, HV_REC_EPOCH, sizeof *e, seq) : NULL;
    if (e) {
        e->stream = stream;
        e->epoch = epoch;
        e->completed_seq = seq;
        hv_aux_commit(t, e);
    }
    /* Recorded after the epoch record that explains it. */
    hv_observed(t, seq, &(struct hv_obs){stream, t->device, HV_OBS_STREAM}, ts);
}

void hv_observers_run(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    HV_FEATURES_EACH(f)
        if (f->observed)
            f->observed(t, seq, o, upto);
}

