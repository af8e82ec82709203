/*
 * hipvis-analyze — offline analysis of hipvis traces.
 *
 *   hipvis-analyze [options] trace.zst [more traces...]
 *
 * Thin driver: options, one reader + one engine per trace (each trace is
 * one process; traces are analyzed one after another, so memory is that of
 * one process model at a time), then the reports. Exit status: 0 no finding
 * at or above --fail-on, 1 findings, 2 unreadable input or bad option.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analyze/diagnose/diagnose.h"
#include "analyze/engine.h"
#include "analyze/errata/errata.h"
#include "analyze/forensics/forensics.h"
#include "analyze/report/html.h"
#include "analyze/report/report.h"
#include "analyze/report/view.h"
#include "cli/cli.h"
#include "cli/inputs.h"
#include "hipvis/reader.h"

struct opts {
    int json, all, graphs, stats;
    int fail_on;
    const char *perfetto, *html;
    struct hv_view view;          /* --window, --clock (timeline exports) */
    uint64_t html_max_ops;
    uint32_t rules_disabled;
    const char *find_value, *at, *replay;  /* value search (src/analyze/forensics) */
    int diagnose;                 /* ranked hypotheses per same-epoch-write group */
    int errata;                   /* print the runtime errata table and exit */
    const char **code_objects;    /* --code-object FILE (repeatable) */
    int ncode_objects;
    /* Inputs after expansion (src/analyze/inputs.c): files to read, and the
     * name each is reported under ("-" is read from a private copy of stdin). */
    struct hv_inputs in;
};

enum {
    OPT_JSON, OPT_PERFETTO, OPT_FAIL_ON, OPT_ALL, OPT_GRAPHS, OPT_DISABLE, OPT_STATS, OPT_FIND_VALUE, OPT_AT,
    OPT_REPLAY, OPT_DIAGNOSE, OPT_CODE_OBJECT, OPT_HTML, OPT_WINDOW, OPT_CLOCK, OPT_HTML_MAX_OPS, OPT_ERRATA,
};

static const struct hv_cli_opt analyze_opts[] = {
    {"json", 0, HV_CLI_FLAG, OPT_JSON, NULL, "JSON report on stdout (schema: docs/analysis.md)"},
    {"perfetto", 0, HV_CLI_VALUE, OPT_PERFETTO, "FILE",
     "Chrome trace-event JSON for ui.perfetto.dev, flow arrows write -> reader (FILE.gz: gzipped)"},
    {"html", 0, HV_CLI_VALUE, OPT_HTML, "FILE",
     "one self-contained HTML page: timeline, findings, graphs, input health"},
    {"window", 0, HV_CLI_VALUE, OPT_WINDOW, "A:B",
     "timeline exports: calls with seq A..B, or times from the trace's start with a unit\n"
     "(ns|us|ms|s), e.g. 1.5s:2s"},
    {"clock", 0, HV_CLI_VALUE, OPT_CLOCK, "C",
     "timeline clock: monotonic (default) | realtime | offset=NS | base=NS | torch=FILE\n"
     "(line up with a torch.profiler Chrome trace of the same run)"},
    {"html-max-ops", 0, HV_CLI_VALUE, OPT_HTML_MAX_OPS, "N",
     "ops the HTML timeline keeps one by one (default 150000; the rest as density)"},
    {"fail-on", 0, HV_CLI_VALUE, OPT_FAIL_ON, "LEVEL",
     "error|warning|info|none: exit 1 when a finding is at or above (default warning)"},
    {"all", 0, HV_CLI_FLAG, OPT_ALL, NULL, "list every occurrence of each finding group"},
    {"graphs", 0, HV_CLI_FLAG, OPT_GRAPHS, NULL, "print each graph exec's inventory and shape"},
    {"disable", 0, HV_CLI_VALUE, OPT_DISABLE, "RULE", "turn a rule off (repeatable)"},
    {"stats", 0, HV_CLI_FLAG, OPT_STATS, NULL, "records/s and peak RSS on stderr"},
    {"find-value", 0, HV_CLI_VALUE, OPT_FIND_VALUE, "V[:W]",
     "with --at ADDR[:LEN]|kernel:NAME:ARG [--replay SEQ]: every recorded write that put V\n"
     "(W bytes, default 4) there, with its epoch distance to the replay (default: the last\n"
     "one reading the range); exit 0 found, 1 not found"},
    {"at", 0, HV_CLI_VALUE, OPT_AT, "WHERE", "the range --find-value looks at"},
    {"replay", 0, HV_CLI_VALUE, OPT_REPLAY, "SEQ", "the replay --find-value measures against"},
    {"diagnose", 0, HV_CLI_FLAG, OPT_DIAGNOSE, NULL,
     "rank the hypotheses (H1 H2 H3 H4 host-race) per same-epoch-write group"},
    {"code-object", 0, HV_CLI_VALUE, OPT_CODE_OBJECT, "FILE",
     "code object (ELF, bundle, CCOB) to classify readers' loads from (repeatable)"},
    {"errata", 0, HV_CLI_FLAG, OPT_ERRATA, NULL,
     "print the runtime errata the rule runtime-erratum knows (threads, releases, trigger,\n"
     "workaround, experiment arm) and exit"},
    {0},
};

