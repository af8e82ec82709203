/*
 * json: machine-readable report; the schema is documented in
 * docs/analysis.md. Addresses and handles are hex strings (JSON numbers lose
 * precision past 2^53); counts and seqs are numbers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/errata/errata.h"
#include "analyze/placement.h"
#include "analyze/report/describe.h"
#include "analyze/report/next.h"
#include "analyze/report/report.h"
#include "analyze/report/verdict.h"
#include "analyze/rules/evidence_fmt.h"
#include "analyze/rules/rules.h"

#ifndef HIPVIS_VERSION
#define HIPVIS_VERSION "dev"
#endif

/* A pointer argument not known from metadata: where the word is (null:
 * a params array's entry, offset unknown), what the kernel's code says of
 * it, and that in a sentence (docs/analysis.md, "Inferred arguments"). */
static void pointer_json(struct hv_json *w, const struct hv_fside *s)
{
    if (s->origin != HV_ARG_INFERRED && s->origin != HV_ARG_CONFIRMED)
        return;
    char b[512];
    hv_json_key(w, "arg_offset");
    if (s->arg_offset == HV_KARG_OFFSET_UNKNOWN)
        hv_json_null(w);
    else
        hv_json_u64(w, s->arg_offset);
    hv_json_kstr(w, "deref", hv_deref_name(s->deref));
    hv_json_kstr(w, "pointer_text", hv_pointer_text(s, b, sizeof b));
}

/* The kernel argument a side wrote or read through: its "arg" text (graph
 * nodes), how the kernel uses it (readers), the pointer passed. */
static void kernel_arg(struct hv_json *w, const struct hv_fside *s, int arg_text, int reader)
{
    char b[48];
    hv_json_kstr(w, "kernel", s->name);
    if (arg_text)
        hv_json_kstr(w, "arg", hv_arg_text(s->arg_index, b, sizeof b));
    hv_json_ki64(w, "arg_index", s->arg_index);
    if (reader) {
        hv_json_kstr(w, "access", hv_access_text(s->access));
        hv_json_kstr(w, "origin", hv_origin_text(s->origin));
        pointer_json(w, s);
    }
    hv_json_khex(w, "pointer", s->value);
}

static void side(struct hv_json *w, const char *key, const struct hv_finding *f, const struct hv_fside *s,
                 const struct hv_report_opts *o)
{
    char b[48];
    if (s->kind == HV_SIDE_NONE || s->kind == HV_SIDE_TRACE) {
        hv_json_knull(w, key);
        return;
    }
    hv_json_kobj(w, key);
    hv_json_kstr(w, "role", hv_side_role(s->kind) ? hv_side_role(s->kind) : "input");
    hv_json_kstr(w, "kind", hv_side_kind_text(s->kind));
    hv_json_kstr(w, "api", hv_api_name(s->api));
    hv_json_ku64(w, "seq", s->seq);
    if (s->kind != HV_SIDE_FREE) {
        hv_json_kstr(w, "stream", hv_stream_text(s->stream, b, sizeof b));
        if (s->epoch == HV_EPOCH_UNKNOWN)
            hv_json_knull(w, "epoch");
        else
            hv_json_ku64(w, "epoch", s->epoch);
        hv_json_ku64(w, "ts_ns", s->ts_ns);
    }
    switch (s->kind) {
    case HV_SIDE_COPY:
        hv_json_kstr(w, "dir", hv_dir_text(s->dir));
        hv_json_ku64(w, "bytes", s->bytes);
        hv_json_khex(w, "dst", s->dst);
        hv_json_khex(w, "src", s->src);
        hv_json_kstr(w, "src_mem", hv_mem_text(s->src_mem));
        hv_json_kstr(w, "dst_mem", hv_mem_text(s->dst_mem));
        break;
    case HV_SIDE_MEMSET:
        hv_json_khex(w, "dst", s->dst);
        hv_json_ku64(w, "bytes", s->bytes);
        break;
    case HV_SIDE_KERNEL:
        kernel_arg(w, s, 0, 0);
        break;
    case HV_SIDE_REPLAY:
        hv_json_khex(w, "exec", s->exec);
        if (s->node_index >= 0) {
            hv_json_ki64(w, "node_index", s->node_index);
            hv_json_khex(w, "node", s->node);
            hv_json_kstr(w, "node_type", hv_node_type_text(s->node_type));
            kernel_arg(w, s, 1, 1);
        }
        break;
    case HV_SIDE_LAUNCH:
        kernel_arg(w, s, 0, 1);
        break;
    case HV_SIDE_FREE:
        hv_json_khex(w, "base", s->dst);
        hv_json_ku64(w, "bytes", s->bytes);
        break;
    case HV_SIDE_HOST:
        hv_json_kstr(w, "access", hv_access_text(s->access));
        hv_json_khex(w, "address", s->value);
        hv_json_khex(w, "pc", s->func);
        break;
    default:
        break;
    }
    const char *hint = hv_hint_text(s->hint);
    if (hint)
        hv_json_kstr(w, "engine", hint);
    if (o->side_json)
        o->side_json(o->side_ctx, w, f, s);
    hv_json_obj_end(w);
}

