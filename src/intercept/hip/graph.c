/*
 * Graphs: capture, instantiate (where the graph's inventory is recorded by
 * walking it through the runtime's own query API), replay and updates.
 */
#include <stdlib.h>

#include "intercept/hip/hip_common.h"
#include "preload/kargs.h"
#include "preload/kernels.h"

#define HV_GRAPH_MAX_DEPTH 8
#define HV_EDGE_PAIRS_PER_RECORD 4096u

/* The runtime functions the walk needs; not intercepted, so resolved once. */
struct graph_api {
    hipError_t (*get_nodes)(hipGraph_t, hipGraphNode_t *, size_t *);
    hipError_t (*get_edges)(hipGraph_t, hipGraphNode_t *, hipGraphNode_t *, size_t *);
    hipError_t (*node_type)(hipGraphNode_t, hipGraphNodeType *);
    hipError_t (*kernel_params)(hipGraphNode_t, hipKernelNodeParams *);
    hipError_t (*memcpy_params)(hipGraphNode_t, hipMemcpy3DParms *);
    hipError_t (*memset_params)(hipGraphNode_t, hipMemsetParams *);
    hipError_t (*record_event)(hipGraphNode_t, hipEvent_t *);
    hipError_t (*wait_event)(hipGraphNode_t, hipEvent_t *);
    hipError_t (*host_params)(hipGraphNode_t, hipHostNodeParams *);
    hipError_t (*child_graph)(hipGraphNode_t, hipGraph_t *);
};

