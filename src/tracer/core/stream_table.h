/*
 * Per-stream and per-event state the records need at call time: a stream's
 * epoch (how many times the host observed all its work complete), whether it
 * is capturing, and where each event was last recorded.
 *
 * Epochs cost O(1) per observation whatever the number of streams: a stream
 * synchronize bumps that stream's own count; a legacy (null) stream
 * synchronize bumps its device's legacy generation, which every blocking
 * stream of the device counts; a device synchronize bumps the device
 * generation, which every stream of the device counts. A stream's epoch is
 * the sum, read lazily when a call names the stream (hv_stream_epoch), so no
 * observation walks the table. Both tables are
 * fixed-size open-addressing hashes with lock-free insert (CAS on the key)
 * and lock-free reads: the hot path never waits. (Not the common map,
 * src/common/u64map.h: its growth moves slots under a lock-free reader.)
 *
 * Event entries are written by whichever thread records the event; a reader
 * re-checks the entry's generation and, if a concurrent record tore it,
 * reports the location as unknown rather than inventing one.
 */
#ifndef HV_TRACER_CORE_STREAM_TABLE_H
#define HV_TRACER_CORE_STREAM_TABLE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "tracer/core/hot.h"

#define HV_STREAM_SLOTS 4096u   /* power of two */
#define HV_EVENT_SLOTS 16384u   /* power of two */

#define HV_OBS_DEVICES 256u     /* devices with observation generations; beyond: own epoch only */

struct hv_stream_state {
    _Atomic uint64_t key;          /* canonical stream id, 0 = empty */
    _Atomic uint64_t epoch;        /* observations of this stream alone (see hv_stream_epoch) */
    _Atomic uint64_t capture_id;   /* nonzero while capturing */
    _Atomic int32_t device;
    _Atomic uint32_t flags;        /* creation flags (non-blocking...) */
};

struct hv_event_state {
    _Atomic uint64_t key;          /* event handle, 0 = empty */
    _Atomic uint64_t gen;          /* odd while being written */
    _Atomic uint64_t stream;       /* canonical stream of the last record */
    _Atomic uint64_t seq;          /* seq of the last record (its thread's seq) */
    _Atomic uint64_t epoch;        /* stream epoch at the last record */
    _Atomic uint64_t ts;           /* ordered ticks of the last record (evidence orders by them) */
    _Atomic uint32_t tid;          /* thread of the last record */
};

/* Where an event was last recorded. */
struct hv_event_loc {
    uint64_t stream, seq, epoch, ts;
    uint32_t tid;
};

/* Where the two lines a call on the legacy stream reads sit in the table
 * (which is mapped page aligned): streams[0], the legacy stream's slot
 * (HV_STREAM_LEGACY|0 hashes to slot 0), and gen[0]. Not on a page's first
 * line, the most crowded set of the first-level cache (ring.h
 * HV_RING_PRODUCER_AT says why), and not on one set together. */
#define HV_STREAMS_AT 0xcc0u
#define HV_GEN_AT 0x6c0u

struct hv_stream_table {
    char colour_[HV_STREAMS_AT];
    struct hv_stream_state streams[HV_STREAM_SLOTS];
    struct hv_event_state events[HV_EVENT_SLOTS];
    _Atomic uint64_t next_capture_id;
    _Atomic uint64_t overflow;     /* lookups that found the table full */
    char gen_colour_[(HV_GEN_AT - HV_STREAMS_AT - 16) & 4095];
    /* Per device: device synchronizes, and legacy-stream synchronizes (which
     * cover the blocking streams only, as in ROCm CLR's SyncAllStreams(...,
     * wait_blocking_streams_only)). Side by side: a call on a blocking
     * stream reads both, from one cache line. */
    alignas(64) struct {
        _Atomic uint64_t device, legacy;
    } gen[HV_OBS_DEVICES];
};
_Static_assert(offsetof(struct hv_stream_table, streams) % 4096 == HV_STREAMS_AT &&
                   offsetof(struct hv_stream_table, gen) % 4096 == HV_GEN_AT,
               "streams[0] and gen[0] where HV_STREAMS_AT and HV_GEN_AT say");

#define HV_STREAM_NONBLOCKING_FLAG 0x1u  /* hipStreamNonBlocking == cudaStreamNonBlocking == CU_STREAM_NON_BLOCKING */

/* NULL when the table is full (counted): callers record HV_EPOCH_UNKNOWN. */
struct hv_stream_state *hv_stream_get(struct hv_stream_table *t, uint64_t id, int32_t device);
struct hv_event_state *hv_event_get(struct hv_stream_table *t, uint64_t event);

/* Whether a legacy-stream synchronize covers `s`: the legacy stream itself
 * and every stream not created non-blocking (streams created before tracing
 * started have no known flags and count as blocking, hipStreamCreate's
 * default). */
static inline int hv_stream_blocking(const struct hv_stream_state *s)
{
    return !(atomic_load_explicit(&s->flags, memory_order_relaxed) & HV_STREAM_NONBLOCKING_FLAG);
}

/* The stream's epoch now: its own observations plus those of its device. */
static inline uint64_t hv_stream_epoch(const struct hv_stream_table *t, const struct hv_stream_state *s)
{
    uint64_t e = atomic_load_explicit(&s->epoch, memory_order_acquire);
    uint32_t d = (uint32_t)atomic_load_explicit(&s->device, memory_order_relaxed);
    if (__builtin_expect(d < HV_OBS_DEVICES, 1)) {
        e += atomic_load_explicit(&t->gen[d].device, memory_order_acquire);
        if (hv_stream_blocking(s))
            e += atomic_load_explicit(&t->gen[d].legacy, memory_order_acquire);
    }
    return e;
}

/* The host observed all work of `s` complete: returns the new epoch. */
HV_STEP_FN uint64_t hv_stream_advance(struct hv_stream_table *t, struct hv_stream_state *s);

/* A device synchronize (legacy_only 0) or a legacy-stream synchronize
 * (legacy_only 1: the blocking streams and the legacy stream) on `device`:
 * one atomic add, whatever the number of streams. */
HV_STEP_FN void hv_stream_advance_device(struct hv_stream_table *t, int32_t device, int legacy_only);

void hv_event_set(struct hv_event_state *e, const struct hv_event_loc *loc);
/* Returns 1 with a consistent snapshot in *loc, 0 when never recorded or torn. */
int hv_event_read(struct hv_event_state *e, struct hv_event_loc *loc);

/* Capture tracking: begin gives the stream a fresh id; a stream that waits
 * on an event recorded in a capturing stream joins that capture; end clears
 * every stream of the capture. */
void hv_capture_begin(struct hv_stream_table *t, struct hv_stream_state *s);
void hv_capture_join(struct hv_stream_state *s, uint64_t capture_id);
void hv_capture_end(struct hv_stream_table *t, uint64_t capture_id);

#endif
