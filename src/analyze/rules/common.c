/* Helpers every rule uses to describe ops in findings (see rules.h). */
#include <string.h>

#include "analyze/rules/rules.h"

int hv_access_writes(uint8_t access, int *maybe)
{
    if (access == HV_ACCESS_UNKNOWN) {
        *maybe = 1;
        return 1;
    }
    return access == HV_ACCESS_WRITE || access == HV_ACCESS_READ_WRITE;
}

int hv_sev_soften(int sev)
{
    return sev > HV_SEV_INFO ? sev - 1 : sev;
}

static uint64_t stream_id_of(const struct hv_model *m, uint32_t s)
{
    return s < m->nstreams ? m->streams[s].id : 0;
}

void hv_side_writer(const struct hv_model *m, struct hv_fside *s, const struct hv_writer *w)
{
    int kernel = w->kind == HV_WRITER_KERNEL;
    *s = (struct hv_fside){
        .kind = w->kind == HV_WRITER_COPY     ? HV_SIDE_COPY
                : w->kind == HV_WRITER_MEMSET ? HV_SIDE_MEMSET
                                              : HV_SIDE_KERNEL,
        .api = w->api, .hint = w->hint, .stream = w->stream_id, .seq = w->seq, .epoch = w->epoch, .ts_ns = w->ts_ns,
        .dir = w->dir, .src_mem = w->src_mem, .dst_mem = w->dst_mem, .dst = w->dst, .src = w->src, .bytes = w->bytes,
        .node_index = -1, .arg_index = kernel ? w->arg_index : HV_ARG_NONE,
        /* a kernel writes through the pointer it was passed */
        .value = kernel ? w->dst : 0, .func = kernel ? w->name_func : 0,
        .name = kernel ? hv_model_name(m, w->name_id, w->name_func) : NULL,
    };
}

void hv_side_replay(const struct hv_model *m, struct hv_fside *s, uint32_t exec, const struct hv_replay *r,
                    const struct hv_arange *rg)
{
    const struct hv_exec *x = &m->execs[exec];
    *s = (struct hv_fside){
        .kind = HV_SIDE_REPLAY, .api = r->api, .stream = r->stream_id ? r->stream_id : stream_id_of(m, r->stream),
        .seq = r->seq, .epoch = r->epoch, .ts_ns = r->ts_ns, .exec = x->handle, .node_index = -1,
        .arg_index = HV_ARG_NONE,
    };
    if (!rg)
        return;
    /* The node and argument that read the range. */
    const struct hv_gnode *g = &x->nodes[rg->node];
    s->node_index = (int32_t)g->index;
    s->node = g->handle;
    s->node_type = (uint8_t)g->type;
    s->arg_index = rg->arg_index;
    s->access = rg->access;
    s->origin = rg->origin;
    s->arg_offset = rg->arg_offset;
    s->value = rg->value;
    if (g->type == HV_NODE_KERNEL) {
        s->func = g->func;
        s->name = hv_model_name(m, g->name_id, g->func);
    } else if (g->type == HV_NODE_MEMCPY || g->type == HV_NODE_MEMSET) {
        s->dst = g->dst;
        s->src = g->src;
        s->bytes = g->bytes;
        s->dir = g->dir;
    }
}

void hv_side_launch(const struct hv_model *m, struct hv_fside *s, const struct hv_read_ctx *rd)
{
    *s = (struct hv_fside){
        .kind = HV_SIDE_LAUNCH, .api = rd->api, .stream = rd->stream_id, .seq = rd->seq, .epoch = rd->epoch,
        .ts_ns = rd->ts_ns, .node_index = -1, .arg_index = (int16_t)rd->arg->index, .access = rd->arg->access,
        .origin = rd->arg->origin, .arg_offset = rd->arg->offset, .value = rd->arg->value, .func = rd->func,
        .name = hv_model_name(m, rd->name_id, rd->func),
    };
}

void hv_finding_start(const struct hv_model *m, struct hv_finding *f, int rule, uint64_t lo, uint64_t hi)
{
    memset(f, 0, sizeof *f);
    f->rule = (uint16_t)rule;
    f->severity = hv_rules[rule]->severity;
    f->pid = m->pid;
    f->lo = lo;
    f->hi = hi;
    f->a.node_index = f->b.node_index = -1;
    f->a.arg_index = f->b.arg_index = HV_ARG_NONE;
    struct hv_imap_seg s;
    if (hi > lo && hv_alloc_find(m, lo, &s)) {
        const struct hv_alloc *a = s.val;
        f->alloc_base = s.lo;
        f->alloc_bytes = s.hi - s.lo;
        f->alloc_seq = a->seq;
        f->alloc_mem = a->mem;
    }
}

void hv_finding_write_replay(const struct hv_model *m, struct hv_finding *f, int rule, const struct hv_replay_ctx *rp,
                             const struct hv_arange *rg, uint64_t lo, uint64_t hi, const struct hv_writer *w)
{
    hv_finding_start(m, f, rule, lo, hi);
    hv_side_writer(m, &f->a, w);
    hv_side_replay(m, &f->b, rp->exec, &rp->r, rg);
    f->n1 = w->bytes;
}

void hv_rule_emit(struct hv_model *m, const struct hv_finding *f)
{
    if (!m->out)
        return;
    const struct hv_group *g = hv_findings_add(m->out, f);
    if (!g)
        m->oom = 1;
    m->last_group = g ? hv_findings_index(m->out, g) : SIZE_MAX;
}

void hv_rule_emit_input(struct hv_model *m, int rule, uint64_t n1, uint64_t n2, const char *note)
{
    struct hv_finding f;
    hv_finding_start(m, &f, rule, 0, 0);
    f.a.kind = HV_SIDE_TRACE;
    f.n1 = n1;
    f.n2 = n2;
    f.note = note;
    hv_rule_emit(m, &f);
}
