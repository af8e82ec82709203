/*
 * Driver capture, instantiate, replay and updates, and the inventory walk
 * of every CUDA graph (runtime graphs are driver graphs) through the
 * driver's query API.
 */
#include <stddef.h>
#include <stdlib.h>

#include "tracer/intercept/cuda/cuda_int.h"
#include "tracer/guard/guard_modes.h"

struct cu_graph_api {
    CUresult (*get_nodes)(CUgraph, CUgraphNode *, size_t *);
    CUresult (*get_edges)(CUgraph, CUgraphNode *, CUgraphNode *, CUgraphEdgeData *, size_t *);
    CUresult (*get_edges_v1)(CUgraph, CUgraphNode *, CUgraphNode *, size_t *);
    CUresult (*node_type)(CUgraphNode, CUgraphNodeType *);
    CUresult (*kernel_params)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
    CUresult (*memcpy_params)(CUgraphNode, CUDA_MEMCPY3D *);
    CUresult (*memset_params)(CUgraphNode, CUDA_MEMSET_NODE_PARAMS *);
    struct hv_node_getters get;
};
_Static_assert(sizeof(CUDA_HOST_NODE_PARAMS) == sizeof(struct hv_host_params), "host node parameters");

static int api_load(struct cu_graph_api *g)
{
#define LOAD(field, name) g->field = (__typeof__(g->field))hv_cu_sym(name)
    LOAD(get_nodes, "cuGraphGetNodes");
    LOAD(get_edges, "cuGraphGetEdges_v2");   /* CUDA 12.3+: with edge data */
    LOAD(get_edges_v1, "cuGraphGetEdges");
    LOAD(node_type, "cuGraphNodeGetType");
    LOAD(kernel_params, "cuGraphKernelNodeGetParams_v2");
    LOAD(memcpy_params, "cuGraphMemcpyNodeGetParams");
    LOAD(memset_params, "cuGraphMemsetNodeGetParams");
#undef LOAD
    hv_node_getters_load(&g->get, hv_cu_sym, "cuGraphEventRecordNodeGetEvent", "cuGraphEventWaitNodeGetEvent",
                         "cuGraphHostNodeGetParams", "cuGraphChildGraphNodeGetGraph");
    return g->get_nodes && (g->get_edges || g->get_edges_v1) && g->node_type;
}

static int get_nodes(void *ctx, void *graph, void **out, size_t *n)
{
    return ((struct cu_graph_api *)ctx)->get_nodes(graph, (CUgraphNode *)out, n);
}

/* Edge data (ports, programmatic dependencies) is fetched only so the
 * query is not refused as lossy; the order edges carry is the same. */
static int get_edges(void *ctx, void *graph, void **from, void **to, size_t *n)
{
    const struct cu_graph_api *g = ctx;
    if (!g->get_edges)
        return g->get_edges_v1(graph, (CUgraphNode *)from, (CUgraphNode *)to, n);
    CUgraphEdgeData *data = from && *n ? calloc(*n, sizeof *data) : NULL;
    if (from && *n && !data)
        return -1;
    CUresult r = g->get_edges(graph, (CUgraphNode *)from, (CUgraphNode *)to, data, n);
    free(data);
    return r;
}

static enum hv_node_type node_type_of(CUgraphNodeType t)
{
    switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return HV_NODE_KERNEL;
    case CU_GRAPH_NODE_TYPE_MEMCPY: return HV_NODE_MEMCPY;
    case CU_GRAPH_NODE_TYPE_MEMSET: return HV_NODE_MEMSET;
    case CU_GRAPH_NODE_TYPE_HOST: return HV_NODE_HOST;
    case CU_GRAPH_NODE_TYPE_GRAPH: return HV_NODE_GRAPH;
    case CU_GRAPH_NODE_TYPE_EMPTY: return HV_NODE_EMPTY;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return HV_NODE_EVENT_WAIT;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return HV_NODE_EVENT_RECORD;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return HV_NODE_MEM_ALLOC;
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return HV_NODE_MEM_FREE;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return HV_NODE_CONDITIONAL;
    default: return HV_NODE_OTHER;
    }
}