static int graph_api_load(struct graph_api *g)
{
    g->get_nodes = (__typeof__(g->get_nodes))hv_runtime_sym("hipGraphGetNodes");
    g->get_edges = (__typeof__(g->get_edges))hv_runtime_sym("hipGraphGetEdges");
    g->node_type = (__typeof__(g->node_type))hv_runtime_sym("hipGraphNodeGetType");
    g->kernel_params = (__typeof__(g->kernel_params))hv_runtime_sym("hipGraphKernelNodeGetParams");
    g->memcpy_params = (__typeof__(g->memcpy_params))hv_runtime_sym("hipGraphMemcpyNodeGetParams");
    g->memset_params = (__typeof__(g->memset_params))hv_runtime_sym("hipGraphMemsetNodeGetParams");
    g->record_event = (__typeof__(g->record_event))hv_runtime_sym("hipGraphEventRecordNodeGetEvent");
    g->wait_event = (__typeof__(g->wait_event))hv_runtime_sym("hipGraphEventWaitNodeGetEvent");
    g->host_params = (__typeof__(g->host_params))hv_runtime_sym("hipGraphHostNodeGetParams");
    g->child_graph = (__typeof__(g->child_graph))hv_runtime_sym("hipGraphChildGraphNodeGetGraph");
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

struct walk {
    struct hv_thread_ctx *t;
    const struct graph_api *api;
    uint64_t seq, exec;
    uint32_t nodes, edges;
};

/* One node record (and the kernel's pointer arguments after it). */
static void emit_node(struct walk *w, hipGraph_t graph, hipGraphNode_t node, uint32_t index, uint64_t parent,
                      hipGraph_t *child_out)
{
    const struct graph_api *g = w->api;
    hipGraphNodeType ht = hipGraphNodeTypeCount;
    struct hv_karg args[HV_MAX_KARGS];
    int nargs = 0;
    hipKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    g->node_type(node, &ht);
    enum hv_node_type type = node_type_of(ht);
    uint64_t func = 0;
    if (type == HV_NODE_KERNEL && g->kernel_params && g->kernel_params(node, &kp) == hipSuccess) {
        func = (uint64_t)(uintptr_t)kp.func;
        nargs = hv_kargs_collect(func, kp.kernelParams, NULL, 0, args, HV_MAX_KARGS);
    }
    struct hv_graph_node *n = hv_aux_begin(w->t, HV_REC_GRAPH_NODE, sizeof *n, w->seq);
    if (!n)
        return;
    n->exec = w->exec;
    n->graph = (uint64_t)(uintptr_t)graph;
    n->node = (uint64_t)(uintptr_t)node;
    n->parent_node = parent;
    n->index = index;
    n->type = (uint16_t)type;
    switch (type) {
    case HV_NODE_KERNEL: {
        const struct hv_kernel_info *k = hv_kernels_find(func);
        n->u.kernel.func = func;
        n->u.kernel.grid[0] = kp.gridDim.x, n->u.kernel.grid[1] = kp.gridDim.y, n->u.kernel.grid[2] = kp.gridDim.z;
        n->u.kernel.block[0] = kp.blockDim.x, n->u.kernel.block[1] = kp.blockDim.y, n->u.kernel.block[2] = kp.blockDim.z;
        n->u.kernel.shmem = kp.sharedMemBytes;
        n->u.kernel.name_id = k ? k->name_id : 0;
        n->u.kernel.kernarg_bytes = k ? k->kernarg_bytes : 0;
        n->nptr = (uint16_t)nargs;
        break;
    }
    case HV_NODE_MEMCPY: {
        hipMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        if (g->memcpy_params && g->memcpy_params(node, &p) == hipSuccess) {
            n->u.memcpy.dst = (uint64_t)(uintptr_t)p.dstPtr.ptr;
            n->u.memcpy.src = (uint64_t)(uintptr_t)p.srcPtr.ptr;
            n->u.memcpy.bytes = (uint64_t)p.extent.width * (p.extent.height ? p.extent.height : 1) *
                                (p.extent.depth ? p.extent.depth : 1);
            n->u.memcpy.kind = (uint32_t)p.kind;
        }
        break;
    }
    case HV_NODE_MEMSET: {
        hipMemsetParams p;
        memset(&p, 0, sizeof p);
        if (g->memset_params && g->memset_params(node, &p) == hipSuccess) {
            n->u.memset.dst = (uint64_t)(uintptr_t)p.dst;
            n->u.memset.bytes = (uint64_t)p.width * p.elementSize * (p.height ? p.height : 1);
            n->u.memset.value = p.value;
            n->u.memset.elem_size = p.elementSize;
        }
        break;
    }
    case HV_NODE_EVENT_RECORD:
    case HV_NODE_EVENT_WAIT: {
        hipEvent_t e = NULL;
        hipError_t (*get)(hipGraphNode_t, hipEvent_t *) = type == HV_NODE_EVENT_RECORD ? g->record_event : g->wait_event;
        if (get && get(node, &e) == hipSuccess)
            n->u.event.event = (uint64_t)(uintptr_t)e;
        break;
    }
    case HV_NODE_HOST: {
        hipHostNodeParams p = {0, 0};
        if (g->host_params && g->host_params(node, &p) == hipSuccess) {
            n->u.host.fn = (uint64_t)(uintptr_t)p.fn;
            n->u.host.user = (uint64_t)(uintptr_t)p.userData;
        }
        break;
    }
    case HV_NODE_GRAPH:
        if (g->child_graph && g->child_graph(node, child_out) == hipSuccess)
            n->u.child.graph = (uint64_t)(uintptr_t)*child_out;
        break;
    default:
        break;
    }
    hv_aux_commit(w->t, n);
    w->nodes++;
    hv_kargs_emit(w->t, w->seq, (uint64_t)(uintptr_t)node, func, n->u.kernel.name_id, args, nargs);
}

static uint32_t index_of(hipGraphNode_t *nodes, size_t n, hipGraphNode_t x)
{
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == x)
            return (uint32_t)i;
    return UINT32_MAX;
}

