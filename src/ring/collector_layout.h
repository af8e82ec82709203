/*
 * The collector's layout: the slot table of a process's rings and its
 * no-ring counters. The one piece of the collector (src/tracer/record/
 * collector.h) a consumer reads too: in sidecar mode the producer's
 * collector lives in the shared segment (shm_layout.h), and hipvis-sidecar
 * reads its counters and rings from there, never following its pointers.
 */
#ifndef HV_RING_COLLECTOR_LAYOUT_H
#define HV_RING_COLLECTOR_LAYOUT_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ring/ring.h"

#define HV_MAX_RINGS 4096

/* Where a new ring's memory comes from: private anonymous memory when NULL;
 * the sidecar transport (record/shm_transport.h) lays rings out in its
 * shared segment instead. `spare` (hv_collector_prepare): no thread owns it
 * yet; write one byte per page of it through this mapping and leave it
 * HV_RING_FREE. Returns NULL when no ring can be had. */
typedef struct hv_ring *(*hv_ring_alloc_fn)(void *ctx, uint32_t slot, uint64_t bytes, uint32_t tid, int spare);

struct hv_collector {
    /* Calls without a ring (and a raw producer's process-wide seq): the
     * tracer's calls are numbered per thread and counted in their rings, so
     * no traced call writes this line */
    alignas(64) _Atomic uint64_t seq;
    alignas(64) _Atomic uint32_t nrings;    /* slots handed out */
    uint64_t ring_bytes;                    /* data bytes per ring, power of two */
    _Atomic uint64_t no_ring_drops;         /* records lost because no ring could be had */
    _Atomic uint64_t no_ring_made;
    hv_ring_alloc_fn ring_alloc;            /* set before the first claim, never changed */
    void *ring_alloc_ctx;
    struct hv_ring *_Atomic rings[HV_MAX_RINGS];
};

/* Calls made so far by every thread (the footer's call count); inline so the
 * sidecar, which reads a producer's collector in shared memory, has it. */
static inline uint64_t hv_collector_calls(const struct hv_collector *c)
{
    uint32_t n = atomic_load_explicit((_Atomic uint32_t *)&c->nrings, memory_order_acquire);
    uint64_t calls = atomic_load_explicit((_Atomic uint64_t *)&c->seq, memory_order_relaxed);
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit((struct hv_ring *_Atomic *)&c->rings[i], memory_order_acquire);
        if (r)
            calls += atomic_load_explicit(&r->calls, memory_order_relaxed);
    }
    return calls;
}

#endif
