/*
 * Graphs: capture, instantiate (where the graph's inventory is recorded by
 * walking it through the runtime's own query API), replay and updates. The
 * walk is runtime-neutral: a front end supplies the query functions
 * (struct hv_graph_ops) and describes each node.
 */
#include "tracer/names/marks.h"
#include "tracer/pyframes/sites.h"
#include <stdlib.h>

#include "tracer/intercept/common/intercept.h"
#include "tracer/core/costore.h"
#include "tracer/evidence/evidence.h"
#include "tracer/guard/guard_modes.h"
#include "tracer/hostcheck/hostcheck.h"
#include "tracer/core/kargs.h"

#define HV_GRAPH_MAX_DEPTH 8
#define HV_EDGE_PAIRS_PER_RECORD 4096u

struct walk {
    struct hv_thread_ctx *t;
    const struct hv_graph_ops *ops;
    const struct hv_node_getters *get;
    void *ctx;
    uint64_t seq, exec;
    uint32_t nodes, edges;
};

void hv_node_getters_load(struct hv_node_getters *g, void *(*sym)(const char *), const char *record_event,
                          const char *wait_event, const char *host, const char *child)
{
    g->record_event = (int (*)(void *, void **))sym(record_event);
    g->wait_event = (int (*)(void *, void **))sym(wait_event);
    g->host = (int (*)(void *, struct hv_host_params *))sym(host);
    g->child = (int (*)(void *, void **))sym(child);
}

/* The payloads every runtime queries alike: events, host functions, child graphs. */
static void describe_common(const struct hv_node_getters *g, void *node, struct hv_node_desc *d)
{
    void *p = NULL;
    struct hv_host_params hp = {NULL, NULL};
    switch (d->type) {
    case HV_NODE_EVENT_RECORD:
    case HV_NODE_EVENT_WAIT: {
        int (*get)(void *, void **) = d->type == HV_NODE_EVENT_RECORD ? g->record_event : g->wait_event;
        if (get && get(node, &p) == 0)
            d->u.event.event = HV_PTR(p);
        break;
    }
    case HV_NODE_HOST:
        if (g->host && g->host(node, &hp) == 0) {
            d->u.host.fn = HV_PTR(hp.fn);
            d->u.host.user = HV_PTR(hp.user);
        }
        break;
    case HV_NODE_GRAPH:
        if (g->child && g->child(node, &p) == 0) {
            d->u.child.graph = HV_PTR(p);
            d->child = p;
        }
        break;
    default:
        break;
    }
}

/* HIPVIS_HOSTCHECK: node `node` of exec as d describes it, for the check's
 * inventory (a graph launch protects what its nodes use); args: a kernel
 * node's pointer arguments, NULL to keep those it had. */
static void hc_note_node(uint64_t exec, uint64_t node, const struct hv_node_desc *d, const struct hv_karg *args,
                         int nargs)
{
    struct hv_hc_node n = {.exec = exec, .node = node, .type = d ? d->type : HV_NODE_OTHER};
    if (d && d->type == HV_NODE_MEMCPY) {
        n.dst = d->u.memcpy.dst;
        n.src = d->u.memcpy.src;
        n.bytes = d->u.memcpy.bytes;
        n.kind = d->u.memcpy.kind;
    } else if (d && d->type == HV_NODE_MEMSET) {
        n.dst = d->u.memset.dst;
        n.bytes = d->u.memset.bytes;
    }
    n.read = d && d->shape != HV_NODE_SHAPE_UNREAD;
    n.one_range = d && d->shape == HV_NODE_SHAPE_1D;
    hv_hc_exec_node(&n, args, nargs);
}

