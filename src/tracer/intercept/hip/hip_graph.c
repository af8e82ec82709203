/*
 * Graphs: capture, instantiate (where the graph's inventory is recorded by
 * walking it through HIP's own query API), replay and updates. The records
 * and the walk are src/tracer/intercept/common/fill_graph.c; this file is HIP's query
 * API and node types.
 */
#include "tracer/intercept/hip/guard_hip_int.h"
#include "tracer/intercept/hip/hip_int.h"
#include "tracer/evidence/evidence.h"

/* The runtime functions the walk needs; not intercepted, so resolved per walk. */
struct graph_api {
    hipError_t (*get_nodes)(hipGraph_t, hipGraphNode_t *, size_t *);
    hipError_t (*get_edges)(hipGraph_t, hipGraphNode_t *, hipGraphNode_t *, size_t *);
    hipError_t (*node_type)(hipGraphNode_t, hipGraphNodeType *);
    hipError_t (*kernel_params)(hipGraphNode_t, hipKernelNodeParams *);
    hipError_t (*memcpy_params)(hipGraphNode_t, hipMemcpy3DParms *);
    hipError_t (*memset_params)(hipGraphNode_t, hipMemsetParams *);
    struct hv_node_getters get;
};

/* hipHostNodeParams is the neutral pair. */
_Static_assert(sizeof(hipHostNodeParams) == sizeof(struct hv_host_params), "host node parameters");

static int graph_api_load(struct graph_api *g)
{
    g->get_nodes = (__typeof__(g->get_nodes))hv_runtime_sym("hipGraphGetNodes");
    g->get_edges = (__typeof__(g->get_edges))hv_runtime_sym("hipGraphGetEdges");
    g->node_type = (__typeof__(g->node_type))hv_runtime_sym("hipGraphNodeGetType");
    g->kernel_params = (__typeof__(g->kernel_params))hv_runtime_sym("hipGraphKernelNodeGetParams");
    g->memcpy_params = (__typeof__(g->memcpy_params))hv_runtime_sym("hipGraphMemcpyNodeGetParams");
    g->memset_params = (__typeof__(g->memset_params))hv_runtime_sym("hipGraphMemsetNodeGetParams");
    hv_node_getters_load(&g->get, hv_runtime_sym, "hipGraphEventRecordNodeGetEvent", "hipGraphEventWaitNodeGetEvent",
                         "hipGraphHostNodeGetParams", "hipGraphChildGraphNodeGetGraph");
    return g->get_nodes && g->get_edges && g->node_type;
}

static enum hv_node_type node_type_of(hipGraphNodeType t)
{
    switch (t) {
    case hipGraphNodeTypeKernel: return HV_NODE_KERNEL;
    case hipGraphNodeTypeMemcpy:
    case hipGraphNodeTypeMemcpy1D:
    case hipGraphNodeTypeMemcpyFromSymbol:
    case hipGraphNodeTypeMemcpyToSymbol: return HV_NODE_MEMCPY;
    case hipGraphNodeTypeMemset: return HV_NODE_MEMSET;
    case hipGraphNodeTypeHost: return HV_NODE_HOST;
    case hipGraphNodeTypeGraph: return HV_NODE_GRAPH;
    case hipGraphNodeTypeEmpty: return HV_NODE_EMPTY;
    case hipGraphNodeTypeWaitEvent: return HV_NODE_EVENT_WAIT;
    case hipGraphNodeTypeEventRecord: return HV_NODE_EVENT_RECORD;
    default: return HV_NODE_OTHER;
    }
}

static int get_nodes(void *ctx, void *graph, void **out, size_t *n)
{
    return ((struct graph_api *)ctx)->get_nodes(graph, (hipGraphNode_t *)out, n);
}

static int get_edges(void *ctx, void *graph, void **from, void **to, size_t *n)
{
    return ((struct graph_api *)ctx)->get_edges(graph, (hipGraphNode_t *)from, (hipGraphNode_t *)to, n);
}

/* Node payloads from HIP's parameter structs: the walk and the exec-node
 * setters describe nodes alike. */
