/*
 * The HIP runtime's declarations, from Debian's libamdhip64-dev headers, plus
 * the entry points those (HIP 5.2) headers lack or declare only for C++:
 * later ROCm releases export them, and a wrapper must exist for each so that
 * programs built against ROCm 6/7 are traced too. Signatures follow ROCm 7.
 */
#ifndef HIPVIS_HIP_API_H
#define HIPVIS_HIP_API_H

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

#endif
