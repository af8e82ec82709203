/*
 * measure: what one run's traces say, read back in this process through
 * the analyzer's engine and --diagnose (the same code hipvis-analyze runs):
 *  - the symptoms the tracer can record: probe snapshots that differ from
 *    the copied bytes (HV_REC_PROBE, counted here from the records) and
 *    host accesses to memory an in-flight copy used (HIPVIS_HOSTCHECK:
 *    host-access-in-flight findings, the coverage note aside);
 *  - what the findings say about the cause: same-epoch-write,
 *    unordered-write and host-source-rewritten occurrences, the first
 *    observed --diagnose verdict and the leading open hypothesis;
 *  - what the host-access check covered: the operations it protected,
 *    those it did not and the accesses it lost, summed over the traces
 *    (hv_coverage_sum, from its counts records), so that a run where it
 *    looked at nothing does not read as "no host access";
 *  - the cost: the median interval between graph launches (the step time
 *    of a decode loop), and the runtime version each run recorded.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "analyze/coverage.h"
#include "analyze/diagnose/diagnose.h"
#include "analyze/diagnose/scalar_exposure.h"
#include "analyze/engine.h"
#include "analyze/rules/rules.h"
#include "analyze/run.h"
#include "experiment/ex_int.h"
#include "hipvis/api.h"

struct launches {
    uint64_t *ts;
    size_t n, cap;
};

static void note_launch(struct launches *l, uint64_t ts)
{
    if (!HV_GROW(l->ts, l->n, l->cap, 256))
        return;
    l->ts[l->n++] = ts;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Median of the gaps between consecutive launches, in microseconds. */
static double median_interval_us(struct launches *l)
{
    if (l->n < 2)
        return 0;
    qsort(l->ts, l->n, sizeof *l->ts, cmp_u64);
    for (size_t i = 0; i + 1 < l->n; i++)
        l->ts[i] = l->ts[i + 1] - l->ts[i];
    qsort(l->ts, l->n - 1, sizeof *l->ts, cmp_u64);
    return (double)l->ts[(l->n - 1) / 2] / 1e3;
}

/* A probe record whose after-copy, pre- or post-replay snapshot differs
 * from the source it recorded. */
static int probe_differs(const struct hv_rec_header *rec)
{
    const struct hv_probe *p = (const void *)rec;
    if (rec->size < sizeof *p || (uint64_t)p->len * HV_PROBE__POINTS > rec->size - sizeof *p ||
        p->status != HV_PROBE_OK || !(p->have & HV_PROBE_HAVE(HV_PROBE_SOURCE)))
        return -1;
    const uint8_t *b = (const uint8_t *)(p + 1);
    for (int pt = HV_PROBE_SOURCE + 1; pt < HV_PROBE__POINTS; pt++)
        if ((p->have & HV_PROBE_HAVE(pt)) && memcmp(b, b + (size_t)pt * p->len, p->len) != 0)
            return 1;
    return 0;
}

/* What one trace adds to a run's measures, read through hv_run_file. */
struct measuring {
    struct ex_run *r;
    struct hv_diag *diag;
    struct launches *l;
};

static void graph_cb(void *ctx, const struct hv_model *m, uint32_t x)
{
    hv_diag_on_graph(ctx, m, x);
}

static int begin_cb(void *ctx, struct hv_run *t)
{
    struct measuring *ms = ctx;
    struct ex_run *r = ms->r;
    if (!r->runtime[0]) {
        snprintf(r->runtime, sizeof r->runtime, "%.*s", (int)sizeof t->hdr->runtime_version,
                 t->hdr->runtime_version);
        snprintf(r->runtime_path, sizeof r->runtime_path, "%.*s", (int)sizeof t->hdr->runtime_path,
                 t->hdr->runtime_path);
    }
    hv_diag_begin_trace(ms->diag, t->hdr, t->name, hv_run_string, t->rd);
    return 0;
}

