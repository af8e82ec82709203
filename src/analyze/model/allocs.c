/*
 * allocs: the allocation map and what a release invalidates.
 *
 * Allocations are kept because (1) a kernel argument's extent is bounded by
 * the allocation it points into, (2) a release kills the writer history of
 * its range (the bytes are gone), and (3) graph arguments captured into a
 * since-released allocation are exactly what stale-capture-pointer reports.
 */
#include "analyze/model/model.h"

int hv_alloc_find(const struct hv_model *m, uint64_t addr, struct hv_imap_seg *seg)
{
    return hv_imap_find(&m->allocs, addr, seg);
}

/* Marks ranges of every live exec that were captured in allocation
 * [base, end) of generation gen as stale: released at (seq, api). */
static void mark_stale(struct hv_model *m, uint64_t base, uint64_t end, uint64_t gen, uint64_t seq, uint16_t api)
{
    for (uint32_t xi = 0; xi < m->nexecs; xi++) {
        struct hv_exec *x = &m->execs[xi];
        if (!x->live || x->nranges == 0)
            continue;
        for (uint32_t i = hv_exec_first_overlap(x, base); i < x->nranges && x->ranges[i].lo < end; i++) {
            struct hv_arange *r = &x->ranges[i];
            if (r->hi <= base || r->alloc_gen != gen || r->stale_seq)
                continue;
            r->stale_seq = seq;
            r->stale_api = api;
            x->nstale++;
        }
    }
}

static void release_seg(struct hv_model *m, uint64_t lo, uint64_t hi, const struct hv_alloc *a, uint64_t seq,
                        uint16_t api)
{
    uint64_t gen = a->gen;
    hv_imap_erase(&m->allocs, lo, hi);
    hv_imap_erase(&m->writers, lo, hi);
    mark_stale(m, lo, hi, gen, seq, api);
}

void hv_alloc_add(struct hv_model *m, uint64_t ptr, uint64_t bytes, uint8_t mem, uint64_t seq, uint16_t api)
{
    if (bytes == 0 || ptr + bytes < ptr)
        return;
    /* An allocation over live ones means their release was not traced (a
     * pool, or tracing started late): treat them as released now. */
    struct hv_imap_seg s;
    while (hv_imap_seek(&m->allocs, ptr, &s) && s.lo < ptr + bytes) {
        struct hv_alloc old = *(const struct hv_alloc *)s.val;
        release_seg(m, s.lo, s.hi, &old, seq, api);
    }
    struct hv_alloc *a = hv_imap_assign(&m->allocs, ptr, ptr + bytes);
    if (!a) {
        m->oom = 1;
        return;
    }
    a->seq = seq;
    a->gen = ++m->alloc_gen;
    a->api = api;
    a->mem = mem;
    if (m->sum && hv_imap_count(&m->allocs) > m->sum->peak_allocs)
        m->sum->peak_allocs = hv_imap_count(&m->allocs);
}

void hv_alloc_release(struct hv_model *m, uint64_t ptr, uint64_t seq, uint16_t api)
{
    struct hv_imap_seg s;
    if (!hv_imap_find(&m->allocs, ptr, &s))
        return;   /* unknown pointer: allocated before tracing, nothing to invalidate */
    struct hv_alloc old = *(const struct hv_alloc *)s.val;
    release_seg(m, s.lo, s.hi, &old, seq, api);
}
