/*
 * parallel-queue-read: a replay on stream S reads a range written on S in
 * the same epoch (the same-epoch-write situation), and the node that reads
 * it is one the HIP runtime would start on a parallel queue without waiting
 * for S's earlier work (placement.h: a root of a graph spread over parallel
 * queues under ROCm 7.2.4's segment scheduler, or a child whose
 * cross-stream wait the classic executor drops). Then stream order does not
 * protect the read at all: the node can run before the copy and read the
 * previous step's value — hypothesis H1 of ROCm/hip#3902.
 *
 * A prediction from topology and knobs (DEBUG_HIP_FORCE_GRAPH_QUEUES,
 * DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING in the trace header), hence a warning.
 * n1: the node's HV_PLACE_* flags; n2: the queue count assumed. Readers that
 * the runtime orders after the launch stream are declined, which the
 * engine's memo remembers like a finding (the answer depends only on the
 * exec's inventory and the knobs).
 */
#include "analyze/placement.h"
#include "analyze/rules/rules.h"

static void on_overlap(struct hv_model *m, const struct hv_replay_ctx *rp, const struct hv_arange *rg, uint64_t lo,
                       uint64_t hi, const struct hv_writer *w)
{
    struct hv_place_cfg cfg;
    struct hv_place p;
    hv_place_config(&cfg, m->sum ? m->sum->knobs : NULL, m->cuda);
    if (hv_place_compute(m, &m->execs[rp->exec], &cfg, &p) != 0) {
        m->oom = 1;
        hv_rule_decline(m);
        return;
    }
    uint8_t f = rg->node < p.nodes ? p.flags[rg->node] : 0;
    hv_place_free(&p);
    if (!(f & HV_PLACE_UNORDERED)) {
        hv_rule_decline(m);
        return;
    }
    struct hv_finding out;
    hv_finding_start(m, &out, HV_RULE_PARALLEL_QUEUE_READ, lo, hi);
    hv_side_writer(m, &out.a, w);
    hv_side_replay(m, &out.b, rp->exec, &rp->r, rg);
    out.n1 = f;
    out.n2 = cfg.queues;
    out.note = hv_place_reason(f);
    hv_rule_emit(m, &out);
}

const struct hv_rule hv_rule_parallel_queue_read = {
    .id = HV_RULE_PARALLEL_QUEUE_READ,
    .severity = HV_SEV_WARNING,
    .name = "parallel-queue-read",
    .why = "the node reading data written on the launch stream in this epoch would start on a parallel queue "
           "that the HIP runtime does not order after that stream's earlier work: it can read the previous "
           "value (hypothesis H1 of ROCm/hip#3902)",
    .overlap_writers = HV_OVERLAP_SAME_STREAM,
    .on_overlap = on_overlap,
};
