/*
 * json: machine-readable report; the schema is documented in
 * docs/analysis.md. Addresses and handles are hex strings (JSON numbers lose
 * precision past 2^53); counts and seqs are numbers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/placement.h"
#include "analyze/report/describe.h"
#include "analyze/report/next.h"
#include "analyze/report/report.h"
#include "analyze/rules/evidence_fmt.h"
#include "analyze/rules/rules.h"

#ifndef HIPVIS_VERSION
#define HIPVIS_VERSION "dev"
#endif

static void kv_str(FILE *out, const char *k, const char *v)
{
    fprintf(out, ",\"%s\":", k);
    hv_json_str(out, v);
}

static void kv_u64(FILE *out, const char *k, uint64_t v)
{
    fprintf(out, ",\"%s\":%" PRIu64, k, v);
}

static void kv_hex(FILE *out, const char *k, uint64_t v)
{
    fprintf(out, ",\"%s\":\"0x%" PRIx64 "\"", k, v);
}

static const char *role(int kind)
{
    switch (kind) {
    case HV_SIDE_COPY:
    case HV_SIDE_MEMSET:
    case HV_SIDE_KERNEL: return "write";
    case HV_SIDE_REPLAY: return "replay";
    case HV_SIDE_LAUNCH: return "read";
    case HV_SIDE_FREE: return "release";
    case HV_SIDE_SYNC: return "observe";
    case HV_SIDE_HOST: return "access";
    default: return "input";
    }
}

static void side(FILE *out, const char *key, const struct hv_finding *f, const struct hv_fside *s,
                 const struct hv_report_opts *o)
{
    char b[48];
    if (s->kind == HV_SIDE_NONE || s->kind == HV_SIDE_TRACE) {
        fprintf(out, ",\"%s\":null", key);
        return;
    }
    fprintf(out, ",\"%s\":{\"role\":\"%s\"", key, role(s->kind));
    kv_str(out, "kind", hv_side_kind_text(s->kind));
    kv_str(out, "api", hv_api_name(s->api));
    kv_u64(out, "seq", s->seq);
    if (s->kind != HV_SIDE_FREE) {
        kv_str(out, "stream", hv_stream_text(s->stream, b, sizeof b));
        if (s->epoch == HV_EPOCH_UNKNOWN)
            fprintf(out, ",\"epoch\":null");
        else
            kv_u64(out, "epoch", s->epoch);
        kv_u64(out, "ts_ns", s->ts_ns);
    }
    switch (s->kind) {
    case HV_SIDE_COPY:
        kv_str(out, "dir", hv_dir_text(s->dir));
        kv_u64(out, "bytes", s->bytes);
        kv_hex(out, "dst", s->dst);
        kv_hex(out, "src", s->src);
        kv_str(out, "src_mem", hv_mem_text(s->src_mem));
        kv_str(out, "dst_mem", hv_mem_text(s->dst_mem));
        break;
    case HV_SIDE_MEMSET:
        kv_hex(out, "dst", s->dst);
        kv_u64(out, "bytes", s->bytes);
        break;
    case HV_SIDE_KERNEL:
        kv_str(out, "kernel", s->name);
        fprintf(out, ",\"arg_index\":%d", s->arg_index);
        kv_hex(out, "pointer", s->value);
        break;
    case HV_SIDE_REPLAY:
        kv_hex(out, "exec", s->exec);
        if (s->node_index >= 0) {
            fprintf(out, ",\"node_index\":%d", s->node_index);
            kv_hex(out, "node", s->node);
            kv_str(out, "node_type", hv_node_type_text(s->node_type));
            kv_str(out, "kernel", s->name);
            kv_str(out, "arg", hv_arg_text(s->arg_index, b, sizeof b));
            fprintf(out, ",\"arg_index\":%d", s->arg_index);
            kv_str(out, "access", hv_access_text(s->access));
            kv_str(out, "origin", hv_origin_text(s->origin));
            kv_hex(out, "pointer", s->value);
        }
        break;
    case HV_SIDE_LAUNCH:
        kv_str(out, "kernel", s->name);
        fprintf(out, ",\"arg_index\":%d", s->arg_index);
        kv_str(out, "access", hv_access_text(s->access));
        kv_str(out, "origin", hv_origin_text(s->origin));
        kv_hex(out, "pointer", s->value);
        break;
    case HV_SIDE_FREE:
        kv_hex(out, "base", s->dst);
        kv_u64(out, "bytes", s->bytes);
        break;
    case HV_SIDE_HOST:
        kv_str(out, "access", hv_access_text(s->access));
        kv_hex(out, "address", s->value);
        kv_hex(out, "pc", s->func);
        break;
    default:
        break;
    }
    const char *hint = hv_hint_text(s->hint);
    if (hint)
        kv_str(out, "engine", hint);
    if (o->side_json)
        o->side_json(o->side_ctx, out, f, s);
    fputc('}', out);
}

static void finding(FILE *out, const struct hv_group *g, size_t bug, const struct hv_report_opts *o)
{
    const struct hv_finding *f = &g->f;
    fprintf(out, "{\"rule\":");
    hv_json_str(out, hv_rule_name(f->rule));
    kv_str(out, "severity", hv_severity_name(f->severity));
    kv_u64(out, "pid", f->pid);
    kv_u64(out, "count", g->count);
    kv_u64(out, "first_seq", g->first_seq);
    kv_u64(out, "last_seq", g->last_seq);
    if (f->hi > f->lo) {
        fprintf(out, ",\"buffer\":{\"lo\":\"0x%" PRIx64 "\",\"hi\":\"0x%" PRIx64 "\"", f->lo, f->hi);
        kv_u64(out, "bytes", f->hi - f->lo);
        if (f->alloc_bytes) {
            kv_hex(out, "alloc_base", f->alloc_base);
            kv_u64(out, "alloc_bytes", f->alloc_bytes);
            kv_str(out, "alloc_mem", hv_mem_text(f->alloc_mem));
            kv_u64(out, "alloc_seq", f->alloc_seq);
        }
        if (o->buffer_json)
            o->buffer_json(o->names_ctx, out, f);
        fputc('}', out);
    } else {
        fprintf(out, ",\"buffer\":null");
    }
    side(out, "earlier", f, &f->a, o);
    side(out, "later", f, &f->b, o);
    kv_str(out, "note", f->note);
    if (f->detail)
        kv_str(out, "detail", f->detail);
    switch (f->rule) {
    case HV_RULE_SAME_EPOCH_WRITE:
        kv_u64(out, "write_bytes", f->n1);
        break;
    case HV_RULE_STALE_CAPTURE_POINTER:
        kv_str(out, "now", f->n1 ? "re-allocated" : "freed");
        if (f->n1) {
            kv_u64(out, "realloc_seq", f->n1);
            kv_hex(out, "realloc_base", f->n2);
        }
        break;
    case HV_RULE_TRACE_TRUNCATED:
        kv_u64(out, "offset", f->n1);
        kv_u64(out, "records_salvaged", f->n2);
        break;
    case HV_RULE_RECORDS_DROPPED:
        kv_u64(out, "missing", f->n1);
        break;
    case HV_RULE_HOST_SOURCE_REWRITTEN:
        if (f->detail) {
            kv_u64(out, "first_changed_offset", f->n1);
            kv_u64(out, "bytes_changed", f->n2);
        } else if (f->a.kind == HV_SIDE_TRACE) {
            kv_u64(out, "unchecked", f->n1);
        }
        break;
    case HV_RULE_THREE_POINT_PROBE:
        kv_str(out, "point", hv_probe_point_name((unsigned)f->n1));
        if (f->n1)
            kv_u64(out, "first_differing_offset", f->n2);
        break;
    case HV_RULE_PARALLEL_QUEUE_READ:
        kv_u64(out, "queues", f->n2);
        kv_str(out, "placement", (f->n1 & HV_PLACE_DROPPED) ? "dropped-wait"
                                 : (f->n1 & HV_PLACE_ROOT) ? "root-no-wait" : "inherited");
        break;
    default:
        break;
    }
    kv_str(out, "why", hv_rule_why(f->rule));
    if (bug != (size_t)-1)
        kv_u64(out, "bug", bug);   /* index into "bugs" */
    if (o->all && g->nocc) {
        fprintf(out, ",\"occurrences\":[");
        for (size_t i = 0; i + 1 < g->nocc; i += 2)
            fprintf(out, "%s[%" PRIu64 ",%" PRIu64 "]", i ? "," : "", g->occ[i], g->occ[i + 1]);
        fputc(']', out);
    }
    fputc('}', out);
}