static void describe_kernel(const struct cu_graph_api *g, struct hv_thread_ctx *t, CUgraphNode node,
                            struct hv_node_desc *d)
{
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    if (!g->kernel_params || g->kernel_params(node, &p) != CUDA_SUCCESS)
        return;
    /* A node made from a CUkernel (context-independent loading) may carry
     * only the kernel handle. */
    void *f = p.func ? (void *)p.func : (void *)p.kern;
    int fresh;
    if (f)
        hv_cu_kernel(t, HV_PTR(f), f, !p.func, &fresh);
    d->u.kernel.func = HV_PTR(f);
    d->kparams = p.kernelParams;
    d->kblock = hv_cu_extra_block(p.extra, &d->kblock_bytes);
    d->u.kernel.grid[0] = p.gridDimX, d->u.kernel.grid[1] = p.gridDimY, d->u.kernel.grid[2] = p.gridDimZ;
    d->u.kernel.block[0] = p.blockDimX, d->u.kernel.block[1] = p.blockDimY, d->u.kernel.block[2] = p.blockDimZ;
    d->u.kernel.shmem = p.sharedMemBytes;
}

/* Node payloads from the driver's parameter structs: the walk and the
 * exec-node setters describe nodes alike. */
static void cu_memcpy_node(struct hv_node_desc *d, const CUDA_MEMCPY3D *p)
{
    hv_node_memcpy(d, hv_cu_operand(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstXInBytes, p->dstY, p->dstPitch),
                   hv_cu_operand(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcXInBytes, p->srcY, p->srcPitch),
                   (uint64_t)p->WidthInBytes * (p->Height ? p->Height : 1) * (p->Depth ? p->Depth : 1),
                   (uint32_t)hv_cu_copy_kind(p->dstMemoryType, p->srcMemoryType));
    if (p->Height > 1 || p->Depth > 1 || p->srcZ || p->dstZ)
        d->shape = HV_NODE_SHAPE_ROWS;
}

static void cu_memset_node(struct hv_node_desc *d, const CUDA_MEMSET_NODE_PARAMS *p)
{
    d->type = HV_NODE_MEMSET;
    hv_node_memset(d, (uint64_t)p->dst, p->width, p->elementSize, p->height, p->value);
}

static void describe(void *ctx, struct hv_thread_ctx *t, void *node, struct hv_node_desc *d)
{
    const struct cu_graph_api *g = ctx;
    CUgraphNodeType ct = (CUgraphNodeType)-1;
    g->node_type(node, &ct);
    d->type = (uint16_t)node_type_of(ct);
    switch (d->type) {
    case HV_NODE_KERNEL:
        describe_kernel(g, t, node, d);
        break;
    case HV_NODE_MEMCPY: {
        CUDA_MEMCPY3D p;
        memset(&p, 0, sizeof p);
        if (g->memcpy_params && g->memcpy_params(node, &p) == CUDA_SUCCESS)
            cu_memcpy_node(d, &p);
        break;
    }
    case HV_NODE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS p;
        memset(&p, 0, sizeof p);
        if (g->memset_params && g->memset_params(node, &p) == CUDA_SUCCESS)
            cu_memset_node(d, &p);
        break;
    }
    default:
        break;
    }
}

static const struct hv_graph_ops cu_graph_ops = {get_nodes, get_edges, describe};

void hv_cu_inventory(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph)
{
    struct cu_graph_api api;
    if (api_load(&api))
        hv_graph_walk(t, seq, exec, graph, &cu_graph_ops, &api.get, &api);
}

void hv_cu_set_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *node, unsigned on)
{
    struct cu_graph_api g;
    int ok = on && r == 0 && api_load(&g);
    hv_trace_set_enabled(t, api, r, exec, node, on, ok ? describe : NULL, &g);
}

#define S(spt) HV_CU_S(s, spt)
#define CAPTURE(spt, begin, mode, pg) hv_trace_capture(t_, api_, r_, S(spt), begin, mode, HV_OUT(pg, r_))
#define INSTANTIATE(flags, err) hv_trace_instantiate(t_, api_, r_, HV_OUT(pe, r_), g, flags, err, hv_cu_inventory)
#define INSTANTIATE_P() INSTANTIATE(p ? p->flags : 0, p && r_ ? HV_PTR(p->hErrNode_out) : 0)
#define EXEC(spt) hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, S(spt))

