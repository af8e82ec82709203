/*
 * The collector: every traced thread's ring, the process-wide call sequence,
 * and the hot-path helpers that fill a record in place.
 *
 * Rings are kept in a fixed array of slots. A thread claims a slot on its
 * first traced call — first by recycling a ring whose owner exited and which
 * the consumer has drained, else by appending — with one CAS and no lock, so
 * a new thread never waits for another. Memory is bounded by
 * (threads that trace at the same time) x HIPVIS_RING_KB.
 */
#ifndef HIPVIS_COLLECTOR_H
#define HIPVIS_COLLECTOR_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hipvis/trace.h"
#include "record/clock.h"
#include "record/ring.h"

#define HV_MAX_RINGS 4096

/* Where a new ring's memory comes from: private anonymous memory when NULL;
 * the sidecar transport (record/shm_transport.h) lays rings out in its
 * shared segment instead. Returns NULL when no ring can be had. */
typedef struct hv_ring *(*hv_ring_alloc_fn)(void *ctx, uint32_t slot, uint64_t bytes, uint32_t tid);

struct hv_collector {
    /* Alone on its line: every traced call of every thread increments it, and
     * the consumer's reads of the slots below must not steal the line. */
    alignas(64) _Atomic uint64_t seq;       /* calls so far; a call's seq is the value after its increment */
    alignas(64) _Atomic uint32_t nrings;    /* slots handed out */
    uint64_t ring_bytes;                    /* data bytes per ring, power of two */
    _Atomic uint64_t no_ring_drops;         /* records lost because no ring could be had */
    _Atomic uint64_t no_ring_made;
    hv_ring_alloc_fn ring_alloc;            /* set before the first claim, never changed */
    void *ring_alloc_ctx;
    struct hv_ring *_Atomic rings[HV_MAX_RINGS];
};

/* Per-thread context. `depth` suppresses recording of calls the runtime makes
 * into its own exported API while serving a traced call. */
struct hv_thread_ctx {
    struct hv_ring *ring;
    uint32_t tid;
    int32_t depth;
    int32_t device;          /* last hipSetDevice of this thread, -1 unknown */
    int32_t ring_failed;     /* the claim failed once; do not retry on every call */
    alignas(8) uint8_t scratch[sizeof(struct hv_call)];  /* target of dropped calls */
};

void hv_collector_init(struct hv_collector *c, uint64_t ring_bytes);

/* Claims a ring for the calling thread; NULL when none can be had (counted). */
struct hv_ring *hv_collector_claim(struct hv_collector *c, uint32_t tid);
/* The owner exited: the consumer drains the ring, then frees it. */
void hv_collector_release(struct hv_collector *c, struct hv_ring *r);

/*
 * Consumer side: drains every ring once in slot order, handing records to
 * `fn`, and recycles rings of exited threads once empty (`on_free` sees each
 * such ring first so its final drop counts can be written). Returns records
 * drained.
 */
typedef void (*hv_ring_free_fn)(struct hv_ring *r, void *ctx);
long hv_collector_drain(struct hv_collector *c, hv_ring_visit_fn fn, hv_ring_free_fn on_free, void *ctx);

/* Totals over all rings (a snapshot). */
void hv_collector_totals(struct hv_collector *c, uint64_t *made, uint64_t dropped[HV_DROP__COUNT]);

/* In a fork child: the parent's records are the parent's to write. Forget
 * them, reset counters, and free the rings of threads that do not exist in
 * the child; `self` (may be NULL) stays owned by the forking thread. */
void hv_collector_after_fork_child(struct hv_collector *c, struct hv_ring *self);

/* ---- hot path ---- */

static inline uint64_t hv_next_seq(struct hv_collector *c)
{
    return atomic_fetch_add_explicit(&c->seq, 1, memory_order_relaxed) + 1;
}

/* Reserves a record of `size` bytes (multiple of 8) in the thread's ring,
 * header filled; NULL when it cannot be delivered (already counted). */
static inline struct hv_rec_header *hv_emit_begin(struct hv_thread_ctx *t, uint16_t type, uint32_t size,
                                                  uint64_t seq)
{
    if (!t->ring)
        return NULL;
    struct hv_rec_header *h = hv_ring_reserve(t->ring, size);
    if (!h)
        return NULL;
    h->type = type;
    h->size = (uint16_t)size;
    h->tid = t->tid;
    h->seq = seq;
    h->ts_ns = hv_ticks();
    return h;
}

static inline void hv_emit_commit(struct hv_thread_ctx *t, struct hv_rec_header *h)
{
    hv_ring_commit(t->ring, h->size);
}

#endif
