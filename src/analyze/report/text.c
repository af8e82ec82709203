/*
 * text: the human report. Per trace a summary (and loudly, what is missing
 * from it), then finding groups most severe first: one block per group with
 * the write, the reader, the buffer, how often, and why it matters.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "analyze/report/describe.h"
#include "analyze/report/next.h"
#include "analyze/report/report.h"
#include "analyze/report/verdict.h"
#include "analyze/rules/rules.h"

static const char *epoch_text(uint64_t e, char *buf, size_t len)
{
    if (e == HV_EPOCH_UNKNOWN)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%" PRIu64, e);
    return buf;
}

/* The side's role; a host observation reads as what it did ("observed"). */
static const char *side_label(int kind)
{
    const char *r = hv_side_role(kind);
    return kind == HV_SIDE_SYNC ? "observed" : r ? r : "";
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
    /* A host access is no runtime call: its "api" is the host's. */
    fprintf(out, "  %-8s %s", side_label(s->kind), s->kind == HV_SIDE_HOST ? "host" : hv_api_name(s->api));
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
            if (s->arg_index == HV_ARG_NONE)   /* the node itself (runtime-erratum), no argument */
                fprintf(out, ", handle 0x%" PRIx64 ")\n", s->node);
            else
                fprintf(out, ", handle 0x%" PRIx64 ") %s %s (%s) = 0x%" PRIx64 "\n", s->node,
                        hv_arg_text(s->arg_index, b2, sizeof b2), hv_access_text(s->access),
                        hv_origin_text(s->origin), s->value);
        }
        break;
    case HV_SIDE_FREE:
        fprintf(out, " seq %" PRIu64 " released 0x%" PRIx64 " (%s)\n", s->seq, s->dst,
                hv_bytes_text(s->bytes, b1, sizeof b1));
        break;
    case HV_SIDE_SYNC:
        where(out, s);
        break;
    case HV_SIDE_HOST:
        fprintf(out, " %s of 0x%" PRIx64 " at pc 0x%" PRIx64 " before the host observed the op complete\n",
                s->access == HV_ACCESS_WRITE ? "write" : s->access == HV_ACCESS_READ ? "read" : "access", s->value,
                s->func);
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

/* The members of a bug seen in several execs or processes: one line per
 * (pid, exec, site), nodes of one exec folded onto it. */
#define SEEN_ROWS 16

static void seen_in(FILE *out, const struct hv_group *const *v, size_t n)
{
    size_t rows = 0, i = 0;
    while (i < n && rows < SEEN_ROWS) {
        size_t j = i + 1;
        while (j < n && foldable(v[i], v[j]))
            j++;
        const struct hv_group *g = v[i];
        fprintf(out, "  %-8s pid %" PRIu64 "  x%" PRIu64 "  (seq %" PRIu64 " .. %" PRIu64 ")", rows ? "" : "seen in",
                g->f.pid, g->count, g->first_seq, g->last_seq);
        if (g->f.b.kind == HV_SIDE_REPLAY)
            fprintf(out, "  exec 0x%" PRIx64, g->f.b.exec);
        if (g->f.hi > g->f.lo)
            fprintf(out, "  buffer 0x%" PRIx64, g->f.lo);
        if ((g->f.b.kind == HV_SIDE_REPLAY || g->f.b.kind == HV_SIDE_LAUNCH) && g->f.b.arg_index != HV_ARG_NONE) {
            char ab[24];
            fprintf(out, "  %s", hv_arg_text(g->f.b.arg_index, ab, sizeof ab));
        }
        if (g->f.b.kind == HV_SIDE_REPLAY && g->f.b.node_index >= 0) {
            fprintf(out, "  node%s %d", j - i > 1 ? "s" : "", g->f.b.node_index);
            for (size_t k = i + 1; k < j && k < i + 8; k++)
                fprintf(out, ",%d", v[k]->f.b.node_index);
            if (j - i > 8)
                fputs(",...", out);
        }
        fputc('\n', out);
        rows++;
        i = j;
    }
    if (i < n) {
        uint64_t more = 0;
        for (size_t k = i; k < n; k++)
            more += v[k]->count;
        fprintf(out, "           ... and %zu more place%s (x%" PRIu64 ")\n", n - i, n - i == 1 ? "" : "s", more);
    }
}

