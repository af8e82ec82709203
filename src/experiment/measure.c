/*
 * measure: what one run's traces say, read back in this process through
 * the analyzer's engine and --diagnose (the same code hipvis-analyze runs):
 *  - the symptom the tracer can record: probe snapshots that differ from
 *    the copied bytes (HV_REC_PROBE, counted here from the records);
 *  - what the findings say about the cause: same-epoch-write,
 *    unordered-write and host-source-rewritten occurrences, the first
 *    observed --diagnose verdict and the leading open hypothesis;
 *  - the cost: the median interval between graph launches (the step time
 *    of a decode loop), and the runtime version each run recorded.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "analyze/diagnose/diagnose.h"
#include "analyze/engine.h"
#include "analyze/rules/rules.h"
#include "experiment/ex_int.h"
#include "hipvis/api.h"
#include "hipvis/reader.h"

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

static const char *string_cb(void *ctx, uint32_t id)
{
    return hv_reader_string(ctx, id);
}

static void graph_cb(void *ctx, const struct hv_model *m, uint32_t x)
{
    hv_diag_on_graph(ctx, m, x);
}

/* One trace into the shared findings and diagnoses; 0, or -1 unreadable. */
static int one_trace(const char *path, struct hv_findings *out, struct hv_diag *diag, struct ex_run *r,
                     struct launches *l)
{
    struct hv_reader *rd;
    struct hv_read_error err;
    if (hv_reader_open(path, &rd, &err) != 0)
        return -1;
    const struct hv_file_header *hdr = hv_reader_header(rd);
    if (!r->runtime[0]) {
        snprintf(r->runtime, sizeof r->runtime, "%.*s", (int)sizeof hdr->runtime_version, hdr->runtime_version);
        snprintf(r->runtime_path, sizeof r->runtime_path, "%.*s", (int)sizeof hdr->runtime_path,
                 hdr->runtime_path);
    }
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = rd};
    struct hv_engine_observer obs = {.ctx = diag, .graph = graph_cb};
    struct hv_engine *e = hv_engine_new(hdr, path, out, NULL, &hooks, &obs);
    if (!e) {
        hv_reader_close(rd);
        return -1;
    }
    hv_diag_begin_trace(diag, hdr, path, string_cb, rd);
    const struct hv_rec_header *rec;
    int rc;
    while ((rc = hv_reader_next(rd, &rec)) == 1) {
        hv_engine_feed(e, rec);
        hv_diag_feed(diag, rec);
        if (rec->type == HV_REC_CALL && rec->size >= sizeof(struct hv_call)) {
            const struct hv_call *c = (const void *)rec;
            if (strstr(hv_api_name(c->api), "GraphLaunch") && c->result == 0)
                note_launch(l, rec->ts_ns);
        } else if (rec->type == HV_REC_PROBE) {
            int d = probe_differs(rec);
            r->probed += d >= 0;
            r->probe_mismatch += d > 0;
        }
    }
    struct hv_input_health h = {0};
    const struct hv_file_footer *ft = hv_reader_footer(rd);
    if (ft) {
        h.has_footer = 1;
        for (int i = 0; i < HV_DROP__COUNT; i++)
            h.dropped += ft->dropped[i];
    }
    r->dropped_records += h.dropped;
    if (rc < 0) {
        const struct hv_read_error *re = hv_reader_error(rd);
        h.read_status = re->status;
        h.read_status_name = hv_read_status_name(re->status);
        h.offset = re->offset;
        h.what = re->what;
    }
    hv_engine_finish(e, &h);
    hv_diag_end_trace(diag, hv_engine_summary(e));
    r->replays += hv_engine_summary(e)->replays;
    hv_engine_free(e);
    hv_reader_close(rd);
    return rc < 0 ? -1 : 0;
}

void ex_measure(const char *dir, struct ex_run *r)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct hv_findings out;
    hv_findings_init(&out);
    struct hv_diag *diag = hv_diag_new(&out);
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
        else if (g->f.rule == HV_RULE_RUNTIME_ERRATUM && (g->f.n1 & 0xff) < 32)
            r->errata |= 1u << (g->f.n1 & 0xff);
    }
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
    hv_findings_free(&out);
}