/* The rule's numbers n1 and n2 under the names the rule gives them (NULL: not shown). */
static void numbers(struct hv_json *w, const struct hv_finding *f, const char *n1, const char *n2)
{
    hv_json_ku64(w, n1, f->n1);
    if (n2)
        hv_json_ku64(w, n2, f->n2);
}

/* The members of one group's object; `bug` (size_t)-1: no "bug" index. */
static void finding(struct hv_json *w, const struct hv_group *g, size_t bug, const struct hv_report_opts *o)
{
    const struct hv_finding *f = &g->f;
    hv_json_kstr(w, "rule", hv_rule_name(f->rule));
    hv_json_kstr(w, "severity", hv_severity_name(f->severity));
    hv_json_ku64(w, "pid", f->pid);
    hv_json_ku64(w, "count", g->count);
    hv_json_ku64(w, "first_seq", g->first_seq);
    hv_json_ku64(w, "last_seq", g->last_seq);
    if (f->hi > f->lo) {
        hv_json_kobj(w, "buffer");
        hv_json_khex(w, "lo", f->lo);
        hv_json_khex(w, "hi", f->hi);
        hv_json_ku64(w, "bytes", f->hi - f->lo);
        if (f->alloc_bytes) {
            hv_json_khex(w, "alloc_base", f->alloc_base);
            hv_json_ku64(w, "alloc_bytes", f->alloc_bytes);
            hv_json_kstr(w, "alloc_mem", hv_mem_text(f->alloc_mem));
            hv_json_ku64(w, "alloc_seq", f->alloc_seq);
        }
        if (o->buffer_json)
            o->buffer_json(o->names_ctx, w, f);
        hv_json_obj_end(w);
    } else {
        hv_json_knull(w, "buffer");
    }
    side(w, "earlier", f, &f->a, o);
    side(w, "later", f, &f->b, o);
    hv_json_kstr(w, "note", f->note);
    if (f->detail)
        hv_json_kstr(w, "detail", f->detail);
    switch (f->rule) {
    case HV_RULE_SAME_EPOCH_WRITE:
        numbers(w, f, "write_bytes", NULL);
        break;
    case HV_RULE_STALE_CAPTURE_POINTER:
        hv_json_kstr(w, "now", f->n1 ? "re-allocated" : "freed");
        if (f->n1) {
            hv_json_ku64(w, "realloc_seq", f->n1);
            hv_json_khex(w, "realloc_base", f->n2);
        }
        break;
    case HV_RULE_TRACE_TRUNCATED:
        numbers(w, f, "offset", "records_salvaged");
        break;
    case HV_RULE_RECORDS_DROPPED:
        numbers(w, f, "missing", NULL);
        break;
    case HV_RULE_HOST_SOURCE_REWRITTEN:
        if (f->detail)
            numbers(w, f, "first_changed_offset", "bytes_changed");
        else if (f->a.kind == HV_SIDE_TRACE)
            numbers(w, f, "unchecked", NULL);
        break;
    case HV_RULE_THREE_POINT_PROBE:
        hv_json_kstr(w, "point", hv_probe_point_name((unsigned)f->n1));
        if (f->n1)
            hv_json_ku64(w, "first_differing_offset", f->n2);
        break;
    case HV_RULE_RUNTIME_ERRATUM:
        if ((f->n1 & 0xff) < hv_nerrata) {
            const struct hv_erratum *e = &hv_errata[f->n1 & 0xff];
            hv_json_kstr(w, "erratum", e->id);
            hv_json_kstr(w, "threads", e->threads);
            hv_json_kstr(w, "runtime_verdict", hv_erratum_verdict_name((int)(f->n1 >> 8)));
            hv_json_kstr(w, "workaround", e->workaround);
            hv_json_kstr(w, "fixed_in", e->fixed_in);
            hv_json_kstr(w, "arm", e->arm);
        }
        hv_json_ku64(w, "matches", f->n2);
        break;
    case HV_RULE_PARALLEL_QUEUE_READ:
        hv_json_ku64(w, "queues", f->n2);
        hv_json_kstr(w, "placement", (f->n1 & HV_PLACE_DROPPED) ? "dropped-wait"
                                      : (f->n1 & HV_PLACE_ROOT) ? "root-no-wait" : "inherited");
        break;
    default:
        break;
    }
    hv_json_kstr(w, "why", hv_rule_why(f->rule));
    if (bug != (size_t)-1)
        hv_json_ku64(w, "bug", bug);   /* index into "bugs" */
    if (o->all && g->nocc) {
        hv_json_karr(w, "occurrences");
        for (size_t i = 0; i + 1 < g->nocc; i += 2) {
            hv_json_arr(w);
            hv_json_u64(w, g->occ[i]);
            hv_json_u64(w, g->occ[i + 1]);
            hv_json_arr_end(w);
        }
        hv_json_arr_end(w);
    }
}