void hv_report_json_group(FILE *out, const struct hv_group *g, const struct hv_report_opts *o)
{
    finding(out, g, (size_t)-1, o);
}

static void next_json(FILE *out, const struct hv_findings *s, const struct hv_finding *f)
{
    const struct hv_trace_summary *t = hv_trace_of(s, f->pid);
    struct hv_next n;
    hv_next_steps(f, t, &n);
    char q[1024], cmd[1400];
    fputs("{\"diagnose\":", out);
    if (n.diagnose) {
        snprintf(cmd, sizeof cmd, "hipvis-analyze --diagnose %s",
                 t && t->path ? hv_shell_quote(t->path, q, sizeof q) : "TRACE");
        hv_json_str(out, cmd);
    } else {
        fputs("null", out);
    }
    fputs(",\"experiment\":", out);
    if (n.experiment) {
        char ecmd[20480];   /* a 4 KiB command line, quoted */
        hv_json_str(out, hv_experiment_command(t, ecmd, sizeof ecmd));
    } else {
        fputs("null", out);
    }
    kv_str(out, "guard", n.guard);
    kv_str(out, "guard_why", n.guard_why);
    kv_str(out, "rerun_with", n.rerun);
    kv_str(out, "rerun_why", n.rerun_why);
    kv_str(out, "fix", n.fix);
    snprintf(cmd, sizeof cmd, "docs/triage.md#%s", hv_rule_name(f->rule));
    kv_str(out, "docs", cmd);
    fputc('}', out);
}