static const struct hv_cli analyze_cli = {
    "hipvis-analyze", "[options] TRACE|DIR|- ...", analyze_opts,
    "A directory stands for every trace in it (recursively); - reads one trace from stdin.\n"
    "exit: 0 no finding at or above --fail-on, 1 findings or an unusable run (every runtime call\n"
    "failed, nothing launched), 2 unreadable input or bad option\n",
    0};

static int on_opt(void *ctx, int id, const char *val)
{
    struct opts *o = ctx;
    switch (id) {
    case OPT_JSON: o->json = 1; break;
    case OPT_ALL: o->all = 1; break;
    case OPT_GRAPHS: o->graphs = 1; break;
    case OPT_STATS: o->stats = 1; break;
    case OPT_PERFETTO: o->perfetto = val; break;
    case OPT_HTML: o->html = val; break;
    case OPT_WINDOW:
    case OPT_CLOCK: {
        char why[600];
        if ((id == OPT_WINDOW ? hv_view_parse_window(&o->view, val, why, sizeof why)
                              : hv_view_parse_clock(&o->view, val, why, sizeof why)) != 0) {
            fprintf(stderr, "hipvis-analyze: --%s: %s\n", id == OPT_WINDOW ? "window" : "clock", why);
            return -2;
        }
        break;
    }
    case OPT_HTML_MAX_OPS: {
        uint64_t ops = 0;
        if (hv_cli_u64(val, &ops) != 0 || !ops) {
            fprintf(stderr, "hipvis-analyze: --html-max-ops: expected a positive number, got '%s'\n", val);
            return -2;
        }
        o->html_max_ops = ops;
        break;
    }
    case OPT_FAIL_ON:
        o->fail_on = hv_severity_parse(val);
        if (o->fail_on < 0) {
            fprintf(stderr, "hipvis-analyze: --fail-on: expected error|warning|info|none, got '%s'\n", val);
            return -2;
        }
        break;
    case OPT_DISABLE: {
        const struct hv_rule *r = hv_rule_by_name(val);
        if (!r) {
            fprintf(stderr, "hipvis-analyze: --disable: no rule '%s'\n", val);
            return -2;
        }
        o->rules_disabled |= 1u << r->id;
        break;
    }
    case OPT_FIND_VALUE: o->find_value = val; break;
    case OPT_AT: o->at = val; break;
    case OPT_REPLAY: o->replay = val; break;
    case OPT_DIAGNOSE: o->diagnose = 1; break;
    case OPT_ERRATA: o->errata = 1; break;
    case OPT_CODE_OBJECT: o->code_objects[o->ncode_objects++] = val; break;
    }
    return 0;
}

/* Returns 0 with the operands expanded into o->in, 1 after --help /
 * --version, or 2 (after printing why). */
