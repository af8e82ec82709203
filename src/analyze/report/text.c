/*
 * text: the human report. Per trace a summary (and loudly, what is missing
 * from it), then finding groups most severe first: one block per group with
 * the write, the reader, the buffer, how often, and why it matters.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "analyze/report/describe.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

static const char *epoch_text(uint64_t e, char *buf, size_t len)
{
    if (e == HV_EPOCH_UNKNOWN)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%" PRIu64, e);
    return buf;
}

static const char *side_label(int kind)
{
    switch (kind) {
    case HV_SIDE_COPY:
    case HV_SIDE_MEMSET:
    case HV_SIDE_KERNEL: return "write";
    case HV_SIDE_REPLAY: return "replay";
    case HV_SIDE_LAUNCH: return "read";
    case HV_SIDE_FREE: return "release";
    case HV_SIDE_SYNC: return "observed";
    default: return "";
    }
}

/* "stream X  seq N  epoch E" */
static void where(FILE *out, const struct hv_fside *s)
{
    char b1[48], b2[24];
    fprintf(out, "  stream %s  seq %" PRIu64 "  epoch %s\n", hv_stream_text(s->stream, b1, sizeof b1), s->seq,
            epoch_text(s->epoch, b2, sizeof b2));
}

static void side(FILE *out, const struct hv_fside *s)
{
    char b1[32], b2[32];
    if (s->kind == HV_SIDE_NONE || s->kind == HV_SIDE_TRACE)
        return;
    fprintf(out, "  %-8s %s", side_label(s->kind), hv_api_name(s->api));
    switch (s->kind) {
    case HV_SIDE_COPY:
        fprintf(out, " %s %s", hv_dir_text(s->dir), hv_bytes_text(s->bytes, b1, sizeof b1));
        where(out, s);
        fprintf(out, "           from 0x%" PRIx64 " (%s) to 0x%" PRIx64 " (%s)\n", s->src, hv_mem_text(s->src_mem),
                s->dst, hv_mem_text(s->dst_mem));
        break;
    case HV_SIDE_MEMSET:
        fprintf(out, " %s at 0x%" PRIx64, hv_bytes_text(s->bytes, b1, sizeof b1), s->dst);
        where(out, s);
        break;
    case HV_SIDE_KERNEL:
        fprintf(out, " kernel %s %s writes 0x%" PRIx64, s->name ? s->name : "?",
                hv_arg_text(s->arg_index, b1, sizeof b1), s->value);
        where(out, s);
        break;
    case HV_SIDE_LAUNCH:
        fprintf(out, " kernel %s %s reads 0x%" PRIx64 " (%s, %s)", s->name ? s->name : "?",
                hv_arg_text(s->arg_index, b1, sizeof b1), s->value, hv_access_text(s->access),
                hv_origin_text(s->origin));
        where(out, s);
        break;
    case HV_SIDE_REPLAY:
        fprintf(out, " exec 0x%" PRIx64, s->exec);
        where(out, s);
        if (s->node_index >= 0) {
            fprintf(out, "           node %d (%s", s->node_index, hv_node_type_text(s->node_type));
            if (s->name)
                fprintf(out, " %s", s->name);
            fprintf(out, ", handle 0x%" PRIx64 ") %s %s (%s) = 0x%" PRIx64 "\n", s->node,
                    hv_arg_text(s->arg_index, b2, sizeof b2), hv_access_text(s->access), hv_origin_text(s->origin),
                    s->value);
        }
        break;
    case HV_SIDE_FREE:
        fprintf(out, " seq %" PRIu64 " released 0x%" PRIx64 " (%s)\n", s->seq, s->dst,
                hv_bytes_text(s->bytes, b1, sizeof b1));
        break;
    case HV_SIDE_SYNC:
        where(out, s);
        break;
    default:
        fputc('\n', out);
    }
    const char *hint = hv_hint_text(s->hint);
    if (hint)
        fprintf(out, "           engine: %s\n", hint);
}

