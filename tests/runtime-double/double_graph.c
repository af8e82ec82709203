/*
 * double_graph.c - graphs, stream capture, instantiation and graph launch of
 * the HIP runtime test double, plus the h1 fault model.
 *
 * TEST-ONLY: tests/runtime-double is a host-memory stand-in for
 * libamdhip64.so.5 used by hipvis tests. Never installed.
 *
 * Capture turns the work submitted to a capturing stream into nodes whose
 * dependencies are the stream's current dependency set. Events recorded in a
 * capture carry that set; a stream waiting on such an event joins the capture
 * (fork) or merges the set (join), like CUDA / HIP: no nodes for plain
 * record / wait. hipGraphInstantiate copies the graph; hipGraphLaunch submits
 * the copy's nodes in a topological order to the launch stream.
 */
#include "double_int.h"

#include <stdlib.h>
#include <string.h>

struct hd_exec {
    struct hd_graph *g;          /* private copy */
    const void **orig, **alias;  /* node handles by index: source graph, last update source */
    unsigned *order;             /* top-level topological order */
    unsigned long long flags;
    bool *disabled;              /* by node index: hipGraphNodeSetEnabled(..., 0) */
};

struct capture_list {
    struct hd_capture **v;
    size_t n, cap;
};
static struct capture_list g_captures;
static unsigned long long g_capture_ids;

/* ---- work items ---------------------------------------------------------- */

static void graph_register(struct hd_graph *g);

void hd_work_clone(struct hd_work *dst, const struct hd_work *src)
{
    *dst = *src;
    switch (src->kind) {
    case HD_W_KERNEL:
        hd_kargs_clone(&dst->u.kern.a, &src->u.kern.a);
        break;
    case HD_W_COPY:
        if (src->u.copy.staged) {
            const hipExtent *x = &src->u.copy.p.extent;
            size_t n = x->width * x->height * x->depth;
            dst->u.copy.staged = hd_xmalloc(n);
            memcpy(dst->u.copy.staged, src->u.copy.staged, n);
        }
        break;
    case HD_W_EVENT_RECORD:
    case HD_W_EVENT_WAIT:
        src->u.ev.ev->refs++;
        break;
    case HD_W_CHILD:
        dst->u.child = hd_graph_clone(src->u.child);
        break;
    default:
        break;
    }
}

void hd_work_release(struct hd_work *w)
{
    switch (w->kind) {
    case HD_W_KERNEL:
        hd_kargs_free(&w->u.kern.a);
        break;
    case HD_W_COPY:
        free(w->u.copy.staged);
        break;
    case HD_W_EVENT_RECORD:
    case HD_W_EVENT_WAIT:
        hd_event_unref(w->u.ev.ev);
        break;
    case HD_W_CHILD:
        hd_graph_free(w->u.child, hd_set_has(&hd_graphs, w->u.child));
        break;
    default:
        break;
    }
    w->kind = HD_W_NOP;
}

static hipGraphNodeType node_type(enum hd_work_kind k)
{
    switch (k) {
    case HD_W_KERNEL:
        return hipGraphNodeTypeKernel;
    case HD_W_COPY:
        return hipGraphNodeTypeMemcpy;
    case HD_W_MEMSET:
        return hipGraphNodeTypeMemset;
    case HD_W_HOST:
        return hipGraphNodeTypeHost;
    case HD_W_EVENT_RECORD:
        return hipGraphNodeTypeEventRecord;
    case HD_W_EVENT_WAIT:
        return hipGraphNodeTypeWaitEvent;
    case HD_W_CHILD:
        return hipGraphNodeTypeGraph;
    default:
        return hipGraphNodeTypeEmpty;
    }
}

/* ---- graph structure ---------------------------------------------------- */

struct hd_graph *hd_graph_new(void) { return hd_xcalloc(1, sizeof(struct hd_graph)); }

static void add_edge(struct hd_node *from, struct hd_node *to)
{
    if (hd_nodevec_has(&from->out, to))
        return;
    hd_nodevec_push(&from->out, to);
    hd_nodevec_push(&to->in, from);
}

struct hd_node *hd_graph_add(struct hd_graph *g, hipGraphNodeType type, struct hd_work *w,
                             struct hd_node *const *deps, size_t ndeps)
{
    struct hd_node *n = hd_xcalloc(1, sizeof *n);
    n->g = g;
    n->idx = (unsigned)g->nodes.n;
    n->type = type;
    if (w) {
        n->w = *w;
        w->kind = HD_W_NOP;
    } else {
        n->w.kind = HD_W_EMPTY;
    }
    hd_nodevec_push(&g->nodes, n);
    for (size_t i = 0; i < ndeps; i++)
        add_edge(deps[i], n);
    return n;
}

void hd_graph_free(struct hd_graph *g, bool registered)
{
    if (!g)
        return;
    if (registered)
        hd_set_del(&hd_graphs, g);
    for (size_t i = 0; i < g->nodes.n; i++) {
        struct hd_node *n = g->nodes.v[i];
        if (registered)
            hd_set_del(&hd_nodes, n);
        hd_work_release(&n->w);
        hd_nodevec_free(&n->in);
        hd_nodevec_free(&n->out);
        free(n);
    }
    hd_nodevec_free(&g->nodes);
    free(g);
}

struct hd_graph *hd_graph_clone(const struct hd_graph *g)
{
    struct hd_graph *c = hd_graph_new();
    for (size_t i = 0; i < g->nodes.n; i++) {
        const struct hd_node *n = g->nodes.v[i];
        struct hd_work w;
        hd_work_clone(&w, &n->w);
        hd_graph_add(c, n->type, &w, NULL, 0);
    }
    for (size_t i = 0; i < g->nodes.n; i++) {
        const struct hd_node *n = g->nodes.v[i];
        for (size_t j = 0; j < n->out.n; j++)
            add_edge(c->nodes.v[i], c->nodes.v[n->out.v[j]->idx]);
    }
    return c;
}

/* Makes a graph and its nodes (and embedded graphs) valid API handles. */
static void graph_register(struct hd_graph *g)
{
    hd_set_add(&hd_graphs, g);
    for (size_t i = 0; i < g->nodes.n; i++) {
        hd_set_add(&hd_nodes, g->nodes.v[i]);
        if (g->nodes.v[i]->w.kind == HD_W_CHILD)
            graph_register(g->nodes.v[i]->w.u.child);
    }
}

/* Kahn's algorithm, ties broken by creation order. false on a cycle. */
static bool topo_order(const struct hd_graph *g, unsigned *order)
{
    size_t n = g->nodes.n, done = 0;
    unsigned *indeg = hd_xcalloc(n, sizeof *indeg);
    unsigned *ready = hd_xcalloc(n, sizeof *ready);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++) {
        indeg[i] = (unsigned)g->nodes.v[i]->in.n;
        if (!indeg[i])
            ready[tail++] = (unsigned)i;
    }
    while (head < tail) {
        /* pick the smallest ready index for a stable order */
        size_t best = head;
        for (size_t i = head + 1; i < tail; i++)
            if (ready[i] < ready[best])
                best = i;
        unsigned u = ready[best];
        ready[best] = ready[head];
        ready[head++] = u;
        order[done++] = u;
        const struct hd_node *nu = g->nodes.v[u];
        for (size_t j = 0; j < nu->out.n; j++)
            if (--indeg[nu->out.v[j]->idx] == 0)
                ready[tail++] = nu->out.v[j]->idx;
    }
    free(indeg);
    free(ready);
    return done == n;
}

