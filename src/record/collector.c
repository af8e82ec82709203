#include "record/collector.h"

#include <linux/futex.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void hv_collector_init(struct hv_collector *c, uint64_t ring_bytes)
{
    memset(c, 0, sizeof *c);
    c->ring_bytes = ring_bytes;
}

/* Rings come from mmap, not malloc: the traced program's allocator may be
 * instrumented, locked in a fork child, or the very thing being debugged.
 * MAP_POPULATE takes the guest's page faults now, not on the traced calls.
 * `touch` also writes one byte per page: on virtual machines whose host backs
 * guest memory only on its first write (firecracker here), neither
 * MAP_POPULATE nor MADV_POPULATE_WRITE does that, and the first lap of a
 * 4 MiB ring then costs ~7 us per page on the calling thread (bench-step:
 * +1.1 us per step during the first lap, +0.25 us after). The write must go
 * through this mapping: writes through another mapping of the same pages
 * (another process's, or a second mmap here) leave the first lap as slow
 * (measured for the sidecar's shared segment), so the sidecar cannot do it
 * for us. Only hv_collector_prepare touches: once at activation for the
 * activating thread's ring, then off the traced threads for later threads;
 * a thread that claims a ring on its own (none ready) would take the same
 * cost as one stall instead of spread over its first lap, so it does not
 * touch. */
static struct hv_ring *ring_new(uint64_t bytes, uint32_t tid, int touch)
{
    size_t len = hv_ring_footprint(bytes);
    void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    if (touch)
        for (size_t off = 0; off < len; off += 4096)
            ((volatile unsigned char *)mem)[off] = 0;
    return hv_ring_init(mem, bytes, tid);
}

void hv_count_call_no_ring(struct hv_collector *c)
{
    if (c)
        atomic_fetch_add_explicit(&c->seq, 1, memory_order_relaxed);
}

struct hv_ring *hv_collector_claim(struct hv_collector *c, uint32_t tid)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&c->rings[i], memory_order_acquire);
        uint32_t expect = HV_RING_FREE;
        if (r && atomic_compare_exchange_strong_explicit(&r->state, &expect, HV_RING_LIVE,
                                                         memory_order_acq_rel, memory_order_relaxed)) {
            r->tid = tid;
            /* Sidecar mode: the transport's preparer thread sleeps on the
             * spare's state word until a thread takes it (shm_transport.c);
             * one wake per new thread, never on a traced call after. */
            if (c->ring_alloc)
                syscall(SYS_futex, &r->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
            return r;
        }
    }
    uint32_t slot = atomic_fetch_add_explicit(&c->nrings, 1, memory_order_acq_rel);
    struct hv_ring *r = slot >= HV_MAX_RINGS ? NULL
                        : c->ring_alloc    ? c->ring_alloc(c->ring_alloc_ctx, slot, c->ring_bytes, tid, 0)
                                           : ring_new(c->ring_bytes, tid, 0);
    if (slot >= HV_MAX_RINGS) {
        atomic_fetch_sub_explicit(&c->nrings, 1, memory_order_acq_rel);
        return NULL;
    }
    /* A slot whose mmap failed stays NULL; the consumer skips it. */
    atomic_store_explicit(&c->rings[slot], r, memory_order_release);
    return r;
}

struct hv_ring *hv_collector_spare(struct hv_collector *c)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&c->rings[i], memory_order_acquire);
        if (r && atomic_load_explicit(&r->state, memory_order_relaxed) == HV_RING_FREE)
            return r;
    }
    return NULL;
}

