/*
 * TEST-ONLY: CUDA runtime pass-through. Calls a broad list of the runtime
 * entry points hipvis intercepts, against the real libcudart.so.13, and
 * prints each symbol and return code. Run with and without
 * LD_PRELOAD=libhipvis.so: the outputs and exit codes must be identical
 * (hipvis changes nothing), and the trace must hold one record per printed
 * line, in order, with that result (tests/cuda/check_trace.py). On a
 * machine without a GPU every call fails (no driver); the codes still have
 * to pass through unchanged.
 */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_calls.h"

void stream_calls_ptds(char *host, void *dev, cudaStream_t s, cudaEvent_t e, cudaGraph_t g, cudaGraphExec_t x);

/* Calls without a per-thread variant. */
static void plain_calls(char *host, void **dev, cudaStream_t *s, cudaEvent_t *e, cudaGraph_t *g, cudaGraphExec_t *x)
{
    void *pinned = NULL, *managed = NULL, *mapped = NULL, *fn = NULL;
    enum cudaDriverEntryPointQueryResult st;
    CALL("cudaSetDevice", cudaSetDevice(0));
    CALL("cudaMalloc", cudaMalloc(dev, 4096));
    CALL("cudaMallocHost", cudaMallocHost(&pinned, 4096));
    CALL("cudaHostAlloc", cudaHostAlloc(&mapped, 4096, cudaHostAllocMapped));
    CALL("cudaMallocManaged", cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal));
    CALL("cudaHostRegister", cudaHostRegister(host, 4096, cudaHostRegisterDefault));
    CALL("cudaStreamCreate", cudaStreamCreate(s));
    CALL("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    CALL("cudaStreamCreateWithPriority", cudaStreamCreateWithPriority(s, cudaStreamNonBlocking, -1));
    CALL("cudaEventCreate", cudaEventCreate(e));
    CALL("cudaEventCreateWithFlags", cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    CALL("cudaMemcpyPeer", cudaMemcpyPeer(*dev, 1, host, 0, 64));
    CALL("cudaMemcpyPeerAsync", cudaMemcpyPeerAsync(*dev, 1, host, 0, 64, *s));
    CALL("cudaGraphInstantiate", cudaGraphInstantiate(x, *g, 0));
    CALL("cudaGraphInstantiateWithFlags", cudaGraphInstantiateWithFlags(x, *g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    struct cudaKernelNodeParams kp = {.func = (void *)plain_calls, .gridDim = {1, 1, 1}, .blockDim = {1, 1, 1}};
    CALL("cudaGraphExecKernelNodeSetParams", cudaGraphExecKernelNodeSetParams(*x, NULL, &kp));
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CALL("cudaGraphExecUpdate", cudaGraphExecUpdate(*x, *g, &info));
    CALL("cudaGraphExecMemcpyNodeSetParams1D",
         cudaGraphExecMemcpyNodeSetParams1D(*x, NULL, *dev, host, 64, cudaMemcpyHostToDevice));
    CALL("cudaGraphExecEventRecordNodeSetEvent", cudaGraphExecEventRecordNodeSetEvent(*x, NULL, *e));
    CALL("cudaGraphExecEventWaitNodeSetEvent", cudaGraphExecEventWaitNodeSetEvent(*x, NULL, *e));
    CALL("cudaGraphExecChildGraphNodeSetParams", cudaGraphExecChildGraphNodeSetParams(*x, NULL, *g));
    CALL("cudaEventQuery", cudaEventQuery(*e));
    CALL("cudaEventSynchronize", cudaEventSynchronize(*e));
    CALL("cudaDeviceSynchronize", cudaDeviceSynchronize());
    CALL("cudaGetDriverEntryPoint", cudaGetDriverEntryPoint("cuLaunchKernel", &fn, cudaEnableDefault, &st));
    void *pitched = NULL;
    size_t pitch = 0;
    struct cudaPitchedPtr p3;
    cudaIpcMemHandle_t ih;
    memset(&ih, 0, sizeof ih);
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CALL("cudaMallocPitch", cudaMallocPitch(&pitched, &pitch, 100, 4));
    CALL("cudaMalloc3D", cudaMalloc3D(&p3, (struct cudaExtent){100, 4, 2}));
    CALL("cudaIpcOpenMemHandle", cudaIpcOpenMemHandle(&mapped, ih, cudaIpcMemLazyEnablePeerAccess));
    CALL("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(mapped));
    CALL("cudaThreadExchangeStreamCaptureMode", cudaThreadExchangeStreamCaptureMode(&mode));
    stream_calls(host, *dev, *s, *e, *g, *x);
    stream_calls(host, *dev, cudaStreamPerThread, *e, *g, *x);
    stream_calls_ptds(host, *dev, NULL, *e, *g, *x);
    CALL("cudaGraphExecDestroy", cudaGraphExecDestroy(*x));
    CALL("cudaGraphDestroy", cudaGraphDestroy(*g));
    CALL("cudaEventDestroy", cudaEventDestroy(*e));
    CALL("cudaStreamDestroy", cudaStreamDestroy(*s));
    CALL("cudaHostUnregister", cudaHostUnregister(host));
    CALL("cudaFreeHost", cudaFreeHost(pinned));
    CALL("cudaFree", cudaFree(managed));
    CALL("cudaFree", cudaFree(*dev));
}

int main(void)
{
    static char host[4096];
    void *dev = NULL;
    cudaStream_t s = NULL;
    cudaEvent_t e = NULL;
    cudaGraph_t g = NULL;
    cudaGraphExec_t x = NULL;
    errno = 0;
    plain_calls(host, &dev, &s, &e, &g, &x);
    /* errno is the runtime's, never hipvis's. */
    printf("errno %d\n", errno);
    /* Exit code: the last error the runtime reported, so a changed code
     * changes the exit status too. */
    return (int)cudaGetLastError() & 0xff;
}
