/*
 * hipvis/api.h — the table of traced runtime entry points.
 *
 * One row per entry point: a stable numeric id (part of the trace format:
 * never renumber, only append), the exported symbol name, and the operation
 * class that decides which payload of `union hv_call_args` the record uses.
 * The analyzer reasons in operation classes, so a HIP call and its CUDA twin
 * (hipMemcpyAsync / cudaMemcpyAsync) are the same operation with different
 * names.
 *
 * Rows are X-macros so that the id enum, the name table and the op table are
 * generated from one list and cannot drift apart.
 */
#ifndef HV_HIPVIS_API_H
#define HV_HIPVIS_API_H

#include <stdint.h>

/* Operation classes: which payload a call record carries. */
enum hv_op {
    HV_OP_OTHER = 0,     /* args.raw */
    HV_OP_COPY,          /* args.copy: a copy into dst (a write) */
    HV_OP_MEMSET,        /* args.memset */
    HV_OP_LAUNCH,        /* args.launch: eager (or captured) kernel launch */
    HV_OP_GRAPH,         /* args.graph: instantiate, launch, upload, destroy, update */
    HV_OP_CAPTURE,       /* args.capture: begin/end capture */
    HV_OP_EVENT,         /* args.event: record, wait, create, destroy */
    HV_OP_SYNC,          /* args.sync: host observes completion */
    HV_OP_STREAM,        /* args.stream: create/destroy */
    HV_OP_ALLOC,         /* args.alloc: device/host allocation */
    HV_OP_FREE,          /* args.alloc: release */
    HV_OP_DEVICE,        /* args.raw[0] = device */
    HV_OP_MODULE,        /* args.module: code-object load/unload, function lookup */
    HV_OP_MEMOP,         /* args.memop: stream memory operation (write / wait value) */
    HV_OP__COUNT
};

/*
 * X(id, name, op). Ids 1..999 HIP runtime, 1000..1999 CUDA runtime,
 * 2000..2999 CUDA driver. Only append.
 */