/* One node record (and the kernel's pointer arguments after it). */
static void emit_node(struct walk *w, void *graph, void *node, uint32_t index, uint64_t parent, void **child_out)
{
    struct hv_karg args[HV_MAX_KARGS];
    int nargs = 0;
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    w->ops->describe(w->ctx, w->t, node, &d);
    describe_common(w->get, node, &d);
    uint64_t func = d.type == HV_NODE_KERNEL ? d.u.kernel.func : 0;
    if (func)
        nargs = hv_kargs_collect(hv_kernels_find(func), d.kparams, d.kblock, d.kblock_bytes, args, HV_MAX_KARGS, 0, NULL);
    if (func)
        hv_guard_note_args(w->exec, HV_PTR(node), args, nargs);  /* HIPVIS_GUARD: what the exec reads */
    if (hv_ev(HV_EV_HOSTCHECK))
        hc_note_node(w->exec, HV_PTR(node), &d, args, nargs);
    if (d.type == HV_NODE_KERNEL) {
        const struct hv_kernel_info *k = hv_kernels_find(func);
        d.u.kernel.name_id = k ? k->name_id : 0;
        d.u.kernel.kernarg_bytes = k ? k->kernarg_bytes : 0;
    }
    *child_out = d.type == HV_NODE_GRAPH ? d.child : NULL;
    struct hv_graph_node *n = hv_aux_begin(w->t, HV_REC_GRAPH_NODE, sizeof *n, w->seq);
    if (!n)
        return;
    n->exec = w->exec;
    n->graph = HV_PTR(graph);
    n->node = HV_PTR(node);
    n->parent_node = parent;
    n->index = index;
    n->type = d.type;
    n->nptr = (uint16_t)nargs;
    n->u = d.u;
    hv_aux_commit(w->t, n);
    w->nodes++;
    hv_kargs_emit(w->t, w->seq, HV_PTR(node), func, d.u.kernel.name_id, args, nargs);
    if (func)
        hv_costore_touch(w->t, w->seq, hv_kernels_find(func)); /* the graph will run it */
}

static uint32_t index_of(void **nodes, size_t n, void *x)
{
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == x)
            return (uint32_t)i;
    return UINT32_MAX;
}

static void emit_edges(struct walk *w, void *graph, void **nodes, size_t nnodes)
{
    size_t count = 0;
    if (w->ops->edges(w->ctx, graph, NULL, NULL, &count) != 0 || count == 0)
        return;
    void **from = calloc(count, sizeof *from), **to = calloc(count, sizeof *to);
    if (from && to && w->ops->edges(w->ctx, graph, from, to, &count) == 0) {
        for (size_t done = 0; done < count;) {
            uint32_t k = (uint32_t)(count - done < HV_EDGE_PAIRS_PER_RECORD ? count - done : HV_EDGE_PAIRS_PER_RECORD);
            struct hv_graph_edges *e = hv_aux_begin(w->t, HV_REC_GRAPH_EDGES, (uint32_t)(sizeof *e + k * 8u), w->seq);
            if (!e)
                break;
            e->exec = w->exec;
            e->graph = HV_PTR(graph);
            e->count = k;
            uint32_t *pairs = (uint32_t *)(e + 1);
            for (uint32_t i = 0; i < k; i++) {
                pairs[2 * i] = index_of(nodes, nnodes, from[done + i]);
                pairs[2 * i + 1] = index_of(nodes, nnodes, to[done + i]);
            }
            hv_aux_commit(w->t, e);
            done += k;
            w->edges += k;
        }
    }
    free(from);
    free(to);
}

static void walk_graph(struct walk *w, void *graph, uint64_t parent, int depth)
{
    size_t n = 0;
    if (depth > HV_GRAPH_MAX_DEPTH || w->ops->nodes(w->ctx, graph, NULL, &n) != 0 || n == 0)
        return;
    void **nodes = calloc(n, sizeof *nodes);
    if (!nodes || w->ops->nodes(w->ctx, graph, nodes, &n) != 0) {
        free(nodes);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        void *child = NULL;
        emit_node(w, graph, nodes[i], (uint32_t)i, parent, &child);
        if (child)
            walk_graph(w, child, HV_PTR(nodes[i]), depth + 1);
    }
    emit_edges(w, graph, nodes, n);
    free(nodes);
}

void hv_graph_walk(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph, const struct hv_graph_ops *ops,
                   const struct hv_node_getters *get, void *ctx)
{
    struct walk w = {t, ops, get, ctx, seq, exec, 0, 0};
    hv_guard_exec_begin(exec);
    if (hv_ev(HV_EV_HOSTCHECK))
        hv_hc_exec_begin(exec);
    if (graph)
        walk_graph(&w, graph, 0, 0);
}

void hv_trace_instantiate(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *graph,
                          uint64_t flags, uint64_t err_node, hv_inventory_fn inventory)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.graph = HV_PTR(graph);
    c->a.graph.exec = exec;
    c->a.graph.flags = flags;
    c->a.graph.node = err_node;
    c->a.graph.rec_flags = exec ? HV_GRAPH_NODES_RECORDED : 0;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (exec && graph)
        inventory(t, seq, exec, graph);
    hv_py_always(t, seq, HV_PY_AT_INSTANTIATE, exec);
}

