/*
 * concurrent-shared-replay: two different graph execs whose arguments
 * overlap are replayed on streams with no ordering between the replays (the
 * earlier one not observed complete, not waited for). If either may write
 * the shared range, the replays race.
 *
 * Severity: error when one side writes by metadata; warning when a side's
 * access is unknown (inferred pointer) so a write is only possible; no
 * finding when both only read.
 */
#include "analyze/rules/rules.h"

static void check_pair(struct hv_model *m, const struct hv_replay_ctx *rp, uint32_t yi)
{
    const struct hv_exec *x = &m->execs[rp->exec];
    const struct hv_exec *y = &m->execs[yi];
    for (uint32_t i = 0; i < x->nranges; i++) {
        const struct hv_arange *a = &x->ranges[i];
        for (uint32_t j = hv_exec_first_overlap(y, a->lo); j < y->nranges && y->ranges[j].lo < a->hi; j++) {
            const struct hv_arange *b = &y->ranges[j];
            if (b->hi <= a->lo)
                continue;
            int maybe = 0;
            int wa = hv_access_writes(a->access, &maybe), wb = hv_access_writes(b->access, &maybe);
            if (!wa && !wb)
                continue;
            /* Only a possible write on one side and a read on the other... */
            int severe = (wa && a->access != HV_ACCESS_UNKNOWN) || (wb && b->access != HV_ACCESS_UNKNOWN);
            uint64_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
            struct hv_finding f;
            hv_finding_start(m, &f, HV_RULE_CONCURRENT_SHARED_REPLAY, lo, hi);
            if (!severe)
                f.severity = (uint8_t)hv_sev_soften(f.severity);
            hv_side_replay(m, &f.a, yi, &y->last, b);
            hv_side_replay(m, &f.b, rp->exec, &rp->r, a);
            hv_rule_emit(m, &f);
        }
    }
}

static void on_replay(struct hv_model *m, const struct hv_replay_ctx *rp)
{
    for (uint32_t k = 0; k < m->npending; k++) {
        uint32_t yi = m->pending[k];
        if (yi == rp->exec)
            continue;
        const struct hv_exec *y = &m->execs[yi];
        if (hv_ordered(m, y->last.stream, y->last.stream_id, y->last.seq, rp->r.stream))
            continue;
        check_pair(m, rp, yi);
    }
}

const struct hv_rule hv_rule_concurrent_shared_replay =
    HV_RULE(HV_RULE_CONCURRENT_SHARED_REPLAY, HV_SEV_ERROR, "concurrent-shared-replay",
            "two graphs that share this buffer run on unordered streams and at least one may write it: "
            "their nodes race on the shared range",
            .on_replay = on_replay);