static int parse(int argc, char **argv, struct opts *o)
{
    o->fail_on = HV_SEV_WARNING;
    hv_view_init(&o->view);
    o->code_objects = calloc((size_t)argc, sizeof *o->code_objects);
    if (!o->code_objects)
        return 2;
    int first;
    int rc = hv_cli_parse(&analyze_cli, argc, argv, on_opt, o, &first);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 1 : 2;
    if (o->errata) {
        hv_errata_print(stdout);
        return 1;
    }
    if (first >= argc)
        return hv_cli_error(&analyze_cli, "no trace given");
    for (int i = first; i < argc; i++)
        hv_inputs_add(&o->in, argv[i], "hipvis-analyze");
    return 0;
}

/* Read problems, for the JSON report's "errors" (strings owned here). */
struct errs {
    struct hv_report_error *v;
    size_t n, cap;
};

static void err_add(struct errs *e, const char *path, const char *status, uint64_t off, const char *what)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 4;
        struct hv_report_error *v = realloc(e->v, cap * sizeof *v);
        if (!v)
            return;
        e->v = v;
        e->cap = cap;
    }
    e->v[e->n++] = (struct hv_report_error){strdup(path), strdup(status), off, strdup(what)};
}

static void err_free(struct errs *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free((char *)e->v[i].path);
        free((char *)e->v[i].status);
        free((char *)e->v[i].what);
    }
    free(e->v);
}

struct run {
    struct opts *o;
    struct errs errs;
    struct hv_perfetto *pf;
    struct hv_engine_observer pf_obs;
    struct hv_html *html;
    struct hv_engine_observer html_obs;
    FILE *graphs_out;
    struct hv_diag *diag;         /* --diagnose */
    uint64_t records;
    uint64_t *seen;               /* per input: record types read (bit type % 64) */
    struct hv_names_index *names; /* names, Python stacks, marks: collected while reading */
};

static const char *string_cb(void *ctx, uint32_t id)
{
    return hv_reader_string(ctx, id);
}

static void call_cb(void *ctx, const struct hv_model *m, const struct hv_call *c, uint32_t s)
{
    struct run *r = ctx;
    if (r->pf)
        r->pf_obs.call(r->pf_obs.ctx, m, c, s);
    if (r->html)
        r->html_obs.call(r->html_obs.ctx, m, c, s);
}

/* Findings observer: both timeline exports may want each occurrence. */
static void finding_cb(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new)
{
    struct run *r = ctx;
    if (r->pf)
        hv_perfetto_on_finding(r->pf, f, g, is_new);
    if (r->html)
        hv_html_on_finding(r->html, f, g, is_new);
}

static void graph_cb(void *ctx, const struct hv_model *m, uint32_t x)
{
    struct run *r = ctx;
    if (r->graphs_out)
        hv_report_graph(r->graphs_out, m, x);
    if (r->diag)
        hv_diag_on_graph(r->diag, m, x);
    if (r->html)
        hv_html_on_graph(r->html, m, x);
}

/* Analyzes one trace into `out`. Returns 0, or 2 when the input is
 * unreadable (not a trace, corrupt, I/O error); a truncated trace is
 * analyzed up to its end and reported as a finding, not an error. */