HV_CU_WRAP(cuStreamBeginCapture_v2, (CUstream s, CUstreamCaptureMode m), (s, m),
           CAPTURE(HV_SPT_LEGACY, 1, (unsigned)m, (CUgraph *)NULL))
HV_CU_WRAP(cuStreamBeginCapture_v2_ptsz, (CUstream s, CUstreamCaptureMode m), (s, m),
           CAPTURE(HV_SPT_PER_THREAD, 1, (unsigned)m, (CUgraph *)NULL))
HV_CU_WRAP(cuStreamEndCapture, (CUstream s, CUgraph *pg), (s, pg), CAPTURE(HV_SPT_LEGACY, 0, 0, pg))
HV_CU_WRAP(cuStreamEndCapture_ptsz, (CUstream s, CUgraph *pg), (s, pg), CAPTURE(HV_SPT_PER_THREAD, 0, 0, pg))
HV_CU_WRAP(cuGraphInstantiateWithFlags, (CUgraphExec * pe, CUgraph g, unsigned long long f), (pe, g, f),
           INSTANTIATE(f, 0))
HV_CU_WRAP(cuGraphInstantiateWithParams, (CUgraphExec * pe, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p), (pe, g, p),
           INSTANTIATE_P())
HV_CU_WRAP(cuGraphInstantiateWithParams_ptsz, (CUgraphExec * pe, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p),
           (pe, g, p), INSTANTIATE_P())
/* HIPVIS_GUARD synchronizes before the real launch (guard_cuda.c). */
#define LAUNCH(name, spt)                                                                                  \
    HV_WRAP_BEFORE(CUresult, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, name, (CUgraphExec e, CUstream s), \
                   (e, s), (hv_guard_mode() != HV_GUARD_OFF ? hv_guard_cuda(t_, e, s, spt) : (void)0), (void)0, EXEC(spt))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
LAUNCH(cuGraphLaunch, HV_SPT_LEGACY)
LAUNCH(cuGraphLaunch_ptsz, HV_SPT_PER_THREAD)
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuGraphUpload, (CUgraphExec e, CUstream s), (e, s), EXEC(HV_SPT_LEGACY))
HV_CU_WRAP(cuGraphUpload_ptsz, (CUgraphExec e, CUstream s), (e, s), EXEC(HV_SPT_PER_THREAD))
HV_CU_WRAP(cuGraphExecDestroy, (CUgraphExec e), (e), hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, HV_NO_STREAM))
HV_CU_WRAP(cuGraphDestroy, (CUgraph g), (g), hv_trace_exec_call(t_, api_, r_, 0, HV_PTR(g), HV_NO_STREAM))
HV_CU_WRAP(cuGraphExecUpdate_v2, (CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *info), (e, g, info),
           hv_trace_exec_update(t_, api_, r_, HV_PTR(e), g, info && r_ ? HV_PTR(info->errorNode) : 0,
                                hv_cu_inventory))

/* New kernel arguments of an exec's node: learn the kernel, then record. */
static void set_kernel(struct hv_thread_ctx *t, uint16_t api, CUresult r, CUgraphExec e, CUgraphNode n,
                       const CUDA_KERNEL_NODE_PARAMS *p)
{
    void *f = p ? (p->func ? (void *)p->func : (void *)p->kern) : NULL;
    int fresh;
    if (f)
        hv_cu_kernel(t, HV_PTR(f), f, !p->func, &fresh);
    struct hv_kargs_src a = {.params = p ? p->kernelParams : NULL};
    a.kblock = p ? hv_cu_extra_block(p->extra, &a.kblock_bytes) : NULL;
    hv_trace_exec_set_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), HV_PTR(f), &a);
}

HV_CU_WRAP(cuGraphExecKernelNodeSetParams_v2, (CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p),
           (e, n, p), set_kernel(t_, api_, r_, e, n, p))

HV_CU_WRAP(cuGraphNodeSetEnabled, (CUgraphExec e, CUgraphNode n, unsigned on), (e, n, on),
           hv_cu_set_enabled(t_, api_, r_, HV_PTR(e), n, on))