static void memcpy_node(struct hv_node_desc *d, const hipMemcpy3DParms *p) { HV_NODE_MEMCPY3D_PARMS(d, p); }

static void memset_node(struct hv_node_desc *d, const hipMemsetParams *p)
{
    d->type = HV_NODE_MEMSET;
    hv_node_memset(d, HV_PTR(p->dst), p->width, p->elementSize, p->height, p->value);
}

static void kernel_node(struct hv_node_desc *d, const hipKernelNodeParams *kp)
{
    d->type = HV_NODE_KERNEL;
    d->u.kernel.func = HV_PTR(kp->func);
    d->kparams = kp->kernelParams;
    /* hipModuleLaunchKernel(..., NULL, extra) captured: the arguments are
     * the packed block (Tensile/hipBLASLt launchers). */
    d->kblock = hip_extra_block(kp->extra, &d->kblock_bytes);
    d->u.kernel.grid[0] = kp->gridDim.x, d->u.kernel.grid[1] = kp->gridDim.y, d->u.kernel.grid[2] = kp->gridDim.z;
    d->u.kernel.block[0] = kp->blockDim.x, d->u.kernel.block[1] = kp->blockDim.y, d->u.kernel.block[2] = kp->blockDim.z;
    d->u.kernel.shmem = kp->sharedMemBytes;
}

/* Type, and the payloads whose parameter structs are HIP's own. */
static void describe(void *ctx, struct hv_thread_ctx *t, void *node, struct hv_node_desc *d)
{
    const struct graph_api *g = ctx;
    hipGraphNodeType ht = hipGraphNodeTypeCount;
    (void)t;
    g->node_type(node, &ht);
    d->type = (uint16_t)node_type_of(ht);
    switch (d->type) {
    case HV_NODE_KERNEL: {
        hipKernelNodeParams kp;
        memset(&kp, 0, sizeof kp);
        if (g->kernel_params)
            g->kernel_params(node, &kp);
        kernel_node(d, &kp);
        break;
    }
    case HV_NODE_MEMCPY: {
        hipMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        if (g->memcpy_params && g->memcpy_params(node, &p) == hipSuccess)
            memcpy_node(d, &p);
        break;
    }
    case HV_NODE_MEMSET: {
        hipMemsetParams p;
        memset(&p, 0, sizeof p);
        if (g->memset_params && g->memset_params(node, &p) == hipSuccess)
            memset_node(d, &p);
        break;
    }
    default:
        break;
    }
}

static const struct hv_graph_ops hip_graph_ops = {get_nodes, get_edges, describe};

/* Records the exec's inventory after its (committed) call record. */
static void record_inventory(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph)
{
    struct graph_api api;
    if (graph_api_load(&api))
        hv_graph_walk(t, seq, exec, graph, &hip_graph_ops, &api.get, &api);
}

#define S(spt) HV_HIP_S(s, spt)
#define CAPTURE(spt, begin, mode, pg) hv_trace_capture(t_, api_, r_, S(spt), begin, mode, HV_OUT(pg, r_))
#define INSTANTIATE(flags, err) hv_trace_instantiate(t_, api_, r_, HV_OUT(pe, r_), g, flags, err, record_inventory)

