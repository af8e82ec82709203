/* Runtime capture, instantiate, replay and exec updates. A cudaGraph_t is a
 * CUgraph: the inventory is walked through the driver (cu_graph.c). */
#include <string.h>

#include "tracer/intercept/cuda/cuda_int.h"
#include "tracer/evidence/evidence.h"
#include "tracer/guard/guard_modes.h"

/* Kernel nodes set through the runtime name a host stub: learn its layout
 * first so the new arguments can be read. */
static void set_kernel(struct hv_thread_ctx *t, uint16_t api, cudaError_t r, cudaGraphExec_t e, cudaGraphNode_t n,
                       const void *stub, void **params, void *real)
{
    int fresh;
    if (stub)
        hv_cudart_kernel(t, stub, real, &fresh);
    hv_trace_exec_set_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), HV_PTR(stub),
                           &(struct hv_kargs_src){.params = params});
}

#define S(spt) HV_CU_S(s, spt)
#define CAPTURE(spt, begin, mode, pg) hv_trace_capture(t_, api_, r_, S(spt), begin, mode, HV_OUT(pg, r_))
#define INSTANTIATE(flags, err) hv_trace_instantiate(t_, api_, r_, HV_OUT(pe, r_), g, flags, err, hv_cu_inventory)
#define INSTANTIATE_P() INSTANTIATE(p ? p->flags : 0, p && r_ ? HV_PTR(p->errNode_out) : 0)
#define EXEC(spt) hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, S(spt))

HV_CUDART_WRAP(cudaStreamBeginCapture, (cudaStream_t s, enum cudaStreamCaptureMode m), (s, m),
               CAPTURE(HV_SPT_LEGACY, 1, (unsigned)m, (cudaGraph_t *)NULL))
HV_CUDART_WRAP(cudaStreamBeginCapture_ptsz, (cudaStream_t s, enum cudaStreamCaptureMode m), (s, m),
               CAPTURE(HV_SPT_PER_THREAD, 1, (unsigned)m, (cudaGraph_t *)NULL))
HV_CUDART_WRAP(cudaStreamEndCapture, (cudaStream_t s, cudaGraph_t *pg), (s, pg), CAPTURE(HV_SPT_LEGACY, 0, 0, pg))
HV_CUDART_WRAP(cudaStreamEndCapture_ptsz, (cudaStream_t s, cudaGraph_t *pg), (s, pg),
               CAPTURE(HV_SPT_PER_THREAD, 0, 0, pg))

HV_CUDART_WRAP(cudaGraphInstantiate, (cudaGraphExec_t * pe, cudaGraph_t g, unsigned long long f), (pe, g, f),
               INSTANTIATE(f, 0))
HV_CUDART_WRAP(cudaGraphInstantiateWithFlags, (cudaGraphExec_t * pe, cudaGraph_t g, unsigned long long f),
               (pe, g, f), INSTANTIATE(f, 0))
HV_CUDART_WRAP(cudaGraphInstantiateWithParams, (cudaGraphExec_t * pe, cudaGraph_t g, cudaGraphInstantiateParams *p),
               (pe, g, p), INSTANTIATE_P())
HV_CUDART_WRAP(cudaGraphInstantiateWithParams_ptsz,
               (cudaGraphExec_t * pe, cudaGraph_t g, cudaGraphInstantiateParams *p), (pe, g, p), INSTANTIATE_P())
/* Before the real launch: the probe's pre-replay snapshot (evidence.h),
 * then HIPVIS_GUARD's synchronization (guard_cuda.c). */
#define PROBE_BEFORE(spt) \
    (hv_ev(HV_EV_PROBE) ? hv_ev_replay_before(t_, S(spt).id, S(spt).form, HV_PTR(e), api_) : (void)0)
#define LAUNCH(name, spt)                                                                                       \
    HV_WRAP_BEFORE(cudaError_t, cudaErrorSharedObjectSymbolNotFound, name, (cudaGraphExec_t e, cudaStream_t s), \
                   (e, s), (PROBE_BEFORE(spt), hv_guard_mode() != HV_GUARD_OFF ? hv_guard_cuda(t_, e, s, spt) : (void)0), (void)0, EXEC(spt))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
