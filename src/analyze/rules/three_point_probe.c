/*
 * three-point-probe: what the tracer's D2D snapshots (HIPVIS_PROBE) saw
 * around one graph launch, compared with what the H2D copy was given
 * (ROCm/ATOM#1468's probe, automated; docs/evidence.md).
 *
 * Per probed launch, the first point whose content differs from the copy's
 * source at enqueue:
 *   after-copy   the copy itself delivered something else, or another
 *                writer landed after it (an older write arriving late)
 *   pre-replay   the range was right after the copy but changed before the
 *                graph launch began
 *   post-replay  only after the graph: the graph, or work running
 *                concurrently with it, changed the range
 * When all three match, the graph was handed the right bytes: a stale read
 * inside the graph is then a read-path problem (ordering of a node on a
 * parallel queue, a cache), not a stale buffer. Matches are reported as
 * info so a clean run shows that probes ran.
 *
 * n1: the first differing point (enum hv_probe_point, 0 when all match);
 * n2: its first differing byte offset.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze/rules/evidence_fmt.h"
#include "analyze/rules/rules.h"

static const char *note_for(unsigned point)
{
    switch (point) {
    case HV_PROBE_AFTER_COPY:
        return "first differs right after the copy: the copy delivered other bytes, or a later writer of the "
               "range landed after it";
    case HV_PROBE_PRE_REPLAY:
        return "right after the copy, but changed before the graph launch: another write landed between them";
    case HV_PROBE_POST_REPLAY:
        return "unchanged up to the graph launch, different after it: the graph (or work concurrent with it) "
               "changed the range";
    default:
        return "all three snapshots match what was copied: the graph was handed the right bytes";
    }
}

/* Copy side: the writer history's record of the copy when it is still the
 * last writer there (full detail), else what the probe record says. */
static void copy_side(struct hv_model *m, struct hv_fside *s, const struct hv_probe *p)
{
    struct hv_imap_seg seg;
    if (hv_imap_find(&m->writers, p->addr, &seg) && ((const struct hv_writer *)seg.val)->seq == p->copy_seq) {
        hv_side_writer(m, s, seg.val);
        return;
    }
    s->kind = HV_SIDE_COPY;
    s->api = p->copy_api;
    s->dir = HV_DIR_H2D;
    s->dst_mem = HV_MEM_DEVICE;
    s->stream = p->stream;
    s->seq = p->copy_seq;
    s->epoch = HV_EPOCH_UNKNOWN;
    s->dst = p->addr;
    s->src = p->src;
    s->bytes = p->len;
}

/* Which node of the exec reads the range, for the detail line. */
static void reader_text(const struct hv_model *m, uint64_t exec, uint64_t lo, uint64_t hi, char *buf, size_t len)
{
    uint32_t x = hv_exec_find(m, exec);
    snprintf(buf, len, "the graph's inventory names no argument in the range");
    if (x == HV_NO_INDEX)
        return;
    const struct hv_exec *ex = &m->execs[x];
    for (uint32_t i = hv_exec_first_overlap(ex, lo); i < ex->nranges && ex->ranges[i].lo < hi; i++) {
        const struct hv_arange *rg = &ex->ranges[i];
        if (rg->hi <= lo || !hv_access_reads(rg->access))
            continue;
        const struct hv_gnode *g = &ex->nodes[rg->node];
        const char *k = g->type == HV_NODE_KERNEL ? hv_model_name(m, g->name_id, g->func) : NULL;
        snprintf(buf, len, "the graph reads it: node %u%s%s arg %d", g->index, k ? " " : "", k ? k : "",
                 rg->arg_index);
        return;
    }
}

static void on_probe(struct hv_model *m, const struct hv_probe *p)
{
    const uint8_t *pt[HV_PROBE__POINTS];
    size_t len = p->len, off = 0;
    unsigned first = 0;
    for (unsigned i = 0; i < HV_PROBE__POINTS; i++)
        pt[i] = (const uint8_t *)(p + 1) + i * len;
    if (!(p->have & HV_PROBE_HAVE(HV_PROBE_SOURCE)) || !len)
        return;   /* nothing to compare against */
    for (unsigned i = HV_PROBE_AFTER_COPY; i < HV_PROBE__POINTS && !first; i++) {
        if (!(p->have & HV_PROBE_HAVE(i)))
            continue;
        off = hv_bytes_diff(pt[HV_PROBE_SOURCE], pt[i], len, NULL);
        if (off < len)
            first = i;
    }
    struct hv_finding f;
    char detail[640], e[24], vals[HV_PROBE__POINTS][24], views[HV_PROBE__POINTS][96], rd[160];
    hv_finding_start(m, &f, HV_RULE_THREE_POINT_PROBE, p->addr, p->addr + len);
    copy_side(m, &f.a, p);
    f.b.kind = HV_SIDE_REPLAY;
    f.b.api = p->replay_api;
    f.b.seq = p->replay_seq;
    f.b.stream = p->stream;
    f.b.exec = p->exec;
    f.b.epoch = f.a.epoch;   /* probed launches are in the copy's epoch (probe.c) */
    f.b.node_index = -1;
    f.n1 = first;
    f.n2 = first ? off : 0;
    f.severity = first == HV_PROBE_POST_REPLAY ? HV_SEV_WARNING : first ? HV_SEV_ERROR : HV_SEV_INFO;
    f.note = p->status == HV_PROBE_OK || first ? note_for(first)
             : "snapshots incomplete: a snapshot or the read-back failed, or the launch failed";
    size_t from = first ? off / (len % 4 == 0 ? 4 : 1) : 0;
    from = from > 2 ? from - 2 : 0;
    for (unsigned i = 0; i < HV_PROBE__POINTS; i++) {
        int have = (p->have & HV_PROBE_HAVE(i)) != 0;
        snprintf(vals[i], sizeof vals[i], "%s", have && first ? hv_elem_value(e, sizeof e, pt[i], len, off) : "-");
        if (have)
            hv_bytes_view(views[i], sizeof views[i], pt[i], len, from, 6);
        else
            snprintf(views[i], sizeof views[i], "-");
    }
    reader_text(m, p->exec, p->addr, p->addr + len, rd, sizeof rd);
    int k = first ? snprintf(detail, sizeof detail, "%s: copied %s, after-copy %s, pre-replay %s, post-replay %s; ",
                             hv_elem_name(e, sizeof e, len, off), vals[0], vals[1], vals[2], vals[3])
                  : 0;
    snprintf(detail + k, sizeof detail - (size_t)k, "copied=%s after_copy=%s pre_replay=%s post_replay=%s; %s",
             views[0], views[1], views[2], views[3], rd);
    f.detail = detail;
    hv_rule_emit(m, &f);
}

static void on_aux(struct hv_model *m, const struct hv_call *cur, const struct hv_rec_header *rec)
{
    (void)cur;
    const struct hv_probe *p = (const struct hv_probe *)(const void *)rec;
    if (rec->type == HV_REC_PROBE && rec->size >= sizeof *p &&
        sizeof *p + (uint64_t)p->len * HV_PROBE__POINTS <= rec->size)
        on_probe(m, p);
}

const struct hv_rule hv_rule_three_point_probe =
    HV_RULE(HV_RULE_THREE_POINT_PROBE, HV_SEV_ERROR, "three-point-probe",
            "snapshots taken on the stream right after the copy, right before and right after the graph launch "
            "say where the buffer first stopped holding what was copied: in the copy (or a late writer), "
            "between copy and launch, or inside the graph",
            .on_aux = on_aux);
