/*
 * runtime-erratum: a replayed graph matches the trigger of a published
 * runtime bug of the ordering class (src/analyze/errata: the table, its
 * threads, the affected releases, the workaround and the experiment arm).
 * Warning when the threads say the traced runtime (the release in the
 * trace header and the knobs the process ran with) has the bug; info when
 * the graph has the trigger but the runtime is not, or not known to be,
 * affected ("would hit rocm-systems#11501 on ROCm 7.2").
 *
 * One finding per (exec, erratum) and replay: b is the first matching node
 * (the one whose ordering the bug loses), a the node it is no longer
 * ordered after; n1 the entry's index | verdict << 8, n2 the matches in
 * the exec; the detail names up to HITS_KEPT of them. The triggers are
 * evaluated once per exec inventory (instantiate, update, node setters),
 * not per replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/errata/errata.h"
#include "analyze/rules/rules.h"

#define HITS_KEPT 8
#define DETAIL_BYTES 1024

struct entry_eval {
    long total;
    struct hv_erratum_hit hits[HITS_KEPT];
    char detail[DETAIL_BYTES];
};

/* What the triggers gave for one exec inventory. A process may hold 100k
 * execs: one without a match costs these few words, the per-erratum
 * results are allocated only where something matched. */
struct exec_eval {
    uint64_t handle, inst_seq, site;
    int valid;
    struct entry_eval *e;        /* hv_nerrata entries, NULL when nothing matched */
};

struct state {
    struct hv_errata_rt rt;
    int verdict[HV_ERRATA_MAX];
    const char *why[HV_ERRATA_MAX];
    struct exec_eval *ev;        /* by exec index */
    uint32_t nev;
};

static void free_state(void *p)
{
    struct state *st = p;
    for (uint32_t i = 0; i < st->nev; i++)
        free(st->ev[i].e);
    free(st->ev);
    free(st);
}

static struct state *state_of(struct hv_model *m)
{
    struct state *st = m->rule_state[HV_RULE_RUNTIME_ERRATUM];
    if (st)
        return st;
    st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    hv_errata_rt_parse(&st->rt, m->sum ? m->sum->runtime : NULL, m->sum ? m->sum->knobs : NULL, m->cuda);
    for (size_t i = 0; i < hv_nerrata; i++)
        st->verdict[i] = hv_errata[i].affects(&st->rt, &st->why[i]);
    m->rule_state[HV_RULE_RUNTIME_ERRATUM] = st;
    return st;
}

static struct exec_eval *eval_slot(struct state *st, uint32_t x)
{
    if (x >= st->nev) {
        uint32_t n = x + 1 > 2 * st->nev ? x + 8 : 2 * st->nev;
        struct exec_eval *v = realloc(st->ev, (size_t)n * sizeof *v);
        if (!v)
            return NULL;
        memset(v + st->nev, 0, (size_t)(n - st->nev) * sizeof *v);
        st->ev = v;
        st->nev = n;
    }
    return &st->ev[x];
}

static const char *node_text(const struct hv_model *m, const struct hv_exec *x, uint32_t k, char *buf, size_t len)
{
    const struct hv_gnode *g = &x->nodes[k];
    const char *name = g->type == HV_NODE_KERNEL ? hv_model_name(m, g->name_id, g->func) : NULL;
    snprintf(buf, len, "node %u%s%s%s", g->index, name ? " (" : "", name ? name : "", name ? ")" : "");
    return buf;
}