HV_HIP_WRAP(hipStreamBeginCapture, (hipStream_t s, hipStreamCaptureMode m), (s, m),
            CAPTURE(HV_HIP_LEGACY, 1, (unsigned)m, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamBeginCapture_spt, (hipStream_t s, hipStreamCaptureMode m), (s, m),
            CAPTURE(HV_HIP_SPT, 1, (unsigned)m, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamEndCapture, (hipStream_t s, hipGraph_t *pg), (s, pg), CAPTURE(HV_HIP_LEGACY, 0, 0, pg))
HV_HIP_WRAP(hipStreamEndCapture_spt, (hipStream_t s, hipGraph_t *pg), (s, pg), CAPTURE(HV_HIP_SPT, 0, 0, pg))
HV_HIP_WRAP(hipGraphInstantiate, (hipGraphExec_t * pe, hipGraph_t g, hipGraphNode_t *err, char *log, size_t loglen),
            (pe, g, err, log, loglen), INSTANTIATE(0, err && r_ ? HV_PTR(*err) : 0))
HV_HIP_WRAP(hipGraphInstantiateWithFlags, (hipGraphExec_t * pe, hipGraph_t g, unsigned long long f), (pe, g, f),
            INSTANTIATE(f, 0))
HV_HIP_WRAP(hipGraphInstantiateWithParams, (hipGraphExec_t * pe, hipGraph_t g, hv_hipGraphInstantiateParams *p),
            (pe, g, p), INSTANTIATE(p ? p->flags : 0, p ? HV_PTR(p->errNode_out) : 0))
/* Launches: the probe's pre-replay snapshot must be on the stream before the
 * graph, and HIPVIS_GUARD's synchronization (guard_hip.c) right before it. */
#define BEFORE_LAUNCH(spt)                                                               \
    do {                                                                                 \
        if (hv_ev(HV_EV_PROBE)) {                                                        \
            struct hv_sref sr_ = S(spt);                                                 \
            hv_ev_replay_before(t_, sr_.id, sr_.form, HV_PTR(e), api_);                  \
        }                                                                                \
        if (hv_guard_mode() != HV_GUARD_OFF) /* the check inline: no call when off */    \
            hv_guard_hip(t_, e, s, spt);                                                 \
    } while (0)
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_WRAP_BEFORE(hipError_t, hipErrorSharedObjectSymbolNotFound, hipGraphLaunch, (hipGraphExec_t e, hipStream_t s),
               (e, s), BEFORE_LAUNCH(HV_HIP_LEGACY), (void)0,
               hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, S(HV_HIP_LEGACY)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_WRAP_BEFORE(hipError_t, hipErrorSharedObjectSymbolNotFound, hipGraphLaunch_spt,
               (hipGraphExec_t e, hipStream_t s), (e, s), BEFORE_LAUNCH(HV_HIP_SPT), (void)0,
               hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, S(HV_HIP_SPT)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_HIP_WRAP(hipGraphUpload, (hipGraphExec_t e, hipStream_t s), (e, s),
            hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, S(HV_HIP_LEGACY)))
HV_HIP_WRAP(hipGraphExecDestroy, (hipGraphExec_t e), (e), hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, HV_NO_STREAM))
HV_HIP_WRAP(hipGraphDestroy, (hipGraph_t g), (g), hv_trace_exec_call(t_, api_, r_, 0, HV_PTR(g), HV_NO_STREAM))
HV_HIP_WRAP(hipGraphExecUpdate,
            (hipGraphExec_t e, hipGraph_t g, hipGraphNode_t *err, hipGraphExecUpdateResult *res), (e, g, err, res),
            hv_trace_exec_update(t_, api_, r_, HV_PTR(e), g, err && r_ ? HV_PTR(*err) : 0, record_inventory))
static void set_kernel(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t e, hipGraphNode_t n,
                       const hipKernelNodeParams *p)
{
    struct hv_kargs_src a = {.params = p ? p->kernelParams : NULL};
    a.kblock = p ? hip_extra_block(p->extra, &a.kblock_bytes) : NULL;
    hv_trace_exec_set_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), p ? HV_PTR(p->func) : 0, &a);
}
HV_HIP_WRAP(hipGraphExecKernelNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, const hipKernelNodeParams *p),
            (e, n, p), set_kernel(t_, api_, r_, e, n, p))

/* ---- exec-node setters (docs/semantics.md G7) ---- */

#define EXEC_NODE(d) hv_trace_exec_node(t_, api_, r_, HV_PTR(e), HV_PTR(n), d)
#define DESC(...) (&(struct hv_node_desc){__VA_ARGS__})

static const struct hv_node_desc *memcpy_desc(struct hv_node_desc *d, const hipMemcpy3DParms *p)
{
    memset(d, 0, sizeof *d);
    if (!p)
        return NULL;
    memcpy_node(d, p);
    return d;
}

