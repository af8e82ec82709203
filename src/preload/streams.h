/*
 * Per-stream and per-event state the records need at call time: a stream's
 * epoch (how many times the host observed all its work complete), whether it
 * is capturing, and where each event was last recorded. Both tables are
 * fixed-size open-addressing hashes with lock-free insert (CAS on the key)
 * and lock-free reads: the hot path never waits.
 *
 * Event entries are written by whichever thread records the event; a reader
 * re-checks the entry's generation and, if a concurrent record tore it,
 * reports the location as unknown rather than inventing one.
 */
#ifndef HIPVIS_STREAMS_H
#define HIPVIS_STREAMS_H

#include <stdatomic.h>
#include <stdint.h>

#define HV_STREAM_SLOTS 4096u   /* power of two */
#define HV_EVENT_SLOTS 16384u   /* power of two */

struct hv_stream_state {
    _Atomic uint64_t key;          /* canonical stream id, 0 = empty */
    _Atomic uint64_t epoch;
    _Atomic uint64_t capture_id;   /* nonzero while capturing */
    _Atomic int32_t device;
    _Atomic uint32_t flags;        /* creation flags (non-blocking...) */
};

struct hv_event_state {
    _Atomic uint64_t key;          /* event handle, 0 = empty */
    _Atomic uint64_t gen;          /* odd while being written */
    _Atomic uint64_t stream;       /* canonical stream of the last record */
    _Atomic uint64_t seq;          /* seq of the last record */
    _Atomic uint64_t epoch;        /* stream epoch at the last record */
};

struct hv_stream_table {
    struct hv_stream_state streams[HV_STREAM_SLOTS];
    struct hv_event_state events[HV_EVENT_SLOTS];
    _Atomic uint64_t next_capture_id;
    _Atomic uint64_t overflow;     /* lookups that found the table full */
};

/* NULL when the table is full (counted): callers record HV_EPOCH_UNKNOWN. */
struct hv_stream_state *hv_stream_get(struct hv_stream_table *t, uint64_t id, int32_t device);
struct hv_event_state *hv_event_get(struct hv_stream_table *t, uint64_t event);

/* The host observed all work of `s` complete: returns the new epoch. */
uint64_t hv_stream_advance(struct hv_stream_state *s);

/* Every stream of `device` (or all, device < 0) — device synchronize. Calls
 * fn for each advanced stream so the caller can record the new epochs. */
void hv_stream_advance_device(struct hv_stream_table *t, int32_t device,
                              void (*fn)(uint64_t stream, uint64_t epoch, void *ctx), void *ctx);

void hv_event_set(struct hv_event_state *e, uint64_t stream, uint64_t seq, uint64_t epoch);
/* Returns 1 with the fields of a consistent snapshot, 0 when never recorded or torn. */
int hv_event_read(struct hv_event_state *e, uint64_t *stream, uint64_t *seq, uint64_t *epoch);

/* Capture tracking: begin gives the stream a fresh id; a stream that waits
 * on an event recorded in a capturing stream joins that capture; end clears
 * every stream of the capture. */
void hv_capture_begin(struct hv_stream_table *t, struct hv_stream_state *s);
void hv_capture_join(struct hv_stream_state *s, uint64_t capture_id);
void hv_capture_end(struct hv_stream_table *t, uint64_t capture_id);

#endif