/* Same finding but for another node of the same exec (same argument, same
 * kernel, same counts)? Big graphs read one buffer from tens of nodes; the
 * report names the first and lists the rest instead of repeating blocks. */
static int foldable(const struct hv_group *x, const struct hv_group *y)
{
    const struct hv_finding *a = &x->f, *b = &y->f;
    return a->rule == b->rule && a->severity == b->severity && a->pid == b->pid && a->lo == b->lo &&
           a->hi == b->hi && a->a.api == b->a.api && a->a.stream == b->a.stream && a->a.src == b->a.src &&
           a->a.dst == b->a.dst && a->a.exec == b->a.exec && a->a.node_index == b->a.node_index &&
           a->b.kind == HV_SIDE_REPLAY && a->b.exec == b->b.exec && a->b.stream == b->b.stream &&
           a->b.arg_index == b->b.arg_index && a->b.name == b->b.name && a->note == b->note &&
           x->count == y->count && x->first_seq == y->first_seq && x->last_seq == y->last_seq;
}

static void folded_nodes(FILE *out, const struct hv_group *const *v, size_t n)
{
    if (n < 2)
        return;
    fprintf(out, "           and the same in %zu more node%s:", n - 1, n == 2 ? "" : "s");
    for (size_t i = 1; i < n && i <= 24; i++)
        fprintf(out, " %d", v[i]->f.b.node_index);
    fputs(n > 25 ? " ...\n" : "\n", out);
}

static void group(FILE *out, const struct hv_group *const *v, size_t nfold, const struct hv_report_opts *o)
{
    const struct hv_group *g = v[0];
    const struct hv_finding *f = &g->f;
    char b1[32];
    fprintf(out, "[%s] %s  pid %" PRIu64, hv_severity_name(f->severity), hv_rule_name(f->rule), f->pid);
    if (f->a.kind == HV_SIDE_TRACE)
        fputc('\n', out);
    else
        fprintf(out, "  x%" PRIu64 "  (seq %" PRIu64 " .. %" PRIu64 ")\n", g->count, g->first_seq, g->last_seq);
    if (f->hi > f->lo) {
        fprintf(out, "  buffer   ");
        if (o->buffer_text)
            o->buffer_text(o->names_ctx, out, f);
        fprintf(out, "0x%" PRIx64 " .. 0x%" PRIx64 " (%s)", f->lo, f->hi,
                hv_bytes_text(f->hi - f->lo, b1, sizeof b1));
        if (f->alloc_bytes)
            fprintf(out, " in %s allocation 0x%" PRIx64 " +0x%" PRIx64 " of %s (seq %" PRIu64 ")",
                    hv_mem_text(f->alloc_mem), f->alloc_base, f->lo - f->alloc_base,
                    hv_bytes_text(f->alloc_bytes, b1, sizeof b1), f->alloc_seq);
        fputc('\n', out);
    }
    side(out, &f->a);
    if (o->side_text)
        o->side_text(o->side_ctx, out, f, &f->a);
    side(out, &f->b);
    if (o->side_text)
        o->side_text(o->side_ctx, out, f, &f->b);
    if (o->finding_text)
        o->finding_text(o->names_ctx, out, f);
    folded_nodes(out, v, nfold);
    switch (f->rule) {
    case HV_RULE_STALE_CAPTURE_POINTER:
        if (f->n1)
            fprintf(out, "  now      re-allocated at seq %" PRIu64 " (allocation 0x%" PRIx64 ")\n", f->n1, f->n2);
        else
            fprintf(out, "  now      freed: no live allocation at that address\n");
        break;
    case HV_RULE_TRACE_TRUNCATED:
        fprintf(out, "  input    ends at byte %" PRIu64 " after %" PRIu64 " records: %s\n", f->n1, f->n2,
                f->note ? f->note : "");
        break;
    case HV_RULE_RECORDS_DROPPED:
        fprintf(out, "  input    %" PRIu64 " %s\n", f->n1, f->note ? f->note : "");
        break;
    default:
        if (f->note)
            fprintf(out, "  note     %s\n", f->note);
    }
    if (f->detail)
        fprintf(out, "  detail   %s\n", f->detail);
    fprintf(out, "  why      %s\n", hv_rule_why(f->rule));
    if (o->all && g->nocc) {
        fprintf(out, "  each     (earlier seq -> later seq):");
        for (size_t i = 0; i + 1 < g->nocc; i += 2)
            fprintf(out, "%s %" PRIu64 "->%" PRIu64, i % 16 == 0 ? "\n          " : "", g->occ[i], g->occ[i + 1]);
        fputc('\n', out);
    }
    fputc('\n', out);
}

