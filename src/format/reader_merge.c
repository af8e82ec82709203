/*
 * Merging per-thread sequences (reader_merge.h).
 *
 * Push side, in file order: a thread's records reach the file in the order
 * the thread made them (each thread has its own ring, drained FIFO), so the
 * arrival count within the thread is its program order. A call is keyed by
 * its timestamp (kept monotone per thread, so a recalibrated clock cannot
 * reorder a thread's own calls); every other record of the thread takes its
 * latest call's timestamp, so it stays right behind that call whatever its
 * own stamp says. The window then orders by (timestamp, tid, arrival).
 *
 * Delivery side, in merged order: each call gets the next global seq and is
 * remembered per thread (tseq -> global) for the references that follow.
 */
#include <stdlib.h>
#include <string.h>

#include "format/reader_merge.h"
#include "common/grow.h"

#define RECENT_MIN 64u

struct hv_merge_thread *hv_merge_thread_slow(struct hv_merge *m, uint32_t tid, uint32_t *cache_tid,
                                             uint32_t *cache_idx)
{
    if (m->n && *cache_tid == tid)
        return &m->thr[*cache_idx];
    uint32_t i = hv_u64map_get(&m->tids, tid);
    if (i == HV_U64MAP_NONE) {
        if (!HV_GROW(m->thr, m->n, m->cap, 16))
            return NULL;
        i = m->n;
        if (hv_u64map_put(&m->tids, tid, i) < 0)
            return NULL;
        m->n++;
        memset(&m->thr[i], 0, sizeof m->thr[i]);
        m->thr[i].tid = tid;
    }
    *cache_tid = tid;
    *cache_idx = i;
    return &m->thr[i];
}

/* A thread's recent-call table grows with its calls up to HV_MERGE_RECENT,
 * so a trace of many short-lived threads stays small. */
static void remember(struct hv_merge *m, struct hv_merge_thread *t, uint64_t tseq, uint64_t g)
{
    uint32_t cap = hv_merge_recent_cap(t);
    uint64_t calls = t->last_g ? t->expect : 1;   /* roughly the thread's calls so far */
    if (cap < HV_MERGE_RECENT && (cap == 0 || calls >= cap)) {
        uint32_t ncap = cap ? cap * 2 : RECENT_MIN;
        uint64_t *nr = calloc(2 + 2 * (size_t)ncap, sizeof *nr);
        if (nr) {
            nr[0] = ncap;
            struct hv_merge_pair *np = (struct hv_merge_pair *)(void *)(nr + 2);
            if (t->recent) {
                struct hv_merge_pair *op = hv_merge_pairs(t);
                for (uint32_t i = 0; i < cap; i++)
                    if (op[i].tseq)
                        np[op[i].tseq & (ncap - 1)] = op[i];
                free(t->recent);
            }
            t->recent = nr;
            cap = ncap;
        } else if (!cap) {
            m->unresolved++;   /* no table: later references to this call cannot resolve */
            return;
        }
    }
    hv_merge_pairs(t)[tseq & (cap - 1)] = (struct hv_merge_pair){tseq, g};
}

static void note_gap(struct hv_merge *m, uint32_t tid, uint64_t first, uint64_t last)
{
    m->gaps++;
    m->missing += last - first + 1;
    if (m->nlisted < HV_READER_GAPS_LISTED)
        m->listed[m->nlisted++] = (struct hv_seq_gap){tid, first, last};
}

static void deliver_call(struct hv_merge *m, struct hv_merge_thread *t, struct hv_call *c)
{
    uint64_t tseq = c->h.seq;
    if (tseq < t->expect && tseq <= 1) {
        /* The tid was reused by a new thread (numbering starts again): its
         * references are its own. */
        if (t->recent)
            memset(hv_merge_pairs(t), 0, (size_t)hv_merge_recent_cap(t) * sizeof(struct hv_merge_pair));
        t->expect = 0;
    }
    if (tseq > (t->expect ? t->expect : 1))
        note_gap(m, t->tid, t->expect ? t->expect : 1, tseq - 1);
    if (tseq >= t->expect)
        t->expect = tseq + 1;
    uint64_t g = ++m->next_g;
    t->last_g = g;
    remember(m, t, tseq, g);
    c->h.seq = g;
    switch (hv_api_op(c->api)) {
    case HV_OP_SYNC:
        c->a.sync.completed_seq = hv_merge_translate(m, t, c->a.sync.completed_seq);
        break;
    case HV_OP_EVENT:
        c->a.event.record_seq = hv_merge_translate(m, t, c->a.event.record_seq);
        break;
    default:
        break;
    }
}

void hv_merge_deliver_slow(struct hv_merge *m, struct hv_rec_header *rec)
{
    if (!m->refs_ready) {
        for (uint32_t api = 0; api < HV_API__MAX; api++) {
            enum hv_op op = hv_api_op((uint16_t)api);
            m->ref_kind[api] = op == HV_OP_SYNC ? HV_MERGE_REF_SYNC : op == HV_OP_EVENT ? HV_MERGE_REF_EVENT
                                                                                       : HV_MERGE_REF_NONE;
        }
        m->refs_ready = 1;
    }
    struct hv_merge_thread *t = m->n && m->del_tid == rec->tid
                                    ? &m->thr[m->del_idx]
                                    : hv_merge_thread_slow(m, rec->tid, &m->del_tid, &m->del_idx);
    if (!t) {
        m->unresolved++;
        return;
    }
    if (rec->type == HV_REC_CALL) {
        deliver_call(m, t, (struct hv_call *)rec);
        return;
    }
    if (rec->seq) {
        uint64_t g = hv_merge_translate(m, t, rec->seq);
        /* Its call never arrived: keep it in place (the latest number) rather
         * than give it a number from the past. */
        rec->seq = g ? g : m->next_g;
    }
    switch (rec->type) {
    case HV_REC_EPOCH: {
        struct hv_epoch *e = (struct hv_epoch *)rec;
        e->completed_seq = hv_merge_translate(m, t, e->completed_seq);
        break;
    }
    case HV_REC_GUARD: {
        struct hv_guard *gd = (struct hv_guard *)rec;
        gd->copy_seq = hv_merge_translate(m, t, gd->copy_seq);
        gd->completed_seq = hv_merge_translate(m, t, gd->completed_seq);
        break;
    }
    case HV_REC_PROBE: {
        struct hv_probe *p = (struct hv_probe *)rec;
        p->copy_seq = hv_merge_translate(m, t, p->copy_seq);
        p->replay_seq = hv_merge_translate(m, t, p->replay_seq);
        break;
    }
    default:
        break;
    }
}

void hv_merge_free(struct hv_merge *m)
{
    for (uint32_t i = 0; i < m->n; i++)
        free(m->thr[i].recent);
    free(m->thr);
    hv_u64map_free(&m->tids);
    memset(m, 0, sizeof *m);
}
