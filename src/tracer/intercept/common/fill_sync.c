/* Host observations of completion (they advance stream epochs), events
 * (record/wait give the analyzer its cross-stream happens-before edges),
 * stream lifetime, device selection and allocations. */
#include "tracer/names/marks.h"
#include "tracer/pyframes/sites.h"
#include "tracer/intercept/common/intercept.h"
#include "tracer/evidence/evidence.h"
#include "tracer/hostcheck/hostcheck.h"

/* Success from a sync or query means the stream's earlier work is done;
 * anything else (not ready, errors) observes nothing. Every observation is
 * one call record, whatever the number of streams: the record says what it
 * covers and the analyzer derives the streams (docs/trace-format.md). */
void hv_trace_stream_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    uint64_t seq = c->h.seq;
    /* A NULL (legacy) stream synchronize or successful query waits for the
     * device's blocking streams too (ROCm CLR hipStreamSynchronize_common ->
     * SyncAllStreams(false, wait_blocking_streams_only)); hipStreamLegacy
     * (form LEGACY_HANDLE) finishes the null stream alone. */
    int legacy = c->stream_form == HV_STREAM_FORM_LEGACY_NULL;
    if (r == 0)
        hv_observe_complete(t, c, c->stream, seq);
    uint64_t stream = c->stream, ts = c->h.ts_ns;
    hv_call_commit(t, c);
    if (r == 0 && legacy)
        hv_observe_scope(t, seq, ts, t->device, HV_OBS_LEGACY);
    else if (r == 0)
        hv_observed(t, seq, &(struct hv_obs){stream, t->device, HV_OBS_STREAM}, ts);
}

void hv_trace_device_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    uint64_t seq = c->h.seq;
    c->a.sync.completed_seq = r == 0 ? seq : 0;
    uint64_t ts = c->h.ts_ns;
    hv_call_commit(t, c);
    if (r == 0)
        hv_observe_scope(t, seq, ts, t->device, HV_OBS_DEVICE);
}

/* An event sync observes its stream complete up to the event's record. The
 * record's seq is only written when this thread made it (seqs are per
 * thread, HV_HDR_THREAD_SEQ); otherwise the analyzer resolves the record
 * from the event handle and the merged order. */
void hv_trace_event_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    struct hv_event_loc loc;
    struct hv_event_state *es = hv_event_get(hv_hot.streams, event);
    int known = es && hv_event_read(es, &loc);
    c->a.sync.event = event;
    if (known) {
        hv_call_stream(t, c, loc.stream, HV_STREAM_FORM_NONE);
        if (r == 0)
            hv_observe_complete(t, c, loc.stream, loc.tid == t->tid ? loc.seq : 0);
    }
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (known && r == 0)
        hv_observed(t, seq, &(struct hv_obs){loc.stream, t->device, HV_OBS_STREAM}, loc.ts);
}

void hv_trace_event_record(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event, struct hv_sref s,
                           unsigned flags)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.event.event = event;
    c->a.event.flags = flags;
    if (r == 0) {
        struct hv_event_state *es = hv_event_get(hv_hot.streams, event);
        if (es)
            hv_event_set(es, &(struct hv_event_loc){c->stream, c->h.seq, c->epoch, c->h.ts_ns, t->tid});
    }
    hv_call_commit(t, c);
}

void hv_trace_stream_wait(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, uint64_t event,
                          unsigned flags)
{
    struct hv_stream_state *waiter;
    struct hv_call *c = hv_begin_on(t, api, r, s, &waiter);
    struct hv_event_args *a = &c->a.event;
    a->event = event;
    a->flags = flags;
    struct hv_event_state *es = hv_event_get(hv_hot.streams, event);
    struct hv_event_loc loc;
    int known = es && hv_event_read(es, &loc);
    if (known) {
        /* The record's seq only when this thread made it (per-thread seqs). */
        a->record_stream = loc.stream;
        a->record_seq = loc.tid == t->tid ? loc.seq : 0;
        a->record_epoch = loc.epoch;
    }
    if (known && r == 0 && waiter) {
        /* Waiting on an event of a capturing stream pulls this stream into
         * the capture (fork of a multi-stream capture). */
        struct hv_stream_state *src = hv_stream_get(hv_hot.streams, a->record_stream, t->device);
        uint64_t cap = src ? atomic_load_explicit(&src->capture_id, memory_order_acquire) : 0;
        if (cap) {
            hv_capture_join(waiter, cap);
            c->flags |= HV_CALL_CAPTURING;
            c->capture = HV_CAPTURE_ACTIVE;
        }
    }
    hv_call_commit(t, c);
}

void hv_trace_event_handle(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event, unsigned flags)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.event.event = event;
    c->a.event.flags = flags;
    hv_call_commit(t, c);
}

void hv_trace_stream_handle(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t handle, int created,
                            unsigned flags, int prio)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.stream.handle = handle;
    c->a.stream.flags = flags;
    c->a.stream.priority = prio;
    if (created && handle) {
        struct hv_stream_state *st = hv_stream_get(hv_hot.streams, handle, t->device);
        if (st)
            atomic_store_explicit(&st->flags, flags, memory_order_relaxed);
    }
    hv_call_commit(t, c);
}

void hv_trace_set_device(struct hv_thread_ctx *t, uint16_t api, int32_t r, int dev)
{
    if (r == 0)
        t->device = dev;
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.raw[0] = (uint64_t)(int64_t)dev;
    hv_call_commit(t, c);
}

void hv_trace_alloc(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t ptr, size_t bytes, unsigned flags,
                    enum hv_mem mem, struct hv_sref s)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.alloc.ptr = ptr;
    c->a.alloc.bytes = bytes;
    c->a.alloc.flags = flags;
    c->a.alloc.mem = (uint8_t)mem;
    if (ptr)
        hv_alloc_add(hv_hot.allocs, ptr, bytes, mem, t->device);
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (ptr)
        hv_py_site(t, seq, HV_PY_AT_ALLOC, ptr ^ ((uint64_t)bytes << 40));
}

void hv_trace_free(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t ptr, struct hv_sref s)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.alloc.ptr = ptr;
    c->a.alloc.mem = (uint8_t)hv_alloc_kind(hv_hot.allocs, ptr);
    if (r == 0)
        c->a.alloc.bytes = hv_alloc_remove(hv_hot.allocs, ptr);
    if (r == 0 && hv_ev(HV_EV_HOSTCHECK))
        hv_hc_free(ptr, c->a.alloc.bytes);
    hv_call_commit(t, c);
}

uint64_t hv_trace_module_args(struct hv_thread_ctx *t, uint16_t api, int32_t r, const struct hv_module_args *a)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    uint64_t seq = c->h.seq;
    c->a.module = *a;
    hv_call_commit(t, c);
    return seq;
}

uint64_t hv_trace_module(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t module, uint64_t func,
                         uint32_t nkernels, uint32_t problems)
{
    struct hv_module_args a = {.module = module, .function = func, .nkernels = nkernels, .parse_errors = problems};
    return hv_trace_module_args(t, api, r, &a);
}