#define HV_HIP_APIS(X)                                                        \
    X(1, hipMemcpy, HV_OP_COPY)                                               \
    X(2, hipMemcpyAsync, HV_OP_COPY)                                          \
    X(3, hipMemcpyWithStream, HV_OP_COPY)                                     \
    X(4, hipMemcpyHtoD, HV_OP_COPY)                                           \
    X(5, hipMemcpyDtoH, HV_OP_COPY)                                           \
    X(6, hipMemcpyDtoD, HV_OP_COPY)                                           \
    X(7, hipMemcpyHtoDAsync, HV_OP_COPY)                                      \
    X(8, hipMemcpyDtoHAsync, HV_OP_COPY)                                      \
    X(9, hipMemcpyDtoDAsync, HV_OP_COPY)                                      \
    X(10, hipMemcpy2D, HV_OP_COPY)                                            \
    X(11, hipMemcpy2DAsync, HV_OP_COPY)                                       \
    X(12, hipMemcpyPeer, HV_OP_COPY)                                          \
    X(13, hipMemcpyPeerAsync, HV_OP_COPY)                                     \
    X(14, hipMemset, HV_OP_MEMSET)                                            \
    X(15, hipMemsetAsync, HV_OP_MEMSET)                                       \
    X(16, hipMemsetD8, HV_OP_MEMSET)                                          \
    X(17, hipMemsetD8Async, HV_OP_MEMSET)                                     \
    X(18, hipMemsetD16, HV_OP_MEMSET)                                         \
    X(19, hipMemsetD16Async, HV_OP_MEMSET)                                    \
    X(20, hipMemsetD32, HV_OP_MEMSET)                                         \
    X(21, hipMemsetD32Async, HV_OP_MEMSET)                                    \
    X(22, hipMemset2D, HV_OP_MEMSET)                                          \
    X(23, hipMemset2DAsync, HV_OP_MEMSET)                                     \
    X(30, hipLaunchKernel, HV_OP_LAUNCH)                                      \
    X(31, hipModuleLaunchKernel, HV_OP_LAUNCH)                                \
    X(32, hipExtModuleLaunchKernel, HV_OP_LAUNCH)                             \
    X(33, hipExtLaunchKernel, HV_OP_LAUNCH)                                   \
    X(40, hipStreamBeginCapture, HV_OP_CAPTURE)                               \
    X(41, hipStreamEndCapture, HV_OP_CAPTURE)                                 \
    X(42, hipGraphInstantiate, HV_OP_GRAPH)                                   \
    X(43, hipGraphInstantiateWithFlags, HV_OP_GRAPH)                          \
    X(44, hipGraphInstantiateWithParams, HV_OP_GRAPH)                         \
    X(45, hipGraphLaunch, HV_OP_GRAPH)                                        \
    X(46, hipGraphUpload, HV_OP_GRAPH)                                        \
    X(47, hipGraphExecDestroy, HV_OP_GRAPH)                                   \
    X(48, hipGraphDestroy, HV_OP_GRAPH)                                       \
    X(49, hipGraphExecKernelNodeSetParams, HV_OP_GRAPH)                       \
    X(50, hipGraphExecUpdate, HV_OP_GRAPH)                                    \
    X(60, hipStreamSynchronize, HV_OP_SYNC)                                   \
    X(61, hipDeviceSynchronize, HV_OP_SYNC)                                   \
    X(62, hipEventSynchronize, HV_OP_SYNC)                                    \
    X(63, hipStreamQuery, HV_OP_SYNC)                                         \
    X(64, hipEventQuery, HV_OP_SYNC)                                          \
    X(70, hipEventRecord, HV_OP_EVENT)                                        \
    X(71, hipEventRecordWithFlags, HV_OP_EVENT)                               \
    X(72, hipStreamWaitEvent, HV_OP_EVENT)                                    \
    X(73, hipEventCreate, HV_OP_EVENT)                                        \
    X(74, hipEventCreateWithFlags, HV_OP_EVENT)                               \
    X(75, hipEventDestroy, HV_OP_EVENT)                                       \
    X(80, hipStreamCreate, HV_OP_STREAM)                                      \
    X(81, hipStreamCreateWithFlags, HV_OP_STREAM)                             \
    X(82, hipStreamCreateWithPriority, HV_OP_STREAM)                          \
    X(83, hipStreamDestroy, HV_OP_STREAM)                                     \
    X(90, hipMalloc, HV_OP_ALLOC)                                             \
    X(91, hipMallocAsync, HV_OP_ALLOC)                                        \
    X(92, hipExtMallocWithFlags, HV_OP_ALLOC)                                 \
    X(93, hipHostMalloc, HV_OP_ALLOC)                                         \
    X(94, hipHostRegister, HV_OP_ALLOC)                                       \
    X(95, hipFree, HV_OP_FREE)                                                \
    X(96, hipFreeAsync, HV_OP_FREE)                                           \
    X(97, hipHostFree, HV_OP_FREE)                                            \
    X(98, hipHostUnregister, HV_OP_FREE)                                      \
    X(99, hipSetDevice, HV_OP_DEVICE)                                         \
    X(110, hipMemcpy_spt, HV_OP_COPY)                                         \
    X(111, hipMemcpyAsync_spt, HV_OP_COPY)                                    \
    X(112, hipMemcpy2D_spt, HV_OP_COPY)                                       \
    X(113, hipMemcpy2DAsync_spt, HV_OP_COPY)                                  \
    X(114, hipMemset_spt, HV_OP_MEMSET)                                       \
    X(115, hipMemsetAsync_spt, HV_OP_MEMSET)                                  \
    X(116, hipMemset2D_spt, HV_OP_MEMSET)                                     \
    X(117, hipMemset2DAsync_spt, HV_OP_MEMSET)                                \
    X(118, hipLaunchKernel_spt, HV_OP_LAUNCH)                                 \
    X(119, hipStreamSynchronize_spt, HV_OP_SYNC)                              \
    X(120, hipStreamQuery_spt, HV_OP_SYNC)                                    \
    X(121, hipStreamWaitEvent_spt, HV_OP_EVENT)                               \
    X(122, hipEventRecord_spt, HV_OP_EVENT)                                   \
    X(123, hipGraphLaunch_spt, HV_OP_GRAPH)                                   \
    X(124, hipStreamBeginCapture_spt, HV_OP_CAPTURE)                          \
    X(125, hipStreamEndCapture_spt, HV_OP_CAPTURE)                            \
    X(126, hipExtLaunchKernel_spt, HV_OP_LAUNCH)                              \
    X(140, __hipRegisterFatBinary, HV_OP_MODULE)                              \
    X(141, __hipRegisterFunction, HV_OP_MODULE)                               \
    X(142, __hipUnregisterFatBinary, HV_OP_MODULE)                            \
    X(143, hipModuleLoad, HV_OP_MODULE)                                       \
    X(144, hipModuleLoadData, HV_OP_MODULE)                                   \
    X(145, hipModuleLoadDataEx, HV_OP_MODULE)                                 \
    X(146, hipModuleUnload, HV_OP_MODULE)                                     \
    X(147, hipModuleGetFunction, HV_OP_MODULE)                                \
    X(148, hipGetProcAddress, HV_OP_OTHER)                                    \
    X(149, hipLaunchHostFunc, HV_OP_LAUNCH)                                   \
    X(150, hipMemcpyToSymbol, HV_OP_COPY)                                     \
    X(151, hipMemcpyToSymbol_spt, HV_OP_COPY)                                 \
    X(152, hipMemcpyFromSymbol, HV_OP_COPY)                                   \
    X(153, hipMemcpyFromSymbol_spt, HV_OP_COPY)                               \
    X(154, hipMemcpyToSymbolAsync, HV_OP_COPY)                                \
    X(155, hipMemcpyToSymbolAsync_spt, HV_OP_COPY)                            \
    X(156, hipMemcpyFromSymbolAsync, HV_OP_COPY)                              \
    X(157, hipMemcpyFromSymbolAsync_spt, HV_OP_COPY)                          \
    X(158, hipMemcpy3D, HV_OP_COPY)                                           \
    X(159, hipMemcpy3D_spt, HV_OP_COPY)                                       \
    X(160, hipMemcpy3DAsync, HV_OP_COPY)                                      \
    X(161, hipMemcpy3DAsync_spt, HV_OP_COPY)                                  \
    X(162, hipMemcpyParam2D, HV_OP_COPY)                                      \
    X(163, hipMemcpyParam2DAsync, HV_OP_COPY)                                 \
    X(170, hipMemset3D, HV_OP_MEMSET)                                         \
    X(171, hipMemset3D_spt, HV_OP_MEMSET)                                     \
    X(172, hipMemset3DAsync, HV_OP_MEMSET)                                    \
    X(173, hipMemset3DAsync_spt, HV_OP_MEMSET)                                \
    X(180, hipLaunchCooperativeKernel, HV_OP_LAUNCH)                          \
    X(181, hipLaunchCooperativeKernel_spt, HV_OP_LAUNCH)                      \
    X(182, hipModuleLaunchCooperativeKernel, HV_OP_LAUNCH)                    \
    X(183, hipLaunchCooperativeKernelMultiDevice, HV_OP_LAUNCH)               \
    X(184, hipModuleLaunchCooperativeKernelMultiDevice, HV_OP_LAUNCH)         \
    X(185, hipExtLaunchMultiKernelMultiDevice, HV_OP_LAUNCH)                  \
    X(186, hipHccModuleLaunchKernel, HV_OP_LAUNCH)                            \
    X(187, hipLaunchKernelExC, HV_OP_LAUNCH)                                  \
    X(188, hipDrvLaunchKernelEx, HV_OP_LAUNCH)                                \
    X(189, hipLaunchHostFunc_spt, HV_OP_LAUNCH)                               \
    X(190, hipStreamAddCallback, HV_OP_LAUNCH)                                \
    X(191, hipStreamAddCallback_spt, HV_OP_LAUNCH)                            \
    X(200, hipStreamWriteValue32, HV_OP_MEMOP)                                \
    X(201, hipStreamWriteValue64, HV_OP_MEMOP)                                \
    X(202, hipStreamWaitValue32, HV_OP_MEMOP)                                 \
    X(203, hipStreamWaitValue64, HV_OP_MEMOP)                                 \
    X(204, hipStreamBatchMemOp, HV_OP_MEMOP)                                  \
    X(210, hipGraphExecMemcpyNodeSetParams, HV_OP_GRAPH)                      \
    X(211, hipGraphExecMemcpyNodeSetParams1D, HV_OP_GRAPH)                    \
    X(212, hipGraphExecMemsetNodeSetParams, HV_OP_GRAPH)                      \
    X(213, hipGraphExecHostNodeSetParams, HV_OP_GRAPH)                        \
    X(214, hipGraphExecChildGraphNodeSetParams, HV_OP_GRAPH)                  \
    X(215, hipGraphExecEventRecordNodeSetEvent, HV_OP_GRAPH)                  \
    X(216, hipGraphExecEventWaitNodeSetEvent, HV_OP_GRAPH)                    \
    X(217, hipGraphExecNodeSetParams, HV_OP_GRAPH)                            \
    X(218, hipGraphNodeSetEnabled, HV_OP_GRAPH)                               \
    X(230, hipMallocManaged, HV_OP_ALLOC)                                     \
    X(231, hipMallocPitch, HV_OP_ALLOC)                                       \
    X(232, hipMalloc3D, HV_OP_ALLOC)                                          \
    X(233, hipMallocFromPoolAsync, HV_OP_ALLOC)                               \
    X(234, hipMallocHost, HV_OP_ALLOC)                                        \
    X(235, hipHostAlloc, HV_OP_ALLOC)                                         \
    X(236, hipMemAllocPitch, HV_OP_ALLOC)                                     \
    X(237, hipIpcOpenMemHandle, HV_OP_ALLOC)                                  \
    X(238, hipIpcCloseMemHandle, HV_OP_FREE)                                  \
    X(239, hipFreeHost, HV_OP_FREE)                                           \
    X(245, hipCtxSynchronize, HV_OP_SYNC)                                     \
    X(250, hipStreamGetCaptureInfo, HV_OP_OTHER)                              \
    X(251, hipStreamGetCaptureInfo_spt, HV_OP_OTHER)                          \
    X(252, hipStreamGetCaptureInfo_v2, HV_OP_OTHER)                           \
    X(253, hipStreamGetCaptureInfo_v2_spt, HV_OP_OTHER)                       \
    X(254, hipStreamBeginCaptureToGraph, HV_OP_CAPTURE)                       \
    X(255, hipStreamUpdateCaptureDependencies, HV_OP_OTHER)                   \
    X(256, hipThreadExchangeStreamCaptureMode, HV_OP_OTHER)                   \
    X(257, hipStreamIsCapturing, HV_OP_OTHER)                                 \
    X(258, hipStreamIsCapturing_spt, HV_OP_OTHER)                             \
    X(260, hipMemcpyBatchAsync, HV_OP_COPY)                                   \
    X(261, hipMemcpy3DBatchAsync, HV_OP_COPY)                                 \
    X(262, hipDrvMemcpy3D, HV_OP_COPY)                                        \
    X(263, hipDrvMemcpy3DAsync, HV_OP_COPY)                                   \
    X(264, hipDrvMemcpy2DUnaligned, HV_OP_COPY)                               \
    X(265, hipGraphExecMemcpyNodeSetParamsToSymbol, HV_OP_GRAPH)              \
    X(266, hipGraphExecMemcpyNodeSetParamsFromSymbol, HV_OP_GRAPH)            \
    X(267, hipDrvGraphExecMemcpyNodeSetParams, HV_OP_GRAPH)                   \
    X(268, hipGraphAddMemcpyNode, HV_OP_GRAPH)                                \
    X(269, hipGraphAddMemcpyNode1D, HV_OP_GRAPH)                              \
    X(270, hipGraphAddMemcpyNodeToSymbol, HV_OP_GRAPH)                        \
    X(271, hipGraphAddMemcpyNodeFromSymbol, HV_OP_GRAPH)                      \
    X(272, hipGraphNodeGetEnabled, HV_OP_GRAPH)                               \
    X(900, hipProfilerStart, HV_OP_OTHER)                                     \
    X(901, hipProfilerStop, HV_OP_OTHER)

