/*
 * errata_rank: the runtime errata part of --diagnose. A runtime-erratum
 * group is a candidate cause of its own, beside the hypotheses of the
 * same-epoch-write diagnoses: a graph whose ordering the runtime itself
 * drops can read stale data with no copy in the same epoch at all. The
 * groups are ranked by what the threads say of the traced runtime (those
 * whose release and knobs have the bug first), then by how often the
 * trace hit them; each names the workaround and the experiment arm that
 * tests it (docs/errata.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/diagnose/diag_int.h"
#include "common/grow.h"
#include "common/json.h"
#include "analyze/errata/errata.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

void dx_errata_collect(struct hv_diag *d, const struct dx_trace *t)
{
    for (size_t i = t->first_group; i < d->out->ngroups; i++) {
        const struct hv_finding *f = &d->out->groups[i].f;
        if (f->rule != HV_RULE_RUNTIME_ERRATUM || f->pid != t->pid || (f->n1 & 0xff) >= hv_nerrata)
            continue;
        if (!HV_GROW(d->errata, d->nerrata, d->caperrata, 8))
            return;
        struct dx_erratum *e = &d->errata[d->nerrata++];
        e->pid = f->pid;
        e->group = i;
        snprintf(e->trace, sizeof e->trace, "%s", t->path);
    }
}

static const struct hv_findings *sort_out;

static int by_likelihood(const void *a, const void *b)
{
    const struct hv_group *x = &sort_out->groups[((const struct dx_erratum *)a)->group];
    const struct hv_group *y = &sort_out->groups[((const struct dx_erratum *)b)->group];
    if (x->f.severity != y->f.severity)
        return x->f.severity > y->f.severity ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

void dx_errata_rank(struct hv_diag *d)
{
    sort_out = d->out;
    if (d->nerrata > 1)
        qsort(d->errata, d->nerrata, sizeof *d->errata, by_likelihood);
    sort_out = NULL;
}

void dx_errata_text(FILE *out, const struct hv_diag *d)
{
    if (!d->nerrata) {
        fputs("diagnose: no graph matches a known runtime erratum (hipvis-analyze --errata lists them)\n", out);
        return;
    }
    fprintf(out, "\ndiagnose: %zu runtime erratum match%s (the traced runtime affected first, then by occurrences)\n",
            d->nerrata, d->nerrata == 1 ? "" : "es");
    for (size_t i = 0; i < d->nerrata; i++) {
        const struct hv_group *g = &d->out->groups[d->errata[i].group];
        const struct hv_finding *f = &g->f;
        const struct hv_erratum *e = &hv_errata[f->n1 & 0xff];
        fprintf(out, "== erratum %zu/%zu  %s  [%s: %s]  pid %" PRIu64 "  x%" PRIu64 "  (seq %" PRIu64 " .. %" PRIu64
                     ")\n",
                i + 1, d->nerrata, e->id, hv_severity_name(f->severity),
                hv_erratum_verdict_name((int)(f->n1 >> 8)), f->pid, g->count, g->first_seq, g->last_seq);
        fprintf(out, "   %s\n", e->title);
        fprintf(out, "   exec     0x%" PRIx64 "  node %d  (%" PRIu64 " matching node%s)\n", f->b.exec,
                f->b.node_index, f->n2, f->n2 == 1 ? "" : "s");
        if (f->detail)
            fprintf(out, "   detail   %s\n", f->detail);
        fprintf(out, "   threads  %s; fixed in: %s\n", e->threads, e->fixed_in);
        fprintf(out, "   fix      %s\n", e->workaround);
        if (e->arm)
            fprintf(out, "   test it  hipvis experiment --arms %s -- PROGRAM   # %s: %s\n", e->arm, e->arm_env,
                    e->arm_note);
        fputc('\n', out);
    }
}

void dx_errata_json(struct hv_json *w, const struct hv_diag *d)
{
    hv_json_karr(w, "errata");
    for (size_t i = 0; i < d->nerrata; i++) {
        const struct hv_group *g = &d->out->groups[d->errata[i].group];
        const struct hv_finding *f = &g->f;
        const struct hv_erratum *e = &hv_errata[f->n1 & 0xff];
        hv_json_obj(w);
        hv_json_ku64(w, "rank", i + 1);
        hv_json_kstr(w, "erratum", e->id);
        hv_json_kstr(w, "title", e->title);
        hv_json_kstr(w, "severity", hv_severity_name(f->severity));
        hv_json_kstr(w, "runtime_verdict", hv_erratum_verdict_name((int)(f->n1 >> 8)));
        hv_json_ku64(w, "pid", f->pid);
        hv_json_ku64(w, "count", g->count);
        hv_json_khex(w, "exec", f->b.exec);
        hv_json_ki64(w, "node_index", f->b.node_index);
        hv_json_ku64(w, "matches", f->n2);
        hv_json_kstr(w, "trace", d->errata[i].trace);
        hv_json_kstr(w, "detail", f->detail);
        hv_json_kstr(w, "workaround", e->workaround);
        hv_json_kstr(w, "arm", e->arm);
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
}
