/*
 * The reorder window (internal): yields the smallest (seq, arrival order) of
 * the records it holds, i.e. exactly what a binary min-heap would, but
 * cheaply for the shapes traces actually have.
 *
 * The writer thread drains per-thread rings one after another, so the file is
 * a concatenation of sorted runs (one per ring drain), and a single-threaded
 * program gives one endless sorted run. The window therefore keeps up to
 * HV_REORDER_RUNS sorted FIFO runs (a record joins a run whose last seq is
 * <= its own, best fit first) and a binary heap only for records that fit no
 * run. Push and pop are O(1) on sorted input (one run, empty heap); the
 * minimum is always exact, so the output equals the heap's.
 */
#ifndef HV_FORMAT_REORDER_H
#define HV_FORMAT_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"

struct hv_ent {
    uint64_t seq;                       /* primary key: seq (v1), timestamp (per-thread seq) */
    uint64_t ord;                       /* secondary key: arrival order, so equal seqs keep file order */
    const struct hv_rec_header *rec;
    uint32_t slot;                      /* owner's tag (the reader's chunk buffer) */
    uint16_t bytes;                     /* rec->size, for the owner's byte accounting */
    uint16_t flags;                     /* owner's, e.g. "needs a fix-up on delivery" */
};

#define HV_REORDER_RUNS 8
#define HV_REORDER_PREFETCH 8          /* pops ahead a record is prefetched */

struct hv_run {
    struct hv_ent *v;
    uint32_t cap;                       /* power of two, 0 before first use */
    uint32_t head, n;
};

/* (seq, ord) as one inverted 128-bit key: the smallest entry has the largest
 * key, so an all-zero (empty) slot never wins, and a zeroed struct hv_reorder
 * is a valid empty window. Comparing one integer keeps the minimum search
 * over the runs free of unpredictable branches. */
typedef unsigned __int128 hv_ikey;
static inline hv_ikey hv_ent_ikey(const struct hv_ent *e) { return ~(((hv_ikey)e->seq << 64) | e->ord); }

struct hv_reorder {
    hv_ikey head_key[HV_REORDER_RUNS];  /* key of each run's head, 0 when empty */
    struct hv_run run[HV_REORDER_RUNS];
    unsigned nonempty;                  /* bit i set: run i holds entries */
    unsigned hint;                      /* the run that took the last push */
    struct hv_ent *heap;
    size_t heap_n, heap_cap;
    size_t count;                       /* entries held, runs + heap */
};

int hv_reorder_push_slow(struct hv_reorder *q, const struct hv_ent *e);
void hv_reorder_pop_slow(struct hv_reorder *q, struct hv_ent *out);
/* Calls fn on every held entry; fn may change rec/slot/flags, not seq/ord. */
void hv_reorder_foreach(struct hv_reorder *q, void (*fn)(struct hv_ent *, void *), void *ctx);
void hv_reorder_free(struct hv_reorder *q);

/* Adds an entry; 0, or -1 out of memory. Entries are ordered by the whole
 * key (seq, ord): v1 traces give seq = call seq and ord = arrival order;
 * per-thread-seq traces give seq = timestamp and ord = (tid, arrival order
 * within the thread), see reader_merge.c. */
static inline int hv_reorder_push(struct hv_reorder *q, const struct hv_ent *e)
{
    struct hv_run *r = &q->run[q->hint];
    /* Fast path: the entry extends the run the previous one joined. */
    if (r->n && r->n < r->cap && hv_ent_ikey(&r->v[(r->head + r->n - 1) & (r->cap - 1)]) >= hv_ent_ikey(e)) {
        r->v[(r->head + r->n) & (r->cap - 1)] = *e;
        r->n++;
        q->count++;
        return 0;
    }
    return hv_reorder_push_slow(q, e);
}

/* hv_reorder_push from the fields: the entry is written straight into its
 * run, field by field, never assembled in memory first (a whole-entry copy
 * of an entry just stored field by field waits for store forwarding). */
static inline int hv_reorder_push4(struct hv_reorder *q, uint64_t seq, uint64_t ord,
                                   const struct hv_rec_header *rec, uint32_t slot, uint16_t bytes, uint16_t flags)
{
    struct hv_run *r = &q->run[q->hint];
    if (r->n && r->n < r->cap) {
        const struct hv_ent *t = &r->v[(r->head + r->n - 1) & (r->cap - 1)];
        if (t->seq < seq || (t->seq == seq && t->ord <= ord)) {
            struct hv_ent *d = &r->v[(r->head + r->n) & (r->cap - 1)];
            d->seq = seq;
            d->ord = ord;
            d->rec = rec;
            d->slot = slot;
            d->bytes = bytes;
            d->flags = flags;
            r->n++;
            q->count++;
            return 0;
        }
    }
    struct hv_ent e = { seq, ord, rec, slot, bytes, flags };
    return hv_reorder_push_slow(q, &e);
}

/* Takes the head of run i. */
static inline void hv_run_pop(struct hv_reorder *q, unsigned i, struct hv_ent *out)
{
    struct hv_run *r = &q->run[i];
    *out = r->v[r->head];
    /* Records leave the window long after they were decoded, so they are out
     * of cache: start fetching the ones a few pops ahead. */
    if (r->n > HV_REORDER_PREFETCH)
        __builtin_prefetch(r->v[(r->head + HV_REORDER_PREFETCH) & (r->cap - 1)].rec);
    r->head = (r->head + 1) & (r->cap - 1);
    if (--r->n) {
        q->head_key[i] = hv_ent_ikey(&r->v[r->head]);
    } else {
        q->head_key[i] = 0;
        q->nonempty &= ~(1u << i);
    }
    q->count--;
}

/* Removes the smallest entry; the window must not be empty. */
static inline void hv_reorder_pop(struct hv_reorder *q, struct hv_ent *out)
{
    /* Fast path: one run and no heap, so the run's head is the minimum. */
    if (!q->heap_n && (q->nonempty & (q->nonempty - 1)) == 0) {
        unsigned i = (unsigned)__builtin_ctz(q->nonempty);
        hv_run_pop(q, i, out);
        return;
    }
    hv_reorder_pop_slow(q, out);
}

#endif
