/*
 * engine_join: a replay meets the writer history.
 *
 * For every last-writer segment the replayed exec reads, whose write the
 * host has not observed complete, each overlap rule is asked whether it
 * applies to that writer; if so it emits one finding per argument range of
 * the exec that reads the segment. Completed writers met on the way are
 * pruned: once the host has seen a write finish, everything it issues later
 * is ordered after it, so no rule can need it again. That keeps the history
 * at "writes in flight" plus written buffers nobody replayed since.
 *
 * The memo: a decode loop repeats the same (writer site, segment, exec,
 * stream) combination every step, and a big graph has tens of nodes reading
 * the same buffer. The first time, the findings are built and their group
 * indexes remembered; afterwards a repeat only bumps the memo entry's hit
 * count, added to the groups at hv_engine_memo_flush() (end of trace, or on
 * request): O(1) per repeat however many nodes read the buffer. Valid because `overlap_applies` depends
 * only on the writer and the replay, and the exec site changes whenever its
 * argument ranges are rebuilt.
 *
 * Cost per replay: O(W_span * log A + hits), W_span the writer segments
 * inside the exec's address span. When the writer map is larger than the
 * exec's range list, the walk goes range by range instead (seeking the
 * treap), without the memo.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/engine_int.h"
#include "common/grow.h"

#define MEMO_MAX_ENTRIES (1u << 20)  /* then start over: bounded memory, only speed is lost */

/* The bytes of segment s that range rg reads: their intersection, narrowed
 * to the rows of a tall strided write. 0 when they share no written byte. */
static int overlap_of(const struct hv_arange *rg, const struct hv_imap_seg *s, uint64_t *lo, uint64_t *hi)
{
    *lo = rg->lo > s->lo ? rg->lo : s->lo;
    *hi = rg->hi < s->hi ? rg->hi : s->hi;
    return hv_writer_rows(s->val, lo, hi);
}

static void emit_one(struct hv_engine *e, const struct hv_rule *r, const struct hv_replay_ctx *rp,
                     const struct hv_arange *rg, const struct hv_imap_seg *s)
{
    uint64_t lo, hi;
    if (overlap_of(rg, s, &lo, &hi))
        r->on_overlap(&e->m, rp, rg, lo, hi, s->val);
}

void hv_engine_memo_flush(struct hv_engine *e)
{
    struct hv_findings *out = e->m.out;
    for (uint32_t i = 0; i < e->nmemo; i++) {
        struct hv_memo_entry *me = &e->memo_ent[i];
        if (!me->hits)
            continue;
        for (uint32_t k = 0; k < me->n; k++) {
            struct hv_group *g = &out->groups[e->memo_groups[me->first + k]];
            g->count += me->hits;
            if (me->last_b > g->last_seq) {
                g->last_seq = me->last_b;
                g->last_a_seq = me->last_a;
            }
        }
        out->total += me->hits * me->n;
        me->hits = 0;
    }
}

static void memo_reset(struct hv_engine *e)
{
    hv_engine_memo_flush(e);
    hv_u64map_free(&e->memo);
    e->nmemo = 0;
    e->nmemo_groups = 0;
    e->memo_gen++;
}

static int memo_push_group(struct hv_engine *e, uint32_t g)
{
    if (!HV_GROW(e->memo_groups, e->nmemo_groups, e->capmemo_groups, 256))
        return -1;
    e->memo_groups[e->nmemo_groups++] = g;
    return 0;
}

/* The new entry's index, or HV_U64MAP_NONE out of memory. */
static uint32_t memo_add(struct hv_engine *e, uint64_t key, uint32_t first, uint32_t n)
{
    if (!HV_GROW(e->memo_ent, e->nmemo, e->capmemo, 64))
        return HV_U64MAP_NONE;
    if (hv_u64map_put(&e->memo, key, e->nmemo) != 0)
        return HV_U64MAP_NONE;
    struct hv_memo_entry *me = &e->memo_ent[e->nmemo];
    me->first = first;
    me->n = n;
    me->hits = 0;
    me->last_a = me->last_b = 0;
    return e->nmemo++;
}

