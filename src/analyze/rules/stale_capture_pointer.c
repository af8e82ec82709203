/*
 * stale-capture-pointer: a replayed graph's argument points into memory that
 * was released (and possibly allocated again) since the exec was
 * instantiated. The pointer was baked into the graph at capture; the graph
 * now reads or writes memory that is unmapped or belongs to someone else.
 *
 * Evidence: at instantiate each argument remembers the allocation
 * generation it pointed into; a release marks matching arguments stale
 * (model/allocs.c). Here, at each replay, the stale ones are reported with
 * the release and what is at that address now (note "freed" or
 * "re-allocated"). Severity: error, an inferred pointer included (the
 * report marks it inferred).
 */
#include "analyze/rules/rules.h"

static void on_replay(struct hv_model *m, const struct hv_replay_ctx *rp)
{
    const struct hv_exec *x = &m->execs[rp->exec];
    if (x->nstale == 0)
        return;
    for (uint32_t i = 0; i < x->nranges; i++) {
        const struct hv_arange *rg = &x->ranges[i];
        if (!rg->stale_seq)
            continue;
        struct hv_finding f;
        hv_finding_start(m, &f, HV_RULE_STALE_CAPTURE_POINTER, rg->lo, rg->hi);
        /* The allocation it was captured in, not whatever is there now. */
        f.alloc_base = rg->alloc_base;
        f.alloc_bytes = rg->alloc_bytes;
        f.alloc_seq = rg->alloc_seq;
        f.alloc_mem = rg->alloc_mem;
        f.a.kind = HV_SIDE_FREE;
        f.a.api = rg->stale_api;
        f.a.seq = rg->stale_seq;
        f.a.dst = rg->alloc_base;
        f.a.bytes = rg->alloc_bytes;
        hv_side_replay(m, &f.b, rp->exec, &rp->r, rg);
        struct hv_imap_seg now;
        if (hv_alloc_find(m, rg->value, &now)) {
            const struct hv_alloc *a = now.val;
            f.note = "re-allocated";
            f.n1 = a->seq;      /* the allocation now at that address */
            f.n2 = now.lo;
        } else {
            f.note = "freed";
        }
        hv_rule_emit(m, &f);
    }
}

const struct hv_rule hv_rule_stale_capture_pointer =
    HV_RULE(HV_RULE_STALE_CAPTURE_POINTER, HV_SEV_ERROR, "stale-capture-pointer",
            "the graph baked this pointer in at capture, but the allocation was released since: the replay "
            "touches freed memory or another buffer that now lives there",
            .on_replay = on_replay);