static bool graph_acyclic(const struct hd_graph *g)
{
    unsigned *order = hd_xcalloc(g->nodes.n, sizeof *order);
    bool ok = topo_order(g, order);
    for (size_t i = 0; ok && i < g->nodes.n; i++)
        if (g->nodes.v[i]->w.kind == HD_W_CHILD)
            ok = graph_acyclic(g->nodes.v[i]->w.u.child);
    free(order);
    return ok;
}

/* ---- capture -------------------------------------------------------------- */

struct hd_capture *hd_capture_find(unsigned long long id)
{
    for (size_t i = 0; i < g_captures.n; i++)
        if (g_captures.v[i]->id == id)
            return g_captures.v[i];
    return NULL;
}

void hd_capture_invalidate(struct hd_capture *c) { c->invalidated = true; }

hipError_t hd_capture_unsafe_call(void)
{
    /* CUDA rule: a potentially synchronizing call is prohibited while this
     * thread has a non-relaxed capture or any thread has a global one. */
    pthread_t self = pthread_self();
    hipError_t e = hipSuccess;
    for (size_t i = 0; i < g_captures.n; i++) {
        struct hd_capture *c = g_captures.v[i];
        if (c->mode == hipStreamCaptureModeGlobal ||
            (c->mode == hipStreamCaptureModeThreadLocal && pthread_equal(c->thread, self))) {
            c->invalidated = true;
            e = hipErrorStreamCaptureUnsupported;
        }
    }
    return e;
}

static void set_deps(struct hd_stream *s, struct hd_node *const *v, size_t n)
{
    s->deps.n = 0;
    for (size_t i = 0; i < n; i++)
        if (!hd_nodevec_has(&s->deps, v[i]))
            hd_nodevec_push(&s->deps, v[i]);
}

hipError_t hd_capture_work(struct hd_stream *s, struct hd_work *w)
{
    struct hd_capture *c = s->cap;
    if (c->invalidated)
        return hipErrorStreamCaptureInvalidated;
    w->from_graph = false;
    struct hd_node *n = hd_graph_add(c->g, node_type(w->kind), w, s->deps.v, s->deps.n);
    hd_set_add(&hd_nodes, n);
    if (n->w.kind == HD_W_CHILD)
        graph_register(n->w.u.child);
    set_deps(s, &n, 1);
    return hipSuccess;
}

hipError_t hd_capture_wait_event(struct hd_stream *s, struct hd_event *e, struct hd_capture *c,
                                 unsigned flags)
{
    if (c) {
        if (s->cap && s->cap != c)
            return hipErrorStreamCaptureMerge;
        if (!s->cap) {
            if (s->kind == HD_S_LEGACY)
                return hipErrorStreamCaptureImplicit;
            /* fork: the stream joins the capture after the event's point */
            s->cap = c;
            set_deps(s, e->cap_deps.v, e->cap_deps.n);
        } else {
            for (size_t i = 0; i < e->cap_deps.n; i++)
                if (!hd_nodevec_has(&s->deps, e->cap_deps.v[i]))
                    hd_nodevec_push(&s->deps, e->cap_deps.v[i]);
        }
    }
    if (flags & hipEventWaitExternal) {
        struct hd_work w = {.kind = HD_W_EVENT_WAIT};
        e->refs++;
        w.u.ev.ev = e;
        hipError_t r = hd_capture_work(s, &w);
        if (r != hipSuccess)
            hd_work_release(&w);
        return r;
    }
    /* A capturing stream waiting on an event recorded outside the capture:
     * ignored, as HIP does (CUDA would report an isolation error). */
    return hipSuccess;
}

static void captures_remove(struct hd_capture *c)
{
    for (size_t i = 0; i < g_captures.n; i++)
        if (g_captures.v[i] == c) {
            g_captures.v[i] = g_captures.v[--g_captures.n];
            return;
        }
}

static hipError_t begin_capture(hipStream_t stream, hipStreamCaptureMode mode, bool spt)
{
    hd_init();
    if ((unsigned)mode > hipStreamCaptureModeRelaxed)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    hipError_t e = hipSuccess;
    if (!s)
        e = hipErrorInvalidHandle;
    else if (s->kind == HD_S_LEGACY)
        e = hipErrorStreamCaptureUnsupported;
    else if (s->cap)
        e = hipErrorIllegalState;
    if (e == hipSuccess) {
        struct hd_capture *c = hd_xcalloc(1, sizeof *c);
        c->id = ++g_capture_ids;
        c->mode = mode;
        c->thread = pthread_self();
        c->origin = s;
        c->g = hd_graph_new();
        graph_register(c->g); /* queryable through hipStreamGetCaptureInfo_v2 */
        if (g_captures.n == g_captures.cap) {
            g_captures.cap = g_captures.cap ? g_captures.cap * 2 : 8;
            g_captures.v = hd_xrealloc(g_captures.v, g_captures.cap * sizeof *g_captures.v);
        }
        g_captures.v[g_captures.n++] = c;
        s->cap = c;
        s->deps.n = 0;
    }
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode)
{
    return begin_capture(stream, mode, false);
}
hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode)
{
    return begin_capture(stream, mode, true);
}

/* Every stream forked into the capture must have its last work joined back:
 * each node in its dependency set must be an ancestor of (or in) the origin's
 * dependency set. */
static bool capture_joined(struct hd_capture *c)
{
    size_t n = c->g->nodes.n;
    bool *anc = hd_xcalloc(n, sizeof *anc);
    struct hd_node **stack = hd_xcalloc(n, sizeof *stack);
    size_t sp = 0;
    for (size_t i = 0; i < c->origin->deps.n; i++) {
        struct hd_node *d = c->origin->deps.v[i];
        if (!anc[d->idx]) {
            anc[d->idx] = true;
            stack[sp++] = d;
        }
    }
    while (sp) {
        struct hd_node *x = stack[--sp];
        for (size_t j = 0; j < x->in.n; j++)
            if (!anc[x->in.v[j]->idx]) {
                anc[x->in.v[j]->idx] = true;
                stack[sp++] = x->in.v[j];
            }
    }
    bool ok = true;
    for (struct hd_stream *t = hd_all_streams; t && ok; t = t->next_all)
        if (t->cap == c && t != c->origin)
            for (size_t i = 0; i < t->deps.n; i++)
                if (!anc[t->deps.v[i]->idx])
                    ok = false;
    free(anc);
    free(stack);
    return ok;
}

static hipError_t end_capture(hipStream_t stream, hipGraph_t *pGraph, bool spt)
{
    hd_init();
    if (!pGraph)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    hipError_t e = hipSuccess;
    struct hd_capture *c = s ? s->cap : NULL;
    if (!s) {
        e = hipErrorInvalidHandle;
    } else if (!c) {
        e = hipErrorIllegalState;
    } else if (c->origin != s) {
        c->invalidated = true;
        e = hipErrorStreamCaptureUnmatched;
    } else if (c->mode != hipStreamCaptureModeRelaxed && !pthread_equal(c->thread, pthread_self())) {
        e = hipErrorStreamCaptureWrongThread;
    }
    if (e != hipSuccess) {
        hd_unlock();
        return hd_ret(e);
    }
    if (c->invalidated)
        e = hipErrorStreamCaptureInvalidated;
    else if (!capture_joined(c))
        e = hipErrorStreamCaptureUnjoined;
    for (struct hd_stream *t = hd_all_streams; t; t = t->next_all)
        if (t->cap == c) {
            t->cap = NULL;
            t->deps.n = 0;
        }
    captures_remove(c);
    if (e == hipSuccess) {
        *pGraph = (hipGraph_t)c->g;
    } else {
        hd_graph_free(c->g, true);
        *pGraph = NULL;
    }
    free(c);
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph)
{
    return end_capture(stream, pGraph, false);
}
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t *pGraph)
{
    return end_capture(stream, pGraph, true);
}