void hv_report_json_group(struct hv_json *w, const struct hv_group *g, const struct hv_report_opts *o)
{
    finding(w, g, (size_t)-1, o);
}

/* `"key":"hipvis-analyze OPTION TRACE"` with the trace's quoted path, or null. */
static void analyze_cmd(struct hv_json *w, const char *key, int on, const char *option,
                        const struct hv_trace_summary *t)
{
    char q[1024], cmd[1400];
    hv_json_key(w, key);
    if (!on) {
        hv_json_null(w);
        return;
    }
    snprintf(cmd, sizeof cmd, "hipvis-analyze %s %s", option,
             t && t->path ? hv_shell_quote(t->path, q, sizeof q) : "TRACE");
    hv_json_str(w, cmd);
}

static void next_json(struct hv_json *w, const struct hv_findings *s, const struct hv_finding *f)
{
    const struct hv_trace_summary *t = hv_trace_of(s, f->pid);
    struct hv_next n;
    hv_next_steps(f, t, &n);
    char cmd[1400];
    hv_json_kobj(w, "next");
    analyze_cmd(w, "diagnose", n.diagnose, "--diagnose", t);
    hv_json_key(w, "experiment");
    if (n.experiment) {
        char ecmd[20480];   /* a 4 KiB command line, quoted */
        hv_json_str(w, hv_experiment_command(t, ecmd, sizeof ecmd));
    } else {
        hv_json_null(w);
    }
    hv_json_kstr(w, "guard", n.guard);
    hv_json_kstr(w, "guard_why", n.guard_why);
    hv_json_kstr(w, "rerun_with", n.rerun);
    hv_json_kstr(w, "rerun_why", n.rerun_why);
    hv_json_kstr(w, "fix", n.fix);
    analyze_cmd(w, "confirm", n.code_object, "--code-object FILE", t);
    hv_json_kstr(w, "confirm_why", n.confirm_why);
    hv_json_kstr(w, "store_with", n.store);
    hv_json_kstr(w, "store_why", n.store_why);
    snprintf(cmd, sizeof cmd, "docs/triage.md#%s", hv_rule_name(f->rule));
    hv_json_kstr(w, "docs", cmd);
    hv_json_obj_end(w);
}

static void trace(struct hv_json *w, const struct hv_trace_summary *t)
{
#define S(f) hv_json_kstr(w, #f, t->f);
#define U(f) hv_json_ku64(w, #f, t->f);
    hv_json_obj(w);
    S(path) U(pid) U(ppid) S(exe) S(runtime) S(knobs)
    /* The command line as recorded (null: not recorded). */
    hv_json_key(w, "argv");
    if (t->argc) {
        hv_json_arr(w);
        for (uint32_t p = 0; p < t->argv_bytes && p < sizeof t->argv;) {
            size_t n = strnlen(t->argv + p, sizeof t->argv - p);
            hv_json_strn(w, t->argv + p, n);
            p += (uint32_t)n + 1;
        }
        hv_json_arr_end(w);
    } else {
        hv_json_null(w);
    }
    hv_json_kbool(w, "argv_truncated", t->argv_flags & HV_ARGV_TRUNCATED);
    U(records) U(calls) U(failed_calls) U(copies) U(memsets) U(launches) U(replays) U(instantiates) U(syncs)
    U(allocs) U(frees) U(streams) U(execs) U(execs_no_inventory) U(replays_unknown_exec) U(captured_skipped)
    U(orphan_records) U(first_ts) U(last_ts) U(last_seq) U(blit_max_bytes) U(peak_writer_segments) U(peak_allocs)
    U(dropped) U(chunk_gaps) U(late_records) U(failed_launches) U(failed_copies) U(launches_unsampled)
    U(unknown_layout_launches) U(inferred_launch_args)
    U(replays_checked) U(replays_no_inventory) U(replays_unknown_layout) U(unknown_layout_nodes) U(inferred_args)
#undef U
#undef S
    if (t->failed_calls) {
        hv_json_kobj(w, "first_failure");
        hv_json_kstr(w, "api", hv_api_name(t->first_failed_api));
        hv_json_ki64(w, "result", (int)t->first_failed_result);
        hv_json_ku64(w, "seq", t->first_failed_seq);
        hv_json_obj_end(w);
    } else {
        hv_json_knull(w, "first_failure");
    }
    hv_json_kbool(w, "unusable", hv_trace_unusable(t));
    hv_json_kbool(w, "footer", t->has_footer);
    hv_json_kbool(w, "complete", !t->read_status && t->has_footer && !t->dropped && !t->chunk_gaps);
    if (t->read_status) {
        hv_json_kobj(w, "truncated");
        hv_json_kstr(w, "status", t->read_status_name);
        hv_json_ku64(w, "offset", t->read_offset);
        hv_json_ku64(w, "records_salvaged", t->records_salvaged);
        hv_json_kstr(w, "what", t->read_what);
        hv_json_obj_end(w);
    } else {
        hv_json_knull(w, "truncated");
    }
    hv_json_obj_end(w);
}