static void emit_edges(struct walk *w, hipGraph_t graph, hipGraphNode_t *nodes, size_t nnodes)
{
    size_t count = 0;
    if (w->api->get_edges(graph, NULL, NULL, &count) != hipSuccess || count == 0)
        return;
    hipGraphNode_t *from = calloc(count, sizeof *from), *to = calloc(count, sizeof *to);
    if (from && to && w->api->get_edges(graph, from, to, &count) == hipSuccess) {
        for (size_t done = 0; done < count;) {
            uint32_t k = (uint32_t)(count - done < HV_EDGE_PAIRS_PER_RECORD ? count - done : HV_EDGE_PAIRS_PER_RECORD);
            struct hv_graph_edges *e = hv_aux_begin(w->t, HV_REC_GRAPH_EDGES, (uint32_t)(sizeof *e + k * 8u), w->seq);
            if (!e)
                break;
            e->exec = w->exec;
            e->graph = (uint64_t)(uintptr_t)graph;
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

static void walk_graph(struct walk *w, hipGraph_t graph, uint64_t parent, int depth)
{
    size_t n = 0;
    if (depth > HV_GRAPH_MAX_DEPTH || w->api->get_nodes(graph, NULL, &n) != hipSuccess || n == 0)
        return;
    hipGraphNode_t *nodes = calloc(n, sizeof *nodes);
    if (!nodes || w->api->get_nodes(graph, nodes, &n) != hipSuccess) {
        free(nodes);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        hipGraph_t child = NULL;
        emit_node(w, graph, nodes[i], (uint32_t)i, parent, &child);
        if (child)
            walk_graph(w, child, (uint64_t)(uintptr_t)nodes[i], depth + 1);
    }
    emit_edges(w, graph, nodes, n);
    free(nodes);
}

/* Records the exec's inventory after its (committed) call record. */
static void record_inventory(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, hipGraph_t graph)
{
    struct graph_api api;
    if (!graph || !graph_api_load(&api))
        return;
    struct walk w = {t, &api, seq, exec, 0, 0};
    walk_graph(&w, graph, 0, 0);
}

static void trace_instantiate(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t *pexec,
                              hipGraph_t graph, unsigned long long flags, hipGraphNode_t err_node)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    uint64_t exec = pexec && r == hipSuccess ? (uint64_t)(uintptr_t)*pexec : 0;
    c->a.graph.graph = (uint64_t)(uintptr_t)graph;
    c->a.graph.exec = exec;
    c->a.graph.flags = flags;
    c->a.graph.node = (uint64_t)(uintptr_t)err_node;
    c->a.graph.rec_flags = exec ? HV_GRAPH_NODES_RECORDED : 0;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (exec)
        record_inventory(t, seq, exec, graph);
}

static void trace_exec_call(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t exec, hipGraph_t graph,
                            hipStream_t s, enum hv_hip_stream_api spt, int has_stream)
{
    struct hv_call *c = has_stream ? hv_hip_begin(t, api, r, s, spt, NULL) : hv_call_begin(t, api, (int32_t)r);
    c->a.graph.exec = (uint64_t)(uintptr_t)exec;
    c->a.graph.graph = (uint64_t)(uintptr_t)graph;
    hv_call_commit(t, c);
}

static void trace_update(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t exec, hipGraph_t graph,
                         hipGraphNode_t *err_node)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    c->a.graph.exec = (uint64_t)(uintptr_t)exec;
    c->a.graph.graph = (uint64_t)(uintptr_t)graph;
    c->a.graph.node = err_node && r != hipSuccess ? (uint64_t)(uintptr_t)*err_node : 0;
    c->a.graph.rec_flags = r == hipSuccess ? HV_GRAPH_NODES_RECORDED : 0;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    /* A successful update gives the exec the graph's parameters: the new
     * inventory replaces the old one. */
    if (r == hipSuccess)
        record_inventory(t, seq, (uint64_t)(uintptr_t)exec, graph);
}

static void trace_set_kernel_params(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipGraphExec_t exec,
                                    hipGraphNode_t node, const hipKernelNodeParams *p)
{
    struct hv_karg args[HV_MAX_KARGS];
    uint64_t func = p ? (uint64_t)(uintptr_t)p->func : 0;
    int n = p && r == hipSuccess ? hv_kargs_collect(func, p->kernelParams, NULL, 0, args, HV_MAX_KARGS) : 0;
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    c->a.graph.exec = (uint64_t)(uintptr_t)exec;
    c->a.graph.node = (uint64_t)(uintptr_t)node;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    if (r == hipSuccess)
        hv_kargs_emit(t, seq, (uint64_t)(uintptr_t)node, func, 0, args, n);
}

static void trace_capture(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                          enum hv_hip_stream_api spt, int begin, unsigned mode, hipGraph_t *pgraph)
{
    struct hv_stream_state *st;
    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, &st);
    c->a.capture.mode = mode;
    if (st && r == hipSuccess) {
        if (begin) {
            hv_capture_begin(hv_tracer.streams, st);
            c->capture = HV_CAPTURE_ACTIVE;
        } else {
            hv_capture_end(hv_tracer.streams, atomic_load_explicit(&st->capture_id, memory_order_acquire));
            c->a.capture.graph = pgraph ? (uint64_t)(uintptr_t)*pgraph : 0;
        }
    }
    hv_call_commit(t, c);
}