/* ---- capture state (docs/semantics.md G1, G2) ----
 *
 * cuda.h maps cuStreamGetCaptureInfo to _v3 and
 * cuStreamUpdateCaptureDependencies to _v2; the names below are the
 * exported ones, each with its own signature (cuda.h's
 * __CUDA_API_VERSION_INTERNAL declarations). The plain names (CUDA 10/11
 * signatures) are not wrapped: nothing current links them. */
#undef cuStreamGetCaptureInfo
#undef cuStreamUpdateCaptureDependencies

HV_CU_WRAP(cuStreamBeginCaptureToGraph,
           (CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *data, size_t nd,
            CUstreamCaptureMode m),
           (s, g, deps, data, nd, m), CAPTURE(HV_SPT_LEGACY, 1, (unsigned)m, (CUgraph *)NULL))
HV_CU_WRAP(cuStreamBeginCaptureToGraph_ptsz,
           (CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *data, size_t nd,
            CUstreamCaptureMode m),
           (s, g, deps, data, nd, m), CAPTURE(HV_SPT_PER_THREAD, 1, (unsigned)m, (CUgraph *)NULL))

/* Queries: status, capture id, graph as the program saw them. */
#define INFO(spt, st, id, g) \
    hv_trace_raw(t_, api_, r_, S(spt), (st) && !r_ ? (uint64_t)*(st) : 0, (id) && !r_ ? (uint64_t)*(id) : 0, \
                 HV_OUT(g, r_), 0)
#define INFO_V2_P CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **deps, size_t *nd
#define INFO_V3_P \
    CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **deps, \
        const CUgraphEdgeData **ed, size_t *nd
HV_CU_WRAP(cuStreamGetCaptureInfo_v2, (INFO_V2_P), (s, st, id, g, deps, nd), INFO(HV_SPT_LEGACY, st, id, g))
HV_CU_WRAP(cuStreamGetCaptureInfo_v2_ptsz, (INFO_V2_P), (s, st, id, g, deps, nd), INFO(HV_SPT_PER_THREAD, st, id, g))
HV_CU_WRAP(cuStreamGetCaptureInfo_v3, (INFO_V3_P), (s, st, id, g, deps, ed, nd), INFO(HV_SPT_LEGACY, st, id, g))
HV_CU_WRAP(cuStreamGetCaptureInfo_v3_ptsz, (INFO_V3_P), (s, st, id, g, deps, ed, nd),
           INFO(HV_SPT_PER_THREAD, st, id, g))
/* raw: the dependency count and flags. */
HV_CU_WRAP(cuStreamUpdateCaptureDependencies, (CUstream s, CUgraphNode *deps, size_t nd, unsigned f),
           (s, deps, nd, f), hv_trace_raw(t_, api_, r_, S(HV_SPT_LEGACY), nd, f, 0, 0))
HV_CU_WRAP(cuStreamUpdateCaptureDependencies_ptsz, (CUstream s, CUgraphNode *deps, size_t nd, unsigned f),
           (s, deps, nd, f), hv_trace_raw(t_, api_, r_, S(HV_SPT_PER_THREAD), nd, f, 0, 0))
HV_CU_WRAP(cuStreamUpdateCaptureDependencies_v2,
           (CUstream s, CUgraphNode *deps, const CUgraphEdgeData *data, size_t nd, unsigned f), (s, deps, data, nd, f),
           hv_trace_raw(t_, api_, r_, S(HV_SPT_LEGACY), nd, f, 0, 0))
HV_CU_WRAP(cuStreamUpdateCaptureDependencies_v2_ptsz,
           (CUstream s, CUgraphNode *deps, const CUgraphEdgeData *data, size_t nd, unsigned f), (s, deps, data, nd, f),
           hv_trace_raw(t_, api_, r_, S(HV_SPT_PER_THREAD), nd, f, 0, 0))
/* raw[0]: the mode it replaced (the caller's *m after the call). */
HV_CU_WRAP(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode * m), (m),
           hv_trace_raw(t_, api_, r_, HV_NO_STREAM, m && !r_ ? (uint64_t)*m : 0, 0, 0, 0))

/* ---- exec-node setters (docs/semantics.md G7) ---- */

