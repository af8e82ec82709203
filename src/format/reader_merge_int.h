/*
 * Merging per-thread sequences into one order (internal; reader_merge.c).
 *
 * A trace whose header has HV_HDR_THREAD_SEQ numbers calls per thread
 * (1, 2, 3... per tid) and stamps each with an ordered timestamp taken after
 * the call returned. The reader orders records by (timestamp, tid, position
 * in the thread's stream), renumbers calls 1..N in that order (auxiliary
 * records take their call's new number), translates the same-thread seq
 * references records carry, and reports per-thread seq gaps as loss.
 * docs/trace-format.md ("Per-thread sequences") has the argument for why
 * host-ordered calls stay ordered.
 */
#ifndef HV_FORMAT_READER_MERGE_INT_H
#define HV_FORMAT_READER_MERGE_INT_H

#include <stdint.h>

#include "common/u64map.h"
#include "hipvis/api.h"
#include "hipvis/reader.h"
#include "hipvis/trace.h"

/* (per-thread seq -> global seq) of a thread's most recent calls: what
 * same-thread references can be translated through. A reference to a call
 * older than this many calls of its thread is unresolvable (0, counted). */
#define HV_MERGE_RECENT 8192u

struct hv_merge_thread {
    uint32_t tid;
    /* push side (file order) */
    uint64_t call_key;          /* ordering key of the thread's latest call */
    /* delivery side (merged order) */
    uint64_t expect;            /* next per-thread seq expected, 0 before the first call */
    uint64_t last_g;            /* global seq of the thread's latest delivered call */
    uint64_t *recent;           /* HV_MERGE_RECENT pairs (tseq, g), by tseq modulo; lazily allocated */
};

struct hv_merge {
    int on;                     /* the trace has HV_HDR_THREAD_SEQ */
    int refs_ready;             /* ref_kind filled */
    /* Per api: what same-thread reference its calls carry, which the
     * delivery translates (HV_MERGE_REF_*). */
    uint8_t ref_kind[HV_API__MAX];
    struct hv_u64map tids;      /* tid -> index in thr */
    struct hv_merge_thread *thr;
    uint32_t n, cap;
    uint32_t push_tid, push_idx, del_tid, del_idx;   /* one-entry lookup caches */
    uint64_t next_g;            /* global seqs handed out */
    uint64_t unresolved;        /* references (and orphan aux records) whose call was not found */
    uint64_t gaps, missing;     /* per-thread seq gaps and the calls they cover */
    struct hv_seq_gap listed[HV_READER_GAPS_LISTED];
    uint32_t nlisted;
};

#define HV_MERGE_TID_BITS 24u
#define HV_MERGE_ARRIVAL_BITS (64u - HV_MERGE_TID_BITS)

/* The thread's entry, found and cached in (*cache_tid, *cache_idx); NULL out
 * of memory. Out of line: only a change of thread gets here. */
struct hv_merge_thread *hv_merge_thread_slow(struct hv_merge *m, uint32_t tid, uint32_t *cache_tid,
                                             uint32_t *cache_idx);

/* Ordering key for the record pushed next, in file order: *key (timestamp)
 * and *ord (tid, then `idx`, the record's arrival index in the file: within
 * one tid that is the thread's own order, so (key, tid, idx) orders exactly
 * as (key, tid, position in the thread's stream)). -1 out of memory. Inline:
 * it runs once per record, mostly on the thread of the record before. */
static inline uint64_t hv_merge_ord(uint32_t tid, uint64_t idx)
{
    return ((uint64_t)(tid & ((1u << HV_MERGE_TID_BITS) - 1)) << HV_MERGE_ARRIVAL_BITS) |
           (idx & ((1ull << HV_MERGE_ARRIVAL_BITS) - 1));
}
static inline int hv_merge_key(struct hv_merge *m, const struct hv_rec_header *h, uint64_t idx, uint64_t *key,
                               uint64_t *ord)
{
    struct hv_merge_thread *t = m->n && m->push_tid == h->tid
                                    ? &m->thr[m->push_idx]
                                    : hv_merge_thread_slow(m, h->tid, &m->push_tid, &m->push_idx);
    if (!t)
        return -1;
    if (h->type == HV_REC_CALL) {
        t->call_key = h->ts_ns > t->call_key ? h->ts_ns : t->call_key;
        *key = t->call_key;
    } else {
        /* Before the thread's first call there is nothing to stay behind. */
        *key = t->call_key ? t->call_key : h->ts_ns;
    }
    *ord = hv_merge_ord(h->tid, idx);
    return 0;
}

/* Renumbers a record as it is delivered (rec is the reader's own copy):
 * hv_merge_deliver; the out-of-line general case. */
void hv_merge_deliver_slow(struct hv_merge *m, struct hv_rec_header *rec);

/* (tseq, g) pairs of a thread's recent calls, by tseq modulo the capacity;
 * recent[0] holds the capacity (0: no table yet). */
struct hv_merge_pair {
    uint64_t tseq, g;
};
static inline uint32_t hv_merge_recent_cap(const struct hv_merge_thread *t)
{
    return (uint32_t)(t->recent ? t->recent[0] : 0);
}
static inline struct hv_merge_pair *hv_merge_pairs(struct hv_merge_thread *t)
{
    return (struct hv_merge_pair *)(void *)(t->recent + 2);
}

