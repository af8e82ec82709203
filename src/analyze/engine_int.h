/* Engine internals shared by engine*.c; not part of the engine API. */
#ifndef HV_ANALYZE_ENGINE_INT_H
#define HV_ANALYZE_ENGINE_INT_H

#include "analyze/coverage.h"
#include "analyze/engine.h"
#include "hipvis/api.h"

/* What a call does beyond its op class: enum hv_api_kind (hipvis/api.h, hv_api_kind). */

/* What the engine does with a successful call, from its op and kind: the
 * stream-ordered classes (every record of a serving loop but a few) are
 * dispatched with one table load. */
enum hv_call_class {
    HV_C_OTHER = 0,              /* not stream-ordered: graph setup, syncs, allocations... */
    HV_C_COPY, HV_C_MEMSET, HV_C_LAUNCH, HV_C_MEMOP, HV_C_REPLAY, HV_C_EVENT_RECORD, HV_C_STREAM_WAIT,
};

struct hv_engine {
    struct hv_model m;
    struct hv_trace_summary sum;
    struct hv_engine_options opt;
    struct hv_engine_observer obs;
    /* Enabled rules by hook, so the hot path loops only over what applies. */
    const struct hv_rule *overlap_rules[HV_RULE__COUNT], *replay_rules[HV_RULE__COUNT],
        *write_rules[HV_RULE__COUNT], *finish_rules[HV_RULE__COUNT], *read_rules[HV_RULE__COUNT],
        *aux_rules[HV_RULE__COUNT];
    int n_overlap, n_replay, n_write, n_finish, n_read, n_aux;
    /* The last call: auxiliary records (KARGS of an eager launch) attach to it.
     * Stored on every call just before the tables below are read by api id:
     * it sits right before them so no table entry of a low (common) api id
     * is 4 KiB apart from a byte of it. At 4 KiB apart a load looks to the
     * core as if it depended on the pending store and waits for it (4K
     * aliasing: it was the engine's hottest stall, at cls[api]). */
    int cur_ok;                  /* succeeded, not captured, modelled */
    uint32_t cur_stream;
    /* The last call: &cur, or the fed record itself while the driver keeps
     * records readable (hv_engine_records_stable, hv_engine_keep). */
    const struct hv_call *curp;
    int stable;
    struct hv_call cur;
    uint8_t op[HV_API__MAX];
    uint8_t kind[HV_API__MAX];
    uint8_t cls[HV_API__MAX];    /* enum hv_call_class */
    /* Exec whose inventory records are arriving (under seq building_seq). */
    uint32_t building;
    /* By a few bits of an exec handle, the exec index a replay of it found
     * last: a loop replays the same few execs, so most skip the hash. */
    uint32_t replay_hint[8];
    uint64_t building_seq;
    int building_fresh;          /* an ExecUpdate: the first node record restarts the inventory */
    /* Join memo (engine_join.c): (rule, writer site, segment, replay site)
     * -> the groups that combination produced, so a repeat only counts. */
    struct hv_u64map memo;
    struct hv_memo_entry {
        uint32_t first, n;           /* groups in memo_groups[first..first+n) */
        uint64_t hits;               /* repeats not yet added to the groups' counts */
        uint64_t last_a, last_b;     /* seqs of the latest repeat */
    } *memo_ent;
    uint32_t nmemo, capmemo;
    uint32_t *memo_groups;
    size_t nmemo_groups, capmemo_groups;
    int memo_on;
    uint32_t memo_gen;               /* bumped when the memo starts over */
    /* Per exec index: the memo entries the first segments of its last
     * walks hit, so a loop's repeat finds them without hashing
     * (engine_join.c). */
    struct hv_join_cache *jc;
    uint32_t capjc;
    /* Stream memory operations (engine_memop.c): the last value written by
     * a write-value to each address, for the waits that read it. */
    struct hv_u64map sig_ix;
    struct hv_signal { uint64_t addr, value; } *sig;
    uint32_t nsig, capsig;
    /* HV_REC_DROPS: cumulative per thread, so keep the last per tid. */
    struct hv_u64map drop_ix;
    uint64_t *drops;
    uint32_t ndrops, capdrops;
};

/* engine.c: every record but a call. */
void hv_engine_feed_other(struct hv_engine *e, const struct hv_rec_header *rec);
void hv_engine_eager_kargs(struct hv_engine *e, const struct hv_kargs *k, const struct hv_karg *args);
void hv_engine_end_building(struct hv_engine *e);
/* engine_join.c: the replay meets the writer history. */
void hv_engine_join(struct hv_engine *e, const struct hv_replay_ctx *rp);
/* Erases a writer segment the host has observed complete; 1 when it did
 * (the caller must re-seek). Inline: every walk asks it of every segment,
 * and most are still in flight. */
static inline int hv_engine_prune_writer(struct hv_model *m, const struct hv_imap_seg *s)
{
    const struct hv_writer *w = s->val;
    if (!hv_complete(m, w->stream, w->stream_id, w->seq))
        return 0;
    hv_imap_erase(&m->writers, s->lo, s->hi);
    return 1;
}
/* engine_reads.c: an eager launch's read arguments meet the writer history. */
void hv_engine_eager_reads(struct hv_engine *e, const struct hv_kargs *k, const struct hv_karg *args);
/* engine_memop.c: a write-value (a write and a signal) or a wait-value (an
 * edge from the latest satisfying signal) on stream s. */
void hv_engine_memop(struct hv_engine *e, const struct hv_call *c, uint32_t s);
void hv_engine_memop_free(struct hv_engine *e);
/* engine_calls.c: a write of [lo, hi) through the write rules into the writer map. */
void hv_engine_write(struct hv_engine *e, uint64_t lo, uint64_t hi, const struct hv_writer *w);
void hv_engine_writer_base(struct hv_writer *w, const struct hv_call *c, uint32_t s, const struct hv_model *m);
/* Adds counted-but-deferred repeats to their groups. */
void hv_engine_memo_flush(struct hv_engine *e);
void hv_engine_join_free(struct hv_engine *e);

/* What hv_engine_feed does with every record before its dispatch; 0 when
 * the record goes no further (too short to have a type). */
static inline int hv_engine_feed_head(struct hv_engine *e, const struct hv_rec_header *rec)
{
    if (rec->size < sizeof *rec)
        return 0;
    e->sum.records++;
    if (e->building != HV_NO_INDEX && rec->seq != e->building_seq)
        hv_engine_end_building(e);
    if (rec->ts_ns) {
        if (!e->sum.first_ts)
            e->sum.first_ts = rec->ts_ns;
        e->sum.last_ts = rec->ts_ns;
    }
    if (rec->seq > e->sum.last_seq)
        e->sum.last_seq = rec->seq;
    return 1;
}

/* The api id comes from the trace: an id beyond the table (a newer tracer,
 * a damaged record) is an api the engine does not model. */
static inline uint8_t hv_engine_op(const struct hv_engine *e, uint32_t api)
{
    return api < HV_API__MAX ? e->op[api] : HV_OP_OTHER;
}

static inline uint8_t hv_engine_kind(const struct hv_engine *e, uint32_t api)
{
    return api < HV_API__MAX ? e->kind[api] : HV_K_NONE;
}

static inline uint8_t hv_engine_class(const struct hv_engine *e, uint32_t api)
{
    return api < HV_API__MAX ? e->cls[api] : HV_C_OTHER;
}

#endif