/* "next:" — what to run or change, from what this trace supports. */
static void next_lines(FILE *out, const struct hv_findings *s, const struct hv_finding *f)
{
    const struct hv_trace_summary *t = hv_trace_of(s, f->pid);
    struct hv_next n;
    hv_next_steps(f, t, &n);
    char q[1024];
    const char *path = t && t->path ? hv_shell_quote(t->path, q, sizeof q) : "TRACE";
    const char *label = "next:";
    /* The finding rests on a pointer only inferred: confirming it comes first. */
    if (n.code_object) {
        fprintf(out, "  %-8s hipvis-analyze --code-object FILE %s   # %s\n", label, path, n.confirm_why);
        label = "";
    }
    if (n.store) {
        fprintf(out, "  %-8s %s <the same command>   # %s\n", label, n.store, n.store_why);
        label = "";
    }
    if (n.diagnose) {
        fprintf(out, "  %-8s hipvis-analyze --diagnose %s   # ranks the causes of this group\n", label, path);
        label = "";
    }
    if (n.experiment) {
        char cmd[20480];   /* a 4 KiB command line, quoted */
        fprintf(out, "  %-8s %s   # A/B runs: which change removes the symptom, at what cost%s\n", label,
                hv_experiment_command(t, cmd, sizeof cmd),
                t && t->argc ? "" : t && (t->argv_flags & HV_ARGV_OFF) ? " (HIPVIS_RECORD_ARGV=0: arguments not recorded)"
                                                                        : "");
        label = "";
    }
    if (n.guard) {
        fprintf(out, "  %-8s HIPVIS_GUARD=%s <the same command>   # %s\n", label, n.guard, n.guard_why);
        label = "";
    }
    if (n.rerun) {
        fprintf(out, "  %-8s %s <the same command>   # %s\n", label, n.rerun, n.rerun_why);
        label = "";
    }
    if (n.fix) {
        fprintf(out, "  %-8s fix: %s\n", label, n.fix);
        label = "";
    }
    fprintf(out, "  %-8s docs/triage.md#%s\n", label, hv_rule_name(f->rule));
}

/* Replays in the processes a bug was seen in: "x263 of 263 replays" says
 * at a glance that every replay was exposed. */
static uint64_t replays_of(const struct hv_findings *s, const struct hv_group *const *v, size_t n)
{
    uint64_t total = 0;
    if (n > 256)
        return 0;   /* the scan is quadratic; a bug in that many places needs no ratio */
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < i && v[k]->f.pid != v[i]->f.pid)
            k++;
        const struct hv_trace_summary *t = k == i ? hv_trace_of(s, v[i]->f.pid) : NULL;
        if (t)
            total += t->replays;
    }
    return total;
}