#include "hipvis/api_cuda.h"

/* Generated enum: every list (HIP above, CUDA in api_cuda.h). */
enum hv_api {
    HV_API_NONE = 0,
#define HV_API_ENUM(id, name, op) HV_API_##name = id,
    HV_HIP_APIS(HV_API_ENUM)
    HV_CUDA_APIS(HV_API_ENUM)
    HV_CUDA_DRV_APIS(HV_API_ENUM)
#undef HV_API_ENUM
    HV_API__MAX = 4096
};

/*
 * The APIs a call of which HIPVIS_RECORD=args writes as its argument words
 * (HV_CALL_ARGS, trace.h), one list for the wrappers that write them and
 * the reader that rebuilds them (src/format/derive.c): X(name, family,
 * per-thread default stream (1: an _spt / _ptsz entry point), legacy form).
 * The legacy form is what the runtime's explicit legacy handle ((stream)1)
 * is recorded as (enum hv_stream_form: HIP's hipStreamLegacy finishes the
 * null stream alone, CUDA's cudaStreamLegacy is a synchronize on stream 0);
 * the per-thread handle is (stream)2 for all three. Each family's words:
 * COPY (dst, src, bytes, kind, stream), GRAPH (exec, stream), SSYNC
 * (stream), DSYNC (), ESYNC (event).
 */
