/*
 * streams: program order, host-observed completion and happens-before.
 *
 * Ordering facts the model uses (CUDA/HIP stream semantics):
 *  - ops of one stream run in issue order;
 *  - event record on A then stream-wait on B: everything before the record
 *    on A precedes everything after the wait on B (vector clocks carry this
 *    transitively across chains of waits);
 *  - the legacy default stream waits for all prior work of the device's
 *    blocking streams and they wait for its prior work (not non-blocking
 *    streams, and per-thread default streams behave as blocking streams);
 *  - a host sync that observed stream S complete up to seq X orders all of
 *    S's work up to X before anything the host issues afterwards, on any
 *    stream. The trace has one global seq order, so all host threads are
 *    treated as one host; this can only remove findings, never invent them.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"
#include "common/grow.h"

#define HIP_STREAM_NON_BLOCKING 0x1u  /* hipStreamNonBlocking == cudaStreamNonBlocking */

uint32_t hv_stream_find(const struct hv_model *m, uint64_t id)
{
    return hv_u64map_get(&m->stream_ix, id);
}

static uint32_t stream_slot(struct hv_model *m)
{
    if (m->stream_free != HV_NO_INDEX) {
        uint32_t i = m->stream_free;
        m->stream_free = (uint32_t)m->streams[i].last_seq;
        return i;
    }
    if (!HV_GROW(m->streams, m->nstreams, m->capstreams, 16))
        return HV_NO_INDEX;
    hv_vc_init(&m->streams[m->nstreams].vc);
    m->complete_gen++;  /* hv_stream_same reads nstreams */
    return m->nstreams++;
}

/* Streams appeared, went or changed flags: every barrier must be looked at
 * again, and what hv_complete answers may have changed (hv_stream_same). */
static void barriers_changed(struct hv_model *m)
{
    m->barrier_gen++;
    m->legacy_gen++;
    m->complete_gen++;
}

uint32_t hv_stream_lookup(struct hv_model *m, uint64_t id, int32_t device)
{
    uint32_t i = hv_u64map_get(&m->stream_ix, id);
    if (i != HV_U64MAP_NONE) {
        m->hot_stream_id = id;
        m->hot_stream = i;
        return i;
    }
    i = stream_slot(m);
    if (i == HV_NO_INDEX || hv_u64map_put(&m->stream_ix, id, i) != 0) {
        m->oom = 1;
        return HV_NO_INDEX;
    }
    struct hv_stream *s = &m->streams[i];
    struct hv_vclock keep = s->vc;
    memset(s, 0, sizeof *s);
    s->vc = keep;
    hv_vc_reset(&s->vc);
    s->id = id;
    s->live = 1;
    s->legacy = (id & HV_STREAM_LEGACY) != 0;
    s->device = s->legacy ? (int32_t)(id & 0xffffffffu) : device;
    if (m->sum)
        m->sum->streams++;
    barriers_changed(m);
    m->hot_stream_id = id;
    m->hot_stream = i;
    return i;
}

void hv_stream_created(struct hv_model *m, uint64_t id, int32_t device, uint32_t flags)
{
    /* A handle value can be reused after destroy: start it over. */
    hv_stream_destroyed(m, id);
    uint32_t i = hv_stream_get(m, id, device);
    if (i != HV_NO_INDEX) {
        m->streams[i].nonblocking = (flags & HIP_STREAM_NON_BLOCKING) != 0;
        barriers_changed(m);
    }
}

void hv_stream_destroyed(struct hv_model *m, uint64_t id)
{
    uint32_t i = hv_u64map_del(&m->stream_ix, id);
    if (i == HV_U64MAP_NONE)
        return;
    /* Writers and replays that still name this index are judged against a
     * recycled slot's clocks; seqs only grow, so they stay correct (see
     * vclock.h). */
    m->streams[i].live = 0;
    m->streams[i].last_seq = m->stream_free;
    m->stream_free = i;
    if (m->hot_stream == i)
        m->hot_stream = HV_NO_INDEX;
    barriers_changed(m);
}

static int blocking_peer(const struct hv_stream *s, int32_t device)
{
    return s->live && !s->legacy && !s->nonblocking && s->device == device;
}

void hv_stream_barrier(struct hv_model *m, uint32_t si, uint64_t gen)
{
    struct hv_stream *s = &m->streams[si];
    int failed = 0;
    if (s->legacy) {
        /* Legacy stream: waits for every blocking stream's prior work. */
        for (uint32_t j = 0; j < m->nstreams; j++)
            if (j != si && blocking_peer(&m->streams[j], s->device) && m->streams[j].last_seq)
                failed |= hv_vc_raise(&m->streams[si].vc, j, m->streams[j].last_seq) != 0;
    } else {
        /* Blocking stream: waits for the legacy stream's prior work. */
        uint32_t l = hv_stream_find(m, HV_STREAM_LEGACY | (uint32_t)s->device);
        if (l != HV_U64MAP_NONE && s->device >= 0 && m->streams[l].last_seq)
            failed = hv_vc_raise(&s->vc, l, m->streams[l].last_seq) != 0;
    }
    /* Out of memory: try again at the next op, as every op did before. */
    s->barrier_seen = failed ? 0 : gen;
}

