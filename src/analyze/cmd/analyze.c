/*
 * hipvis-analyze's body (analyze.h): one engine per trace (each trace is
 * one process; traces are analyzed one after another, so memory is that of
 * one process model at a time), then the reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analyze/cmd/analyze.h"
#include "analyze/diagnose/confirm.h"
#include "analyze/diagnose/diagnose.h"
#include "analyze/diagnose/scalar_exposure.h"
#include "analyze/forensics/forensics.h"
#include "analyze/report/html.h"
#include "analyze/report/report.h"
#include "analyze/report/verdict.h"
#include "analyze/run.h"

/* Read problems, for the JSON report's "errors" (strings owned here). */
struct errs {
    struct hv_report_error *v;
    size_t n, cap;
};

static void err_add(struct errs *e, const char *path, const char *status, uint64_t off, const char *what)
{
    if (!HV_GROW(e->v, e->n, e->cap, 4))
        return;
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
    const struct hv_analyze_opts *o;
    struct errs errs;
    struct hv_perfetto *pf;
    struct hv_engine_observer pf_obs;
    struct hv_html *html;
    struct hv_engine_observer html_obs;
    FILE *graphs_out;
    struct hv_diag *diag;         /* --diagnose */
    struct hv_sx *code;           /* --code-object: for --diagnose and the inferred pointers' check */
    uint64_t records;
    struct hv_names_index *names; /* names, Python stacks, marks: collected while reading */
    int names_on;                 /* the trace being read feeds names */
};

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

/* ---- one trace: the hooks of hv_run_file ---- */

static int begin_cb(void *ctx, struct hv_run *t)
{
    struct run *run = ctx;
    if (run->pf)
        hv_perfetto_begin_trace(run->pf, t->hdr, hv_run_string, t->rd);
    if (run->html)
        hv_html_begin_trace(run->html, t->hdr, t->name, hv_run_string, t->rd);
    if (run->diag)
        hv_diag_begin_trace(run->diag, t->hdr, t->name, hv_run_string, t->rd);
    run->names_on = run->names && hv_names_begin(run->names, t->path, t->hdr) == 0;
    return 0;
}

/* Every record when an output wants them (the exports, --diagnose), else
 * only those the names index collects. */
static int record_cb(void *ctx, struct hv_run *t, const struct hv_rec_header *rec)
{
    struct run *run = ctx;
    if (run->names_on && ((1ull << (rec->type & 63)) & HV_NAMES_TYPES))
        hv_names_feed(run->names, t->rd, rec);
    if (run->pf)
        hv_perfetto_record(run->pf, rec);
    if (run->html)
        hv_html_record(run->html, rec);
    if (run->diag)
        hv_diag_feed(run->diag, rec);
    return 0;
}

/* A truncated trace is analyzed up to its end and reported as a finding,
 * not an error; after a corrupt frame what follows is analyzed too. */
static void problem_cb(void *ctx, const struct hv_run *t, const struct hv_read_error *re)
{
    struct run *run = ctx;
    if (!t->rd) {
        fprintf(stderr, "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s\n", t->name, hv_read_status_name(re->status),
                re->offset, re->what);
        err_add(&run->errs, t->name, hv_read_status_name(re->status), re->offset, re->what);
        return;
    }
    fprintf(stderr, "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s (%" PRIu64 " records before it analyzed)\n",
            t->name, hv_read_status_name(re->status), re->offset, re->what, re->records_salvaged);
    if (re->status != HV_READ_TRUNCATED)
        err_add(&run->errs, t->name, hv_read_status_name(re->status), re->offset, re->what);
}

static void end_cb(void *ctx, struct hv_run *t)
{
    struct run *run = ctx;
    if (run->names_on)
        hv_names_end(run->names, t->seen);
    if (run->html)
        hv_html_footer(run->html, hv_reader_footer(t->rd));
    if (t->stats.seq_gaps) {
        const struct hv_seq_gap *g;
        hv_reader_seq_gaps(t->rd, &g);
        fprintf(stderr, "hipvis-analyze: %s: %" PRIu64 " calls missing in %" PRIu64
                " per-thread sequence gaps (first: tid %" PRIu32 " seqs %" PRIu64 "..%" PRIu64 ")\n",
                t->name, t->stats.seq_missing, t->stats.seq_gaps, g[0].tid, g[0].first, g[0].last);
    }
    if (run->diag)
        hv_diag_end_trace(run->diag, hv_engine_summary(t->e));  /* the findings are complete; the reader still has the strings */
}

/* Analyzes one trace into `out`. Returns 0, or 2 when the input is
 * unreadable (not a trace, corrupt, I/O error). */
