/*
 * hipdouble.h - TEST-ONLY control API of the hipvis HIP runtime test double.
 *
 * TEST-ONLY. This header belongs to tests/runtime-double/, a stand-in for
 * libamdhip64.so.5 that runs the HIP API on host memory so the hipvis tracer
 * can be tested end to end without an AMD GPU. It is never installed and must
 * never be used by shipped code.
 *
 * The double exports the HIP API with the real signatures from the HIP 5.2
 * headers (plus the ROCm 6+ additions declared below) and these extra
 * `hipdouble_*` entry points, which tests reach directly or through dlsym()
 * so the same binary still runs against the real runtime.
 *
 * Kernels are host functions. A kernel receives the argument array the way a
 * HIP kernel node stores it (args[i] points to the i-th argument's bytes,
 * copied at enqueue time), the launch geometry and the user pointer given at
 * registration. An 8-byte word of an argument that points into managed memory
 * (hipMallocManaged) arrives as the same byte's address in the double's
 * device-side mapping of that memory, not the program's, so a kernel runs
 * while the program's mapping is protected. Callable from Python ctypes
 * (CFUNCTYPE(None, POINTER(c_void_p), dim3, dim3, c_void_p)).
 *
 * Environment (read once, at first use):
 *   HIPDOUBLE_EXEC=lazy|thread   execution mode (default lazy)
 *     lazy   - queued work runs only when the host synchronizes (stream,
 *              event, device sync, blocking copies), queries, or when a
 *              stream wait needs it. A query that finds pending work runs it
 *              and returns hipErrorNotReady; the next query returns hipSuccess.
 *              Deterministic: used by every test.
 *     thread - one worker thread per stream executes its FIFO asynchronously.
 *   HIPDOUBLE_FAULT=none|h1|h2a|h2b|h3|h4|rs11501|rs11357|rs11403[,...]
 *              fault models (default none); the rs* ones are published
 *              runtime errata (docs/errata.md); see tests/runtime-double/README.md.
 *   DEBUG_HIP_FORCE_GRAPH_QUEUES=N   parallel graph queues for h1 (default 4)
 *   HIPDOUBLE_H2A_OFFSET, HIPDOUBLE_H2A_BYTES   deferred window for h2a
 *              (default offset 4, 4 bytes: element [1] of an int32 buffer)
 *   HIPDOUBLE_H2B_DELAY_US   thread-mode delay before a pinned-source copy
 *              reads its source under h2b (default 2000)
 *   HIPDOUBLE_DEVICES=N      number of devices reported (default 1, max 8)
 */
#ifndef HV_TESTS_RUNTIME_DOUBLE_HIPDOUBLE_H
#define HV_TESTS_RUNTIME_DOUBLE_HIPDOUBLE_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- test-double control API ------------------------------------------ */

/* Returns 1: this library is the test double, not a HIP runtime. */
int hipdouble_is_test_double(void);

typedef void (*hipdouble_kernel_fn)(void **args, dim3 grid, dim3 block, void *user);

/* Registers a kernel launched by host stub / function address (hipLaunchKernel,
 * hipExtLaunchKernel, kernel graph nodes). `nargs` arguments of `arg_sizes[i]`
 * bytes are copied at enqueue. Re-registering a key replaces it. Returns 0, or
 * -1 on bad arguments. */
int hipdouble_register_kernel(const void *func_or_stub, const char *name, hipdouble_kernel_fn fn,
                              int nargs, const size_t *arg_sizes, void *user);

/* Registers a kernel reached by name: hipModuleGetFunction(name) in any loaded
 * module, and stubs bound to `name` by __hipRegisterFunction. Names with no
 * registration resolve to a no-op kernel with no arguments. `extra`-form
 * launches are unpacked with natural alignment (1, 2, 4, 8; larger arguments
 * aligned to 8). Returns 0 or -1. */
int hipdouble_register_module_kernel(const char *name, hipdouble_kernel_fn fn, int nargs,
                                     const size_t *arg_sizes, void *user);

/* Marks pointer argument `arg_index` of every kernel called `name` (already
 * registered or registered later) as read through the scalar cache. Only has
 * an effect under HIPDOUBLE_FAULT=h3. Returns 0 or -1. */
int hipdouble_set_scalar_read(const char *name, int arg_index);

/* "lazy" or "thread". */
const char *hipdouble_exec_mode(void);

/* Active fault models as a comma list ("none" when none). */
const char *hipdouble_faults(void);

/* TEST-ONLY override of HIPDOUBLE_FAULT for unit tests. Returns 0, or -1 for
 * an unknown name (nothing changed). */
int hipdouble_set_faults(const char *spec);

/* The function and data the latest hipLaunchHostFunc(_spt) or
 * hipStreamAddCallback(_spt) that the double accepted was given, as the
 * caller passed them (a tracer in between may pass its own). Both NULL
 * before the first. */
void hipdouble_last_host_fn(void (**fn)(void), void **userData);

/* ---- ROCm 6+ APIs absent from the HIP 5.2 headers ---------------------- */
/* Declared with their ROCm 6+ signatures; the double exports them. */