static void trace(FILE *out, const struct hv_trace_summary *t)
{
    fprintf(out, "{\"path\":");
    hv_json_str(out, t->path);
    kv_u64(out, "pid", t->pid);
    kv_u64(out, "ppid", t->ppid);
    kv_str(out, "exe", t->exe);
    kv_str(out, "runtime", t->runtime);
    kv_str(out, "knobs", t->knobs);
    /* The command line as recorded (null: not recorded). */
    fputs(",\"argv\":", out);
    if (t->argc) {
        fputc('[', out);
        for (uint32_t p = 0, i = 0; p < t->argv_bytes && p < sizeof t->argv; i++) {
            size_t n = strnlen(t->argv + p, sizeof t->argv - p);
            if (i)
                fputc(',', out);
            hv_json_str(out, t->argv + p);
            p += (uint32_t)n + 1;
        }
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    fprintf(out, ",\"argv_truncated\":%s", t->argv_flags & HV_ARGV_TRUNCATED ? "true" : "false");
#define U(f) kv_u64(out, #f, t->f);
    U(records) U(calls) U(failed_calls) U(copies) U(memsets) U(launches) U(replays) U(instantiates) U(syncs)
    U(allocs) U(frees) U(streams) U(execs) U(execs_no_inventory) U(replays_unknown_exec) U(captured_skipped)
    U(orphan_records) U(first_ts) U(last_ts) U(last_seq) U(blit_max_bytes) U(peak_writer_segments) U(peak_allocs)
    U(dropped) U(chunk_gaps) U(late_records) U(failed_launches) U(failed_copies) U(launches_unsampled)
#undef U
    if (t->failed_calls) {
        fprintf(out, ",\"first_failure\":{\"api\":");
        hv_json_str(out, hv_api_name(t->first_failed_api));
        fprintf(out, ",\"result\":%d", (int)t->first_failed_result);
        kv_u64(out, "seq", t->first_failed_seq);
        fputc('}', out);
    } else {
        fputs(",\"first_failure\":null", out);
    }
    fprintf(out, ",\"unusable\":%s", hv_trace_unusable(t) ? "true" : "false");
    fprintf(out, ",\"footer\":%s", t->has_footer ? "true" : "false");
    fprintf(out, ",\"complete\":%s",
            !t->read_status && t->has_footer && !t->dropped && !t->chunk_gaps ? "true" : "false");
    if (t->read_status) {
        fprintf(out, ",\"truncated\":{\"status\":");
        hv_json_str(out, t->read_status_name);
        kv_u64(out, "offset", t->read_offset);
        kv_u64(out, "records_salvaged", t->records_salvaged);
        kv_str(out, "what", t->read_what);
        fputc('}', out);
    } else {
        fprintf(out, ",\"truncated\":null");
    }
    fputc('}', out);
}

void hv_report_json(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o)
{
    fprintf(out, "{\"tool\":\"hipvis-analyze\",\"version\":\"%s\",\"schema\":1", HIPVIS_VERSION);
    kv_str(out, "fail_on", hv_severity_name(o->fail_on));
    uint64_t occ;
    size_t at = o->fail_on > HV_SEV_NONE ? hv_findings_count_at(s, o->fail_on, &occ) : 0;
    kv_u64(out, "groups_at_or_above_fail_on", at);
    fprintf(out, ",\"traces\":[");
    for (size_t i = 0; i < s->ntraces; i++) {
        if (i)
            fputc(',', out);
        trace(out, &s->traces[i]);
    }
    fprintf(out, "],\"unusable\":%s", hv_findings_unusable(s) ? "true" : "false");
    /* Every trace's launches without kernel and arguments (HIPVIS_LAUNCH_EVERY),
     * summed: what no finding below could have used. */
    kv_u64(out, "launches_unsampled", hv_findings_launches_unsampled(s, NULL));
    fprintf(out, ",\"findings\":[");
    const struct hv_group **v = hv_findings_sorted(s);
    struct hv_bug *bugs = NULL;
    size_t nb = v ? hv_findings_bugs(v, s->ngroups, &bugs) : 0;
    if (nb == (size_t)-1)
        nb = 0;
    for (size_t b = 0, k = 0; v && k < s->ngroups; k++) {
        while (bugs && b + 1 < nb && k >= bugs[b].first + bugs[b].n)
            b++;
        if (k)
            fputs(",\n", out);
        finding(out, v[k], bugs ? b : k, o);
    }
    fputc(']', out);
    /* One entry per bug: the groups above that are the same writer and
     * reader in other execs or processes, with what to do next. */
    fputs(",\"bugs\":[", out);
    for (size_t b = 0; bugs && b < nb; b++) {
        const struct hv_bug *x = &bugs[b];
        const struct hv_finding *f = &v[x->first]->f;
        fprintf(out, "%s{\"rule\":", b ? ",\n" : "");
        hv_json_str(out, hv_rule_name(f->rule));
        kv_str(out, "severity", hv_severity_name(f->severity));
        kv_u64(out, "count", x->count);
        kv_u64(out, "processes", x->npids);
        kv_u64(out, "execs", x->nexecs);
        fputs(",\"groups\":[", out);
        for (size_t i = 0; i < x->n; i++)
            fprintf(out, "%s%zu", i ? "," : "", x->first + i);
        fputs("],\"next\":", out);
        next_json(out, s, f);
        fputc('}', out);
    }
    fputc(']', out);
    free(bugs);
    free(v);
    /* Always present, so a consumer can rely on it: empty means every input
     * was read to its end. */
    fputs(",\"errors\":[", out);
    for (size_t i = 0; i < o->nerrors; i++) {
        const struct hv_report_error *e = &o->errors[i];
        fprintf(out, "%s{\"path\":", i ? "," : "");
        hv_json_str(out, e->path);
        kv_str(out, "status", e->status);
        kv_u64(out, "offset", e->offset);
        kv_str(out, "what", e->what);
        fputc('}', out);
    }
    fputc(']', out);
    if (o->json_extra)
        o->json_extra(out, o->json_extra_ctx);
    fprintf(out, "}\n");
}