void hv_trace_exec_call(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t graph,
                        struct hv_sref s)
{
    if (s.id && hv_data_skip(t, s.id))   /* HIPVIS_START: a replay outside the window */
        return;
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.graph.exec = exec;
    c->a.graph.graph = graph;
    uint64_t seq = c->h.seq;
    if (hv_ev(HV_EV_HOSTCHECK) && exec) {
        if (s.id)
            hv_hc_graph_launch(t, c);   /* protects what the replay's nodes use */
        else if (r == 0)
            hv_hc_exec_forget(exec);
    }
    hv_call_commit(t, c);
    if (s.id) { /* launches and uploads: post-replay probe snapshots, stack */
        hv_ev_replay_after(t, seq, r);
        hv_py_site(t, seq, HV_PY_AT_REPLAY, exec);
    }
}

void hv_trace_exec_update(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *graph,
                          uint64_t err_node, hv_inventory_fn inventory)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.exec = exec;
    c->a.graph.graph = HV_PTR(graph);
    c->a.graph.node = r != 0 ? err_node : 0;
    c->a.graph.rec_flags = r == 0 ? HV_GRAPH_NODES_RECORDED : 0;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    /* A successful update gives the exec the graph's parameters: the new
     * inventory replaces the old one. */
    if (r == 0 && graph)
        inventory(t, seq, exec, graph);
}

void hv_trace_exec_set_node(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                            uint64_t func, const struct hv_kargs_src *a)
{
    struct hv_karg args[HV_MAX_KARGS];
    int n = func && a && r == 0 ? hv_kargs_collect(hv_kernels_find(func), a->params, a->kblock, a->kblock_bytes, args, HV_MAX_KARGS, 0, NULL)
                                : 0;
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.exec = exec;
    c->a.graph.node = node;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (r == 0)
        hv_kargs_emit(t, seq, node, func, 0, args, n);
    if (r == 0 && func)
        hv_guard_note_args(exec, node, args, n);
    if (r == 0 && func && hv_ev(HV_EV_HOSTCHECK))
        hc_note_node(exec, node, &(struct hv_node_desc){.type = HV_NODE_KERNEL}, args, n);
}

void hv_trace_capture(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, int begin, unsigned mode,
                      uint64_t graph)
{
    struct hv_stream_state *st;
    struct hv_call *c = hv_begin_on(t, api, r, s, &st);
    c->a.capture.mode = mode;
    if (st && r == 0) {
        if (begin) {
            hv_capture_begin(hv_hot.streams, st);
            c->capture = HV_CAPTURE_ACTIVE;
        } else {
            hv_capture_end(hv_hot.streams, atomic_load_explicit(&st->capture_id, memory_order_acquire));
            c->a.capture.graph = graph;
        }
    }
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    hv_py_always(t, seq, HV_PY_AT_CAPTURE, graph ? graph : s.id);
}

/* rec_flags / flags: HV_GRAPH_ENABLED_RECORDED and isEnabled for NodeSetEnabled, else 0. */
static void exec_node(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                      const struct hv_node_desc *d, uint32_t rec_flags, uint64_t flags)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.exec = exec;
    c->a.graph.node = node;
    c->a.graph.rec_flags = rec_flags;
    c->a.graph.flags = flags;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (r != 0 || !d)
        return;
    struct hv_graph_node *n = hv_aux_begin(t, HV_REC_GRAPH_NODE, sizeof *n, seq);
    if (!n)
        return;
    n->exec = exec;
    n->node = node;
    n->type = d->type;
    n->u = d->u;
    hv_aux_commit(t, n);
}

void hv_trace_exec_node(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                        const struct hv_node_desc *d)
{
    exec_node(t, api, r, exec, node, d, 0, 0);
    if (r == 0 && hv_ev(HV_EV_HOSTCHECK))
        hc_note_node(exec, node, d, NULL, 0);
}

void hv_trace_set_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *node, unsigned on,
                          void (*describe)(void *ctx, struct hv_thread_ctx *t, void *node, struct hv_node_desc *d),
                          void *ctx)
{
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    d.type = HV_NODE_EMPTY;
    if (on && r == 0 && describe)
        describe(ctx, t, node, &d);
    exec_node(t, api, r, exec, HV_PTR(node), &d, HV_GRAPH_ENABLED_RECORDED, on != 0);
    if (r == 0 && hv_ev(HV_EV_HOSTCHECK))
        hv_hc_exec_enabled(exec, HV_PTR(node), on != 0);
}

void hv_trace_raw(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, uint64_t w0, uint64_t w1,
                  uint64_t w2, uint64_t w3)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.raw[0] = w0;
    c->a.raw[1] = w1;
    c->a.raw[2] = w2;
    c->a.raw[3] = w3;
    hv_call_commit(t, c);
}