enum hv_args_family { HV_ARGS_NONE = 0, HV_ARGS_COPY, HV_ARGS_GRAPH, HV_ARGS_SSYNC, HV_ARGS_DSYNC, HV_ARGS_ESYNC };
#define HV_ARGS_APIS(X)                                                                   \
    X(hipMemcpyAsync, HV_ARGS_COPY, 0, HV_STREAM_FORM_LEGACY_HANDLE)                      \
    X(hipMemcpyAsync_spt, HV_ARGS_COPY, 1, HV_STREAM_FORM_LEGACY_HANDLE)                  \
    X(cudaMemcpyAsync, HV_ARGS_COPY, 0, HV_STREAM_FORM_LEGACY_NULL)                       \
    X(cudaMemcpyAsync_ptsz, HV_ARGS_COPY, 1, HV_STREAM_FORM_LEGACY_NULL)                  \
    X(hipGraphLaunch, HV_ARGS_GRAPH, 0, HV_STREAM_FORM_LEGACY_HANDLE)                     \
    X(hipGraphLaunch_spt, HV_ARGS_GRAPH, 1, HV_STREAM_FORM_LEGACY_HANDLE)                 \
    X(cudaGraphLaunch, HV_ARGS_GRAPH, 0, HV_STREAM_FORM_LEGACY_NULL)                      \
    X(cudaGraphLaunch_ptsz, HV_ARGS_GRAPH, 1, HV_STREAM_FORM_LEGACY_NULL)                 \
    X(cuGraphLaunch, HV_ARGS_GRAPH, 0, HV_STREAM_FORM_LEGACY_NULL)                        \
    X(cuGraphLaunch_ptsz, HV_ARGS_GRAPH, 1, HV_STREAM_FORM_LEGACY_NULL)                   \
    X(hipStreamSynchronize, HV_ARGS_SSYNC, 0, HV_STREAM_FORM_LEGACY_HANDLE)               \
    X(hipStreamSynchronize_spt, HV_ARGS_SSYNC, 1, HV_STREAM_FORM_LEGACY_HANDLE)           \
    X(cudaStreamSynchronize, HV_ARGS_SSYNC, 0, HV_STREAM_FORM_LEGACY_NULL)                \
    X(cudaStreamSynchronize_ptsz, HV_ARGS_SSYNC, 1, HV_STREAM_FORM_LEGACY_NULL)           \
    X(cuStreamSynchronize, HV_ARGS_SSYNC, 0, HV_STREAM_FORM_LEGACY_NULL)                  \
    X(cuStreamSynchronize_ptsz, HV_ARGS_SSYNC, 1, HV_STREAM_FORM_LEGACY_NULL)             \
    X(hipDeviceSynchronize, HV_ARGS_DSYNC, 0, HV_STREAM_FORM_NONE)                        \
    X(cudaDeviceSynchronize, HV_ARGS_DSYNC, 0, HV_STREAM_FORM_NONE)                       \
    X(cuCtxSynchronize, HV_ARGS_DSYNC, 0, HV_STREAM_FORM_NONE)                            \
    X(hipEventSynchronize, HV_ARGS_ESYNC, 0, HV_STREAM_FORM_NONE)                         \
    X(cudaEventSynchronize, HV_ARGS_ESYNC, 0, HV_STREAM_FORM_NONE)                        \
    X(cuEventSynchronize, HV_ARGS_ESYNC, 0, HV_STREAM_FORM_NONE)