int hv_collector_prepare(struct hv_collector *c)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    if (n >= HV_MAX_RINGS - 1 || hv_collector_spare(c))
        return 0;
    /* A private ring is made before it gets a slot. A shared segment's ring
     * lives at its slot's offset, so there the slot comes first and stays
     * NULL (skipped by everyone) until the ring is written, as in a claim;
     * the allocator leaves it FREE. */
    struct hv_ring *r = NULL;
    if (!c->ring_alloc) {
        r = ring_new(c->ring_bytes, 0, 1);
        if (!r)
            return -1;
        /* FREE before it is published: a claiming thread CASes FREE -> LIVE,
         * so exactly one thread gets it, as with a recycled ring. */
        atomic_store_explicit(&r->state, HV_RING_FREE, memory_order_relaxed);
    }
    uint32_t slot = atomic_fetch_add_explicit(&c->nrings, 1, memory_order_acq_rel);
    if (slot >= HV_MAX_RINGS) {
        atomic_fetch_sub_explicit(&c->nrings, 1, memory_order_acq_rel);
        if (r)
            munmap(r, hv_ring_footprint(c->ring_bytes));
        return 0;
    }
    if (!r && !(r = c->ring_alloc(c->ring_alloc_ctx, slot, c->ring_bytes, 0, 1)))
        return -1;
    /* Release: the ring's initialised header and touched pages are visible
     * to the thread whose acquire load of the slot finds it. */
    atomic_store_explicit(&c->rings[slot], r, memory_order_release);
    return 1;
}

void hv_collector_release(struct hv_collector *c, struct hv_ring *r)
{
    (void)c;
    if (r)
        atomic_store_explicit(&r->state, HV_RING_EXITED, memory_order_release);
}

long hv_collector_drain(struct hv_collector *c, hv_ring_visit_fn fn, hv_ring_free_fn on_free, void *ctx)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    long total = 0;
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&c->rings[i], memory_order_acquire);
        if (!r)
            continue;
        /* Read the state before draining: an EXITED ring that is empty after
         * this drain has no producer left that could add to it. */
        uint32_t state = atomic_load_explicit(&r->state, memory_order_acquire);
        long got = hv_ring_drain(r, fn, ctx);
        if (got > 0)
            total += got;
        if (state == HV_RING_EXITED && on_free &&
            atomic_load_explicit(&r->head, memory_order_acquire) ==
                atomic_load_explicit(&r->tail, memory_order_relaxed))
            on_free(r, ctx);
        hv_ring_recycle_if_drained(r, state);
    }
    return total;
}

void hv_collector_totals(struct hv_collector *c, uint64_t *made, uint64_t dropped[HV_DROP__COUNT])
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    *made = atomic_load_explicit(&c->no_ring_made, memory_order_relaxed);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        dropped[k] = 0;
    dropped[HV_DROP_NO_RING] = atomic_load_explicit(&c->no_ring_drops, memory_order_relaxed);
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&c->rings[i], memory_order_acquire);
        if (!r)
            continue;
        *made += atomic_load_explicit(&r->made, memory_order_relaxed);
        for (int k = 0; k < HV_DROP__COUNT; k++)
            dropped[k] += atomic_load_explicit(&r->dropped[k], memory_order_relaxed);
    }
}

void hv_collector_after_fork_child(struct hv_collector *c, struct hv_ring *self)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_relaxed);
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    atomic_store_explicit(&c->no_ring_drops, 0, memory_order_relaxed);
    atomic_store_explicit(&c->no_ring_made, 0, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&c->rings[i], memory_order_relaxed);
        if (!r)
            continue;
        atomic_store_explicit(&r->tail, atomic_load_explicit(&r->head, memory_order_relaxed),
                              memory_order_relaxed);
        r->cached_tail = atomic_load_explicit(&r->head, memory_order_relaxed);
        atomic_store_explicit(&r->made, 0, memory_order_relaxed);
        atomic_store_explicit(&r->calls, 0, memory_order_relaxed);
        for (int k = 0; k < HV_DROP__COUNT; k++)
            atomic_store_explicit(&r->dropped[k], 0, memory_order_relaxed);
        atomic_store_explicit(&r->state, r == self ? HV_RING_LIVE : HV_RING_FREE, memory_order_relaxed);
    }
}