/* A repeat: counted lazily, O(1) however many nodes read the buffer. */
static void memo_hit(struct hv_engine *e, uint32_t mi, const struct hv_writer *w, const struct hv_replay_ctx *rp)
{
    struct hv_memo_entry *me = &e->memo_ent[mi];
    me->hits++;
    me->last_a = w->seq;
    me->last_b = rp->r.seq;
}

/* The memo key of (writer site, segment, replay site) without the rule:
 * one per segment, whatever the number of rules that apply to it. */
static uint64_t memo_base(const struct hv_replay_ctx *rp, const struct hv_imap_seg *s)
{
    const struct hv_writer *w = s->val;
    return hv_mix64(hv_mix64(hv_mix64(w->site ^ s->lo) ^ s->hi) ^ rp->site);
}

/* The findings of one rule for one (replay, writer segment); `base` is
 * memo_base(rp, s) when the memo is on. Returns the memo entry that now
 * stands for them (HV_U64MAP_NONE: none, or no memo). */
static uint32_t segment_rule(struct hv_engine *e, const struct hv_rule *r, const struct hv_replay_ctx *rp,
                             const struct hv_exec *x, const struct hv_imap_seg *s, uint64_t base)
{
    uint64_t key = 0;
    if (e->memo_on) {
        key = base + r->id;
        uint32_t mi = hv_u64map_get(&e->memo, key);
        if (mi != HV_U64MAP_NONE) {
            memo_hit(e, mi, s->val, rp);
            return mi;
        }
        if (e->nmemo >= MEMO_MAX_ENTRIES)
            memo_reset(e);
    }
    size_t first = e->nmemo_groups;
    int complete = 1;
    for (uint32_t i = hv_exec_first_overlap(x, s->lo); i < x->nranges && x->ranges[i].lo < s->hi; i++) {
        const struct hv_arange *rg = &x->ranges[i];
        uint64_t lo, hi;
        if (rg->hi <= s->lo || !hv_access_reads(rg->access) || !overlap_of(rg, s, &lo, &hi))
            continue;
        e->m.last_group = SIZE_MAX;
        emit_one(e, r, rp, rg, s);
        if (!e->memo_on || e->m.last_group == HV_RULE_DECLINED)
            continue;  /* declined: nothing to count on a repeat either */
        if (e->m.last_group == SIZE_MAX || memo_push_group(e, (uint32_t)e->m.last_group) != 0)
            complete = 0;
    }
    if (!e->memo_on)
        return HV_U64MAP_NONE;
    if (complete)
        return memo_add(e, key, (uint32_t)first, (uint32_t)(e->nmemo_groups - first));
    e->nmemo_groups = first;
    return HV_U64MAP_NONE;
}

/* The join cache: for the first JC_SEGS segments of an exec's walk, the
 * segment and replay site last seen there and, per overlap rule, the memo
 * entry that (lo, hi, writer site, replay site, rule) maps to: exactly
 * what the memo lookup would answer (its key is a function of these), for
 * as long as the memo does not start over (gen). A decode loop's replay
 * then counts its repeats without hashing. */
#define JC_SEGS 2u
struct hv_join_cache {
    struct hv_jc_seg {
        uint64_t lo, hi, wsite, rpsite;
        uint32_t gen;
        uint32_t mi[HV_RULE__COUNT];     /* by position in overlap_rules */
    } seg[JC_SEGS];
};

/* Segment slot `ord` of exec x's cache, reset unless it describes (s, rp);
 * NULL when the cache cannot grow (the walk then hashes). */
static struct hv_jc_seg *jc_seg(struct hv_engine *e, const struct hv_replay_ctx *rp, uint32_t ord,
                                const struct hv_imap_seg *s)
{
    if (!HV_GROW_ZERO(e->jc, (size_t)rp->exec + 1, e->capjc, 8))  /* hi 0: matches no segment */
        return NULL;
    struct hv_jc_seg *c = &e->jc[rp->exec].seg[ord];
    const struct hv_writer *w = s->val;
    if (c->lo != s->lo || c->hi != s->hi || c->wsite != w->site || c->rpsite != rp->site || c->gen != e->memo_gen) {
        c->lo = s->lo;
        c->hi = s->hi;
        c->wsite = w->site;
        c->rpsite = rp->site;
        c->gen = e->memo_gen;
        for (int k = 0; k < e->n_overlap; k++)
            c->mi[k] = HV_U64MAP_NONE;
    }
    return c;
}

