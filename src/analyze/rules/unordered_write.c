/*
 * unordered-write: a replay on stream S reads a range last written on
 * another stream T, and nothing orders that write before the replay — no
 * event recorded on T after the write and waited on by S (directly or
 * through a chain), no legacy-stream barrier, no host synchronization that
 * observed the write complete. That is a data race in the programming model:
 * the graph may read the old or the new bytes, or a mix.
 *
 * The same check runs for eager kernel launches that read through a
 * pointer argument (on_launch_read): the prefill step of a decode loop
 * reads the buffer with an ordinary launch, and a write on a side stream
 * races with it exactly as with a replay.
 *
 * Severity: error, whatever the argument's origin: a pointer only inferred
 * (value match against an allocation, no code-object metadata) is marked so
 * in the report, not softened (docs/analysis.md).
 */
#include "analyze/rules/rules.h"

static void on_overlap(struct hv_model *m, const struct hv_replay_ctx *rp, const struct hv_arange *rg, uint64_t lo,
                       uint64_t hi, const struct hv_writer *w)
{
    struct hv_finding f;
    hv_finding_write_replay(m, &f, HV_RULE_UNORDERED_WRITE, rp, rg, lo, hi, w);
    hv_rule_emit(m, &f);
}

static void on_launch_read(struct hv_model *m, const struct hv_read_ctx *rd, uint64_t lo, uint64_t hi,
                           const struct hv_writer *w)
{
    if (w->stream == rd->stream && w->stream_id == rd->stream_id)
        return;
    if (hv_ordered(m, w->stream, w->stream_id, w->seq, rd->stream))
        return;
    struct hv_finding f;
    hv_finding_start(m, &f, HV_RULE_UNORDERED_WRITE, lo, hi);
    hv_side_writer(m, &f.a, w);
    hv_side_launch(m, &f.b, rd);
    f.n1 = w->bytes;
    hv_rule_emit(m, &f);
}

const struct hv_rule hv_rule_unordered_write =
    HV_RULE(HV_RULE_UNORDERED_WRITE, HV_SEV_ERROR, "unordered-write",
            "the write is on another stream and no event wait or host sync orders it before the reader "
            "(a replay or an eager kernel launch): a data race, the reader may see old, new or torn bytes",
            .overlap_writers = HV_OVERLAP_UNORDERED,
            .on_overlap = on_overlap,
            .on_launch_read = on_launch_read);