static void describe(const struct hv_model *m, const struct state *st, const struct hv_exec *x, size_t i,
                     struct entry_eval *ee)
{
    const struct hv_erratum *e = &hv_errata[i];
    char *d = ee->detail;
    size_t len = sizeof ee->detail, used = 0;
    char a[96], b[96], c[96];
    used += (size_t)snprintf(d + used, len - used, "%s: %s; %ld match%s:", hv_erratum_verdict_name(st->verdict[i]),
                             st->why[i], ee->total, ee->total == 1 ? "" : "es");
    for (long k = 0; k < ee->total && k < HITS_KEPT && used < len; k++) {
        const struct hv_erratum_hit *h = &ee->hits[k];
        node_text(m, x, h->node, a, sizeof a);
        node_text(m, x, h->from, b, sizeof b);
        if (h->via != UINT32_MAX)
            used += (size_t)snprintf(d + used, len - used, "%s %s after %s through disabled %s", k ? ";" : "", a, b,
                                     node_text(m, x, h->via, c, sizeof c));
        else if (h->edge != UINT32_MAX)
            used += (size_t)snprintf(d + used, len - used, "%s %s = out-edge %u of %s", k ? ";" : "", a, h->edge, b);
        else
            used += (size_t)snprintf(d + used, len - used, "%s %s after %s", k ? ";" : "", a, b);
    }
    if (ee->total > HITS_KEPT && used < len)
        used += (size_t)snprintf(d + used, len - used, "; +%ld more", ee->total - HITS_KEPT);
    if (used < len && e->arm)
        snprintf(d + used, len - used, ". test the workaround: hipvis experiment --arms %s", e->arm);
}

static void evaluate(struct hv_model *m, const struct state *st, const struct hv_exec *x, struct exec_eval *ev)
{
    struct hv_topo t;
    struct entry_eval ee;
    ev->handle = x->handle;
    ev->inst_seq = x->inst_seq;
    ev->site = x->site;
    ev->valid = 1;
    free(ev->e);
    ev->e = NULL;
    if (hv_topo_build(x, &t) != 0) {
        hv_topo_free(&t);
        m->oom = 1;
        return;
    }
    for (size_t i = 0; i < hv_nerrata; i++) {
        ee.total = hv_errata[i].match(m, x, &t, &st->rt, ee.hits, HITS_KEPT);
        if (ee.total < 0)
            m->oom = 1;
        if (ee.total <= 0)
            continue;
        if (!ev->e && !(ev->e = calloc(hv_nerrata, sizeof *ev->e))) {
            m->oom = 1;
            break;
        }
        ev->e[i] = ee;
        describe(m, st, x, i, &ev->e[i]);
    }
    hv_topo_free(&t);
}

static void on_replay(struct hv_model *m, const struct hv_replay_ctx *rp)
{
    const struct hv_exec *x = &m->execs[rp->exec];
    if (m->cuda || !x->has_inventory)
        return;
    struct state *st = state_of(m);
    struct exec_eval *ev = st ? eval_slot(st, rp->exec) : NULL;
    if (!ev) {
        m->oom = 1;
        return;
    }
    if (!ev->valid || ev->handle != x->handle || ev->inst_seq != x->inst_seq || ev->site != x->site)
        evaluate(m, st, x, ev);
    for (size_t i = 0; ev->e && i < hv_nerrata; i++) {
        const struct entry_eval *ee = &ev->e[i];
        if (ee->total <= 0)
            continue;
        struct hv_finding f;
        struct hv_arange node = {.node = ee->hits[0].node, .arg_index = HV_ARG_NONE};
        struct hv_arange from = {.node = ee->hits[0].from, .arg_index = HV_ARG_NONE};
        hv_finding_start(m, &f, HV_RULE_RUNTIME_ERRATUM, 0, 0);
        f.severity = st->verdict[i] == HV_ERRATUM_AFFECTED ? HV_SEV_WARNING : HV_SEV_INFO;
        hv_side_replay(m, &f.a, rp->exec, &rp->r, &from);
        hv_side_replay(m, &f.b, rp->exec, &rp->r, &node);
        f.n1 = i | (uint64_t)st->verdict[i] << 8;
        f.n2 = (uint64_t)ee->total;
        f.note = hv_errata[i].note;
        f.detail = ee->detail;
        hv_rule_emit(m, &f);
    }
}

const struct hv_rule hv_rule_runtime_erratum = {
    .id = HV_RULE_RUNTIME_ERRATUM,
    .severity = HV_SEV_WARNING,
    .name = "runtime-erratum",
    .why = "the replayed graph has the trigger of a published runtime bug that drops an ordering edge: where "
           "the traced runtime has it, a node can run before work it was ordered after (docs/errata.md)",
    .on_replay = on_replay,
    .free_state = free_state,
};