HV_HIP_WRAP(hipStreamBeginCapture, (hipStream_t s, hipStreamCaptureMode m), (s, m),
            trace_capture(t_, api_, r_, s, HV_HIP_LEGACY, 1, (unsigned)m, NULL))
HV_HIP_WRAP(hipStreamBeginCapture_spt, (hipStream_t s, hipStreamCaptureMode m), (s, m),
            trace_capture(t_, api_, r_, s, HV_HIP_SPT, 1, (unsigned)m, NULL))
HV_HIP_WRAP(hipStreamEndCapture, (hipStream_t s, hipGraph_t *pg), (s, pg),
            trace_capture(t_, api_, r_, s, HV_HIP_LEGACY, 0, 0, pg))
HV_HIP_WRAP(hipStreamEndCapture_spt, (hipStream_t s, hipGraph_t *pg), (s, pg),
            trace_capture(t_, api_, r_, s, HV_HIP_SPT, 0, 0, pg))
HV_HIP_WRAP(hipGraphInstantiate, (hipGraphExec_t * pe, hipGraph_t g, hipGraphNode_t *err, char *log, size_t loglen),
            (pe, g, err, log, loglen), trace_instantiate(t_, api_, r_, pe, g, 0, err && r_ ? *err : NULL))
HV_HIP_WRAP(hipGraphInstantiateWithFlags, (hipGraphExec_t * pe, hipGraph_t g, unsigned long long f), (pe, g, f),
            trace_instantiate(t_, api_, r_, pe, g, f, NULL))
HV_HIP_WRAP(hipGraphInstantiateWithParams, (hipGraphExec_t * pe, hipGraph_t g, hv_hipGraphInstantiateParams *p),
            (pe, g, p), trace_instantiate(t_, api_, r_, pe, g, p ? p->flags : 0, p ? p->errNode_out : NULL))
HV_HIP_WRAP(hipGraphLaunch, (hipGraphExec_t e, hipStream_t s), (e, s),
            trace_exec_call(t_, api_, r_, e, NULL, s, HV_HIP_LEGACY, 1))
HV_HIP_WRAP(hipGraphLaunch_spt, (hipGraphExec_t e, hipStream_t s), (e, s),
            trace_exec_call(t_, api_, r_, e, NULL, s, HV_HIP_SPT, 1))
HV_HIP_WRAP(hipGraphUpload, (hipGraphExec_t e, hipStream_t s), (e, s),
            trace_exec_call(t_, api_, r_, e, NULL, s, HV_HIP_LEGACY, 1))
HV_HIP_WRAP(hipGraphExecDestroy, (hipGraphExec_t e), (e), trace_exec_call(t_, api_, r_, e, NULL, NULL, HV_HIP_LEGACY, 0))
HV_HIP_WRAP(hipGraphDestroy, (hipGraph_t g), (g), trace_exec_call(t_, api_, r_, NULL, g, NULL, HV_HIP_LEGACY, 0))
HV_HIP_WRAP(hipGraphExecUpdate,
            (hipGraphExec_t e, hipGraph_t g, hipGraphNode_t *err, hipGraphExecUpdateResult *res), (e, g, err, res),
            trace_update(t_, api_, r_, e, g, err))
HV_HIP_WRAP(hipGraphExecKernelNodeSetParams, (hipGraphExec_t e, hipGraphNode_t n, const hipKernelNodeParams *p),
            (e, n, p), trace_set_kernel_params(t_, api_, r_, e, n, p))
