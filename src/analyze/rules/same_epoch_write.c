/*
 * same-epoch-write: a replay on stream S reads a range that was written on S
 * in the same epoch — no host-observed completion of S between the write and
 * the replay.
 *
 * In the programming model this is legal: stream order alone should make
 * the write visible. It is reported because it is exactly the pattern of
 * ROCm/hip#3902 (pinned H2D copy of a small buffer, then graph replay on the
 * same stream, graph reads the previous step's value): when the runtime
 * places a reader on a parallel queue without waiting for the launch
 * stream's prior work, or a cache is not invalidated, the read is stale.
 * The finding names the write (API, direction, size, source, the engine it
 * runs on) and the reader (exec, node, kernel, argument), and the group
 * count says how many replays share the pattern.
 *
 * Writers considered: eager copies, memsets, and eager kernels that write
 * through a pointer argument (metadata access). A previous replay's own
 * writes are not: graph-to-graph producer/consumer on one stream is the
 * normal decode-loop shape and would drown the signal.
 */
#include "analyze/rules/rules.h"

static void on_overlap(struct hv_model *m, const struct hv_replay_ctx *rp, const struct hv_arange *rg, uint64_t lo,
                       uint64_t hi, const struct hv_writer *w)
{
    struct hv_finding f;
    hv_finding_start(m, &f, HV_RULE_SAME_EPOCH_WRITE, lo, hi);
    hv_side_writer(m, &f.a, w);
    hv_side_replay(m, &f.b, rp->exec, &rp->r, rg);
    /* n1: the write's size; n2: replays of this exec so far (this one included). */
    f.n1 = w->bytes;
    f.n2 = m->execs[rp->exec].replays + 1;
    if (w->kind == HV_WRITER_KERNEL)
        f.note = "kernel write through a pointer argument: extent unknown, matched at the pointer";
    hv_rule_emit(m, &f);
}

const struct hv_rule hv_rule_same_epoch_write = {
    .id = HV_RULE_SAME_EPOCH_WRITE,
    .severity = HV_SEV_WARNING,
    .name = "same-epoch-write",
    .why = "the graph reads data written on its own stream since the host last saw that stream complete; "
           "only stream order protects it, and a reader placed on a parallel queue or behind a stale cache "
           "reads the previous value (the ROCm/hip#3902 pattern)",
    /* Same stream (a different one is unordered-write's business); the
     * engine only offers writers the host has not observed complete. */
    .overlap_writers = HV_OVERLAP_SAME_STREAM,
    .on_overlap = on_overlap,
};