void hv_engine_join_free(struct hv_engine *e)
{
    free(e->jc);
    e->jc = NULL;
    e->capjc = 0;
}

/* Does overlap rule k apply to writer w? `same`: w ran on the replay's
 * stream. The rules that declare their writers (overlap_writers) are
 * answered here without a call. */
static inline int rule_applies(const struct hv_engine *e, int k, const struct hv_replay_ctx *rp,
                               const struct hv_writer *w, int same)
{
    const struct hv_rule *r = e->overlap_rules[k];
    switch (r->overlap_writers) {
    case HV_OVERLAP_SAME_STREAM:
        return same;
    case HV_OVERLAP_UNORDERED:
        return !same && !hv_ordered(&e->m, w->stream, w->stream_id, w->seq, rp->r.stream);
    default:
        return !r->overlap_applies || r->overlap_applies(&e->m, rp, w);
    }
}

static inline int same_stream(const struct hv_replay_ctx *rp, const struct hv_writer *w)
{
    return w->stream == rp->r.stream && w->stream_id == rp->r.stream_id;
}

static void walk_writers(struct hv_engine *e, const struct hv_replay_ctx *rp, const struct hv_exec *x)
{
    struct hv_model *m = &e->m;
    struct hv_imap_seg s;
    uint64_t end = x->maxhi[x->nranges - 1];
    uint32_t ord = 0;
    int ok = hv_imap_seek(&m->writers, x->ranges[0].lo, &s);
    while (ok && s.lo < end) {
        if (hv_engine_prune_writer(m, &s)) {
            ok = hv_imap_seek(&m->writers, s.hi, &s);
            continue;
        }
        struct hv_jc_seg *c = e->memo_on && ord < JC_SEGS ? jc_seg(e, rp, ord, &s) : NULL;
        ord++;
        uint64_t base = 0;
        int have_base = 0, same = same_stream(rp, s.val);
        /* Rules do not mutate the writer map, so s.val stays valid (and
         * s's successor with it). */
        for (int k = 0; k < e->n_overlap; k++) {
            if (!rule_applies(e, k, rp, s.val, same))
                continue;
            const struct hv_rule *r = e->overlap_rules[k];
            if (c && c->mi[k] != HV_U64MAP_NONE) {
                memo_hit(e, c->mi[k], s.val, rp);
                continue;
            }
            if (e->memo_on && !have_base) {
                base = memo_base(rp, &s);
                have_base = 1;
            }
            uint32_t mi = segment_rule(e, r, rp, x, &s, base);
            if (c) {
                if (c->gen != e->memo_gen) {
                    /* The memo started over: what the slot knew is gone. */
                    for (int j = 0; j < e->n_overlap; j++)
                        c->mi[j] = HV_U64MAP_NONE;
                    c->gen = e->memo_gen;
                }
                c->mi[k] = mi;
            }
        }
        ok = hv_imap_next(&m->writers, &s);
    }
}

static void walk_ranges(struct hv_engine *e, const struct hv_replay_ctx *rp, const struct hv_exec *x)
{
    struct hv_model *m = &e->m;
    for (uint32_t i = 0; i < x->nranges; i++) {
        const struct hv_arange *rg = &x->ranges[i];
        if (!hv_access_reads(rg->access))
            continue;
        struct hv_imap_seg s;
        int ok = hv_imap_seek(&m->writers, rg->lo, &s);
        while (ok && s.lo < rg->hi) {
            if (hv_engine_prune_writer(m, &s)) {
                ok = hv_imap_seek(&m->writers, s.hi, &s);
                continue;
            }
            int same = same_stream(rp, s.val);
            for (int k = 0; k < e->n_overlap; k++)
                if (rule_applies(e, k, rp, s.val, same))
                    emit_one(e, e->overlap_rules[k], rp, rg, &s);
            ok = hv_imap_next(&m->writers, &s);
        }
    }
}

void hv_engine_join(struct hv_engine *e, const struct hv_replay_ctx *rp)
{
    const struct hv_exec *x = &e->m.execs[rp->exec];
    if (hv_imap_count(&e->m.writers) == 0)
        return;
    if (hv_imap_count(&e->m.writers) <= 4u * x->nranges)
        walk_writers(e, rp, x);
    else
        walk_ranges(e, rp, x);
}