#if HIP_VERSION_MAJOR < 6
typedef enum hipGraphInstantiateResult {
    hipGraphInstantiateSuccess = 0,
    hipGraphInstantiateError = 1,
    hipGraphInstantiateInvalidStructure = 2,
    hipGraphInstantiateNodeOperationNotSupported = 3,
    hipGraphInstantiateMultipleDevicesNotSupported = 4,
} hipGraphInstantiateResult;

typedef struct hipGraphInstantiateParams {
    hipGraphNode_t errNode_out;
    unsigned long long flags;
    hipGraphInstantiateResult result_out;
    hipStream_t uploadStream;
} hipGraphInstantiateParams;

#ifndef hipStreamLegacy
#define hipStreamLegacy ((hipStream_t)1)
#endif
#ifndef hipEventRecordDefault
#define hipEventRecordDefault 0x0
#endif
#ifndef hipEventRecordExternal
#define hipEventRecordExternal 0x1
#endif
#ifndef hipEventWaitDefault
#define hipEventWaitDefault 0x0
#endif
#ifndef hipEventWaitExternal
#define hipEventWaitExternal 0x1
#endif
#ifndef hipEventDisableSystemFence
#define hipEventDisableSystemFence 0x20000000
#endif
#ifndef hipGraphInstantiateFlagUpload
#define hipGraphInstantiateFlagUpload 2
#endif
#ifndef hipGraphInstantiateFlagDeviceLaunch
#define hipGraphInstantiateFlagDeviceLaunch 4
#endif
#ifndef hipGraphInstantiateFlagUseNodePriority
#define hipGraphInstantiateFlagUseNodePriority 8
#endif

hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream, unsigned int flags);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams *instantiateParams);

/* _spt variants added after HIP 5.2 */
hipError_t hipMemsetAsync_spt(void *dst, int value, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch, int value, size_t width, size_t height,
                                hipStream_t stream);
hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, hipMemcpyKind kind,
                                hipStream_t stream);
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream);
hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t *pGraph);
hipError_t hipStreamIsCapturing_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus);
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                       unsigned long long *pId);
hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream,
                                          hipStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, hipGraph_t *graph_out,
                                          const hipGraphNode_t **dependencies_out,
                                          size_t *numDependencies_out);
hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void *userData);
hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback,
                                    void *userData, unsigned int flags);
#endif /* HIP_VERSION_MAJOR < 6 */

/* ---- APIs the HIP headers declare only for C++ or not at all ------------ */

/* hip_ext.h is C++-only; same ABI as the real runtime's export. */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                    uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                    uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                    hipStream_t hStream, void **kernelParams, void **extra,
                                    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags);

/* ROCm 6/7 entry points (docs/semantics.md): stream memory-operation
 * batches (48-byte hipStreamBatchMemOpParams entries), symbol copies on the
 * per-thread stream, 3D memsets. */
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count, void *paramArray, unsigned int flags);
/* ROCm 7.1+ batch copies, with failIdx as every ROCm header declares them;
 * `attrs` are hipMemcpyAttributes (24 bytes), `opList` hipMemcpy3DBatchOp
 * (112 bytes). Pointer operands only: arrays and hipMemcpyFlagExtOpSwap
 * return hipErrorNotSupported. */
hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count, void *attrs,
                               size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, hipStream_t stream);
hipError_t hipMemcpy3DBatchAsync(size_t numOps, void *opList, size_t *failIdx, unsigned long long flags,
                                 hipStream_t stream);
hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol, const void *src, size_t sizeBytes, size_t offset,
                                      hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpyFromSymbolAsync_spt(void *dst, const void *symbol, size_t sizeBytes, size_t offset,
                                        hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemset3DAsync_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent, hipStream_t stream);
hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms *p, hipStream_t stream);
/* Exec-node setters and hipGraphNodeSetEnabled (docs/semantics.md G7). */
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipMemcpy3DParms *p);
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, const hipHostNodeParams *p);
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int isEnabled);
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int *isEnabled);
/* Launch variants (docs/semantics.md L1): hip_ext.h's (C++ only) and the
 * ROCm 6.2+ launch-configuration forms, whose configuration structs this
 * double reads with the real layouts (hipLaunchConfig_t, HIP_LAUNCH_CONFIG). */
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent);
hipError_t hipExtLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                  size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                  hipEvent_t stopEvent, int flags);
struct hd_launch_config;
struct hd_drv_launch_config;
hipError_t hipLaunchKernelExC(const struct hd_launch_config *config, const void *fPtr, void **args);
hipError_t hipDrvLaunchKernelEx(const struct hd_drv_launch_config *config, hipFunction_t f, void **params,
                                void **extra);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                            unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams);

/* Compiler-emitted registration entry points (clang's HIP host code). The
 * uint3 pointers of __hipRegisterFunction are passed through as void*. */
void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                           const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
                           dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipUnregisterFatBinary(void **modules);
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                      hipStream_t stream);
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                     hipStream_t *stream);

#ifdef __cplusplus
}
#endif

#endif /* HV_TESTS_RUNTIME_DOUBLE_HIPDOUBLE_H */