LAUNCH(cudaGraphLaunch, HV_SPT_LEGACY)
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
LAUNCH(cudaGraphLaunch_ptsz, HV_SPT_PER_THREAD)
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CUDART_WRAP(cudaGraphUpload, (cudaGraphExec_t e, cudaStream_t s), (e, s), EXEC(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaGraphUpload_ptsz, (cudaGraphExec_t e, cudaStream_t s), (e, s), EXEC(HV_SPT_PER_THREAD))
HV_CUDART_WRAP(cudaGraphExecDestroy, (cudaGraphExec_t e), (e),
               hv_trace_exec_call(t_, api_, r_, HV_PTR(e), 0, HV_NO_STREAM))
HV_CUDART_WRAP(cudaGraphDestroy, (cudaGraph_t g), (g), hv_trace_exec_call(t_, api_, r_, 0, HV_PTR(g), HV_NO_STREAM))
HV_CUDART_WRAP(cudaGraphExecUpdate, (cudaGraphExec_t e, cudaGraph_t g, cudaGraphExecUpdateResultInfo *info),
               (e, g, info),
               hv_trace_exec_update(t_, api_, r_, HV_PTR(e), g, info && r_ ? HV_PTR(info->errorNode) : 0,
                                    hv_cu_inventory))

HV_CUDART_WRAP(cudaGraphExecKernelNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaKernelNodeParams *p), (e, n, p),
               set_kernel(t_, api_, r_, e, n, p ? p->func : NULL, p ? p->kernelParams : NULL, (void *)real_))
/* Exec-node setters (docs/semantics.md G7): the node as it now is. */
#define EXEC_NODE(d) hv_trace_exec_node(t_, api_, r_, HV_PTR(e), HV_PTR(n), d)
#define DESC(...) (&(struct hv_node_desc){__VA_ARGS__})

static const struct hv_node_desc *memcpy_desc(struct hv_node_desc *d, const struct cudaMemcpy3DParms *p)
{
    memset(d, 0, sizeof *d);
    if (!p)
        return NULL;
    HV_NODE_MEMCPY3D_PARMS(d, p);
    return d;
}
/* cudaMemsetParams and cudaMemsetParamsV2 share their leading fields. */
#define MEMSET_DESC(d, p)                                                                                     \
    ((p) ? (memset((d), 0, sizeof *(d)), (d)->type = HV_NODE_MEMSET,                                          \
            hv_node_memset((d), HV_PTR((p)->dst), (p)->width, (p)->elementSize, (p)->height, (p)->value), (d)) \
         : NULL)

/* The generic setter: the node's type says which member is set. */
static void set_node(struct hv_thread_ctx *t, uint16_t api, cudaError_t r, cudaGraphExec_t e, cudaGraphNode_t n,
                     const struct cudaGraphNodeParams *p, void *real)
{
    if (p && p->type == cudaGraphNodeTypeKernel) {
        set_kernel(t, api, r, e, n, p->kernel.func, p->kernel.kernelParams, real);
        return;
    }
    struct hv_node_desc d;
    memset(&d, 0, sizeof d);
    const struct hv_node_desc *dp = NULL;
    if (p && p->type == cudaGraphNodeTypeMemcpy)
        dp = memcpy_desc(&d, &p->memcpy.copyParams);
    else if (p && p->type == cudaGraphNodeTypeMemset)
        dp = MEMSET_DESC(&d, &p->memset);
    else if (p) {
        d.type = (uint16_t)(p->type == cudaGraphNodeTypeHost          ? HV_NODE_HOST
                            : p->type == cudaGraphNodeTypeGraph       ? HV_NODE_GRAPH
                            : p->type == cudaGraphNodeTypeEventRecord ? HV_NODE_EVENT_RECORD
                            : p->type == cudaGraphNodeTypeWaitEvent   ? HV_NODE_EVENT_WAIT
                            : p->type == cudaGraphNodeTypeEmpty       ? HV_NODE_EMPTY
                                                                      : HV_NODE_OTHER);
        hv_node_simple(&d, (const void *)p->host.fn, p->host.userData, p->graph.graph, p->eventRecord.event,
                       p->eventWait.event);
        dp = &d;
    }
    hv_trace_exec_node(t, api, (int32_t)r, HV_PTR(e), HV_PTR(n), dp);
}
HV_CUDART_WRAP(cudaGraphExecNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, struct cudaGraphNodeParams *p),
               (e, n, p), set_node(t_, api_, r_, e, n, p, (void *)real_))