static void trace(FILE *out, const struct hv_trace_summary *t, const struct hv_report_opts *o)
{
    fprintf(out, "== pid %" PRIu64 "  %s  (%s)\n", t->pid, t->exe[0] ? t->exe : "?", t->path ? t->path : "?");
    fprintf(out,
            "   %" PRIu64 " records, %" PRIu64 " calls (%" PRIu64 " failed), %" PRIu64 " copies, %" PRIu64
            " memsets, %" PRIu64 " launches, %" PRIu64 " replays of %" PRIu64 " execs, %" PRIu64 " syncs, %" PRIu64
            " streams\n",
            t->records, t->calls, t->failed_calls, t->copies, t->memsets, t->launches, t->replays, t->execs,
            t->syncs, t->streams);
    if (t->replays_unknown_exec || t->execs_no_inventory)
        fprintf(out, "   %" PRIu64 " replays of execs never instantiated in the trace, %" PRIu64
                     " execs without a recorded inventory: their reads are not checked\n",
                t->replays_unknown_exec, t->execs_no_inventory);
    if (t->read_status)
        fprintf(out, "   WARNING: input %s at byte %" PRIu64 " (%s); analyzed the %" PRIu64 " records before it\n",
                t->read_status_name, t->read_offset, t->read_what, t->records_salvaged);
    else if (!t->has_footer)
        fprintf(out, "   note: no footer (the process did not exit cleanly, or is still running)\n");
    if (t->dropped || t->chunk_gaps || t->late_records)
        fprintf(out, "   WARNING: %" PRIu64 " records dropped by the tracer, %" PRIu64 " chunk gaps, %" PRIu64
                     " late records\n",
                t->dropped, t->chunk_gaps, t->late_records);
    if (o->trace_text)
        o->trace_text(o->names_ctx, out, t->pid);
}

void hv_report_text(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o)
{
    uint64_t occ;
    size_t n_err = hv_findings_count_at(s, HV_SEV_ERROR, NULL);
    size_t n_warn = hv_findings_count_at(s, HV_SEV_WARNING, NULL) - n_err;
    size_t n_all = hv_findings_count_at(s, HV_SEV_INFO, &occ);
    fprintf(out, "hipvis-analyze: %zu trace%s, %zu finding group%s (%zu error, %zu warning, %zu info; %" PRIu64
                 " occurrences)\n\n",
            s->ntraces, s->ntraces == 1 ? "" : "s", n_all, n_all == 1 ? "" : "s", n_err, n_warn,
            n_all - n_err - n_warn, occ);
    for (size_t i = 0; i < s->ntraces; i++)
        trace(out, &s->traces[i], o);
    fputc('\n', out);
    const struct hv_group **v = hv_findings_sorted(s);
    if (!v)
        return;
    for (size_t i = 0; i < s->ngroups;) {
        size_t j = i + 1;
        while (j < s->ngroups && foldable(v[i], v[j]))
            j++;
        group(out, &v[i], j - i, o);
        i = j;
    }
    free(v);
    size_t at = o->fail_on > HV_SEV_NONE ? hv_findings_count_at(s, o->fail_on, NULL) : 0;
    if (o->fail_on > HV_SEV_NONE)
        fprintf(out, "verdict: %zu finding group%s at or above %s\n", at, at == 1 ? "" : "s",
                hv_severity_name(o->fail_on));
}