static hipStreamCaptureStatus capture_status(const struct hd_stream *s)
{
    if (!s->cap)
        return hipStreamCaptureStatusNone;
    return s->cap->invalidated ? hipStreamCaptureStatusInvalidated : hipStreamCaptureStatusActive;
}

static hipError_t capture_info(hipStream_t stream, bool spt, hipStreamCaptureStatus *status,
                               unsigned long long *id, hipGraph_t *graph,
                               const hipGraphNode_t **deps, size_t *ndeps)
{
    hd_init();
    if (!status)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    if (s) {
        *status = capture_status(s);
        bool active = s->cap != NULL;
        if (id && active)
            *id = s->cap->id;
        if (graph)
            *graph = active ? (hipGraph_t)s->cap->g : NULL;
        if (deps)
            *deps = active ? (const hipGraphNode_t *)s->deps.v : NULL;
        if (ndeps)
            *ndeps = active ? s->deps.n : 0;
    }
    hd_unlock();
    return hd_ret(s ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus)
{
    return capture_info(stream, false, pCaptureStatus, NULL, NULL, NULL, NULL);
}
hipError_t hipStreamIsCapturing_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus)
{
    return capture_info(stream, true, pCaptureStatus, NULL, NULL, NULL, NULL);
}
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                   unsigned long long *pId)
{
    return capture_info(stream, false, pCaptureStatus, pId, NULL, NULL, NULL);
}
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                       unsigned long long *pId)
{
    return capture_info(stream, true, pCaptureStatus, pId, NULL, NULL, NULL);
}
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
                                      unsigned long long *id_out, hipGraph_t *graph_out,
                                      const hipGraphNode_t **dependencies_out,
                                      size_t *numDependencies_out)
{
    return capture_info(stream, false, captureStatus_out, id_out, graph_out, dependencies_out,
                        numDependencies_out);
}
hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream,
                                          hipStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, hipGraph_t *graph_out,
                                          const hipGraphNode_t **dependencies_out,
                                          size_t *numDependencies_out)
{
    return capture_info(stream, true, captureStatus_out, id_out, graph_out, dependencies_out,
                        numDependencies_out);
}

static struct hd_node *node_get(hipGraphNode_t h)
{
    return h && hd_set_has(&hd_nodes, h) ? (struct hd_node *)h : NULL;
}

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t *dependencies,
                                              size_t numDependencies, unsigned int flags)
{
    hd_init();
    if (flags > hipStreamSetCaptureDependencies || (numDependencies && !dependencies))
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, false);
    hipError_t e = hipSuccess;
    if (!s)
        e = hipErrorInvalidHandle;
    else if (!s->cap)
        e = hipErrorIllegalState;
    for (size_t i = 0; e == hipSuccess && i < numDependencies; i++) {
        struct hd_node *n = node_get(dependencies[i]);
        if (!n || n->g != s->cap->g)
            e = hipErrorInvalidValue;
    }
    if (e == hipSuccess) {
        if (flags == hipStreamSetCaptureDependencies)
            s->deps.n = 0;
        for (size_t i = 0; i < numDependencies; i++)
            if (!hd_nodevec_has(&s->deps, (struct hd_node *)dependencies[i]))
                hd_nodevec_push(&s->deps, (struct hd_node *)dependencies[i]);
    }
    hd_unlock();
    return hd_ret(e);
}

/* ---- graph API ------------------------------------------------------------ */

static struct hd_graph *graph_get(hipGraph_t h)
{
    return h && hd_set_has(&hd_graphs, h) ? (struct hd_graph *)h : NULL;
}

hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags)
{
    hd_init();
    if (!pGraph || flags)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_graph *g = hd_graph_new();
    graph_register(g);
    hd_unlock();
    *pGraph = (hipGraph_t)g;
    return hipSuccess;
}

hipError_t hipGraphDestroy(hipGraph_t graph)
{
    hd_init();
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    hipError_t e = g ? hipSuccess : hipErrorInvalidValue;
    for (size_t i = 0; g && i < g_captures.n; i++)
        if (g_captures.v[i]->g == g)
            e = hipErrorIllegalState; /* still being captured into */
    if (e == hipSuccess)
        hd_graph_free(g, true);
    hd_unlock();
    return hd_ret(e);
}

/* Common prologue of hipGraphAdd*Node: validates and adds `w` (moved). */
static hipError_t add_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                           size_t ndeps, struct hd_work *w)
{
    struct hd_graph *g = graph_get(graph);
    if (!out || !g || (ndeps && !deps))
        return hipErrorInvalidValue;
    for (size_t i = 0; i < ndeps; i++) {
        struct hd_node *d = node_get(deps[i]);
        if (!d || d->g != g)
            return hipErrorInvalidValue;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return hipErrorInvalidValue;
    }
    struct hd_node *n =
        hd_graph_add(g, node_type(w->kind), w, (struct hd_node *const *)deps, ndeps);
    hd_set_add(&hd_nodes, n);
    if (n->w.kind == HD_W_CHILD)
        graph_register(n->w.u.child);
    *out = (hipGraphNode_t)n;
    return hipSuccess;
}

/* Adds a node built by `w` or releases `w` on failure. Lock held. */
static hipError_t add_or_release(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                                 size_t ndeps, struct hd_work *w)
{
    hipError_t e = add_node(out, graph, deps, ndeps, w);
    if (e != hipSuccess)
        hd_work_release(w);
    return e;
}

static hipError_t kernel_work(struct hd_work *w, const hipKernelNodeParams *p)
{
    memset(w, 0, sizeof *w);
    if (!p)
        return hipErrorInvalidValue;
    char *name;
    struct hd_kdesc *k = hd_kernel_by_func(p->func, &name);
    if (!k)
        return hipErrorInvalidDeviceFunction;
    if (!p->gridDim.x || !p->gridDim.y || !p->gridDim.z || !p->blockDim.x || !p->blockDim.y ||
        !p->blockDim.z)
        return hipErrorInvalidConfiguration;
    hipError_t e = hd_kargs_build(&w->u.kern.a, k, p->kernelParams, p->extra);
    if (e != hipSuccess)
        return e;
    w->kind = HD_W_KERNEL;
    w->u.kern.k = k;
    w->u.kern.func = p->func;
    w->u.kern.name = name;
    w->u.kern.grid = p->gridDim;
    w->u.kern.block = p->blockDim;
    w->u.kern.shmem = p->sharedMemBytes;
    return hipSuccess;
}

hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const hipKernelNodeParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_work w;
    hipError_t e = kernel_work(&w, pNodeParams);
    if (e == hipSuccess)
        e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}