static int analyze_one(struct run *run, const struct hv_input *in, struct hv_findings *out)
{
    const char *path = in->name;
    struct hv_reader *rd;
    struct hv_read_error err;
    if (hv_reader_open(in->path, &rd, &err) != 0) {
        fprintf(stderr, "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s\n", path, hv_read_status_name(err.status),
                err.offset, err.what);
        err_add(&run->errs, path, hv_read_status_name(err.status), err.offset, err.what);
        return 2;
    }
    const struct hv_file_header *hdr = hv_reader_header(rd);
    struct hv_engine_options eo = {.rules_disabled = run->o->rules_disabled};
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = rd};
    struct hv_engine_observer obs = {.ctx = run};
    if (run->pf || run->html)
        obs.call = call_cb;
    if (run->graphs_out || run->diag || run->html)
        obs.graph = graph_cb;
    struct hv_engine *e = hv_engine_new(hdr, path, out, &eo, &hooks, &obs);
    if (!e) {
        fprintf(stderr, "hipvis-analyze: out of memory\n");
        hv_reader_close(rd);
        return 2;
    }
    hv_engine_records_stable(e);  /* a batch's records stay put until the next batch */
    if (run->pf)
        hv_perfetto_begin_trace(run->pf, hdr, string_cb, rd);
    if (run->html)
        hv_html_begin_trace(run->html, hdr, path, string_cb, rd);
    if (run->diag)
        hv_diag_begin_trace(run->diag, hdr, path, string_cb, rd);
    uint64_t names_types = run->names && hv_names_begin(run->names, in->path, hdr) == 0 ? HV_NAMES_TYPES : 0;
    const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
    long rc;
    struct hv_input_health h = {0};
    int status = 0, failed = 0;
    char first_what[sizeof hv_reader_error(rd)->what];
    uint64_t seen = 0;
    /* Decided once: the loop runs once per record. */
    const int outputs = run->pf || run->html || run->diag;
    for (;;) {
        hv_engine_keep(e);  /* the batch read next may reuse the last one's memory */
        rc = hv_reader_next_batch(rd, recs, HV_READER_BATCH_MAX);
        if (rc > 0) {
            if (!outputs) {
                /* Only the names index may look at a record: the engine
                 * takes the batch whole, and says what types it held. */
                uint64_t types = hv_engine_feed_batch(e, recs, (size_t)rc);
                seen |= types;
                if (types & names_types)
                    for (long i = 0; i < rc; i++)
                        if ((1ull << (recs[i]->type & 63)) & names_types)
                            hv_names_feed(run->names, rd, recs[i]);
                continue;
            }
            for (long i = 0; i < rc; i++) {
                const struct hv_rec_header *rec = recs[i];
                uint64_t type_bit = 1ull << (rec->type & 63);
                seen |= type_bit;
                hv_engine_feed(e, rec);
                if (type_bit & names_types)
                    hv_names_feed(run->names, rd, rec);
                if (outputs) {
                    if (run->pf)
                        hv_perfetto_record(run->pf, rec);
                    if (run->html)
                        hv_html_record(run->html, rec);
                    if (run->diag)
                        hv_diag_feed(run->diag, rec);
                }
            }
            continue;
        }
        if (rc == 0)
            break;
        const struct hv_read_error *re = hv_reader_error(rd);
        fprintf(stderr, "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s (%" PRIu64 " records before it analyzed)\n",
                path, hv_read_status_name(re->status), re->offset, re->what, re->records_salvaged);
        if (!failed) {
            /* The input-health finding names the first problem. */
            failed = 1;
            h.read_status = re->status;
            h.read_status_name = hv_read_status_name(re->status);
            h.offset = re->offset;
            h.records_salvaged = re->records_salvaged;
            snprintf(first_what, sizeof first_what, "%s", re->what);
            h.what = first_what;
        }
        if (re->status != HV_READ_TRUNCATED) {
            status = 2;
            err_add(&run->errs, path, hv_read_status_name(re->status), re->offset, re->what);
        }
        /* After a corrupt frame the reader resumes at the next valid frame:
         * what follows the damage is analyzed too. */
        if (re->status != HV_READ_CORRUPT)
            break;
    }
    rc = failed ? -1 : 0;
    run->seen[in - run->o->in.v] = seen;
    if (names_types)
        hv_names_end(run->names, seen);
    const struct hv_file_footer *ft = hv_reader_footer(rd);
    if (run->html)
        hv_html_footer(run->html, ft);
    if (ft) {
        h.has_footer = 1;
        for (int i = 0; i < HV_DROP__COUNT; i++)
            h.dropped += ft->dropped[i];
    }
    struct hv_reader_stats st;
    hv_reader_stats(rd, &st);
    if (!ft && rc >= 0) {
        h.offset = st.bytes_read;       /* where the trace stops without a footer */
        h.records_salvaged = st.records;
    }
    h.late_records = st.late_records;
    h.chunk_gaps = st.chunk_gaps;
    h.seq_missing = st.seq_missing;
    h.seq_gaps = st.seq_gaps;
    if (st.seq_gaps) {
        const struct hv_seq_gap *g;
        hv_reader_seq_gaps(rd, &g);
        fprintf(stderr, "hipvis-analyze: %s: %" PRIu64 " calls missing in %" PRIu64
                " per-thread sequence gaps (first: tid %" PRIu32 " seqs %" PRIu64 "..%" PRIu64 ")\n",
                path, st.seq_missing, st.seq_gaps, g[0].tid, g[0].first, g[0].last);
    }
    hv_engine_finish(e, &h);
    if (run->diag)
        hv_diag_end_trace(run->diag, hv_engine_summary(e));  /* the findings are complete; the reader still has the strings */
    if (hv_findings_add_trace(out, hv_engine_summary(e)) != 0)
        status = 2;
    run->records += hv_engine_summary(e)->records;
    hv_engine_free(e);
    hv_reader_close(rd);
    return status;
}