static void error_json(struct hv_json *w, const struct hv_report_error *e)
{
    hv_json_obj(w);
    hv_json_kstr(w, "path", e->path);
    hv_json_kstr(w, "status", e->status);
    hv_json_ku64(w, "offset", e->offset);
    hv_json_kstr(w, "what", e->what);
    hv_json_obj_end(w);
}

void hv_report_json_write(struct hv_json *w, const struct hv_findings *s, const struct hv_report_opts *o)
{
    hv_json_obj(w);
    hv_json_kstr(w, "tool", "hipvis-analyze");
    hv_json_kstr(w, "version", HIPVIS_VERSION);
    hv_json_ku64(w, "schema", 1);
    hv_json_kstr(w, "fail_on", hv_severity_name(o->fail_on));
    uint64_t occ;
    size_t at = o->fail_on > HV_SEV_NONE ? hv_findings_count_at(s, o->fail_on, &occ) : 0;
    hv_json_ku64(w, "groups_at_or_above_fail_on", at);
    /* Groups resting on a pointer the trace only inferred (not confirmed
     * from the kernel's code): all, and those at or above --fail-on. */
    hv_json_ku64(w, "inferred_groups", hv_findings_count_inferred(s, HV_SEV_INFO));
    hv_json_ku64(w, "inferred_groups_at_or_above_fail_on",
                 o->fail_on > HV_SEV_NONE ? hv_findings_count_inferred(s, o->fail_on) : 0);
    hv_json_karr(w, "traces");
    for (size_t i = 0; i < s->ntraces; i++)
        trace(w, &s->traces[i]);
    hv_json_arr_end(w);
    hv_json_kbool(w, "unusable", hv_findings_unusable(s));
    /* Every trace's launches without kernel and arguments (HIPVIS_LAUNCH_EVERY),
     * summed: what no finding below could have used. */
    hv_json_ku64(w, "launches_unsampled", hv_findings_launches_unsampled(s, NULL));
    /* What the analysis concludes and what it could not check (verdict.h). */
    hv_verdict_json(w, s, o);
    hv_json_karr(w, "findings");
    const struct hv_group **v = hv_findings_sorted(s);
    struct hv_bug *bugs = NULL;
    size_t nb = v ? hv_findings_bugs(v, s->ngroups, &bugs) : 0;
    if (nb == (size_t)-1)
        nb = 0;
    for (size_t b = 0, k = 0; v && k < s->ngroups; k++) {
        while (bugs && b + 1 < nb && k >= bugs[b].first + bugs[b].n)
            b++;
        if (k)
            hv_json_nl(w);
        hv_json_obj(w);
        finding(w, v[k], bugs ? b : k, o);
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
    /* One entry per bug: the groups above that are the same writer and
     * reader in other execs or processes, with what to do next. */
    hv_json_karr(w, "bugs");
    for (size_t b = 0; bugs && b < nb; b++) {
        const struct hv_bug *x = &bugs[b];
        const struct hv_finding *f = &v[x->first]->f;
        if (b)
            hv_json_nl(w);
        hv_json_obj(w);
        hv_json_kstr(w, "rule", hv_rule_name(f->rule));
        hv_json_kstr(w, "severity", hv_severity_name(f->severity));
        hv_json_ku64(w, "count", x->count);
        hv_json_ku64(w, "processes", x->npids);
        hv_json_ku64(w, "execs", x->nexecs);
        hv_json_karr(w, "groups");
        for (size_t i = 0; i < x->n; i++)
            hv_json_u64(w, x->first + i);
        hv_json_arr_end(w);
        next_json(w, s, f);
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
    free(bugs);
    free(v);
    /* Always present, so a consumer can rely on it: empty means every input
     * was read to its end. */
    hv_json_karr(w, "errors");
    for (size_t i = 0; i < o->nerrors; i++)
        error_json(w, &o->errors[i]);
    hv_json_arr_end(w);
    if (o->json_extra)
        o->json_extra(w, o->json_extra_ctx);
    hv_json_obj_end(w);
}

void hv_report_json(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o)
{
    struct hv_json w;
    hv_json_init(&w, out, 0);
    hv_report_json_write(&w, s, o);
    hv_json_eol(&w);
}