/* A 3D memcpy node's work (hipGraphAddMemcpyNode, the exec setter). */
static hipError_t memcpy3d_work(struct hd_work *w, const hipMemcpy3DParms *p)
{
    hd_init();
    if (!p)
        return hipErrorInvalidValue;
    if (p->srcArray || p->dstArray)
        return hipErrorNotSupported;
    if (!p->srcPtr.ptr || !p->dstPtr.ptr || !p->extent.width || !p->extent.height ||
        !p->extent.depth || p->srcPtr.pitch < p->srcPos.x + p->extent.width ||
        p->dstPtr.pitch < p->dstPos.x + p->extent.width)
        return hipErrorInvalidValue;
    memset(w, 0, sizeof *w);
    w->kind = HD_W_COPY;
    w->u.copy.p = *p;
    w->u.copy.pinned_src = hd_mem_lookup(p->srcPtr.ptr, NULL, NULL) == HD_A_PINNED ||
                           hd_mem_lookup(p->srcPtr.ptr, NULL, NULL) == HD_A_REGISTERED;
    return hipSuccess;
}

hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const hipMemcpy3DParms *pCopyParams)
{
    struct hd_work w;
    hipError_t e = memcpy3d_work(&w, pCopyParams);
    if (e != hipSuccess)
        return hd_ret(e);
    hd_lock();
    e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}

/* A 1D memcpy node's work (hipGraphAddMemcpyNode1D, the exec setter). */
static hipError_t memcpy1d_work(struct hd_work *w, void *dst, const void *src, size_t count, hipMemcpyKind kind)
{
    hd_init();
    if ((unsigned)kind > hipMemcpyDefault)
        return hipErrorInvalidMemcpyDirection;
    hipError_t e = count ? hd_copy_work_1d(w, dst, src, count, false) : hipErrorInvalidValue;
    if (e == hipSuccess)
        w->u.copy.p.kind = kind;
    return e;
}

/* The library never calls its own exports (README): the symbol adders
 * share this with hipGraphAddMemcpyNode1D. */
static hipError_t add_memcpy_1d(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                               const hipGraphNode_t *pDependencies, size_t numDependencies,
                                               void *dst, const void *src, size_t count, hipMemcpyKind kind)
{
    struct hd_work w;
    hipError_t e = memcpy1d_work(&w, dst, src, count, kind);
    if (e != hipSuccess)
        return hd_ret(e);
    hd_lock();
    e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t *pDependencies, size_t numDependencies,
                                   void *dst, const void *src, size_t count, hipMemcpyKind kind)
{
    return add_memcpy_1d(pGraphNode, graph, pDependencies, numDependencies, dst, src, count, kind);
}

/* Symbol copies as graph nodes: the double has no device globals, a symbol
 * is its own device address (as its hipMemcpyToSymbol). */
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies, size_t numDependencies,
                                         const void *symbol, const void *src, size_t count, size_t offset,
                                         hipMemcpyKind kind)
{
    if (!symbol)
        return hd_ret(hipErrorInvalidSymbol);
    return add_memcpy_1d(pGraphNode, graph, pDependencies, numDependencies, (char *)symbol + offset,
                                        src, count, kind);
}
hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                           const void *symbol, size_t count, size_t offset, hipMemcpyKind kind)
{
    if (!symbol)
        return hd_ret(hipErrorInvalidSymbol);
    return add_memcpy_1d(pGraphNode, graph, pDependencies, numDependencies, dst,
                                        (const char *)symbol + offset, count, kind);
}

hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                 const hipMemsetParams *pMemsetParams)
{
    hd_init();
    const hipMemsetParams *p = pMemsetParams;
    if (!p || !p->dst || !p->width || !p->height ||
        (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return hd_ret(hipErrorInvalidValue);
    struct hd_work w = {.kind = HD_W_MEMSET};
    w.u.memset = *p;
    hd_lock();
    hipError_t e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}

static hipError_t add_event_node(hipGraphNode_t *out, hipGraph_t graph, const hipGraphNode_t *deps,
                                 size_t ndeps, hipEvent_t event, enum hd_work_kind kind)
{
    hd_init();
    hd_lock();
    hipError_t e = hipErrorInvalidValue;
    if (event && hd_set_has(&hd_events, event)) {
        struct hd_work w = {.kind = kind};
        w.u.ev.ev = (struct hd_event *)event;
        w.u.ev.ev->refs++;
        e = add_or_release(out, graph, deps, ndeps, &w);
    }
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t *pDependencies, size_t numDependencies,
                                      hipEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                          HD_W_EVENT_RECORD);
}

hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                    const hipGraphNode_t *pDependencies, size_t numDependencies,
                                    hipEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                          HD_W_EVENT_WAIT);
}

hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                               const hipGraphNode_t *pDependencies, size_t numDependencies,
                               const hipHostNodeParams *pNodeParams)
{
    hd_init();
    if (!pNodeParams || !pNodeParams->fn)
        return hd_ret(hipErrorInvalidValue);
    struct hd_work w = {.kind = HD_W_HOST};
    w.u.host = *pNodeParams;
    hd_lock();
    hipError_t e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                const hipGraphNode_t *pDependencies, size_t numDependencies)
{
    hd_init();
    struct hd_work w = {.kind = HD_W_EMPTY};
    hd_lock();
    hipError_t e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t *pDependencies, size_t numDependencies,
                                     hipGraph_t childGraph)
{
    hd_init();
    hd_lock();
    struct hd_graph *child = graph_get(childGraph);
    hipError_t e = hipErrorInvalidValue;
    if (child && childGraph != graph) {
        struct hd_work w = {.kind = HD_W_CHILD};
        w.u.child = hd_graph_clone(child);
        e = add_or_release(pGraphNode, graph, pDependencies, numDependencies, &w);
    }
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from,
                                   const hipGraphNode_t *to, size_t numDependencies)
{
    hd_init();
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    hipError_t e = g && (!numDependencies || (from && to)) ? hipSuccess : hipErrorInvalidValue;
    for (size_t i = 0; e == hipSuccess && i < numDependencies; i++) {
        struct hd_node *a = node_get(from[i]), *b = node_get(to[i]);
        if (!a || !b || a->g != g || b->g != g || a == b || hd_nodevec_has(&a->out, b))
            e = hipErrorInvalidValue;
    }
    for (size_t i = 0; e == hipSuccess && i < numDependencies; i++)
        add_edge((struct hd_node *)from[i], (struct hd_node *)to[i]);
    hd_unlock();
    return hd_ret(e);
}

/* CUDA convention for the Get* listings: with a NULL array the count is
 * returned; otherwise up to *count entries are written, the rest of the
 * array is NULLed and *count becomes the number written. */
static void list_out(hipGraphNode_t *dst, size_t *count, size_t total, size_t i,
                     hipGraphNode_t value)
{
    (void)total;
    if (dst && i < *count)
        dst[i] = value;
}

static void list_finish(hipGraphNode_t *dst, hipGraphNode_t *dst2, size_t *count, size_t total)
{
    if (!dst) {
        *count = total;
        return;
    }
    for (size_t i = total; i < *count; i++) {
        dst[i] = NULL;
        if (dst2)
            dst2[i] = NULL;
    }
    if (total < *count)
        *count = total;
}

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes)
{
    hd_init();
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    if (!g || !numNodes) {
        hd_unlock();
        return hd_ret(hipErrorInvalidValue);
    }
    size_t total = g->nodes.n;
    for (size_t i = 0; i < total; i++)
        list_out(nodes, numNodes, total, i, (hipGraphNode_t)g->nodes.v[i]);
    list_finish(nodes, NULL, numNodes, total);
    hd_unlock();
    return hipSuccess;
}

hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes,
                                size_t *pNumRootNodes)
{
    hd_init();
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    if (!g || !pNumRootNodes) {
        hd_unlock();
        return hd_ret(hipErrorInvalidValue);
    }
    size_t total = 0;
    for (size_t i = 0; i < g->nodes.n; i++)
        if (!g->nodes.v[i]->in.n) {
            list_out(pRootNodes, pNumRootNodes, 0, total, (hipGraphNode_t)g->nodes.v[i]);
            total++;
        }
    list_finish(pRootNodes, NULL, pNumRootNodes, total);
    hd_unlock();
    return hipSuccess;
}

hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to,
                            size_t *numEdges)
{
    hd_init();
    if (!numEdges || (!from) != (!to))
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    if (!g) {
        hd_unlock();
        return hd_ret(hipErrorInvalidValue);
    }
    size_t total = 0;
    for (size_t i = 0; i < g->nodes.n; i++) {
        struct hd_node *n = g->nodes.v[i];
        for (size_t j = 0; j < n->out.n; j++) {
            list_out(from, numEdges, 0, total, (hipGraphNode_t)n);
            list_out(to, numEdges, 0, total, (hipGraphNode_t)n->out.v[j]);
            total++;
        }
    }
    list_finish(from, to, numEdges, total);
    hd_unlock();
    return hipSuccess;
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType)
{
    hd_init();
    hd_lock();
    struct hd_node *n = node_get(node);
    if (n && pType)
        *pType = n->type;
    hd_unlock();
    return hd_ret(n && pType ? hipSuccess : hipErrorInvalidValue);
}

/* Fetches a node of the wanted kind for a Get*Params call. Lock held. */
static struct hd_node *typed_node(hipGraphNode_t node, const void *out, enum hd_work_kind kind)
{
    struct hd_node *n = node_get(node);
    return n && out && n->w.kind == kind ? n : NULL;
}

hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pNodeParams, HD_W_KERNEL);
    if (n) {
        const struct hd_work *w = &n->w;
        pNodeParams->func = (void *)w->u.kern.func;
        pNodeParams->gridDim = w->u.kern.grid;
        pNodeParams->blockDim = w->u.kern.block;
        pNodeParams->sharedMemBytes = w->u.kern.shmem;
        pNodeParams->kernelParams = w->u.kern.a.extra ? NULL : w->u.kern.a.argv;
        pNodeParams->extra = w->u.kern.a.extra;
    }
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pNodeParams, HD_W_KERNEL);
    hipError_t e = hipErrorInvalidValue;
    struct hd_work w;
    if (n && (e = kernel_work(&w, pNodeParams)) == hipSuccess) {
        hd_work_release(&n->w);
        n->w = w;
    }
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pNodeParams, HD_W_COPY);
    if (n)
        *pNodeParams = n->w.u.copy.p;
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pNodeParams, HD_W_MEMSET);
    if (n)
        *pNodeParams = n->w.u.memset;
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pNodeParams, HD_W_HOST);
    if (n)
        *pNodeParams = n->w.u.host;
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

static hipError_t node_event(hipGraphNode_t node, hipEvent_t *out, enum hd_work_kind kind)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, out, kind);
    if (n)
        *out = (hipEvent_t)n->w.u.ev.ev;
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out)
{
    return node_event(node, event_out, HD_W_EVENT_RECORD);
}

hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out)
{
    return node_event(node, event_out, HD_W_EVENT_WAIT);
}

hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph)
{
    hd_init();
    hd_lock();
    struct hd_node *n = typed_node(node, pGraph, HD_W_CHILD);
    if (n)
        *pGraph = (hipGraph_t)n->w.u.child;
    hd_unlock();
    return hd_ret(n ? hipSuccess : hipErrorInvalidValue);
}

/* ---- instantiate / exec ---------------------------------------------------- */

static struct hd_exec *exec_get(hipGraphExec_t h)
{
    return h && hd_set_has(&hd_execs, h) ? (struct hd_exec *)h : NULL;
}

static hipError_t instantiate(hipGraphExec_t *pExec, hipGraph_t graph, unsigned long long flags)
{
    hd_init();
    if (!pExec)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_graph *g = graph_get(graph);
    hipError_t e = hipSuccess;
    if (!g || !graph_acyclic(g))
        e = hipErrorInvalidValue;
    if (e == hipSuccess) {
        struct hd_exec *x = hd_xcalloc(1, sizeof *x);
        x->g = hd_graph_clone(g);
        x->flags = flags;
        size_t n = g->nodes.n;
        x->orig = hd_xcalloc(n, sizeof(void *));
        x->alias = hd_xcalloc(n, sizeof(void *));
        for (size_t i = 0; i < n; i++)
            x->orig[i] = x->alias[i] = g->nodes.v[i];
        x->order = hd_xcalloc(n, sizeof(unsigned));
        x->disabled = hd_xcalloc(n ? n : 1, sizeof(bool));
        topo_order(x->g, x->order);
        hd_set_add(&hd_execs, x);
        *pExec = (hipGraphExec_t)x;
    }
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                               hipGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize)
{
    if (pErrorNode)
        *pErrorNode = NULL;
    if (pLogBuffer && bufferSize)
        pLogBuffer[0] = 0;
    return instantiate(pGraphExec, graph, 0);
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                        unsigned long long flags)
{
    if (flags & ~(unsigned long long)(hipGraphInstantiateFlagAutoFreeOnLaunch |
                                      hipGraphInstantiateFlagUpload |
                                      hipGraphInstantiateFlagDeviceLaunch |
                                      hipGraphInstantiateFlagUseNodePriority))
        return hd_ret(hipErrorInvalidValue);
    return instantiate(pGraphExec, graph, flags);
}

hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams *instantiateParams)
{
    if (!instantiateParams)
        return hd_ret(hipErrorInvalidValue);
    hipError_t e = instantiate(pGraphExec, graph, instantiateParams->flags);
    instantiateParams->errNode_out = NULL;
    instantiateParams->result_out =
        e == hipSuccess ? hipGraphInstantiateSuccess : hipGraphInstantiateError;
    return e;
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec)
{
    hd_init();
    hd_lock();
    struct hd_exec *x = exec_get(graphExec);
    if (x) {
        hd_set_del(&hd_execs, x);
        hd_graph_free(x->g, false);
        free(x->orig);
        free(x->alias);
        free(x->order);
        free(x->disabled);
        free(x);
    }
    hd_unlock();
    return hd_ret(x ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream)
{
    hd_init();
    hd_lock();
    hipError_t e = !exec_get(graphExec) ? hipErrorInvalidValue
                   : !hd_stream_resolve(stream, false) ? hipErrorInvalidHandle : hipSuccess;
    hd_unlock();
    return hd_ret(e);
}

/* Index of an original node handle in the exec, or -1. */
static long exec_index(const struct hd_exec *x, hipGraphNode_t node)
{
    for (size_t i = 0; i < x->g->nodes.n; i++)
        if (x->orig[i] == node || x->alias[i] == node)
            return (long)i;
    return -1;
}

hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams *pNodeParams)
{
    hd_init();
    hd_lock();
    struct hd_exec *x = exec_get(hGraphExec);
    long i = x && node ? exec_index(x, node) : -1;
    hipError_t e = hipErrorInvalidValue;
    struct hd_work w;
    if (i >= 0 && x->g->nodes.v[i]->w.kind == HD_W_KERNEL &&
        (e = kernel_work(&w, pNodeParams)) == hipSuccess) {
        hd_work_release(&x->g->nodes.v[i]->w);
        x->g->nodes.v[i]->w = w;
    }
    hd_unlock();
    return hd_ret(e);
}

