#include "tracer/record/collector.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/pages.h"

void hv_collector_init(struct hv_collector *c, uint64_t ring_bytes)
{
    memset(c, 0, sizeof *c);
    c->ring_bytes = ring_bytes;
}

/* Rings come from mmap, not malloc: the traced program's allocator may be
 * instrumented, locked in a fork child, or the very thing being debugged.
 * They are populated now (MADV_POPULATE_WRITE, MAP_POPULATE), so that the
 * guest's page faults are not taken on the traced calls.
 *
 * On virtual machines that make the first write through each page-table
 * entry slow (firecracker here: ~7-20 us per 4 KiB page quiet, up to 100
 * loaded, whatever MAP_POPULATE or MADV_POPULATE_WRITE did before), the
 * first lap of a fresh 4 MiB ring in 4 KiB pages costs that per page on the
 * calling thread (bench-step: +1.1 us per step during the first lap, +0.25
 * us after). So every ring has one byte per page written (hv_touch_pages,
 * util/pages.h), through the mapping its thread will use, before a thread
 * gets it: writes through another mapping of the same pages (another
 * process's, or a second mmap here) leave the first lap as slow (measured
 * for the sidecar's shared segment), so the sidecar cannot do it for us.
 *
 * Two kinds of ring:
 * - Made on a thread that waits for it (`huge`): the activating thread's
 *   (hv_collector_prepare at activation) and a thread's that found no spare
 *   (hv_collector_claim). Mapped for huge pages (hv_map_huge: a 4 MiB ring is
 *   two 2 MiB pages and one 4 KiB page for its last bytes), which turns the
 *   1024 slow first writes into three: activation on this VM went from
 *   ~10-25 ms to ~1-3 ms (docs/trace-format.md, "First-touch cost"). A huge
 *   page the host never backed costs more (~15-20 ms here, the host's own
 *   first writes of its 512 4 KiB pages), but no more than the same memory in
 *   4 KiB pages would. Where huge pages are refused (THP "never", none free)
 *   the touch pays for 4 KiB pages as before.
 * - A spare made by the writer thread a slice at a time between its drain
 *   passes (hv_collector_prepare_step): 4 KiB pages, because one huge page's
 *   first write cannot be cut into slices, and the ~15-20 ms of one the host
 *   never backed would hold the writer off the rings for most of their span.
 * A thread that claims a ring on its own (no spare ready) does not touch
 * a 4 KiB ring: that would take the first lap's cost as one stall. */
static void *ring_map(uint64_t bytes, int huge)
{
    size_t len = hv_ring_footprint(bytes);
    if (!huge) {
        void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        return mem == MAP_FAILED ? NULL : mem;
    }
    void *mem = hv_map_huge(len);
    /* Kernels before 5.14 have no MADV_POPULATE_WRITE: writing a byte per
     * page populates the same way (what MAP_POPULATE did). */
    if (mem && madvise(mem, len, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
        hv_touch_pages(mem, 0, len);
    return mem;
}

static struct hv_ring *ring_new(uint64_t bytes, uint32_t tid, int touch)
{
    void *mem = ring_map(bytes, 1);
    if (!mem)
        return NULL;
    if (touch)
        hv_touch_pages(mem, 0, hv_ring_footprint(bytes));
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

/* Gives a FREE private ring a slot; 0 when no slot is left (the ring is
 * unmapped), 1 when published. */
static int publish_spare(struct hv_collector *c, struct hv_ring *r)
{
    /* FREE before it is published: a claiming thread CASes FREE -> LIVE,
     * so exactly one thread gets it, as with a recycled ring. */
    atomic_store_explicit(&r->state, HV_RING_FREE, memory_order_relaxed);
    uint32_t slot = atomic_fetch_add_explicit(&c->nrings, 1, memory_order_acq_rel);
    if (slot >= HV_MAX_RINGS) {
        atomic_fetch_sub_explicit(&c->nrings, 1, memory_order_acq_rel);
        munmap(r, hv_ring_footprint(r->capacity));
        return 0;
    }
    /* Release: the ring's initialised header and touched pages are visible
     * to the thread whose acquire load of the slot finds it. */
    atomic_store_explicit(&c->rings[slot], r, memory_order_release);
    return 1;
}

static int spare_wanted(struct hv_collector *c)
{
    uint32_t n = atomic_load_explicit(&c->nrings, memory_order_acquire);
    return n < HV_MAX_RINGS - 1 && !hv_collector_spare(c);
}

int hv_collector_prepare(struct hv_collector *c)
{
    if (!spare_wanted(c))
        return 0;
    /* A private ring is made before it gets a slot. A shared segment's ring
     * lives at its slot's offset, so there the slot comes first and stays
     * NULL (skipped by everyone) until the ring is written, as in a claim;
     * the allocator leaves it FREE. */
    if (!c->ring_alloc) {
        struct hv_ring *r = ring_new(c->ring_bytes, 0, 1);
        return r ? publish_spare(c, r) : -1;
    }
    uint32_t slot = atomic_fetch_add_explicit(&c->nrings, 1, memory_order_acq_rel);
    if (slot >= HV_MAX_RINGS) {
        atomic_fetch_sub_explicit(&c->nrings, 1, memory_order_acq_rel);
        return 0;
    }
    struct hv_ring *r = c->ring_alloc(c->ring_alloc_ctx, slot, c->ring_bytes, 0, 1);
    if (!r)
        return -1;
    atomic_store_explicit(&c->rings[slot], r, memory_order_release);
    return 1;
}

/* Pages written per clock read in a step: a read costs ~20-50 ns, a page
 * write 0.1 us (bare metal) to 7-100 us (this VM, quiet to loaded). */
#define PREP_PAGES_PER_LOOK 8u

int hv_collector_prepare_step(struct hv_collector *c, struct hv_ring_prep *p, uint64_t budget_ns)
{
    if (c->ring_alloc)
        return hv_collector_prepare(c);
    if (!p->mem) {
        if (!spare_wanted(c))
            return 0;
        if (!(p->mem = ring_map(c->ring_bytes, 0)))
            return -1;
        p->len = hv_ring_footprint(c->ring_bytes);
        p->done = 0;
    }
    uint64_t until = hv_mono_ns() + budget_ns;
    do {
        size_t to = p->done + PREP_PAGES_PER_LOOK * HV_PAGE_BYTES;
        hv_touch_pages(p->mem, p->done, to < p->len ? to : p->len);
        p->done = to < p->len ? to : p->len;
    } while (p->done < p->len && hv_mono_ns() < until);
    if (p->done < p->len)
        return 0;
    struct hv_ring *r = hv_ring_init(p->mem, c->ring_bytes, 0);
    p->mem = NULL;
    return publish_spare(c, r);
}

void hv_ring_prep_discard(struct hv_ring_prep *p)
{
    if (p->mem)
        munmap(p->mem, p->len);
    p->mem = NULL;
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
        r->limit = 0;   /* the next reserve looks at the tail again */
        atomic_store_explicit(&r->made, 0, memory_order_relaxed);
        atomic_store_explicit(&r->calls, 0, memory_order_relaxed);
        for (int k = 0; k < HV_DROP__COUNT; k++)
            atomic_store_explicit(&r->dropped[k], 0, memory_order_relaxed);
        atomic_store_explicit(&r->state, r == self ? HV_RING_LIVE : HV_RING_FREE, memory_order_relaxed);
    }
}