/* The family of `api` in HV_ARGS_APIS, HV_ARGS_NONE for every other API
 * (a constant where `api` is one). */
static inline enum hv_args_family hv_args_family(unsigned api)
{
    switch (api) {
#define HV_ARGS_CASE(name, family, spt, legacy_form) \
    case HV_API_##name:                             \
        return family;
        HV_ARGS_APIS(HV_ARGS_CASE)
#undef HV_ARGS_CASE
    default:
        return HV_ARGS_NONE;
    }
}

/* Name and op class of an api id; "?" / HV_OP_OTHER for unknown ids so that
 * readers of newer traces degrade instead of failing. */
const char *hv_api_name(uint16_t api);
enum hv_op hv_api_op(uint16_t api);
/* Reverse lookup for configuration (`HIPVIS_APIS=`); 0 when unknown. */
uint16_t hv_api_by_name(const char *name);

/* What a call does beyond its op class, decided once from the API name so
 * that the HIP, CUDA and driver twins (hipGraphLaunch / cudaGraphLaunch /
 * cuGraphLaunch) are read alike: by the analyzer's engine and by the
 * reader's derive stage (src/format/derive.c). */
enum hv_api_kind {
    HV_K_NONE = 0,
    HV_K_INSTANTIATE, HV_K_GRAPH_LAUNCH, HV_K_EXEC_DESTROY, HV_K_EXEC_UPDATE, HV_K_NODE_SETPARAMS,
    HV_K_STREAM_SYNC, HV_K_EVENT_SYNC, HV_K_DEVICE_SYNC,
    HV_K_EVENT_RECORD, HV_K_STREAM_WAIT, HV_K_EVENT_DESTROY,
    HV_K_STREAM_CREATE, HV_K_STREAM_DESTROY,
    HV_K_BEGIN_CAPTURE, HV_K_END_CAPTURE,
    HV_K_NODE_SET_ENABLED,       /* an exec node's parameters changed, and whether it runs */
};
/* HV_K_NONE for unknown ids. The first call fills the table (once per process). */
enum hv_api_kind hv_api_kind(uint16_t api);

#endif