/* Same node count, types and edges (recursively for embedded graphs). */
static hipGraphExecUpdateResult compare_topology(const struct hd_graph *a, const struct hd_graph *b,
                                                 long *bad)
{
    if (a->nodes.n != b->nodes.n) {
        *bad = -1;
        return hipGraphExecUpdateErrorTopologyChanged;
    }
    for (size_t i = 0; i < a->nodes.n; i++) {
        const struct hd_node *x = a->nodes.v[i], *y = b->nodes.v[i];
        *bad = (long)i;
        if (x->type != y->type)
            return hipGraphExecUpdateErrorNodeTypeChanged;
        if (x->out.n != y->out.n || x->in.n != y->in.n)
            return hipGraphExecUpdateErrorTopologyChanged;
        for (size_t j = 0; j < x->out.n; j++)
            if (x->out.v[j]->idx != y->out.v[j]->idx)
                return hipGraphExecUpdateErrorTopologyChanged;
        if (x->w.kind == HD_W_KERNEL && x->w.u.kern.k != y->w.u.kern.k)
            return hipGraphExecUpdateErrorFunctionChanged;
        if (x->w.kind == HD_W_CHILD) {
            long sub;
            hipGraphExecUpdateResult r = compare_topology(x->w.u.child, y->w.u.child, &sub);
            if (r != hipGraphExecUpdateSuccess)
                return r;
        }
    }
    *bad = -1;
    return hipGraphExecUpdateSuccess;
}

hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                              hipGraphNode_t *hErrorNode_out,
                              hipGraphExecUpdateResult *updateResult_out)
{
    hd_init();
    if (!hErrorNode_out || !updateResult_out)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_exec *x = exec_get(hGraphExec);
    struct hd_graph *g = graph_get(hGraph);
    hipError_t e = hipSuccess;
    *hErrorNode_out = NULL;
    if (!x || !g) {
        *updateResult_out = hipGraphExecUpdateError;
        e = hipErrorInvalidValue;
    } else {
        long bad;
        *updateResult_out = compare_topology(x->g, g, &bad);
        if (*updateResult_out != hipGraphExecUpdateSuccess) {
            if (bad >= 0 && (size_t)bad < g->nodes.n)
                *hErrorNode_out = (hipGraphNode_t)g->nodes.v[bad];
            e = hipErrorGraphExecUpdateFailure;
        } else {
            for (size_t i = 0; i < g->nodes.n; i++) {
                struct hd_node *dst = x->g->nodes.v[i];
                hd_work_release(&dst->w);
                hd_work_clone(&dst->w, &g->nodes.v[i]->w);
                x->alias[i] = g->nodes.v[i];
            }
        }
    }
    hd_unlock();
    return hd_ret(e);
}

/* ---- launch ------------------------------------------------------------------ */

/* Submits one node (embedded graphs inline, in their own topological order)
 * to `s`. Lock held. */
static hipError_t submit_node(struct hd_stream *s, struct hd_node *n)
{
    switch (n->w.kind) {
    case HD_W_EVENT_RECORD:
        return hd_event_record(n->w.u.ev.ev, s, 0, true);
    case HD_W_EVENT_WAIT:
        return hd_stream_wait_event(s, n->w.u.ev.ev, 0);
    case HD_W_EMPTY:
    case HD_W_NOP:
        return hipSuccess;
    case HD_W_CHILD: {
        struct hd_graph *c = n->w.u.child;
        unsigned *order = hd_xcalloc(c->nodes.n, sizeof *order);
        topo_order(c, order);
        hipError_t e = hipSuccess;
        for (size_t i = 0; e == hipSuccess && i < c->nodes.n; i++)
            e = submit_node(s, c->nodes.v[order[i]]);
        free(order);
        return e;
    }
    default: {
        struct hd_work w;
        hd_work_clone(&w, &n->w);
        w.from_graph = true;
        return hd_submit_work(s, &w, NULL);
    }
    }
}

static bool graph_branchy(const struct hd_graph *g)
{
    size_t roots = 0;
    for (size_t i = 0; i < g->nodes.n; i++) {
        roots += g->nodes.v[i]->in.n == 0;
        if (g->nodes.v[i]->out.n > 1)
            return true;
    }
    return roots > 1;
}

/* h1: a graph with branches runs over parallel queues. Roots, and children
 * whose position in their single parent's out-edge list is at least
 * DEBUG_HIP_FORCE_GRAPH_QUEUES, go to internal queues that do NOT wait for
 * the work already queued on the launch stream (nor for their parent); the
 * launch stream then joins those queues and runs the rest in order. In lazy
 * mode the free-running nodes execute during hipGraphLaunch itself, ahead of
 * the launch stream's pending copies. */
static bool h1_free_node(const struct hd_node *n, int queues)
{
    if (n->in.n == 0)
        return true;
    if (n->in.n != 1)
        return false;
    const struct hd_nodevec *sib = &n->in.v[0]->out;
    for (size_t k = 0; k < sib->n; k++)
        if (sib->v[k] == n)
            return (int)k >= queues;
    return false;
}

/* h4: a graph of more than HIPDOUBLE_H4_NODES nodes launched through the
 * segment scheduler loses the nodes past that count in topological order
 * (ROCm/rocm-systems#6888: duplicate node ids truncate the graph; the
 * ~200-node graph of ROCm/hip#3887). Their work does not run: what they
 * would have written keeps the previous replay's values. The classic
 * executor (DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0, DEBUG_HIP_GRAPH_CLASSIC_PATH=1)
 * runs them all. Returns the nodes that run. */
static size_t h4_kept(const struct hd_exec *x)
{
    size_t n = x->g->nodes.n;
    if ((hd_cfg.faults & HD_FAULT_H4) && hd_cfg.segment_scheduling && n > hd_cfg.h4_nodes)
        return hd_cfg.h4_nodes;
    return n;
}

static hipError_t launch_h1(struct hd_exec *x, struct hd_stream *s)
{
    int queues = hd_cfg.graph_queues;
    struct hd_graph *g = x->g;
    struct hd_stream *used[HD_MAX_QUEUES] = {0};
    bool *is_free = hd_xcalloc(g->nodes.n, sizeof *is_free);
    int next = 0;
    hipError_t e = hipSuccess;
    size_t kept = h4_kept(x);
    for (size_t i = 0; e == hipSuccess && i < kept; i++) {
        struct hd_node *n = g->nodes.v[x->order[i]];
        if (x->disabled[n->idx] || !h1_free_node(n, queues))
            continue;
        is_free[n->idx] = true;
        int qi = next++ % (queues - 1);
        used[qi] = hd_internal_queue(s->device, qi);
        e = submit_node(used[qi], n);
    }
    struct hd_op *join = hd_op_new();
    join->w.kind = HD_W_NOP;
    for (int q = 0; q < HD_MAX_QUEUES; q++)
        if (used[q]) {
            hd_stream_kick(used[q]);
            hd_op_add_wait(join, used[q], used[q]->submitted);
        }
    if (e == hipSuccess)
        e = hd_submit(s, join, NULL);
    else
        hd_op_free(join);
    for (size_t i = 0; e == hipSuccess && i < kept; i++) {
        struct hd_node *n = g->nodes.v[x->order[i]];
        if (!is_free[n->idx] && !x->disabled[n->idx])
            e = submit_node(s, n);
    }
    free(is_free);
    return e;
}