#define EXEC_NODE(d) hv_trace_exec_node(t_, api_, r_, HV_PTR(e), HV_PTR(n), d)
#define DESC(...) (&(struct hv_node_desc){__VA_ARGS__})

static const struct hv_node_desc *memcpy_desc(struct hv_node_desc *d, const CUDA_MEMCPY3D *p)
{
    memset(d, 0, sizeof *d);
    if (!p)
        return NULL;
    cu_memcpy_node(d, p);
    return d;
}
static const struct hv_node_desc *memset_desc(struct hv_node_desc *d, const CUDA_MEMSET_NODE_PARAMS *p)
{
    memset(d, 0, sizeof *d);
    if (!p)
        return NULL;
    cu_memset_node(d, p);
    return d;
}

HV_CU_WRAP(cuGraphExecMemcpyNodeSetParams, (CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D *p, CUcontext c),
           (e, n, p, c), EXEC_NODE(memcpy_desc(&(struct hv_node_desc){0}, p)))
HV_CU_WRAP(cuGraphExecMemsetNodeSetParams,
           (CUgraphExec e, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS *p, CUcontext c), (e, n, p, c),
           EXEC_NODE(memset_desc(&(struct hv_node_desc){0}, p)))
HV_CU_WRAP(cuGraphExecHostNodeSetParams, (CUgraphExec e, CUgraphNode n, const CUDA_HOST_NODE_PARAMS *p), (e, n, p),
           EXEC_NODE(p ? DESC(.type = HV_NODE_HOST, .u.host = {HV_PTR(p->fn), HV_PTR(p->userData)}) : NULL))
HV_CU_WRAP(cuGraphExecChildGraphNodeSetParams, (CUgraphExec e, CUgraphNode n, CUgraph child), (e, n, child),
           EXEC_NODE(DESC(.type = HV_NODE_GRAPH, .u.child = {HV_PTR(child)})))
HV_CU_WRAP(cuGraphExecEventRecordNodeSetEvent, (CUgraphExec e, CUgraphNode n, CUevent ev), (e, n, ev),
           EXEC_NODE(DESC(.type = HV_NODE_EVENT_RECORD, .u.event = {HV_PTR(ev)})))
HV_CU_WRAP(cuGraphExecEventWaitNodeSetEvent, (CUgraphExec e, CUgraphNode n, CUevent ev), (e, n, ev),
           EXEC_NODE(DESC(.type = HV_NODE_EVENT_WAIT, .u.event = {HV_PTR(ev)})))

/* The generic setter: the node's type says which member is set. Its kernel
 * member (CUDA_KERNEL_NODE_PARAMS_v3) is laid out as the _v2 struct. */
_Static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS_v3) == sizeof(CUDA_KERNEL_NODE_PARAMS) &&
                   offsetof(CUDA_KERNEL_NODE_PARAMS_v3, kern) == offsetof(CUDA_KERNEL_NODE_PARAMS, kern),
               "kernel node parameters v2 / v3");
static void set_node(struct hv_thread_ctx *t, uint16_t api, CUresult r, CUgraphExec e, CUgraphNode n,
                     const CUgraphNodeParams *p)
{
    if (p && p->type == CU_GRAPH_NODE_TYPE_KERNEL) {
        set_kernel(t, api, r, e, n, (const CUDA_KERNEL_NODE_PARAMS *)&p->kernel);
        return;
    }
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    const struct hv_node_desc *dp = NULL;
    if (p && p->type == CU_GRAPH_NODE_TYPE_MEMCPY)
        dp = memcpy_desc(&d, &p->memcpy.copyParams);
    else if (p && p->type == CU_GRAPH_NODE_TYPE_MEMSET)
        dp = memset_desc(&d, (const CUDA_MEMSET_NODE_PARAMS *)&p->memset);
    else if (p) {
        d.type = (uint16_t)node_type_of(p->type);
        hv_node_simple(&d, (const void *)p->host.fn, p->host.userData, p->graph.graph, p->eventRecord.event,
                       p->eventWait.event);
        dp = &d;
    }
    hv_trace_exec_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), dp);
}
HV_CU_WRAP(cuGraphExecNodeSetParams, (CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p), (e, n, p),
           set_node(t_, api_, r_, e, n, p))
