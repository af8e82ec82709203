/* diagnose: the driver of --diagnose (see diagnose.h). */
#include "analyze/diagnose/diagnose.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/diagnose/diag_int.h"
#include "analyze/rules/rules.h"
#include "common/grow.h"

struct hv_diag *hv_diag_new(struct hv_findings *out, struct hv_sx *code)
{
    struct hv_diag *d = calloc(1, sizeof *d);
    if (d) {
        d->out = out;
        d->sx = code;
    }
    return d;
}

void hv_diag_free(struct hv_diag *d)
{
    if (!d)
        return;
    if (d->in_trace)
        dx_trace_free(&d->cur);
    free(d->v);
    free(d->errata);
    free(d);
}

void hv_diag_begin_trace(struct hv_diag *d, const struct hv_file_header *hdr, const char *path,
                         const char *(*string)(void *, uint32_t), void *string_ctx)
{
    if (d->in_trace)
        dx_trace_free(&d->cur);
    dx_trace_init(&d->cur, hdr, path, d->out->ngroups, string, string_ctx);
    d->in_trace = 1;
    d->traces++;
}

void hv_diag_feed(struct hv_diag *d, const struct hv_rec_header *rec)
{
    if (d->in_trace)
        dx_trace_feed(&d->cur, rec);
}

void hv_diag_on_graph(struct hv_diag *d, const struct hv_model *m, uint32_t exec)
{
    if (d->in_trace)
        dx_trace_graph(&d->cur, m, exec);
}

static struct dx_diag *push(struct hv_diag *d)
{
    return HV_GROW(d->v, d->n, d->cap, 8) ? &d->v[d->n++] : NULL;
}

/* Which groups get a diagnosis: every same-epoch-write group, and a
 * three-point-probe mismatch (error) on a buffer no same-epoch-write group
 * covers — the synchronized A/B run, where the host saw the copy complete
 * before the launch and a stale buffer is still a symptom. One per buffer. */
static int diagnosed(const struct hv_diag *d, const struct dx_trace *t, size_t gi)
{
    const struct hv_finding *f = &d->out->groups[gi].f;
    if (f->rule == HV_RULE_SAME_EPOCH_WRITE)
        return 1;
    if (f->rule != HV_RULE_THREE_POINT_PROBE || f->severity < HV_SEV_ERROR)
        return 0;
    for (size_t i = t->first_group; i < d->out->ngroups; i++) {
        const struct hv_finding *o = &d->out->groups[i].f;
        int same = o->pid == f->pid && o->lo < f->hi && o->hi > f->lo;
        if (same && (o->rule == HV_RULE_SAME_EPOCH_WRITE ||
                     (i < gi && o->rule == HV_RULE_THREE_POINT_PROBE && o->severity >= HV_SEV_ERROR)))
            return 0;
    }
    return 1;
}

/* Every same-epoch-write group this trace produced gets a diagnosis. The
 * trace's code objects are only needed while its groups are diagnosed. */
void hv_diag_end_trace(struct hv_diag *d, const struct hv_trace_summary *sum)
{
    if (!d->in_trace)
        return;
    struct dx_trace *t = &d->cur;
    t->launches_undrawn = sum->launches_unsampled;
    t->hostcheck = sum->hostcheck;
    dx_errata_collect(d, t);
    dx_errata_rank(d);
    dx_trace_objects(t, d->sx);
    for (size_t i = t->first_group; i < d->out->ngroups; i++) {
        const struct hv_group *g = &d->out->groups[i];
        if (g->f.pid != t->pid || !diagnosed(d, t, i))
            continue;
        d->groups_seen++;
        struct dx_diag *x = push(d);
        if (x)
            dx_diagnose(d, g, i, x);
    }
    hv_sx_drop_origin(d->sx, "trace");
    dx_trace_free(t);
    d->in_trace = 0;
}

size_t hv_diag_count(const struct hv_diag *d)
{
    return d->n;
}

void hv_diag_brief(const struct hv_diag *d, size_t i, struct hv_diag_brief *out)
{
    const struct dx_diag *x = &d->v[i];
    out->verdict = dx_hyp_id(x->verdict);
    out->observed = x->verdict >= 0;
    out->lead = NULL;
    for (int k = 0; k < HV_HYP__N && !out->lead; k++)
        if (x->status[x->order[k]] == DX_CONSISTENT)
            out->lead = dx_hyp_id(x->order[k]);
    out->pid = x->f.pid;
    out->lo = x->f.lo;
    out->hi = x->f.hi;
}
