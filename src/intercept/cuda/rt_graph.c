/* Runtime capture, instantiate, replay and exec updates. A cudaGraph_t is a
 * CUgraph: the inventory is walked through the driver (cu_graph.c). */
#include "intercept/cuda/cuda_common.h"
#include "preload/evidence.h"
#include "guard/guard.h"

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
#define NODE() hv_trace_exec_set_node(t_, api_, r_, HV_PTR(e), HV_PTR(n), 0, NULL)

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
                   (e, s), (PROBE_BEFORE(spt), hv_guard_cuda(t_, e, s, spt)), (void)0, EXEC(spt))
LAUNCH(cudaGraphLaunch, HV_SPT_LEGACY)
LAUNCH(cudaGraphLaunch_ptsz, HV_SPT_PER_THREAD)
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
HV_CUDART_WRAP(cudaGraphExecNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, struct cudaGraphNodeParams *p),
               (e, n, p),
               set_kernel(t_, api_, r_, e, n, p && p->type == cudaGraphNodeTypeKernel ? p->kernel.func : NULL,
                          p && p->type == cudaGraphNodeTypeKernel ? p->kernel.kernelParams : NULL, (void *)real_))
HV_CUDART_WRAP(cudaGraphExecMemcpyNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaMemcpy3DParms *p), (e, n, p), NODE())
HV_CUDART_WRAP(cudaGraphExecMemcpyNodeSetParams1D,
               (cudaGraphExec_t e, cudaGraphNode_t n, void *dst, const void *src, size_t c, enum cudaMemcpyKind k),
               (e, n, dst, src, c, k), NODE())
HV_CUDART_WRAP(cudaGraphExecMemsetNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaMemsetParams *p), (e, n, p), NODE())
HV_CUDART_WRAP(cudaGraphExecHostNodeSetParams,
               (cudaGraphExec_t e, cudaGraphNode_t n, const struct cudaHostNodeParams *p), (e, n, p), NODE())
HV_CUDART_WRAP(cudaGraphExecChildGraphNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, cudaGraph_t child),
               (e, n, child), NODE())
HV_CUDART_WRAP(cudaGraphExecEventRecordNodeSetEvent, (cudaGraphExec_t e, cudaGraphNode_t n, cudaEvent_t ev),
               (e, n, ev), NODE())
HV_CUDART_WRAP(cudaGraphExecEventWaitNodeSetEvent, (cudaGraphExec_t e, cudaGraphNode_t n, cudaEvent_t ev),
               (e, n, ev), NODE())

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