static int analyze_one(struct run *run, const struct hv_input *in, struct hv_findings *out)
{
    const int outputs = run->pf || run->html || run->diag;
    struct hv_run_opts ro = {
        .out = out,
        .rules_disabled = run->o->rules_disabled,
        .obs = {.ctx = run,
                .call = run->pf || run->html ? call_cb : NULL,
                .graph = run->graphs_out || run->diag || run->html ? graph_cb : NULL},
        .ctx = run,
        .begin = begin_cb,
        .record = record_cb,
        .record_types = outputs ? HV_RUN_EVERY_RECORD : HV_NAMES_TYPES,
        .problem = problem_cb,
        .end = end_cb,
    };
    struct hv_run t;
    int status = hv_run_file(in->path, in->name, &ro, &t);
    run->records += t.records;
    return status;
}

static void diag_json(struct hv_json *w, const void *ctx)
{
    hv_diag_json(w, ctx);
}

/* A --code-object file that could not be loaded: exit status 2. */
static int code_object_error(const char *path)
{
    fprintf(stderr, "hipvis-analyze: --code-object %s: %s\n", path,
            errno == EPROTO ? "no AMDGPU code object in it" : strerror(errno));
    return 2;
}

/* The --code-object files, loaded once: kernels are looked up there,
 * besides the traces' own objects, by --diagnose's evidence collector
 * (opened here too) and by the check of inferred pointer arguments. */
static int code_open(struct run *run, struct hv_findings *out)
{
    run->code = hv_sx_new();
    if (run->code && run->o->diagnose)
        run->diag = hv_diag_new(out, run->code);
    if (!run->code || (run->o->diagnose && !run->diag)) {
        fprintf(stderr, "hipvis-analyze: out of memory\n");
        return 2;
    }
    for (int i = 0; i < run->o->ncode_objects; i++)
        if (hv_sx_add_file(run->code, run->o->code_objects[i]) < 0)
            return code_object_error(run->o->code_objects[i]);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --diagnose, --perfetto, --html: opened before the first trace is read,
 * since they are fed while it is. 0, or 2 after a message. */
static int open_outputs(struct run *run, struct hv_findings *out, FILE **pff)
{
    const struct hv_analyze_opts *o = run->o;
    run->graphs_out = o->graphs ? (o->json ? stderr : stdout) : NULL;
    if (code_open(run, out) != 0)
        return 2;
    if (o->perfetto) {
        *pff = hv_report_fopen(o->perfetto);
        if (!*pff) {
            fprintf(stderr, "hipvis-analyze: %s: %s\n", o->perfetto, strerror(errno));
            return 2;
        }
        run->pf = hv_perfetto_open(*pff, &o->view);
        run->pf_obs = hv_perfetto_observer(run->pf);
    }
    if (o->html) {
        run->html = hv_html_open(out, &o->view, o->html_max_ops);
        if (run->html)
            run->html_obs = hv_html_observer(run->html);
    }
    if (run->pf || run->html) {
        out->observer = finding_cb;
        out->observer_ctx = run;
        out->observer_new_only = !run->pf;  /* the page needs each group's first occurrence only */
    }
    return 0;
}

/* A run that did nothing on the device (every call failed first) must not
 * pass for a clean one, whatever --fail-on says. Returns 2 for one. */
static int check_unusable(struct run *run, const struct hv_findings *out)
{
    int unusable = hv_findings_unusable(out);
    for (size_t i = 0; unusable && i < out->ntraces; i++) {
        const struct hv_trace_summary *t = &out->traces[i];
        if (!t->failed_calls)
            continue;
        char what[256];
        snprintf(what, sizeof what,
                 "%" PRIu64 " of %" PRIu64 " runtime calls failed (first: %s returned %d) and nothing was copied, "
                 "launched or replayed",
                 t->failed_calls, t->calls, hv_api_name(t->first_failed_api), (int)t->first_failed_result);
        err_add(&run->errs, t->path ? t->path : "?", "unusable", 0, what);
        fprintf(stderr, "hipvis-analyze: warning: %s: unusable run: %s\n", t->path ? t->path : "?", what);
    }
    return unusable ? 2 : 0;
}

/* The page is written after the text/JSON report so that it embeds the
 * same JSON document (stacks, diagnoses and errors included). 0, or 2. */
static int write_html(struct run *run, const struct hv_findings *out, const struct hv_report_opts *ro)
{
    const char *path = run->o->html;
    FILE *hf = fopen(path, "w");
    int wrc = hf ? hv_html_write(run->html, hf, out, ro) : -1;
    if (hf && fclose(hf) != 0)
        wrc = -1;
    if (wrc != 0) {
        fprintf(stderr, "hipvis-analyze: %s: %s\n", path, hf ? "write failed" : strerror(errno));
        return 2;
    }
    fprintf(stderr, "hipvis-analyze: HTML report: %s\n", path);
    return 0;
}

/* The findings of every trace are in: their names and stacks, the report,
 * the exports. Returns the exit status so far (0 or 2), and the verdict's
 * (verdict.h) in *verdict_status. */
static int report(struct run *run, const struct hv_findings *out, const char *const *paths, FILE *pff,
                  int *verdict_status)
{
    const struct hv_analyze_opts *o = run->o;
    int status = 0;
    struct hv_report_opts ro = {.fail_on = o->fail_on, .fail_on_unchecked = !o->no_fail_on_unchecked, .all = o->all,
                                .errors = run->errs.v, .nerrors = run->errs.n};
    /* HIPVIS_STACKS=1 traces: the caller stack of each finding's ops. */
    struct hv_stack_index *stacks = out->ngroups ? hv_stacks_for_findings(out, paths, (int)o->in.n) : NULL;
    if (stacks)
        hv_stacks_install(stacks, &ro);
    if (run->names && out->ngroups && hv_names_resolve(run->names, out))
        hv_names_install(run->names, &ro);
    if (run->diag) {
        ro.json_extra = diag_json;
        ro.json_extra_ctx = run->diag;
    }
    if (o->json)
        hv_report_json(stdout, out, &ro);
    else
        hv_report_text(stdout, out, &ro);
    if (run->diag && !o->json)
        hv_diag_text(stdout, run->diag);
    for (size_t i = 0; i < out->ntraces; i++)
        if (out->traces[i].read_status)
            fprintf(stderr, "hipvis-analyze: warning: %s is incomplete (%s at byte %" PRIu64
                            "): findings cover the valid prefix only\n",
                    out->traces[i].path, out->traces[i].read_status_name, out->traces[i].read_offset);
    if (run->pf) {
        if (hv_perfetto_close(run->pf) != 0 || fclose(pff) != 0) {
            fprintf(stderr, "hipvis-analyze: %s: write failed\n", o->perfetto);
            status = 2;
        } else {
            fprintf(stderr, "hipvis-analyze: Perfetto trace: %s\n", o->perfetto);
        }
    }
    if (run->html && write_html(run, out, &ro) != 0)
        status = 2;
    hv_stacks_free(stacks);
    /* The exit status the verdict printed above stands for. */
    struct hv_verdict v;
    hv_verdict_of(&v, out, &ro);
    *verdict_status = v.exit_status;
    return status;
}

static void print_stats(const struct run *run, double dt)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "hipvis-analyze: %" PRIu64 " records in %.3f s = %.2f M records/s, peak RSS %ld MiB\n",
            run->records, dt, dt > 0 ? (double)run->records / dt / 1e6 : 0.0, ru.ru_maxrss / 1024);
}