HV_CUDART_WRAP(cudaGraphExecMemcpyNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaMemcpy3DParms *p), (e, n, p),
               EXEC_NODE(memcpy_desc(&(struct hv_node_desc){0}, p)))
HV_CUDART_WRAP(cudaGraphExecMemcpyNodeSetParams1D,
               (cudaGraphExec_t e, cudaGraphNode_t n, void *dst, const void *src, size_t c, enum cudaMemcpyKind k),
               (e, n, dst, src, c, k),
               EXEC_NODE(DESC(.type = HV_NODE_MEMCPY, .shape = HV_NODE_SHAPE_1D,
                              .u.memcpy = {.dst = HV_PTR(dst), .src = HV_PTR(src), .bytes = c, .kind = (uint32_t)k})))
HV_CUDART_WRAP(cudaGraphExecMemsetNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaMemsetParams *p), (e, n, p),
               EXEC_NODE(MEMSET_DESC(&(struct hv_node_desc){0}, p)))
HV_CUDART_WRAP(cudaGraphExecHostNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaHostNodeParams *p), (e, n, p),
               EXEC_NODE(p ? DESC(.type = HV_NODE_HOST, .u.host = {HV_PTR(p->fn), HV_PTR(p->userData)}) : NULL))
HV_CUDART_WRAP(cudaGraphExecChildGraphNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, cudaGraph_t child),
               (e, n, child), EXEC_NODE(DESC(.type = HV_NODE_GRAPH, .u.child = {HV_PTR(child)})))
HV_CUDART_WRAP(cudaGraphExecEventRecordNodeSetEvent, (cudaGraphExec_t e, cudaGraphNode_t n, cudaEvent_t ev),
               (e, n, ev), EXEC_NODE(DESC(.type = HV_NODE_EVENT_RECORD, .u.event = {HV_PTR(ev)})))
HV_CUDART_WRAP(cudaGraphExecEventWaitNodeSetEvent, (cudaGraphExec_t e, cudaGraphNode_t n, cudaEvent_t ev),
               (e, n, ev), EXEC_NODE(DESC(.type = HV_NODE_EVENT_WAIT, .u.event = {HV_PTR(ev)})))
HV_CUDART_WRAP(cudaGraphNodeSetEnabled, (cudaGraphExec_t e, cudaGraphNode_t n, unsigned on), (e, n, on),
               hv_cu_set_enabled(t_, api_, r_, HV_PTR(e), n, on))
/* CUDA 12.3+, the same list in 12 and 13 (docs/semantics.md G1). */
HV_CUDART_WRAP(cudaStreamBeginCaptureToGraph,
               (cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps, const cudaGraphEdgeData *data, size_t nd,
                enum cudaStreamCaptureMode m),
               (s, g, deps, data, nd, m), CAPTURE(HV_SPT_LEGACY, 1, (unsigned)m, (cudaGraph_t *)NULL))
HV_CUDART_WRAP(cudaStreamBeginCaptureToGraph_ptsz,
               (cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps, const cudaGraphEdgeData *data, size_t nd,
                enum cudaStreamCaptureMode m),
               (s, g, deps, data, nd, m), CAPTURE(HV_SPT_PER_THREAD, 1, (unsigned)m, (cudaGraph_t *)NULL))
