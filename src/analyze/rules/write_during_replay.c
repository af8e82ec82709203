/*
 * write-during-replay: an eager write lands on a range that an earlier
 * replay reads or writes, while that replay is not known complete and
 * nothing orders it before the write (the write is on another stream with
 * no event wait on the replay, and the host has not observed the replay's
 * stream past it). The replay may see the new bytes, or overwrite them.
 *
 * Only each exec's most recent replay is tracked (replays of one exec are
 * serialized by the runtime). Severity: error, whatever the argument's
 * origin (an inferred pointer is marked so; docs/analysis.md).
 */
#include "analyze/rules/rules.h"

static void check_exec(struct hv_model *m, uint32_t xi, const struct hv_write_ctx *wr)
{
    const struct hv_exec *x = &m->execs[xi];
    const struct hv_writer *w = wr->w;
    if (hv_ordered(m, x->last.stream, x->last.stream_id, x->last.seq, w->stream))
        return;
    for (uint32_t i = hv_exec_first_overlap(x, wr->lo); i < x->nranges && x->ranges[i].lo < wr->hi; i++) {
        const struct hv_arange *rg = &x->ranges[i];
        if (rg->hi <= wr->lo)
            continue;
        uint64_t lo = rg->lo > wr->lo ? rg->lo : wr->lo;
        uint64_t hi = rg->hi < wr->hi ? rg->hi : wr->hi;
        if (!hv_writer_rows(w, &lo, &hi))
            continue;  /* between the rows of a tall strided write */
        struct hv_finding f;
        hv_finding_start(m, &f, HV_RULE_WRITE_DURING_REPLAY, lo, hi);
        hv_side_replay(m, &f.a, xi, &x->last, rg);
        hv_side_writer(m, &f.b, w);
        f.n1 = w->bytes;
        hv_rule_emit(m, &f);
    }
}

static void on_write(struct hv_model *m, const struct hv_write_ctx *wr)
{
    for (uint32_t i = 0; i < m->npending; i++)
        check_exec(m, m->pending[i], wr);
}

const struct hv_rule hv_rule_write_during_replay =
    HV_RULE(HV_RULE_WRITE_DURING_REPLAY, HV_SEV_ERROR, "write-during-replay",
            "the buffer is written while a replay that uses it may still be running, with nothing ordering "
            "the write after the replay: the graph can read the new bytes mid-run or overwrite them",
            .on_write = on_write);