/* Global seq of the thread's call tseq; 0 (and counted) when unknown. */
static inline uint64_t hv_merge_translate(struct hv_merge *m, struct hv_merge_thread *t, uint64_t tseq)
{
    if (!tseq)
        return 0;
    uint32_t cap = hv_merge_recent_cap(t);
    if (cap) {
        const struct hv_merge_pair *p = &hv_merge_pairs(t)[tseq & (cap - 1)];
        if (p->tseq == tseq)
            return p->g;
    }
    m->unresolved++;
    return 0;
}

enum { HV_MERGE_REF_NONE, HV_MERGE_REF_SYNC, HV_MERGE_REF_EVENT };
static inline int hv_merge_ref_kind(const struct hv_merge *m, uint16_t api)
{
    return api < HV_API__MAX ? m->ref_kind[api] : HV_MERGE_REF_NONE;
}

/*
 * Renumbering the records of one thread t as they are delivered, one after
 * another: the thread's numbering state is held here (in registers, in the
 * reader's batch loop) between records, and hv_merge_run_end writes it back.
 * hv_merge_run_deliver does the common cases inline: a call that continues
 * the thread's numbering and needs no table growth, or an auxiliary record
 * (no references of its own besides its call's seq) whose call is in the
 * table. All else goes to hv_merge_deliver_slow, which does the same in
 * general.
 */
struct hv_merge_run {
    struct hv_merge *m;
    struct hv_merge_thread *t;
    struct hv_merge_pair *pairs;    /* t's recent-call table, NULL before it has one */
    uint64_t mask;                  /* its capacity - 1 */
    uint64_t lim;                   /* calls below this seq number inline (0: none) */
    uint64_t next_g, expect, last_g;
};

static inline void hv_merge_run_load(struct hv_merge_run *u, struct hv_merge *m, struct hv_merge_thread *t)
{
    uint32_t cap = hv_merge_recent_cap(t);
    u->m = m;
    u->t = t;
    u->pairs = cap ? hv_merge_pairs(t) : NULL;
    u->mask = (uint64_t)cap - 1;
    /* The table must not need to grow for the call: full size, or room. */
    u->lim = !m->refs_ready || !cap ? 0 : cap == HV_MERGE_RECENT ? UINT64_MAX : (uint64_t)cap - 1;
    u->next_g = m->next_g;
    u->expect = t->expect;
    u->last_g = t->last_g;
}

static inline void hv_merge_run_end(struct hv_merge_run *u)
{
    u->m->next_g = u->next_g;
    u->t->expect = u->expect;
    u->t->last_g = u->last_g;
}

static inline uint64_t hv_merge_run_translate(struct hv_merge_run *u, uint64_t tseq)
{
    if (!tseq)
        return 0;
    const struct hv_merge_pair *p = &u->pairs[tseq & u->mask];
    if (p->tseq == tseq)
        return p->g;
    u->m->unresolved++;
    return 0;
}

static inline __attribute__((always_inline)) void hv_merge_run_deliver(struct hv_merge_run *u,
                                                                      struct hv_rec_header *rec)
{
    uint64_t tseq = rec->seq;
    if (rec->type == HV_REC_CALL) {
        if (tseq == u->expect && tseq && tseq < u->lim) {
            struct hv_call *c = (struct hv_call *)(void *)rec;
            uint64_t g = ++u->next_g;
            u->last_g = g;
            u->expect = tseq + 1;
            u->pairs[tseq & u->mask] = (struct hv_merge_pair){tseq, g};
            rec->seq = g;
            int kind = hv_merge_ref_kind(u->m, c->api);
            if (kind == HV_MERGE_REF_SYNC)
                c->a.sync.completed_seq = hv_merge_run_translate(u, c->a.sync.completed_seq);
            else if (kind == HV_MERGE_REF_EVENT)
                c->a.event.record_seq = hv_merge_run_translate(u, c->a.event.record_seq);
            return;
        }
    } else if (tseq && u->pairs && rec->type != HV_REC_EPOCH && rec->type != HV_REC_GUARD &&
               rec->type != HV_REC_PROBE) {
        const struct hv_merge_pair *p = &u->pairs[tseq & u->mask];
        if (p->tseq == tseq) {
            rec->seq = p->g;
            return;
        }
    }
    hv_merge_run_end(u);
    hv_merge_deliver_slow(u->m, rec);
    hv_merge_run_load(u, u->m, u->t);
}

/* Renumbers one record as it is delivered (rec is the reader's own copy). */
static inline void hv_merge_deliver(struct hv_merge *m, struct hv_rec_header *rec)
{
    if (m->n && m->del_tid == rec->tid) {
        struct hv_merge_run u;
        hv_merge_run_load(&u, m, &m->thr[m->del_idx]);
        hv_merge_run_deliver(&u, rec);
        hv_merge_run_end(&u);
        return;
    }
    hv_merge_deliver_slow(m, rec);
}
void hv_merge_free(struct hv_merge *m);

#endif