static const struct hv_node_desc *memset_desc(struct hv_node_desc *d, const hipMemsetParams *p)
{
    memset(d, 0, sizeof *d);
    if (!p)
        return NULL;
    memset_node(d, p);
    return d;
}

HV_HIP_WRAP(hipGraphExecMemcpyNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, hipMemcpy3DParms *p), (e, n, p),
            EXEC_NODE(memcpy_desc(&(struct hv_node_desc){0}, p)))
HV_HIP_WRAP(hipGraphExecMemcpyNodeSetParams1D,
            (hipGraphExec_t e, hipGraphNode_t n, void *dst, const void *src, size_t count, hipMemcpyKind k),
            (e, n, dst, src, count, k),
            EXEC_NODE(DESC(.type = HV_NODE_MEMCPY, .shape = HV_NODE_SHAPE_1D,
                           .u.memcpy = {.dst = HV_PTR(dst), .src = HV_PTR(src), .bytes = count, .kind = (uint32_t)k})))
HV_HIP_WRAP(hipGraphExecMemsetNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, const hipMemsetParams *p),
            (e, n, p), EXEC_NODE(memset_desc(&(struct hv_node_desc){0}, p)))
HV_HIP_WRAP(hipGraphExecHostNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, const hipHostNodeParams *p),
            (e, n, p),
            EXEC_NODE(p ? DESC(.type = HV_NODE_HOST, .u.host = {HV_PTR(p->fn), HV_PTR(p->userData)}) : NULL))
HV_HIP_WRAP(hipGraphExecChildGraphNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, hipGraph_t child), (e, n, child),
            EXEC_NODE(DESC(.type = HV_NODE_GRAPH, .u.child = {HV_PTR(child)})))
HV_HIP_WRAP(hipGraphExecEventRecordNodeSetEvent, (hipGraphExec_t e, hipGraphNode_t n, hipEvent_t ev), (e, n, ev),
            EXEC_NODE(DESC(.type = HV_NODE_EVENT_RECORD, .u.event = {HV_PTR(ev)})))
HV_HIP_WRAP(hipGraphExecEventWaitNodeSetEvent, (hipGraphExec_t e, hipGraphNode_t n, hipEvent_t ev), (e, n, ev),
            EXEC_NODE(DESC(.type = HV_NODE_EVENT_WAIT, .u.event = {HV_PTR(ev)})))

/* Symbol sides: the symbol's device address, resolved after the call as
 * the symbol copies do (docs/semantics.md C9). */
#define SYMBOL_NODE(dst_, src_)                                                                            \
    EXEC_NODE(DESC(.type = HV_NODE_MEMCPY, .shape = HV_NODE_SHAPE_1D,                                     \
                   .u.memcpy = {.dst = HV_PTR(dst_), .src = HV_PTR(src_), .bytes = count, .kind = (uint32_t)k}))
HV_HIP_WRAP(hipGraphExecMemcpyNodeSetParamsToSymbol,
            (hipGraphExec_t e, hipGraphNode_t n, const void *sym, const void *src, size_t count, size_t off,
             hipMemcpyKind k),
            (e, n, sym, src, count, off, k), SYMBOL_NODE(hv_symbol_at("hipGetSymbolAddress", sym, off, r_), src))
HV_HIP_WRAP(hipGraphExecMemcpyNodeSetParamsFromSymbol,
            (hipGraphExec_t e, hipGraphNode_t n, void *dst, const void *sym, size_t count, size_t off,
             hipMemcpyKind k),
            (e, n, dst, sym, count, off, k), SYMBOL_NODE(dst, hv_symbol_at("hipGetSymbolAddress", sym, off, r_)))

