/*
 * TEST-ONLY: the runtime calls of the CUDA pass-through test, shared by the
 * legacy and the per-thread-default-stream translation units. CALL prints
 * the exported symbol the call binds to and the runtime's return code; the
 * checker expects one trace record of that symbol with that result, in
 * order. `SYM(legacy, ptds)` names the symbol for each compilation.
 */
#include <stdio.h>

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define SYM(legacy, ptds) ptds
#else
#define SYM(legacy, ptds) legacy
#endif

#define CALL(sym, expr)                                             \
    do {                                                            \
        int rc_ = (int)(expr);                                      \
        printf("%s %d\n", sym, rc_);                                \
    } while (0)

/* Calls whose symbol has a per-thread variant. */
static void stream_calls(char *host, void *dev, cudaStream_t s, cudaEvent_t e, cudaGraph_t g, cudaGraphExec_t x)
{
    void *args[2] = {&dev, &host};
    cudaGraph_t captured = NULL;
    cudaLaunchConfig_t cfg = {.gridDim = {1, 1, 1}, .blockDim = {32, 1, 1}, .stream = s};
    CALL(SYM("cudaMemcpy", "cudaMemcpy_ptds"), cudaMemcpy(dev, host, 64, cudaMemcpyHostToDevice));
    CALL(SYM("cudaMemcpyAsync", "cudaMemcpyAsync_ptsz"), cudaMemcpyAsync(dev, host, 64, cudaMemcpyDefault, s));
    CALL(SYM("cudaMemcpy2D", "cudaMemcpy2D_ptds"), cudaMemcpy2D(dev, 32, host, 16, 16, 2, cudaMemcpyHostToDevice));
    CALL(SYM("cudaMemcpy2DAsync", "cudaMemcpy2DAsync_ptsz"),
         cudaMemcpy2DAsync(host, 16, dev, 32, 16, 2, cudaMemcpyDeviceToHost, s));
    CALL(SYM("cudaMemset", "cudaMemset_ptds"), cudaMemset(dev, 1, 64));
    CALL(SYM("cudaMemsetAsync", "cudaMemsetAsync_ptsz"), cudaMemsetAsync(dev, 2, 64, s));
    CALL(SYM("cudaMemset2D", "cudaMemset2D_ptds"), cudaMemset2D(dev, 32, 3, 16, 2));
    CALL(SYM("cudaMemset2DAsync", "cudaMemset2DAsync_ptsz"), cudaMemset2DAsync(dev, 32, 4, 16, 2, s));
    CALL(SYM("cudaLaunchKernel", "cudaLaunchKernel_ptsz"),
         cudaLaunchKernel((const void *)stream_calls, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, s));
    CALL(SYM("cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz"),
         cudaLaunchKernelExC(&cfg, (const void *)stream_calls, args));
    CALL(SYM("cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz"),
         cudaLaunchCooperativeKernel((const void *)stream_calls, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, s));
    CALL(SYM("cudaLaunchHostFunc", "cudaLaunchHostFunc_ptsz"), cudaLaunchHostFunc(s, NULL, NULL));
    CALL(SYM("cudaStreamBeginCapture", "cudaStreamBeginCapture_ptsz"),
         cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CALL(SYM("cudaStreamEndCapture", "cudaStreamEndCapture_ptsz"), cudaStreamEndCapture(s, &captured));
    CALL(SYM("cudaGraphLaunch", "cudaGraphLaunch_ptsz"), cudaGraphLaunch(x, s));
    CALL(SYM("cudaGraphUpload", "cudaGraphUpload_ptsz"), cudaGraphUpload(x, s));
    CALL(SYM("cudaEventRecord", "cudaEventRecord_ptsz"), cudaEventRecord(e, s));
    CALL(SYM("cudaEventRecordWithFlags", "cudaEventRecordWithFlags_ptsz"), cudaEventRecordWithFlags(e, s, 0));
    CALL(SYM("cudaStreamWaitEvent", "cudaStreamWaitEvent_ptsz"), cudaStreamWaitEvent(s, e, 0));
    CALL(SYM("cudaStreamQuery", "cudaStreamQuery_ptsz"), cudaStreamQuery(s));
    CALL(SYM("cudaStreamSynchronize", "cudaStreamSynchronize_ptsz"), cudaStreamSynchronize(s));
    void *p = NULL;
    CALL(SYM("cudaMallocAsync", "cudaMallocAsync_ptsz"), cudaMallocAsync(&p, 256, s));
    CALL(SYM("cudaFreeAsync", "cudaFreeAsync_ptsz"), cudaFreeAsync(p, s));
    cudaGraphInstantiateParams ip = {.flags = 0};
    cudaGraphExec_t x2 = NULL;
    CALL(SYM("cudaGraphInstantiateWithParams", "cudaGraphInstantiateWithParams_ptsz"),
         cudaGraphInstantiateWithParams(&x2, g, &ip));
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult st;
    CALL(SYM("cudaGetDriverEntryPointByVersion", "cudaGetDriverEntryPointByVersion_ptsz"),
         cudaGetDriverEntryPointByVersion("cuMemcpyHtoDAsync", &fn, 12000, cudaEnableDefault, &st));
    /* issue 14 families: symbols, 3D, callbacks, pool allocations */
    CALL(SYM("cudaMemcpyToSymbol", "cudaMemcpyToSymbol_ptds"),
         cudaMemcpyToSymbol(host, host, 4, 0, cudaMemcpyHostToDevice));
    CALL(SYM("cudaMemcpyFromSymbol", "cudaMemcpyFromSymbol_ptds"),
         cudaMemcpyFromSymbol(host, host, 4, 0, cudaMemcpyDeviceToHost));
    CALL(SYM("cudaMemcpyToSymbolAsync", "cudaMemcpyToSymbolAsync_ptsz"),
         cudaMemcpyToSymbolAsync(host, host, 4, 0, cudaMemcpyHostToDevice, s));
    CALL(SYM("cudaMemcpyFromSymbolAsync", "cudaMemcpyFromSymbolAsync_ptsz"),
         cudaMemcpyFromSymbolAsync(host, host, 4, 0, cudaMemcpyDeviceToHost, s));
    struct cudaMemcpy3DParms c3 = {.srcPtr = {host, 64, 64, 2}, .dstPtr = {dev, 64, 64, 2}, .extent = {64, 2, 2},
                                   .kind = cudaMemcpyHostToDevice};
    CALL(SYM("cudaMemcpy3D", "cudaMemcpy3D_ptds"), cudaMemcpy3D(&c3));
    CALL(SYM("cudaMemcpy3DAsync", "cudaMemcpy3DAsync_ptsz"), cudaMemcpy3DAsync(&c3, s));
    struct cudaPitchedPtr pp = {dev, 64, 64, 2};
    CALL(SYM("cudaMemset3D", "cudaMemset3D_ptds"), cudaMemset3D(pp, 0, (struct cudaExtent){64, 2, 2}));
    CALL(SYM("cudaMemset3DAsync", "cudaMemset3DAsync_ptsz"), cudaMemset3DAsync(pp, 0, (struct cudaExtent){64, 2, 2}, s));
    CALL(SYM("cudaStreamAddCallback", "cudaStreamAddCallback_ptsz"), cudaStreamAddCallback(s, NULL, NULL, 0));
    CALL(SYM("cudaMallocFromPoolAsync", "cudaMallocFromPoolAsync_ptsz"), cudaMallocFromPoolAsync(&p, 64, NULL, s));
    /* batch copies and capture state (C11, C12, G1, G2, G7); the CUDA 13
     * signatures (src/tracer/intercept/cuda/rt_versioned.c) */
    void *bd[2] = {dev, host}, *bs[2] = {host, dev};
    size_t bn[2] = {16, 16}, idx = 0;
    struct cudaMemcpyAttributes attr = {.srcAccessOrder = cudaMemcpySrcAccessOrderStream};
    CALL(SYM("cudaMemcpyBatchAsync", "cudaMemcpyBatchAsync_ptsz"),
         cudaMemcpyBatchAsync((void *const *)bd, (const void *const *)bs, bn, 2, &attr, &idx, 1, s));
    struct cudaMemcpy3DBatchOp op3 = {.src = {.type = cudaMemcpyOperandTypePointer, .op.ptr = {.ptr = host}},
                                      .dst = {.type = cudaMemcpyOperandTypePointer, .op.ptr = {.ptr = dev}},
                                      .extent = {16, 2, 1}, .srcAccessOrder = cudaMemcpySrcAccessOrderStream};
    CALL(SYM("cudaMemcpy3DBatchAsync", "cudaMemcpy3DBatchAsync_ptsz"), cudaMemcpy3DBatchAsync(1, &op3, 0, s));
    enum cudaStreamCaptureStatus cst;
    unsigned long long cid = 0;
    cudaGraph_t cg = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *ed = NULL;
    size_t nd = 0;
    CALL(SYM("cudaStreamGetCaptureInfo", "cudaStreamGetCaptureInfo_ptsz"),
         cudaStreamGetCaptureInfo(s, &cst, &cid, &cg, &deps, &ed, &nd));
    CALL(SYM("cudaStreamUpdateCaptureDependencies", "cudaStreamUpdateCaptureDependencies_ptsz"),
         cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0, 0));
    CALL(SYM("cudaStreamBeginCaptureToGraph", "cudaStreamBeginCaptureToGraph_ptsz"),
         cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
    CALL("cudaGraphNodeSetEnabled", cudaGraphNodeSetEnabled(x, NULL, 0));
}