/* The findings run: every input, then the reports. */
static int analyze_all(struct run *run, const char *const *paths)
{
    const struct hv_analyze_opts *o = run->o;
    /* The operands' own problems (an empty directory, stdin unreadable). */
    int status = o->in.nerr ? 2 : 0;
    struct hv_findings out;
    hv_findings_init(&out);
    out.keep_all = o->all;
    FILE *pff = NULL;
    if (open_outputs(run, &out, &pff) != 0) {
        hv_findings_free(&out);
        return 2;
    }
    /* Without it the report names no buffers; the analysis itself runs. */
    run->names = hv_names_new();
    double t0 = now_s();
    for (size_t i = 0; i < o->in.n; i++)
        if (analyze_one(run, &o->in.v[i], &out) != 0)
            status = 2;
    double dt = now_s() - t0;
    if (check_unusable(run, &out))
        status = 2;
    hv_confirm_findings(run->code, &out, paths, (int)o->in.n);
    int verdict = HV_EXIT_CLEAN;
    if (report(run, &out, paths, pff, &verdict))
        status = 2;
    if (run->html)
        hv_html_free(run->html);
    if (o->stats)
        print_stats(run, dt);
    if (status == 0)
        status = verdict;
    if (fflush(stdout) != 0)
        status = 2;
    hv_findings_free(&out);
    return status;
}

int hv_analyze_cmd(const struct hv_analyze_opts *o)
{
    struct run run = {.o = o};
    for (size_t i = 0; i < o->in.nerr; i++)
        err_add(&run.errs, o->in.err[i].name, "unusable", 0, o->in.err[i].what);
    int rc = 2;
    const char **paths = calloc(o->in.n + 1, sizeof *paths);
    for (size_t i = 0; paths && i < o->in.n; i++)
        paths[i] = o->in.v[i].path;
    if (paths && (o->find_value || o->at || o->replay)) {
        struct hv_value_query q = {.value = o->find_value, .at = o->at, .replay = o->replay, .json = o->json};
        rc = o->in.n ? hv_value_search(&q, paths, (int)o->in.n, stdout) : 2;
        rc = fflush(stdout) != 0 || o->in.nerr ? 2 : rc;
    } else if (paths) {
        rc = analyze_all(&run, paths);
    }
    free(paths);
    hv_diag_free(run.diag);
    hv_sx_free(run.code);
    hv_names_free(run.names);
    err_free(&run.errs);
    return rc;
}