/* The generic setter: the node's type says which member is set. */
static void set_node(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t e, hipGraphNode_t n,
                     const hv_hipGraphNodeParams *p)
{
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    if (p && p->type == hipGraphNodeTypeKernel) {
        set_kernel(t, api, r, e, n, &p->u.kernel);
        return;
    }
    const struct hv_node_desc *dp = NULL;
    if (p && p->type == hipGraphNodeTypeMemcpy)
        dp = memcpy_desc(&d, &p->u.memcpy.copyParams);
    else if (p && p->type == hipGraphNodeTypeMemset)
        dp = memset_desc(&d, &p->u.memset);
    else if (p) {
        d.type = (uint16_t)node_type_of(p->type);
        hv_node_simple(&d, (const void *)p->u.host.fn, p->u.host.userData, p->u.graph.graph, p->u.event.event,
                       p->u.event.event);
        dp = &d;
    }
    hv_trace_exec_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), dp);
}
HV_HIP_WRAP(hipGraphExecNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, hv_hipGraphNodeParams *p), (e, n, p),
            set_node(t_, api_, r_, e, n, p))

static void set_enabled(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t e, hipGraphNode_t n,
                        unsigned on)
{
    struct graph_api g;
    int ok = on && r == hipSuccess && graph_api_load(&g);
    hv_trace_set_enabled(t, api, (int32_t)r, HV_PTR(e), n, on, ok ? describe : NULL, &g);
}
HV_HIP_WRAP(hipGraphNodeSetEnabled, (hipGraphExec_t e, hipGraphNode_t n, unsigned on), (e, n, on),
            set_enabled(t_, api_, r_, e, n, on))

/* ---- capture state (G1, G2) ---- */

HV_HIP_WRAP(hipStreamBeginCaptureToGraph,
            (hipStream_t s, hipGraph_t g, const hipGraphNode_t *deps, const void *data, size_t nd,
             hipStreamCaptureMode m),
            (s, g, deps, data, nd, m), CAPTURE(HV_HIP_LEGACY, 1, (unsigned)m, (hipGraph_t *)NULL))

/* Queries: status, capture id, graph as the program saw them. */
#define INFO(spt, st, id, g) \
    hv_trace_raw(t_, api_, r_, S(spt), (st) && !r_ ? (uint64_t)*(st) : 0, (id) && !r_ ? (uint64_t)*(id) : 0, \
                 HV_OUT(g, r_), 0)
HV_HIP_WRAP(hipStreamGetCaptureInfo, (hipStream_t s, hipStreamCaptureStatus *st, unsigned long long *id),
            (s, st, id), INFO(HV_HIP_LEGACY, st, id, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamGetCaptureInfo_spt, (hipStream_t s, hipStreamCaptureStatus *st, unsigned long long *id),
            (s, st, id), INFO(HV_HIP_SPT, st, id, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamGetCaptureInfo_v2,
            (hipStream_t s, hipStreamCaptureStatus *st, unsigned long long *id, hipGraph_t *g,
             const hipGraphNode_t **deps, size_t *nd),
            (s, st, id, g, deps, nd), INFO(HV_HIP_LEGACY, st, id, g))
HV_HIP_WRAP(hipStreamGetCaptureInfo_v2_spt,
            (hipStream_t s, hipStreamCaptureStatus *st, unsigned long long *id, hipGraph_t *g,
             const hipGraphNode_t **deps, size_t *nd),
            (s, st, id, g, deps, nd), INFO(HV_HIP_SPT, st, id, g))
HV_HIP_WRAP(hipStreamIsCapturing, (hipStream_t s, hipStreamCaptureStatus *st), (s, st),
            INFO(HV_HIP_LEGACY, st, (unsigned long long *)NULL, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamIsCapturing_spt, (hipStream_t s, hipStreamCaptureStatus *st), (s, st),
            INFO(HV_HIP_SPT, st, (unsigned long long *)NULL, (hipGraph_t *)NULL))
HV_HIP_WRAP(hipStreamUpdateCaptureDependencies, (hipStream_t s, hipGraphNode_t *deps, size_t nd, unsigned flags),
            (s, deps, nd, flags), hv_trace_raw(t_, api_, r_, S(HV_HIP_LEGACY), nd, flags, 0, 0))
/* raw[0]: the mode it replaced (the caller's *m after the call). */
HV_HIP_WRAP(hipThreadExchangeStreamCaptureMode, (hipStreamCaptureMode * m), (m),
            hv_trace_raw(t_, api_, r_, HV_NO_STREAM, m && !r_ ? (uint64_t)*m : 0, 0, 0, 0))
