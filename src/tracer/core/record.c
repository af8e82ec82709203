/*
 * A traced call's record, opened in place in the calling thread's ring
 * (tracer.h hv_call_start): the hot path after the real call, with the
 * wrapper (intercept.h) and the ring (src/ring, record/collector.h); and
 * the stream fields a record takes from the stream table.
 */
#include <stddef.h>
#include <string.h>

#include "tracer/core/tracer_int.h"

/* The hot line, defined beside the code that reads it on every call, so
 * that this file addresses it directly rather than through a register
 * holding its address (one register fewer to save in hv_call_start).
 * The guard's two fields start as "not read yet" (guard_modes.h). */
struct hv_hot hv_hot HV_HOT_DATA = {.guard_mode = -1, .guard_armed = 1};

/* The stream-level fields of a call from the stream's slot: its epoch now,
 * and whether it is capturing. */
static inline void state_fields(const struct hv_stream_state *s, uint64_t *epoch, int *capturing)
{
    *epoch = hv_stream_epoch(hv_hot.streams, s);
    *capturing = atomic_load_explicit(&s->capture_id, memory_order_acquire) != 0;
}
/* The same for canonical stream `stream` (nonzero), through the thread's
 * stream cache. Returns the slot; NULL when the table is full (the epoch is
 * then unknown, not capturing). */
static inline struct hv_stream_state *stream_fields(struct hv_thread_ctx *t, uint64_t stream, uint64_t *epoch,
                                                    int *capturing)
{
    struct hv_stream_state *s = hv_stream_cached(t, stream);
    *epoch = HV_EPOCH_UNKNOWN;
    *capturing = 0;
    if (s)
        state_fields(s, epoch, capturing);
    return s;
}

_Static_assert(offsetof(struct hv_call, api) == 24 && offsetof(struct hv_call, stream_form) == 26 &&
                   offsetof(struct hv_call, flags) == 27 && offsetof(struct hv_call, result) == 28 &&
                   offsetof(struct hv_call, device) == 32 && offsetof(struct hv_call, capture) == 36 &&
                   offsetof(struct hv_call, stream) == 40,
               "call_fill writes api..result and device..capture as two 8-byte words");

/* The call-level fields after the header, each written once. */
static inline __attribute__((always_inline)) void call_fill(struct hv_call *c, const struct hv_thread_ctx *t,
                                                            uint64_t key, uint64_t stream, uint64_t epoch,
                                                            int capturing, int zero)
{
    uint8_t flags = capturing ? HV_CALL_CAPTURING : 0;
    uint32_t capture = capturing ? HV_CAPTURE_ACTIVE : HV_CAPTURE_NONE;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w0 = key | (uint64_t)flags << 24;
    uint64_t w1 = (uint64_t)(uint32_t)t->device | (uint64_t)capture << 32;
    memcpy(&c->api, &w0, sizeof w0);
    memcpy(&c->device, &w1, sizeof w1);
#else
    c->api = (uint16_t)key;
    c->stream_form = (uint8_t)(key >> 16);
    c->flags = flags;
    c->result = (int32_t)(uint32_t)(key >> 32);
    c->device = t->device;
    c->capture = capture;
#endif
    c->stream = stream;
    c->epoch = epoch;
    /* Expected: the argument records (the default) ask for it. */
    if (__builtin_expect(zero != 0, 1))
        memset(&c->a, 0, sizeof c->a);
}

/* hv_call_start when the thread has no ring, the ring has no room before
 * its limit, or the stream is not the thread's cached one: `ts` was read
 * (0: not yet, the clock is CLOCK_MONOTONIC, read here). */
HV_COLD_FN __attribute__((noinline)) static struct hv_call *call_start_slow(struct hv_thread_ctx *t, uint64_t key,
                                                                            uint64_t stream, int zero, uint64_t ts)
{
    if (!ts)
        ts = hv_ticks_call(HV_CLOCK_MODE_MONO, key);
    struct hv_ring *r = t->ring;
    struct hv_call *c = NULL;
    if (r) {
        hv_ring_bump(&r->calls);
        c = (struct hv_call *)hv_ring_reserve_mask(r, hv_thread_ring_mask(t), sizeof *c);
    } else {
        hv_tracer_call_no_ring();
    }
    uint64_t seq = ++t->seq;
    if (c)
        hv_rec_header_fill(&c->h, HV_REC_CALL, sizeof *c, t->tid, seq, ts);
    else
        c = hv_call_scratch(t, seq, ts);
    uint64_t epoch = 0;
    int capturing = 0;
    if (stream && !(HV_LEAN & 1))
        stream_fields(t, stream, &epoch, &capturing);
    call_fill(c, t, key, stream, epoch, capturing, zero);
    return c;
}