static void complete_upto(struct hv_model *m, uint32_t si, uint64_t upto)
{
    if (upto > m->streams[si].completed_seq) {
        m->streams[si].completed_seq = upto;
        m->complete_gen++;
    }
}

static void complete_entry(void *ctx, uint32_t stream, uint64_t seq)
{
    struct hv_model *m = ctx;
    if (stream < m->nstreams)
        complete_upto(m, stream, seq);
}

/* Every entry of a clock that ordered work the host saw complete. */
void hv_stream_observed_via(struct hv_model *m, const struct hv_vclock *via)
{
    hv_vc_each(via, complete_entry, m);
}

void hv_legacy_observed(struct hv_model *m, int32_t device, uint64_t upto)
{
    for (uint32_t j = 0; j < m->nstreams; j++) {
        const struct hv_stream *s = &m->streams[j];
        /* Streams first seen without a create record (made before tracing
         * started) have no known flags: blocking, hipStreamCreate's default. */
        if (s->live && !s->nonblocking && (s->device == device || s->device < 0))
            hv_stream_observed(m, j, upto, &m->streams[j].vc);
    }
}

void hv_device_observed(struct hv_model *m, int32_t device, uint64_t upto)
{
    for (uint32_t j = 0; j < m->nstreams; j++)
        if (m->streams[j].live && (device < 0 || m->streams[j].device == device || m->streams[j].device < 0))
            complete_upto(m, j, upto);
}

/* ------------------------------------------------------------------ events */

/* Index of an event, HV_U64MAP_NONE unknown. */
static uint32_t event_find(struct hv_model *m, uint64_t handle)
{
    if (m->hot_event != HV_NO_INDEX && m->hot_event_handle == handle)
        return m->hot_event;
    uint32_t i = hv_u64map_get(&m->event_ix, handle);
    if (i != HV_U64MAP_NONE) {
        m->hot_event_handle = handle;
        m->hot_event = i;
    }
    return i;
}

static uint32_t event_get(struct hv_model *m, uint64_t handle)
{
    uint32_t i = event_find(m, handle);
    if (i != HV_U64MAP_NONE)
        return i;
    if (m->event_free != HV_NO_INDEX) {
        i = m->event_free;
        m->event_free = m->events[i].stream;
    } else {
        if (!HV_GROW(m->events, m->nevents, m->capevents, 16)) {
            m->oom = 1;
            return HV_NO_INDEX;
        }
        i = m->nevents++;
        hv_vc_init(&m->events[i].vc);
    }
    if (hv_u64map_put(&m->event_ix, handle, i) != 0) {
        m->oom = 1;
        return HV_NO_INDEX;
    }
    struct hv_event *e = &m->events[i];
    e->handle = handle;
    e->seq = 0;
    e->stream = HV_NO_INDEX;
    e->live = 1;
    hv_vc_reset(&e->vc);
    return i;
}

void hv_event_recorded_slow(struct hv_model *m, uint64_t handle, uint32_t si, uint64_t seq)
{
    uint32_t i = event_get(m, handle);
    if (i != HV_NO_INDEX)
        hv_event_recorded_at(m, i, si, seq);
}

void hv_event_waited(struct hv_model *m, uint64_t handle, uint32_t si, uint64_t record_stream,
                     uint64_t record_seq)
{
    uint32_t i = event_find(m, handle);
    if (i != HV_U64MAP_NONE && m->events[i].seq &&
        (record_seq == 0 || record_seq == m->events[i].seq)) {
        const struct hv_event *e = &m->events[i];
        if (hv_vc_join(&m->streams[si].vc, &e->vc) != 0 || hv_vc_raise(&m->streams[si].vc, e->stream, e->seq) != 0)
            m->oom = 1;
        return;
    }
    /* The record was not seen (before tracing started, or lost): the wait
     * record still says where it was, which gives the direct edge. */
    if (record_seq == 0 || record_stream == 0)
        return;
    uint32_t rs = hv_stream_get(m, record_stream, m->streams[si].device);
    if (rs != HV_NO_INDEX && rs != si && hv_vc_raise(&m->streams[si].vc, rs, record_seq) != 0)
        m->oom = 1;
}

void hv_event_observed(struct hv_model *m, uint64_t handle, uint64_t record_stream, uint64_t record_seq)
{
    uint32_t i = event_find(m, handle);
    if (i != HV_U64MAP_NONE && m->events[i].seq && m->events[i].stream != HV_NO_INDEX &&
        (record_seq == 0 || record_seq == m->events[i].seq)) {
        const struct hv_event *e = &m->events[i];
        /* Completes (e->stream, e->seq), the entry the clock implies. */
        hv_stream_observed(m, e->stream, e->seq, &e->vc);
        return;
    }
    if (record_stream && record_seq) {
        uint32_t rs = hv_stream_get(m, record_stream, -1);
        if (rs != HV_NO_INDEX)
            hv_stream_observed(m, rs, record_seq, NULL);
    }
}

void hv_event_destroyed(struct hv_model *m, uint64_t handle)
{
    uint32_t i = hv_u64map_del(&m->event_ix, handle);
    if (i == HV_U64MAP_NONE)
        return;
    if (m->hot_event == i)
        m->hot_event = HV_NO_INDEX;
    m->events[i].live = 0;
    m->events[i].stream = m->event_free;
    m->event_free = i;
}