static void diag_json(FILE *out, const void *ctx)
{
    hv_diag_json(out, ctx);
}

/* --diagnose: the evidence collector, with the --code-object files loaded. */
static int diag_open(struct run *run, struct hv_findings *out)
{
    run->diag = hv_diag_new(out);
    if (!run->diag) {
        fprintf(stderr, "hipvis-analyze: out of memory\n");
        return 2;
    }
    for (int i = 0; i < run->o->ncode_objects; i++)
        if (hv_diag_add_code_object(run->diag, run->o->code_objects[i]) < 0) {
            fprintf(stderr, "hipvis-analyze: --code-object %s: %s\n", run->o->code_objects[i],
                    errno == EPROTO ? "no AMDGPU code object in it" : strerror(errno));
            return 2;
        }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Everything main allocated, released on every way out. */
static int finish(struct opts *o, struct run *run, int rc)
{
    hv_diag_free(run->diag);
    hv_names_free(run->names);
    free(run->seen);
    err_free(&run->errs);
    hv_inputs_free(&o->in);
    free(o->code_objects);
    return rc;
}

int main(int argc, char **argv)
{
    struct opts o = {0};
    struct run run = {.o = &o};
    int rc = parse(argc, argv, &o);
    if (rc)
        return finish(&o, &run, rc == 1 ? 0 : 2);
    /* The operands' own problems (an empty directory, stdin unreadable). */
    int status = o.in.nerr ? 2 : 0;
    for (size_t i = 0; i < o.in.nerr; i++)
        err_add(&run.errs, o.in.err[i].name, "unusable", 0, o.in.err[i].what);
    const char **paths = calloc(o.in.n + 1, sizeof *paths);
    run.seen = calloc(o.in.n + 1, sizeof *run.seen);
    if (!paths || !run.seen) {
        free(paths);
        return finish(&o, &run, 2);
    }
    for (size_t i = 0; i < o.in.n; i++)
        paths[i] = o.in.v[i].path;
    if (o.find_value || o.at || o.replay) {
        struct hv_value_query q = {.value = o.find_value, .at = o.at, .replay = o.replay, .json = o.json};
        rc = o.in.n ? hv_value_search(&q, paths, (int)o.in.n, stdout) : 2;
        free(paths);
        return finish(&o, &run, fflush(stdout) != 0 || status ? 2 : rc);
    }
    struct hv_findings out;
    hv_findings_init(&out);
    out.keep_all = o.all;
    run.graphs_out = o.graphs ? (o.json ? stderr : stdout) : NULL;
    if (o.diagnose && diag_open(&run, &out) != 0) {
        hv_findings_free(&out);
        free(paths);
        return finish(&o, &run, 2);
    }
    FILE *pff = NULL;
    if (o.perfetto) {
        pff = hv_report_fopen(o.perfetto);
        if (!pff) {
            fprintf(stderr, "hipvis-analyze: %s: %s\n", o.perfetto, strerror(errno));
            hv_findings_free(&out);
            free(paths);
            return finish(&o, &run, 2);
        }
        run.pf = hv_perfetto_open(pff, &o.view);
        run.pf_obs = hv_perfetto_observer(run.pf);
    }
    if (o.html) {
        run.html = hv_html_open(&out, &o.view, o.html_max_ops);
        if (run.html)
            run.html_obs = hv_html_observer(run.html);
    }
    if (run.pf || run.html) {
        out.observer = finding_cb;
        out.observer_ctx = &run;
        out.observer_new_only = !run.pf;  /* the page needs each group's first occurrence only */
    }
    /* Without it the report names no buffers; the analysis itself runs. */
    run.names = hv_names_new();
    double t0 = now_s();
    for (size_t i = 0; i < o.in.n; i++)
        if (analyze_one(&run, &o.in.v[i], &out) != 0)
            status = 2;
    double dt = now_s() - t0;
    /* A run that did nothing on the device (every call failed first) must
     * not pass for a clean one, whatever --fail-on says. */
    int unusable = hv_findings_unusable(&out);
    for (size_t i = 0; unusable && i < out.ntraces; i++) {
        const struct hv_trace_summary *t = &out.traces[i];
        if (!t->failed_calls)
            continue;
        char what[256];
        snprintf(what, sizeof what,
                 "%" PRIu64 " of %" PRIu64 " runtime calls failed (first: %s returned %d) and nothing was copied, "
                 "launched or replayed",
                 t->failed_calls, t->calls, hv_api_name(t->first_failed_api), (int)t->first_failed_result);
        err_add(&run.errs, t->path ? t->path : "?", "unusable", 0, what);
        fprintf(stderr, "hipvis-analyze: warning: %s: unusable run: %s\n", t->path ? t->path : "?", what);
    }
    if (unusable)
        status = 2;
    struct hv_report_opts ro = {.fail_on = o.fail_on, .all = o.all, .errors = run.errs.v, .nerrors = run.errs.n};
    /* HIPVIS_STACKS=1 traces: the caller stack of each finding's ops. */
    struct hv_stack_index *stacks = out.ngroups ? hv_stacks_for_findings(&out, paths, (int)o.in.n) : NULL;
    if (stacks)
        hv_stacks_install(stacks, &ro);
    if (run.names && out.ngroups && hv_names_resolve(run.names, &out))
        hv_names_install(run.names, &ro);
    if (run.diag) {
        ro.json_extra = diag_json;
        ro.json_extra_ctx = run.diag;
    }
    if (o.json)
        hv_report_json(stdout, &out, &ro);
    else
        hv_report_text(stdout, &out, &ro);
    if (run.diag && !o.json)
        hv_diag_text(stdout, run.diag);
    for (size_t i = 0; i < out.ntraces; i++)
        if (out.traces[i].read_status)
            fprintf(stderr, "hipvis-analyze: warning: %s is incomplete (%s at byte %" PRIu64
                            "): findings cover the valid prefix only\n",
                    out.traces[i].path, out.traces[i].read_status_name, out.traces[i].read_offset);
    if (run.pf) {
        if (hv_perfetto_close(run.pf) != 0 || fclose(pff) != 0) {
            fprintf(stderr, "hipvis-analyze: %s: write failed\n", o.perfetto);
            status = 2;
        }
    }
    if (run.html) {
        /* Written after the text/JSON report so that the page embeds the
         * same JSON document (stacks, diagnoses and errors included). */
        FILE *hf = fopen(o.html, "w");
        int wrc = hf ? hv_html_write(run.html, hf, &out, &ro) : -1;
        if (hf && fclose(hf) != 0)
            wrc = -1;
        if (wrc != 0) {
            fprintf(stderr, "hipvis-analyze: %s: %s\n", o.html, hf ? "write failed" : strerror(errno));
            status = 2;
        } else {
            fprintf(stderr, "hipvis-analyze: HTML report: %s\n", o.html);
        }
        hv_html_free(run.html);
    }
    if (o.stats) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr, "hipvis-analyze: %" PRIu64 " records in %.3f s = %.2f M records/s, peak RSS %ld MiB\n",
                run.records, dt, dt > 0 ? (double)run.records / dt / 1e6 : 0.0, ru.ru_maxrss / 1024);
    }
    hv_stacks_free(stacks);
    if (status == 0 && o.fail_on > HV_SEV_NONE && hv_findings_count_at(&out, o.fail_on, NULL) > 0)
        status = 1;
    if (fflush(stdout) != 0)
        status = 2;
    hv_findings_free(&out);
    free(paths);
    return finish(&o, &run, status);
}