struct hv_call *hv_call_start(struct hv_thread_ctx *t, uint64_t key, uint64_t stream, int zero)
{
    /* Acquire (a plain load on x86): read after whatever acquire ordered
     * this call, so a second producer thread's arrival is seen (attach_thread,
     * docs/trace-format.md "Per-thread sequences"). */
    int mode = atomic_load_explicit(&hv_hot.clock_mode, memory_order_acquire);
    uint64_t ts;   /* after the result, which key holds */
    if (__builtin_expect(mode == HV_CLOCK_MODE_ALONE, 1))
        ts = hv_ticks_call(HV_CLOCK_MODE_ALONE, key);
    else if (mode == HV_CLOCK_MODE_ORDERED)
        ts = hv_ticks_call(HV_CLOCK_MODE_ORDERED, key);
    else
        return call_start_slow(t, key, stream, zero, 0);   /* CLOCK_MONOTONIC */
    /* The common case calls nothing (so saves no register): a ring with room
     * before its limit, and no stream or the one this thread named last. The
     * seq is this thread's call count; the ring counts the call (the footer
     * sums them). */
    struct hv_ring *r = t->ring;
    struct hv_call *c;
    if (__builtin_expect(!r || (!(HV_LEAN & 1) && stream && t->stream_id != stream) ||
                             !(c = hv_ring_reserve_fast(r, hv_thread_ring_mask(t), sizeof *c)), 0))
        return call_start_slow(t, key, stream, zero, ts);
    hv_ring_bump(&r->calls);
    uint64_t seq = ++t->seq;
    hv_rec_header_fill(&c->h, HV_REC_CALL, sizeof *c, t->tid, seq, ts);
    uint64_t epoch = 0;
    int capturing = 0;
    if (stream && !(HV_LEAN & 1))
        state_fields(t->stream_state, &epoch, &capturing);   /* the cached slot: never NULL */
    call_fill(c, t, key, stream, epoch, capturing, zero);
    return c;
}

__attribute__((noinline)) void hv_tracer_call_no_ring(void) { hv_count_call_no_ring(hv_tracer.col); }

struct hv_call *hv_call_scratch(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts)
{
    if (!t->ring)
        hv_count_no_ring();
    struct hv_call *c = (struct hv_call *)(void *)t->scratch;
    c->h.size = 0;     /* not in the ring: hv_call_commit publishes nothing */
    c->h.seq = seq;
    c->h.ts_ns = ts;   /* evidence orders observations by it */
    return c;
}

struct hv_stream_state *hv_call_stream(struct hv_thread_ctx *t, struct hv_call *c, uint64_t stream, uint8_t form)
{
    if (HV_LEAN & 1) {
        c->stream = stream;
        c->stream_form = form;
        c->epoch = 0;
        return NULL;
    }
    uint64_t epoch;
    int capturing;
    struct hv_stream_state *s = stream_fields(t, stream, &epoch, &capturing);
    c->stream = stream;
    c->stream_form = form;
    c->epoch = epoch;
    if (capturing) {
        c->flags |= HV_CALL_CAPTURING;
        c->capture = HV_CAPTURE_ACTIVE;
    }
    return s;
}

struct hv_stream_state *hv_stream_lookup(struct hv_thread_ctx *t, uint64_t stream)
{
    struct hv_stream_state *s = hv_stream_get(hv_hot.streams, stream, t->device);
    if (s && stream) {
        t->stream_id = stream;
        t->stream_state = s;
    }
    return s;
}

void hv_count_no_ring(void)
{
    atomic_fetch_add_explicit(&hv_tracer.col->no_ring_made, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&hv_tracer.col->no_ring_drops, 1, memory_order_relaxed);
}