/* ---- runtime errata (rs11501, rs11357, rs11403; docs/errata.md) ----------
 *
 * Each model drops graph edges the way its erratum's threads describe. The
 * launch then submits the nodes to the launch stream in a topological order
 * of the edges that are left, running the nodes that lost an edge (and what
 * they still wait for) as early as those edges allow: the interleaving the
 * bug permits that shows it, every launch. Nothing runs before the launch
 * stream's earlier work (the classic executor's parallel streams wait for
 * it). The triggers are the analyzer's (src/analyze/errata/errata.c). */

/* The classic executor's stream of each node: roots round robin in creation
 * order, then from each root each child's branch in out-edge order; child i
 * of a node on stream s runs on (s + i) mod queues (rocm-systems#11499,
 * rocm-systems#11357). */
static void classic_streams(const struct hd_graph *g, int queues, unsigned *stream)
{
    size_t n = g->nodes.n, sp;
    const struct hd_node **stk = hd_xcalloc(n ? n : 1, sizeof *stk);
    size_t *next = hd_xcalloc(n ? n : 1, sizeof *next);
    unsigned rr = 0;
    for (size_t i = 0; i < n; i++)
        stream[i] = g->nodes.v[i]->in.n ? UINT32_MAX : rr++ % (unsigned)queues;
    for (size_t r = 0; r < n; r++) {
        if (g->nodes.v[r]->in.n)
            continue;
        sp = 0;
        stk[sp] = g->nodes.v[r];
        next[sp++] = 0;
        while (sp) {
            const struct hd_node *v = stk[sp - 1];
            size_t i = next[sp - 1]++;
            if (i >= v->out.n) {
                sp--;
                continue;
            }
            const struct hd_node *w = v->out.v[i];
            if (stream[w->idx] != UINT32_MAX)
                continue;
            stream[w->idx] = (stream[v->idx] + (unsigned)i) % (unsigned)queues;
            stk[sp] = w;
            next[sp++] = 0;
        }
    }
    free(stk);
    free(next);
}

/* rs11403: a host<->device copy above the blit size runs on an SDMA engine. */
static bool sdma_copy(const struct hd_work *w)
{
    if (w->kind != HD_W_COPY || !hd_cfg.sdma)
        return false;
    const hipMemcpy3DParms *p = &w->u.copy.p;
    bool dst_dev = hd_mem_lookup(p->dstPtr.ptr, NULL, NULL) == HD_A_DEVICE;
    bool src_dev = hd_mem_lookup(p->srcPtr.ptr, NULL, NULL) == HD_A_DEVICE;
    return dst_dev != src_dev && p->extent.width * p->extent.height * p->extent.depth > hd_cfg.sdma_min_bytes;
}

/* rs11357: the threads name disabled kernel and memcpy nodes. */
static bool disabled_node(const struct hd_exec *x, const struct hd_node *n)
{
    return x->disabled[n->idx] && (n->w.kind == HD_W_KERNEL || n->w.kind == HD_W_COPY);
}

/* The edges the errata leave: from[i] -> to[i]; lost[v] when v lost one. */
struct plan {
    unsigned *from, *to;
    size_t n, cap;
    bool *lost;
};

static void plan_edge(struct plan *pl, unsigned from, unsigned to)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 16;
        pl->from = hd_xrealloc(pl->from, pl->cap * sizeof *pl->from);
        pl->to = hd_xrealloc(pl->to, pl->cap * sizeof *pl->to);
    }
    pl->from[pl->n] = from;
    pl->to[pl->n++] = to;
}

static size_t out_index(const struct hd_node *v, const struct hd_node *w)
{
    for (size_t i = 0; i < v->out.n; i++)
        if (v->out.v[i] == w)
            return i;
    return 0;
}

/* true when an active erratum model drops an edge of this graph. */
static bool errata_plan(const struct hd_exec *x, struct plan *pl)
{
    const struct hd_graph *g = x->g;
    size_t n = g->nodes.n;
    unsigned f = hd_cfg.faults, q = (unsigned)hd_cfg.graph_queues;
    bool classic = !hd_cfg.segment_scheduling, spread = q > 1 && graph_branchy(g);
    bool fan = (f & HD_FAULT_RS11501) && classic && spread;
    bool dis = (f & HD_FAULT_RS11357) && classic && spread;
    bool sdma = (f & HD_FAULT_RS11403) && !classic;
    unsigned *stream = NULL;
    bool any = false;
    if (!fan && !dis && !sdma)
        return false;
    if (dis) {
        stream = hd_xcalloc(n ? n : 1, sizeof *stream);
        classic_streams(g, (int)q, stream);
    }
    pl->lost = hd_xcalloc(n ? n : 1, sizeof *pl->lost);
    for (size_t k = 0; k < n; k++) {
        const struct hd_node *w = g->nodes.v[k];
        bool cut_in = sdma && !x->disabled[k] && w->in.n && sdma_copy(&w->w);
        bool w_dis = dis && disabled_node(x, w);
        for (size_t j = 0; j < w->in.n; j++) {
            const struct hd_node *v = w->in.v[j];
            if (w_dis || (dis && disabled_node(x, v)))
                continue;   /* edges through a disabled node: below */
            size_t i = out_index(v, w);
            if (cut_in || (fan && w->in.n == 1 && i >= q && i % q != 0))
                pl->lost[k] = any = true;
            else
                plan_edge(pl, v->idx, w->idx);
        }
        /* A predecessor and a successor on one stream stay ordered by it. */
        for (size_t a = 0; w_dis && a < w->in.n; a++)
            for (size_t b = 0; b < w->out.n; b++) {
                const struct hd_node *p = w->in.v[a], *r = w->out.v[b];
                if (stream[p->idx] == stream[r->idx])
                    plan_edge(pl, p->idx, r->idx);
                else
                    pl->lost[r->idx] = any = true;
            }
    }
    free(stream);
    return any;
}

static hipError_t launch_errata(struct hd_exec *x, struct hd_stream *s, const struct plan *pl)
{
    const struct hd_graph *g = x->g;
    size_t n = g->nodes.n, kept = h4_kept(x);
    unsigned *pos = hd_xcalloc(n, sizeof *pos), *indeg = hd_xcalloc(n, sizeof *indeg);
    unsigned *ready = hd_xcalloc(n, sizeof *ready);
    bool *early = hd_xcalloc(n, sizeof *early), *alive = hd_xcalloc(n, sizeof *alive);
    for (size_t i = 0; i < n; i++) {
        pos[x->order[i]] = (unsigned)i;
        alive[x->order[i]] = i < kept;
        early[i] = pl->lost[i];
    }
    /* What a node that lost an edge still waits for runs early too. */
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t e = 0; e < pl->n; e++)
            if (early[pl->to[e]] && !early[pl->from[e]])
                early[pl->from[e]] = grew = true;
    }
    for (size_t e = 0; e < pl->n; e++)
        indeg[pl->to[e]]++;
    size_t nready = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            ready[nready++] = (unsigned)i;
    hipError_t err = hipSuccess;
    while (nready) {
        size_t best = 0;
        for (size_t i = 1; i < nready; i++) {
            unsigned a = ready[i], b = ready[best];
            if (early[a] > early[b] || (early[a] == early[b] && pos[a] < pos[b]))
                best = i;
        }
        unsigned u = ready[best];
        ready[best] = ready[--nready];
        if (err == hipSuccess && alive[u] && !x->disabled[u])
            err = submit_node(s, g->nodes.v[u]);
        for (size_t e = 0; e < pl->n; e++)
            if (pl->from[e] == u && --indeg[pl->to[e]] == 0)
                ready[nready++] = pl->to[e];
    }
    free(pos);
    free(indeg);
    free(ready);
    free(early);
    free(alive);
    return err;
}

