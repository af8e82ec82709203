/*
 * Value search: the query (--find-value V[:W] --at ADDR[:LEN] |
 * kernel:NAME:ARG, --replay SEQ), resolving a kernel-argument target to its
 * buffer, and one pass of a trace through an engine (src/analyze/run.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/forensics/value_int.h"
#include "analyze/run.h"

static int bad(const char *what, const char *v)
{
    fprintf(stderr, "hipvis-analyze: %s: cannot parse '%s'\n", what, v);
    return -1;
}

static int parse_u64(const char *s, const char **end, uint64_t *out)
{
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 0);
    if (errno || e == s)
        return -1;
    *out = v;
    *end = e;
    return 0;
}

int hv_vq_parse(const struct hv_value_query *q, struct hv_vq *o)
{
    memset(o, 0, sizeof *o);
    if (!q->value || !q->at) {
        fprintf(stderr, "hipvis-analyze: --find-value and --at go together\n");
        return -1;
    }
    char *e;
    errno = 0;
    long long v = strtoll(q->value, &e, 0);
    if (errno || e == q->value)
        return bad("--find-value", q->value);
    o->width = 4;
    if (*e == ':') {
        unsigned long w = strtoul(e + 1, &e, 10);
        if (w != 1 && w != 2 && w != 4 && w != 8)
            return bad("--find-value width (1, 2, 4 or 8)", q->value);
        o->width = (unsigned)w;
    }
    if (*e)
        return bad("--find-value", q->value);
    o->v = v;
    for (unsigned i = 0; i < 8; i++)
        o->value[i] = (uint8_t)((uint64_t)v >> (8 * i));

    const char *a = q->at, *end;
    if (strncmp(a, "kernel:", 7) == 0) {
        const char *name = a + 7, *colon = strrchr(name, ':');
        char *ae;
        long arg = colon ? strtol(colon + 1, &ae, 10) : -1;
        if (!colon || colon == name || arg < 0 || *ae)
            return bad("--at kernel:NAME:ARG", a);
        o->kernel = name;
        o->kernel_len = (size_t)(colon - name);
        o->arg = (int)arg;
    } else {
        uint64_t lo, len = o->width;
        if (parse_u64(a, &end, &lo) != 0 || (*end && *end != ':'))
            return bad("--at ADDR[:LEN]", a);
        if (*end == ':' && (parse_u64(end + 1, &end, &len) != 0 || *end || !len))
            return bad("--at ADDR[:LEN]", a);
        o->lo = lo;
        o->hi = lo + len;
    }
    if (q->replay) {
        if (parse_u64(q->replay, &end, &o->replay_seq) != 0 || *end || !o->replay_seq)
            return bad("--replay SEQ", q->replay);
    }
    return 0;
}

struct vq_pass {
    hv_vq_feed_fn fn;
    void *ctx;
    struct hv_file_header *hdr_out;
};

static int vq_begin(void *ctx, struct hv_run *t)
{
    struct vq_pass *p = ctx;
    if (p->hdr_out)
        *p->hdr_out = *t->hdr;
    return 0;
}

static int vq_record(void *ctx, struct hv_run *t, const struct hv_rec_header *rec)
{
    struct vq_pass *p = ctx;
    p->fn(p->ctx, t->e, rec);
    return 0;
}

static void vq_problem(void *ctx, const struct hv_run *t, const struct hv_read_error *re)
{
    (void)ctx;
    fprintf(stderr, t->rd ? "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s (searched the records before it)\n"
                          : "hipvis-analyze: %s: %s at byte %" PRIu64 ": %s\n",
            t->path, hv_read_status_name(re->status), re->offset, re->what);
}

int hv_vq_run_trace(const char *path, hv_vq_feed_fn fn, void *ctx, struct hv_engine_observer *obs,
                    struct hv_file_header *hdr_out)
{
    struct vq_pass p = {fn, ctx, hdr_out};
    struct hv_run_opts o = {.ctx = &p,
                            .begin = vq_begin,
                            .record = vq_record,
                            .record_types = HV_RUN_EVERY_RECORD,
                            .problem = vq_problem};
    if (obs)
        o.obs = *obs;
    struct hv_run t;
    return hv_run_file(path, NULL, &o, &t);
}

/* ---- kernel:NAME:ARG ---- */

struct resolve {
    struct hv_vq *vq;
    int found;
};

static int name_is(const struct hv_vq *vq, const char *name)
{
    return name && strlen(name) == vq->kernel_len && strncmp(name, vq->kernel, vq->kernel_len) == 0;
}

/* A graph inventory completed: an argument range of a kernel node named NAME. */
static void on_graph(void *ctx, const struct hv_model *m, uint32_t x)
{
    struct resolve *r = ctx;
    const struct hv_exec *ex = &m->execs[x];
    for (uint32_t i = 0; i < ex->nranges && !r->found; i++) {
        const struct hv_arange *rg = &ex->ranges[i];
        const struct hv_gnode *g = &ex->nodes[rg->node];
        if (g->type == HV_NODE_KERNEL && rg->arg_index == r->vq->arg &&
            name_is(r->vq, hv_model_name(m, g->name_id, g->func))) {
            r->vq->lo = rg->lo;
            r->vq->hi = rg->hi;
            r->found = 1;
        }
    }
}

/* An eager launch's pointer arguments. */
static void on_record(void *ctx, struct hv_engine *e, const struct hv_rec_header *rec)
{
    struct resolve *r = ctx;
    const struct hv_kargs *k = (const struct hv_kargs *)(const void *)rec;
    if (r->found || rec->type != HV_REC_KARGS || k->owner_node || rec->size < sizeof *k ||
        (uint64_t)k->count * sizeof(struct hv_karg) > rec->size - sizeof *k)
        return;
    const struct hv_model *m = hv_engine_model(e);
    const struct hv_karg *args = (const struct hv_karg *)(const void *)(k + 1);
    if (!name_is(r->vq, hv_model_name(m, k->name_id, k->func)))
        return;
    for (uint32_t i = 0; i < k->count && !r->found; i++) {
        if (args[i].index != r->vq->arg)
            continue;
        struct hv_imap_seg a;
        hv_pointer_range(m, args[i].value, args, k->count, &r->vq->lo, &r->vq->hi, &a);
        r->found = 1;
    }
}

int hv_vq_resolve(struct hv_vq *vq, const char *path)
{
    struct resolve r = {vq, 0};
    struct hv_engine_observer obs = {.ctx = &r, .graph = on_graph};
    if (hv_vq_run_trace(path, on_record, &r, &obs, NULL) == 2)
        return -1;
    if (!r.found) {
        fprintf(stderr, "hipvis-analyze: %s: no launch or graph node of kernel %.*s with pointer argument %d\n",
                path, (int)vq->kernel_len, vq->kernel, vq->arg);
        return -1;
    }
    return 0;
}