static void group(FILE *out, const struct hv_findings *s, const struct hv_group *const *v, const struct hv_bug *bug,
                  const struct hv_report_opts *o)
{
    const struct hv_group *g = v[0];
    const struct hv_finding *f = &g->f;
    char b1[32];
    size_t nfold = 1;
    while (nfold < bug->n && foldable(v[0], v[nfold]))
        nfold++;
    int several = nfold < bug->n;   /* more than one exec / process / site */
    fprintf(out, "[%s] %s", hv_severity_name(f->severity), hv_rule_name(f->rule));
    if (several) {
        fprintf(out, "  x%" PRIu64, bug->count);
        /* "of N replays" only when each replay counts once: one member per exec. */
        uint64_t replays = f->b.kind == HV_SIDE_REPLAY && bug->nexecs == bug->n ? replays_of(s, v, bug->n) : 0;
        if (replays)
            fprintf(out, " of %" PRIu64 " replays", replays);
        fputs(" in ", out);
        if (bug->nexecs > 1)
            fprintf(out, "%zu graph execs of ", bug->nexecs);
        else if (bug->npids == 1)
            fprintf(out, "%zu places in ", bug->n);
        fprintf(out, "%zu process%s", bug->npids, bug->npids == 1 ? "" : "es");
        fprintf(out, "  (first: pid %" PRIu64 "  x%" PRIu64 "  seq %" PRIu64 " .. %" PRIu64 ")\n", f->pid, g->count,
                g->first_seq, g->last_seq);
    } else {
        fprintf(out, "  pid %" PRIu64, f->pid);
        if (f->a.kind == HV_SIDE_TRACE)
            fputc('\n', out);
        else
            fprintf(out, "  x%" PRIu64 "  (seq %" PRIu64 " .. %" PRIu64 ")\n", g->count, g->first_seq, g->last_seq);
    }
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
    const struct hv_fside *ptr = hv_pointer_side(f);
    if (ptr) {
        char pb[512];
        fprintf(out, "  pointer  %s\n", hv_pointer_text(ptr, pb, sizeof pb));
    }
    if (several)
        seen_in(out, v, bug->n);
    else
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
    next_lines(out, s, f);
    for (size_t m = 0; o->all && m < bug->n; m++) {
        const struct hv_group *x = v[m];
        if (!x->nocc)
            continue;
        fprintf(out, "  each     (earlier seq -> later seq)");
        if (bug->n > 1)
            fprintf(out, " pid %" PRIu64 " exec 0x%" PRIx64, x->f.pid, x->f.b.exec);
        fputc(':', out);
        for (size_t i = 0; i + 1 < x->nocc; i += 2)
            fprintf(out, "%s %" PRIu64 "->%" PRIu64, i % 16 == 0 ? "\n          " : "", x->occ[i], x->occ[i + 1]);
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
    if (t->replays_unknown_layout)
        fprintf(out, "   WARNING: %" PRIu64 " of %" PRIu64 " replays ran kernel nodes whose argument layout is unknown "
                     "(%" PRIu64 " node runs): their pointer arguments are not checked\n",
                t->replays_unknown_layout, t->replays, t->unknown_layout_nodes);
    if (t->failed_calls) {
        /* Loud when it changes what the findings mean: launches or copies
         * that never happened, or most calls failing. */
        int loud = hv_trace_unusable(t) || t->failed_launches || t->failed_copies || 2 * t->failed_calls >= t->calls;
        fprintf(out, "   %s: %" PRIu64 " of %" PRIu64 " runtime calls failed (%.0f%%)", loud ? "WARNING" : "note",
                t->failed_calls, t->calls, 100.0 * (double)t->failed_calls / (double)(t->calls ? t->calls : 1));
        if (t->failed_launches || t->failed_copies)
            fprintf(out, "; %" PRIu64 " launches/replays and %" PRIu64 " copies/memsets never happened",
                    t->failed_launches, t->failed_copies);
        fprintf(out, "; first: %s returned %d at seq %" PRIu64 "\n", hv_api_name(t->first_failed_api),
                (int)t->first_failed_result, t->first_failed_seq);
        if (hv_trace_unusable(t))
            fprintf(out, "   WARNING: no copy, memset, launch or replay succeeded: nothing here to analyze\n");
    } else if (t->calls == 0) {
        fprintf(out, "   WARNING: no runtime calls traced (does the program call HIP/CUDA through the library "
                     "hipvis wraps?)\n");
    }
    if (t->read_status)
        fprintf(out, "   WARNING: input %s at byte %" PRIu64 " (%s); analyzed the %" PRIu64 " records before it\n",
                t->read_status_name, t->read_offset, t->read_what, t->records_salvaged);
    else if (!t->has_footer)
        fprintf(out, "   note: no footer (the process did not exit cleanly, or is still running)\n");
    if (t->dropped || t->chunk_gaps || t->late_records)
        fprintf(out, "   WARNING: %" PRIu64 " records dropped by the tracer, %" PRIu64 " chunk gaps, %" PRIu64
                     " late records\n",
                t->dropped, t->chunk_gaps, t->late_records);
    if (t->launches_unsampled)
        fprintf(out, "   note: %" PRIu64 " of %" PRIu64 " launches not drawn by HIPVIS_LAUNCH_EVERY: recorded without "
                     "their kernel, pointer arguments and Python line, so a hazard whose only reader or writer is such "
                     "a launch is not seen here (rerun with HIPVIS_LAUNCH_EVERY=1 to see every one)\n",
                t->launches_unsampled, t->launches);
    if (o->trace_text)
        o->trace_text(o->names_ctx, out, t->pid);
}

/* The run as a whole: one line that cannot be missed when the input
 * cannot support the findings (or their absence). */
static void health(FILE *out, const struct hv_findings *s)
{
    uint64_t calls = 0, failed = 0, dropped = 0;
    size_t cut = 0, unusable = 0;
    for (size_t i = 0; i < s->ntraces; i++) {
        const struct hv_trace_summary *t = &s->traces[i];
        calls += t->calls;
        failed += t->failed_calls;
        dropped += t->dropped + t->chunk_gaps + t->late_records;
        cut += t->read_status != 0;
        unusable += hv_trace_unusable(t);
    }
    if (hv_findings_unusable(s)) {
        fprintf(out, "\n!! WARNING: UNUSABLE RUN: %" PRIu64 " of %" PRIu64 " runtime calls failed and nothing was "
                     "copied, launched or replayed.\n"
                     "!! \"0 findings\" here means nothing: check that the program found the runtime "
                     "(LD_LIBRARY_PATH) and a device, then trace it again.\n",
                failed, calls);
        return;
    }
    if (!failed && !dropped && !cut)
        return;
    fprintf(out, "   input health: %" PRIu64 " of %" PRIu64 " calls failed, %zu trace%s with no device work, %" PRIu64
                 " records lost, %zu trace%s cut short\n",
            failed, calls, unusable, unusable == 1 ? "" : "s", dropped, cut, cut == 1 ? "" : "s");
}

/* "; only 3 of 88 replays checked" when some were not (the verdict says why). */
static const char *checked_note(const struct hv_findings *s, char *buf, size_t cap)
{
    struct hv_coverage c;
    hv_coverage_sum(s, &c);
    buf[0] = '\0';
    if (hv_coverage_unchecked(&c))
        snprintf(buf, cap, "; only %" PRIu64 " of %" PRIu64 " replays checked", c.replays_checked, c.replays);
    return buf;
}

void hv_report_text(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o)
{
    char note[96];
    uint64_t occ;
    size_t n_err = hv_findings_count_at(s, HV_SEV_ERROR, NULL);
    size_t n_warn = hv_findings_count_at(s, HV_SEV_WARNING, NULL) - n_err;
    size_t n_all = hv_findings_count_at(s, HV_SEV_INFO, &occ);
    const struct hv_group **v = hv_findings_sorted(s);
    struct hv_bug *bugs = NULL;
    size_t nb = v ? hv_findings_bugs(v, s->ngroups, &bugs) : (size_t)-1;
    if (nb == (size_t)-1)
        nb = s->ngroups;   /* out of memory for the clustering: one block per group */
    size_t n_inferred = hv_findings_count_inferred(s, HV_SEV_INFO);
    char inferred[64] = "";
    if (n_inferred)
        snprintf(inferred, sizeof inferred, "; %zu on inferred pointers", n_inferred);
    if (o->nerrors || hv_findings_unusable(s))   /* no count of bugs where the input could not support one */
        fprintf(out, "hipvis-analyze: %zu trace%s read, %zu input%s not usable: not analyzed\n\n", s->ntraces,
                s->ntraces == 1 ? "" : "s", o->nerrors, o->nerrors == 1 ? "" : "s");
    else
        fprintf(out, "hipvis-analyze: %zu trace%s, %zu bug%s in %zu finding group%s (%zu error, %zu warning, %zu info; %" PRIu64
                     " occurrences%s)%s\n\n",
                s->ntraces, s->ntraces == 1 ? "" : "s", nb, nb == 1 ? "" : "s", n_all, n_all == 1 ? "" : "s", n_err,
                n_warn, n_all - n_err - n_warn, occ, inferred, checked_note(s, note, sizeof note));
    for (size_t i = 0; i < s->ntraces; i++)
        trace(out, &s->traces[i], o);
    health(out, s);
    fputc('\n', out);
    for (size_t b = 0; v && b < nb; b++) {
        struct hv_bug one = {b, 1, v[b]->count, 1, 1};
        const struct hv_bug *x = bugs ? &bugs[b] : &one;
        group(out, s, &v[x->first], x, o);
    }
    free(bugs);
    free(v);
    hv_verdict_text(out, s, o);
}