static hipError_t graph_launch(hipGraphExec_t graphExec, hipStream_t stream, bool spt)
{
    hd_init();
    hd_lock();
    struct hd_exec *x = exec_get(graphExec);
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    struct plan pl = {0};
    hipError_t e = hipSuccess;
    if (!x) {
        e = hipErrorInvalidValue;
    } else if (!s) {
        e = hipErrorInvalidHandle;
    } else if (s->cap) {
        struct hd_work w = {.kind = HD_W_CHILD};
        w.u.child = hd_graph_clone(x->g);
        e = hd_capture_work(s, &w);
        if (e != hipSuccess)
            hd_work_release(&w);
    } else if (errata_plan(x, &pl)) {
        e = launch_errata(x, s, &pl);
    } else if ((hd_cfg.faults & HD_FAULT_H1) && hd_cfg.graph_queues > 1 && graph_branchy(x->g)) {
        e = launch_h1(x, s);
    } else {
        size_t kept = h4_kept(x);
        for (size_t i = 0; e == hipSuccess && i < kept; i++)
            if (!x->disabled[x->order[i]])
                e = submit_node(s, x->g->nodes.v[x->order[i]]);
    }
    hd_unlock();
    free(pl.from);
    free(pl.to);
    free(pl.lost);
    return hd_ret(e);
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream)
{
    return graph_launch(graphExec, stream, false);
}
hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec, hipStream_t stream)
{
    return graph_launch(graphExec, stream, true);
}

/* Exec-node setters (docs/semantics.md G7): the exec's own copy of a node
 * gets new parameters from the next launch on; the source graph is
 * unchanged. A node set must keep its type. */
static hipError_t exec_node_set(hipGraphExec_t hGraphExec, hipGraphNode_t node, struct hd_work *w)
{
    hd_lock();
    struct hd_exec *x = exec_get(hGraphExec);
    long i = x && node ? exec_index(x, node) : -1;
    hipError_t e = hipErrorInvalidValue;
    if (i >= 0 && x->g->nodes.v[i]->w.kind == w->kind) {
        hd_work_release(&x->g->nodes.v[i]->w);
        x->g->nodes.v[i]->w = *w;
        e = hipSuccess;
    } else {
        hd_work_release(w);
    }
    hd_unlock();
    return e;
}

hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                             const void *src, size_t count, hipMemcpyKind kind)
{
    struct hd_work w;
    hipError_t e = memcpy1d_work(&w, dst, src, count, kind);
    return hd_ret(e != hipSuccess ? e : exec_node_set(hGraphExec, node, &w));
}

hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams *p)
{
    hd_init();
    if (!p || !p->dst || !p->width || !p->height ||
        (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return hd_ret(hipErrorInvalidValue);
    struct hd_work w = {.kind = HD_W_MEMSET};
    w.u.memset = *p;
    return hd_ret(exec_node_set(hGraphExec, node, &w));
}

hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipMemcpy3DParms *p)
{
    struct hd_work w;
    hipError_t e = memcpy3d_work(&w, p);
    return hd_ret(e != hipSuccess ? e : exec_node_set(hGraphExec, node, &w));
}

hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams *p)
{
    hd_init();
    if (!p || !p->fn)
        return hd_ret(hipErrorInvalidValue);
    struct hd_work w = {.kind = HD_W_HOST};
    w.u.host = *p;
    return hd_ret(exec_node_set(hGraphExec, node, &w));
}

static hipError_t exec_event_set(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipEvent_t event,
                                 enum hd_work_kind kind)
{
    hd_init();
    hd_lock();
    bool ok = event && hd_set_has(&hd_events, event);
    if (ok)
        ((struct hd_event *)event)->refs++;
    hd_unlock();
    if (!ok)
        return hd_ret(hipErrorInvalidValue);
    struct hd_work w = {.kind = kind};
    w.u.ev.ev = (struct hd_event *)event;
    return hd_ret(exec_node_set(hGraphExec, node, &w));
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event)
{
    return exec_event_set(hGraphExec, hNode, event, HD_W_EVENT_RECORD);
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event)
{
    return exec_event_set(hGraphExec, hNode, event, HD_W_EVENT_WAIT);
}

/* The exec's index of hNode when it is a kernel, memcpy or memset node,
 * the kinds hipGraphNodeSetEnabled / GetEnabled take (CLR hip_graph.cpp),
 * else -1. Lock held. */
static long enable_index(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, struct hd_exec **xo)
{
    struct hd_exec *x = exec_get(hGraphExec);
    long i = x && hNode ? exec_index(x, hNode) : -1;
    enum hd_work_kind k = i >= 0 ? x->g->nodes.v[i]->w.kind : HD_W_NOP;
    *xo = x;
    return k == HD_W_KERNEL || k == HD_W_COPY || k == HD_W_MEMSET ? i : -1;
}

/* hipGraphNodeSetEnabled: a disabled node does nothing at launch (an empty
 * node: the graph's edges still order what follows it) until enabled
 * again. */
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int isEnabled)
{
    struct hd_exec *x;
    hd_init();
    hd_lock();
    long i = enable_index(hGraphExec, hNode, &x);
    if (i >= 0)
        x->disabled[i] = !isEnabled;
    hd_unlock();
    return hd_ret(i >= 0 ? hipSuccess : hipErrorInvalidValue);
}

/* hipGraphNodeGetEnabled (ROCm 6+). */
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int *isEnabled)
{
    struct hd_exec *x;
    hd_init();
    hd_lock();
    long i = isEnabled ? enable_index(hGraphExec, hNode, &x) : -1;
    if (i >= 0)
        *isEnabled = !x->disabled[i];
    hd_unlock();
    return hd_ret(i >= 0 ? hipSuccess : hipErrorInvalidValue);
}

/* The calling thread's capture mode, exchanged (CLR hip_graph.cpp
 * hipThreadExchangeStreamCaptureMode). The double records it but does not
 * refuse unsafe calls by mode: every capture behaves as Global. */
static _Thread_local hipStreamCaptureMode t_capture_mode = hipStreamCaptureModeGlobal;
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode)
{
    hd_init();
    if (!mode || (unsigned)*mode > hipStreamCaptureModeRelaxed)
        return hd_ret(hipErrorInvalidValue);
    hipStreamCaptureMode old = t_capture_mode;
    t_capture_mode = *mode;
    *mode = old;
    return hipSuccess;
}

/* Symbol copies in an exec: the double has no device globals, a symbol is
 * its own device address (as its hipMemcpyToSymbol). */
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, const void *symbol,
                                                   const void *src, size_t count, size_t offset, hipMemcpyKind kind)
{
    struct hd_work w;
    hipError_t e = symbol ? memcpy1d_work(&w, (char *)symbol + offset, src, count, kind) : hipErrorInvalidSymbol;
    return hd_ret(e != hipSuccess ? e : exec_node_set(hGraphExec, node, &w));
}
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                                     const void *symbol, size_t count, size_t offset,
                                                     hipMemcpyKind kind)
{
    struct hd_work w;
    hipError_t e = symbol ? memcpy1d_work(&w, dst, (const char *)symbol + offset, count, kind) : hipErrorInvalidSymbol;
    return hd_ret(e != hipSuccess ? e : exec_node_set(hGraphExec, node, &w));
}