static int record_cb(void *ctx, struct hv_run *t, const struct hv_rec_header *rec)
{
    (void)t;
    struct measuring *ms = ctx;
    hv_diag_feed(ms->diag, rec);
    if (rec->type == HV_REC_CALL && rec->size >= sizeof(struct hv_call)) {
        const struct hv_call *c = (const void *)rec;
        if (strstr(hv_api_name(c->api), "GraphLaunch") && c->result == 0)
            note_launch(ms->l, rec->ts_ns);
    } else if (rec->type == HV_REC_PROBE) {
        int d = probe_differs(rec);
        ms->r->probed += d >= 0;
        ms->r->probe_mismatch += d > 0;
    }
    return 0;
}

static void end_cb(void *ctx, struct hv_run *t)
{
    struct measuring *ms = ctx;
    ms->r->dropped_records += t->health.dropped;
    hv_diag_end_trace(ms->diag, hv_engine_summary(t->e));
    ms->r->replays += hv_engine_summary(t->e)->replays;
}

/* One trace into the shared findings and diagnoses; 0, or -1 when it could
 * not be read to its end. */
static int one_trace(const char *path, struct hv_findings *out, struct hv_diag *diag, struct ex_run *r,
                     struct launches *l)
{
    struct measuring ms = {r, diag, l};
    struct hv_run_opts o = {.out = out,
                            .obs = {.ctx = diag, .graph = graph_cb},
                            .ctx = &ms,
                            .begin = begin_cb,
                            .record = record_cb,
                            .record_types = HV_RUN_EVERY_RECORD,
                            .end = end_cb};
    struct hv_run t;
    return hv_run_file(path, NULL, &o, &t) != 0 || t.damaged ? -1 : 0;
}

void ex_measure(const char *dir, struct ex_run *r)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct hv_findings out;
    hv_findings_init(&out);
    struct hv_sx *code = hv_sx_new();   /* the traces' own code objects only */
    struct hv_diag *diag = code ? hv_diag_new(&out, code) : NULL;
    struct launches l = {0};
    struct dirent *de;
    while (diag && (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".zst") != 0)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        r->traces++;
        if (one_trace(path, &out, diag, r, &l) != 0)
            r->unreadable++;
    }
    closedir(d);
    for (size_t i = 0; i < out.ngroups; i++) {
        const struct hv_group *g = &out.groups[i];
        if (g->f.rule == HV_RULE_SAME_EPOCH_WRITE)
            r->same_epoch += g->count;
        else if (g->f.rule == HV_RULE_UNORDERED_WRITE)
            r->unordered += g->count;
        else if (g->f.rule == HV_RULE_HOST_SOURCE_REWRITTEN && g->f.severity >= HV_SEV_WARNING)
            r->rewrites += g->count;
        else if (g->f.rule == HV_RULE_HOST_ACCESS_IN_FLIGHT && g->f.severity > HV_SEV_INFO)
            r->host_accesses += g->count;
        else if (g->f.rule == HV_RULE_RUNTIME_ERRATUM && (g->f.n1 & 0xff) < 32)
            r->errata |= 1u << (g->f.n1 & 0xff);
    }
    struct hv_coverage cov;
    hv_coverage_sum(&out, &cov);
    r->hc = cov.hostcheck;
    for (size_t i = 0; diag && i < hv_diag_count(diag); i++) {
        struct hv_diag_brief b;
        hv_diag_brief(diag, i, &b);
        if (b.observed && !r->verdict[0])
            snprintf(r->verdict, sizeof r->verdict, "%s", b.verdict);
        if (i == 0 && b.lead)
            snprintf(r->lead, sizeof r->lead, "%s", b.lead);
    }
    r->replay_interval_us = median_interval_us(&l);
    free(l.ts);
    hv_diag_free(diag);
    hv_sx_free(code);
    hv_findings_free(&out);
}
