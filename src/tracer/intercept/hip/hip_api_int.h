/*
 * The HIP runtime's declarations, from Debian's libamdhip64-dev headers, plus
 * the entry points those (HIP 5.2) headers lack or declare only for C++:
 * later ROCm releases export them, and a wrapper must exist for each so that
 * programs built against ROCm 6/7 are traced too. Signatures follow ROCm 7.
 */
#ifndef HV_TRACER_INTERCEPT_HIP_HIP_API_INT_H
#define HV_TRACER_INTERCEPT_HIP_HIP_API_INT_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdint.h>

/* hip_ext.h is C++ only (default arguments). */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent,
                                    uint32_t flags);
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                              size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent,
                              int flags);

/* ROCm 6+ only. */
typedef struct hv_hipGraphInstantiateParams {
    hipGraphNode_t errNode_out;
    unsigned long long flags;
    int result_out;
    hipStream_t uploadStream;
} hv_hipGraphInstantiateParams;
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hv_hipGraphInstantiateParams *instantiateParams);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);

/* ROCm 6.2+: the runtime's own symbol lookup. */
typedef enum hv_hipDriverProcAddressQueryResult {
    HV_HIP_GET_PROC_ADDRESS_SUCCESS = 0,
    HV_HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
    HV_HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
} hv_hipDriverProcAddressQueryResult;
hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hipVersion, uint64_t flags,
                             hv_hipDriverProcAddressQueryResult *symbolStatus);
hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream, unsigned int flags);
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream);
hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t *pGraph);
hipError_t hipMemsetAsync_spt(void *dst, int value, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream);
hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                hipMemcpyKind kind, hipStream_t stream);
hipError_t hipExtLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                  size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                  hipEvent_t stopEvent, int flags);

/* hip_ext.h, C++ only; deprecated for hipExtModuleLaunchKernel. */
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent);

/* ROCm 6+ entry points HIP 5.2 lacks. */
hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol, const void *src, size_t sizeBytes, size_t offset,
                                      hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyFromSymbolAsync_spt(void *dst, const void *symbol, size_t sizeBytes, size_t offset,
                                        hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms *p, hipStream_t stream);
hipError_t hipMemset3DAsync_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent, hipStream_t stream);
hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void *userData);
hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback, void *userData,
                                    unsigned int flags);
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                       unsigned long long *pId);
hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream, hipStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, hipGraph_t *graph_out,
                                          const hipGraphNode_t **dependencies_out, size_t *numDependencies_out);
hipError_t hipStreamIsCapturing_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                            unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams);
/* hipFunctionLaunchParams (ROCm 6). */
typedef struct hv_hipFunctionLaunchParams {
    hipFunction_t function;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    hipStream_t hStream;
    void **kernelParams;
} hv_hipFunctionLaunchParams;
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hv_hipFunctionLaunchParams *launchParamsList,
                                                       unsigned int numDevices, unsigned int flags);
/* hipLaunchConfig_t / HIP_LAUNCH_CONFIG (ROCm 6.2+), CUDA's layout. */
typedef struct hv_hipLaunchConfig {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    hipStream_t stream;
    void *attrs;
    unsigned int numAttrs;
} hv_hipLaunchConfig;
typedef struct hv_HIP_LAUNCH_CONFIG {
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    hipStream_t hStream;
    void *attrs;
    unsigned int numAttrs;
} hv_HIP_LAUNCH_CONFIG;
hipError_t hipLaunchKernelExC(const hv_hipLaunchConfig *config, const void *fPtr, void **args);
hipError_t hipDrvLaunchKernelEx(const hv_HIP_LAUNCH_CONFIG *config, hipFunction_t f, void **params, void **extra);
/* hipStreamBatchMemOpParams: 48-byte entries (intercept/common/fill_memop.c). */
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count, void *paramArray, unsigned int flags);
/* hipGraphNodeParams (ROCm 6.1+): the node type, then a union at offset 16. */
typedef struct hv_hipGraphNodeParams {
    hipGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        hipKernelNodeParams kernel;
        struct {
            int flags;
            int reserved[3];
            hipMemcpy3DParms copyParams;
        } memcpy;
        hipMemsetParams memset;
        hipHostNodeParams host;
        struct {
            hipGraph_t graph;
        } graph;
        struct {
            hipEvent_t event;
        } event;
    } u;
    long long reserved2;
} hv_hipGraphNodeParams;
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t graphExec, hipGraphNode_t node,
                                     hv_hipGraphNodeParams *nodeParams);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int isEnabled);
hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph, const hipGraphNode_t *dependencies,
                                        const void *dependencyData, size_t numDependencies,
                                        hipStreamCaptureMode mode);

/* ROCm 7.1+ batch copies. Every ROCm header that declares them
 * (rocm-systems projects/hip/include/hip/hip_runtime_api.h) keeps failIdx,
 * unlike CUDA 13's twins; attributes and operations use the layouts of
 * struct hv_copy_attr / hv_copy_op3d (intercept.h). */
hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count, void *attrs, size_t *attrsIdxs,
                               size_t numAttrs, size_t *failIdx, hipStream_t stream);
hipError_t hipMemcpy3DBatchAsync(size_t numOps, void *opList, size_t *failIdx, unsigned long long flags,
                                 hipStream_t stream);
/* HIP_MEMCPY3D as ROCm 6 lays it out (driver_types.h): the HIP 5 headers
 * above have unsigned int offsets, pitches and sizes. */
typedef struct hv_HIP_MEMCPY3D_R6 {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    hipDeviceptr_t srcDevice;
    hipArray_t srcArray;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    hipDeviceptr_t dstDevice;
    hipArray_t dstArray;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
} hv_HIP_MEMCPY3D_R6;
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMCPY3D *copyParams, hipCtx_t ctx);

#endif
