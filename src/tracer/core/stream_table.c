#include "tracer/core/stream_table.h"

#include <stddef.h>

/* Fibonacci hashing spreads pointer-valued keys (aligned, clustered). */
static inline uint32_t slot_of(uint64_t key, uint32_t nslots)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (nslots - 1);
}

struct hv_stream_state *hv_stream_get(struct hv_stream_table *t, uint64_t id, int32_t device)
{
    uint32_t i = slot_of(id, HV_STREAM_SLOTS);
    for (uint32_t probe = 0; probe < HV_STREAM_SLOTS; probe++, i = (i + 1) & (HV_STREAM_SLOTS - 1)) {
        struct hv_stream_state *s = &t->streams[i];
        uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);
        if (k == id)
            return s;
        if (k == 0) {
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&s->key, &expect, id, memory_order_acq_rel,
                                                        memory_order_acquire)) {
                atomic_store_explicit(&s->device, device, memory_order_relaxed);
                return s;
            }
            if (expect == id)
                return s;
        }
    }
    atomic_fetch_add_explicit(&t->overflow, 1, memory_order_relaxed);
    return NULL;
}

struct hv_event_state *hv_event_get(struct hv_stream_table *t, uint64_t event)
{
    uint32_t i = slot_of(event, HV_EVENT_SLOTS);
    for (uint32_t probe = 0; probe < HV_EVENT_SLOTS; probe++, i = (i + 1) & (HV_EVENT_SLOTS - 1)) {
        struct hv_event_state *e = &t->events[i];
        uint64_t k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == event)
            return e;
        if (k == 0) {
            uint64_t expect = 0;
            if (atomic_compare_exchange_strong_explicit(&e->key, &expect, event, memory_order_acq_rel,
                                                        memory_order_acquire) ||
                expect == event)
                return e;
        }
    }
    atomic_fetch_add_explicit(&t->overflow, 1, memory_order_relaxed);
    return NULL;
}

uint64_t hv_stream_advance(struct hv_stream_table *t, struct hv_stream_state *s)
{
    atomic_fetch_add_explicit(&s->epoch, 1, memory_order_acq_rel);
    return hv_stream_epoch(t, s);
}

void hv_stream_advance_device(struct hv_stream_table *t, int32_t device, int legacy_only)
{
    if (device < 0 || (uint32_t)device >= HV_OBS_DEVICES)
        return;
    _Atomic uint64_t *gen = legacy_only ? &t->gen[device].legacy : &t->gen[device].device;
    atomic_fetch_add_explicit(gen, 1, memory_order_acq_rel);
}

void hv_event_set(struct hv_event_state *e, const struct hv_event_loc *loc)
{
    uint64_t g = atomic_fetch_add_explicit(&e->gen, 1, memory_order_acq_rel); /* now odd */
    atomic_store_explicit(&e->stream, loc->stream, memory_order_relaxed);
    atomic_store_explicit(&e->seq, loc->seq, memory_order_relaxed);
    atomic_store_explicit(&e->epoch, loc->epoch, memory_order_relaxed);
    atomic_store_explicit(&e->ts, loc->ts, memory_order_relaxed);
    atomic_store_explicit(&e->tid, loc->tid, memory_order_relaxed);
    /* Release: the fields are visible before the even generation. */
    atomic_store_explicit(&e->gen, g + 2, memory_order_release);
}

int hv_event_read(struct hv_event_state *e, struct hv_event_loc *loc)
{
    uint64_t g1 = atomic_load_explicit(&e->gen, memory_order_acquire);
    if (g1 == 0 || (g1 & 1))
        return 0;
    loc->stream = atomic_load_explicit(&e->stream, memory_order_relaxed);
    loc->seq = atomic_load_explicit(&e->seq, memory_order_relaxed);
    loc->epoch = atomic_load_explicit(&e->epoch, memory_order_relaxed);
    loc->ts = atomic_load_explicit(&e->ts, memory_order_relaxed);
    loc->tid = atomic_load_explicit(&e->tid, memory_order_relaxed);
    /* Acquire fence so the re-read of gen is ordered after the field loads. */
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&e->gen, memory_order_relaxed) == g1;
}

void hv_capture_begin(struct hv_stream_table *t, struct hv_stream_state *s)
{
    uint64_t id = atomic_fetch_add_explicit(&t->next_capture_id, 1, memory_order_relaxed) + 1;
    atomic_store_explicit(&s->capture_id, id, memory_order_release);
}

void hv_capture_join(struct hv_stream_state *s, uint64_t capture_id)
{
    atomic_store_explicit(&s->capture_id, capture_id, memory_order_release);
}

void hv_capture_end(struct hv_stream_table *t, uint64_t capture_id)
{
    if (capture_id == 0)
        return;
    for (uint32_t i = 0; i < HV_STREAM_SLOTS; i++) {
        uint64_t expect = capture_id;
        atomic_compare_exchange_strong_explicit(&t->streams[i].capture_id, &expect, 0, memory_order_acq_rel,
                                                memory_order_relaxed);
    }
}
