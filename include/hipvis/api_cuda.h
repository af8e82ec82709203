/*
 * hipvis/api_cuda.h — the CUDA rows of the table of traced entry points,
 * included by hipvis/api.h (same rules: ids are part of the trace format;
 * only append). Rows are grouped by family; HV_CUDA_APIS (runtime,
 * libcudart, ids 1000..1999) and HV_CUDA_DRV_APIS (driver, libcuda, ids
 * 2000..2999) are the lists the rest of hipvis names.
 *
 * Names are the exported symbols, so versioned and per-thread variants
 * (`_v2`, `_ptsz`, `_ptds`) are rows of their own: cuda.h maps the public
 * names onto them (cuMemcpyHtoDAsync -> cuMemcpyHtoDAsync_v2[_ptsz]).
 */
#ifndef HV_HIPVIS_API_CUDA_H
#define HV_HIPVIS_API_CUDA_H

/* copies and memsets */
#define HV_CUDART_COPY(X)                                                     \
    X(1000, cudaMemcpy, HV_OP_COPY)                                           \
    X(1001, cudaMemcpyAsync, HV_OP_COPY)                                      \
    X(1002, cudaMemcpy_ptds, HV_OP_COPY)                                      \
    X(1003, cudaMemcpyAsync_ptsz, HV_OP_COPY)                                 \
    X(1004, cudaMemcpy2D, HV_OP_COPY)                                         \
    X(1005, cudaMemcpy2DAsync, HV_OP_COPY)                                    \
    X(1006, cudaMemcpy2D_ptds, HV_OP_COPY)                                    \
    X(1007, cudaMemcpy2DAsync_ptsz, HV_OP_COPY)                               \
    X(1008, cudaMemcpyPeer, HV_OP_COPY)                                       \
    X(1009, cudaMemcpyPeerAsync, HV_OP_COPY)                                  \
    X(1020, cudaMemset, HV_OP_MEMSET)                                         \
    X(1021, cudaMemsetAsync, HV_OP_MEMSET)                                    \
    X(1022, cudaMemset_ptds, HV_OP_MEMSET)                                    \
    X(1023, cudaMemsetAsync_ptsz, HV_OP_MEMSET)                               \
    X(1024, cudaMemset2D, HV_OP_MEMSET)                                       \
    X(1025, cudaMemset2DAsync, HV_OP_MEMSET)                                  \
    X(1026, cudaMemset2D_ptds, HV_OP_MEMSET)                                  \
    X(1027, cudaMemset2DAsync_ptsz, HV_OP_MEMSET)

/* launches */
#define HV_CUDART_LAUNCH(X)                                                   \
    X(1030, cudaLaunchKernel, HV_OP_LAUNCH)                                   \
    X(1031, cudaLaunchKernel_ptsz, HV_OP_LAUNCH)                              \
    X(1032, cudaLaunchKernelExC, HV_OP_LAUNCH)                                \
    X(1033, cudaLaunchKernelExC_ptsz, HV_OP_LAUNCH)                           \
    X(1034, cudaLaunchCooperativeKernel, HV_OP_LAUNCH)                        \
    X(1035, cudaLaunchCooperativeKernel_ptsz, HV_OP_LAUNCH)                   \
    X(1036, cudaLaunchHostFunc, HV_OP_LAUNCH)                                 \
    X(1037, cudaLaunchHostFunc_ptsz, HV_OP_LAUNCH)

/* stream capture, instantiate, replay, exec updates */
#define HV_CUDART_GRAPH(X)                                                    \
    X(1040, cudaStreamBeginCapture, HV_OP_CAPTURE)                            \
    X(1041, cudaStreamBeginCapture_ptsz, HV_OP_CAPTURE)                       \
    X(1042, cudaStreamEndCapture, HV_OP_CAPTURE)                              \
    X(1043, cudaStreamEndCapture_ptsz, HV_OP_CAPTURE)                         \
    X(1050, cudaGraphInstantiate, HV_OP_GRAPH)                                \
    X(1051, cudaGraphInstantiateWithFlags, HV_OP_GRAPH)                       \
    X(1052, cudaGraphInstantiateWithParams, HV_OP_GRAPH)                      \
    X(1053, cudaGraphInstantiateWithParams_ptsz, HV_OP_GRAPH)                 \
    X(1054, cudaGraphLaunch, HV_OP_GRAPH)                                     \
    X(1055, cudaGraphLaunch_ptsz, HV_OP_GRAPH)                                \
    X(1056, cudaGraphUpload, HV_OP_GRAPH)                                     \
    X(1057, cudaGraphUpload_ptsz, HV_OP_GRAPH)                                \
    X(1058, cudaGraphExecDestroy, HV_OP_GRAPH)                                \
    X(1059, cudaGraphDestroy, HV_OP_GRAPH)                                    \
    X(1060, cudaGraphExecKernelNodeSetParams, HV_OP_GRAPH)                    \
    X(1061, cudaGraphExecUpdate, HV_OP_GRAPH)                                 \
    X(1062, cudaGraphExecMemcpyNodeSetParams, HV_OP_GRAPH)                    \
    X(1063, cudaGraphExecMemcpyNodeSetParams1D, HV_OP_GRAPH)                  \
    X(1064, cudaGraphExecMemsetNodeSetParams, HV_OP_GRAPH)                    \
    X(1065, cudaGraphExecHostNodeSetParams, HV_OP_GRAPH)                      \
    X(1066, cudaGraphExecChildGraphNodeSetParams, HV_OP_GRAPH)                \
    X(1067, cudaGraphExecEventRecordNodeSetEvent, HV_OP_GRAPH)                \
    X(1068, cudaGraphExecEventWaitNodeSetEvent, HV_OP_GRAPH)                  \
    X(1069, cudaGraphExecNodeSetParams, HV_OP_GRAPH)

/* host observations of completion */
#define HV_CUDART_SYNC(X)                                                     \
    X(1080, cudaStreamSynchronize, HV_OP_SYNC)                                \
    X(1081, cudaStreamSynchronize_ptsz, HV_OP_SYNC)                           \
    X(1082, cudaDeviceSynchronize, HV_OP_SYNC)                                \
    X(1083, cudaEventSynchronize, HV_OP_SYNC)                                 \
    X(1084, cudaStreamQuery, HV_OP_SYNC)                                      \
    X(1085, cudaStreamQuery_ptsz, HV_OP_SYNC)                                 \
    X(1086, cudaEventQuery, HV_OP_SYNC)

/* events, streams, the current device */
#define HV_CUDART_EVENT(X)                                                    \
    X(1090, cudaEventRecord, HV_OP_EVENT)                                     \
    X(1091, cudaEventRecord_ptsz, HV_OP_EVENT)                                \
    X(1092, cudaEventRecordWithFlags, HV_OP_EVENT)                            \
    X(1093, cudaEventRecordWithFlags_ptsz, HV_OP_EVENT)                       \
    X(1094, cudaStreamWaitEvent, HV_OP_EVENT)                                 \
    X(1095, cudaStreamWaitEvent_ptsz, HV_OP_EVENT)                            \
    X(1096, cudaEventCreate, HV_OP_EVENT)                                     \
    X(1097, cudaEventCreateWithFlags, HV_OP_EVENT)                            \
    X(1098, cudaEventDestroy, HV_OP_EVENT)                                    \
    X(1100, cudaStreamCreate, HV_OP_STREAM)                                   \
    X(1101, cudaStreamCreateWithFlags, HV_OP_STREAM)                          \
    X(1102, cudaStreamCreateWithPriority, HV_OP_STREAM)                       \
    X(1103, cudaStreamDestroy, HV_OP_STREAM)

/* allocations */
#define HV_CUDART_ALLOC(X)                                                    \
    X(1110, cudaMalloc, HV_OP_ALLOC)                                          \
    X(1111, cudaMallocAsync, HV_OP_ALLOC)                                     \
    X(1112, cudaMallocAsync_ptsz, HV_OP_ALLOC)                                \
    X(1113, cudaHostAlloc, HV_OP_ALLOC)                                       \
    X(1114, cudaMallocHost, HV_OP_ALLOC)                                      \
    X(1115, cudaHostRegister, HV_OP_ALLOC)                                    \
    X(1116, cudaMallocManaged, HV_OP_ALLOC)                                   \
    X(1120, cudaFree, HV_OP_FREE)                                             \
    X(1121, cudaFreeAsync, HV_OP_FREE)                                        \
    X(1122, cudaFreeAsync_ptsz, HV_OP_FREE)                                   \
    X(1123, cudaFreeHost, HV_OP_FREE)                                         \
    X(1124, cudaHostUnregister, HV_OP_FREE)

/* the current device; driver entry-point lookups */
#define HV_CUDART_LOOKUP(X)                                                   \
    X(1130, cudaSetDevice, HV_OP_DEVICE)                                      \
    X(1150, cudaGetDriverEntryPoint, HV_OP_OTHER)                             \
    X(1151, cudaGetDriverEntryPoint_ptsz, HV_OP_OTHER)                        \
    X(1152, cudaGetDriverEntryPointByVersion, HV_OP_OTHER)                    \
    X(1153, cudaGetDriverEntryPointByVersion_ptsz, HV_OP_OTHER)

/* copies */
#define HV_CUDRV_COPY(X)                                                      \
    X(2000, cuMemcpyHtoDAsync_v2, HV_OP_COPY)                                 \
    X(2001, cuMemcpyHtoDAsync_v2_ptsz, HV_OP_COPY)                            \
    X(2002, cuMemcpyDtoHAsync_v2, HV_OP_COPY)                                 \
    X(2003, cuMemcpyDtoHAsync_v2_ptsz, HV_OP_COPY)                            \
    X(2004, cuMemcpyDtoDAsync_v2, HV_OP_COPY)                                 \
    X(2005, cuMemcpyDtoDAsync_v2_ptsz, HV_OP_COPY)                            \
    X(2006, cuMemcpyAsync, HV_OP_COPY)                                        \
    X(2007, cuMemcpyAsync_ptsz, HV_OP_COPY)                                   \
    X(2008, cuMemcpyPeerAsync, HV_OP_COPY)                                    \
    X(2009, cuMemcpyPeerAsync_ptsz, HV_OP_COPY)                               \
    X(2010, cuMemcpy2DAsync_v2, HV_OP_COPY)                                   \
    X(2011, cuMemcpy2DAsync_v2_ptsz, HV_OP_COPY)                              \
    X(2012, cuMemcpyHtoD_v2, HV_OP_COPY)                                      \
    X(2013, cuMemcpyHtoD_v2_ptds, HV_OP_COPY)                                 \
    X(2014, cuMemcpyDtoH_v2, HV_OP_COPY)                                      \
    X(2015, cuMemcpyDtoH_v2_ptds, HV_OP_COPY)                                 \
    X(2016, cuMemcpyDtoD_v2, HV_OP_COPY)                                      \
    X(2017, cuMemcpyDtoD_v2_ptds, HV_OP_COPY)                                 \
    X(2018, cuMemcpy, HV_OP_COPY)                                             \
    X(2019, cuMemcpy_ptds, HV_OP_COPY)

/* memsets */
#define HV_CUDRV_MEMSET(X)                                                    \
    X(2030, cuMemsetD8_v2, HV_OP_MEMSET)                                      \
    X(2031, cuMemsetD8_v2_ptds, HV_OP_MEMSET)                                 \
    X(2032, cuMemsetD16_v2, HV_OP_MEMSET)                                     \
    X(2033, cuMemsetD16_v2_ptds, HV_OP_MEMSET)                                \
    X(2034, cuMemsetD32_v2, HV_OP_MEMSET)                                     \
    X(2035, cuMemsetD32_v2_ptds, HV_OP_MEMSET)                                \
    X(2036, cuMemsetD8Async, HV_OP_MEMSET)                                    \
    X(2037, cuMemsetD8Async_ptsz, HV_OP_MEMSET)                               \
    X(2038, cuMemsetD16Async, HV_OP_MEMSET)                                   \
    X(2039, cuMemsetD16Async_ptsz, HV_OP_MEMSET)                              \
    X(2040, cuMemsetD32Async, HV_OP_MEMSET)                                   \
    X(2041, cuMemsetD32Async_ptsz, HV_OP_MEMSET)

/* launches */
#define HV_CUDRV_LAUNCH(X)                                                    \
    X(2050, cuLaunchKernel, HV_OP_LAUNCH)                                     \
    X(2051, cuLaunchKernel_ptsz, HV_OP_LAUNCH)                                \
    X(2052, cuLaunchKernelEx, HV_OP_LAUNCH)                                   \
    X(2053, cuLaunchKernelEx_ptsz, HV_OP_LAUNCH)                              \
    X(2054, cuLaunchCooperativeKernel, HV_OP_LAUNCH)                          \
    X(2055, cuLaunchCooperativeKernel_ptsz, HV_OP_LAUNCH)                     \
    X(2056, cuLaunchHostFunc, HV_OP_LAUNCH)                                   \
    X(2057, cuLaunchHostFunc_ptsz, HV_OP_LAUNCH)

/* stream capture, instantiate, replay, exec updates */
#define HV_CUDRV_GRAPH(X)                                                     \
    X(2060, cuStreamBeginCapture_v2, HV_OP_CAPTURE)                           \
    X(2061, cuStreamBeginCapture_v2_ptsz, HV_OP_CAPTURE)                      \
    X(2062, cuStreamEndCapture, HV_OP_CAPTURE)                                \
    X(2063, cuStreamEndCapture_ptsz, HV_OP_CAPTURE)                           \
    X(2070, cuGraphInstantiateWithFlags, HV_OP_GRAPH)                         \
    X(2071, cuGraphInstantiateWithParams, HV_OP_GRAPH)                        \
    X(2072, cuGraphInstantiateWithParams_ptsz, HV_OP_GRAPH)                   \
    X(2073, cuGraphLaunch, HV_OP_GRAPH)                                       \
    X(2074, cuGraphLaunch_ptsz, HV_OP_GRAPH)                                  \
    X(2075, cuGraphUpload, HV_OP_GRAPH)                                       \
    X(2076, cuGraphUpload_ptsz, HV_OP_GRAPH)                                  \
    X(2077, cuGraphExecDestroy, HV_OP_GRAPH)                                  \
    X(2078, cuGraphDestroy, HV_OP_GRAPH)                                      \
    X(2079, cuGraphExecKernelNodeSetParams_v2, HV_OP_GRAPH)                   \
    X(2080, cuGraphExecUpdate_v2, HV_OP_GRAPH)

/* host observations of completion */
#define HV_CUDRV_SYNC(X)                                                      \
    X(2090, cuStreamSynchronize, HV_OP_SYNC)                                  \
    X(2091, cuStreamSynchronize_ptsz, HV_OP_SYNC)                             \
    X(2092, cuCtxSynchronize, HV_OP_SYNC)                                     \
    X(2093, cuEventSynchronize, HV_OP_SYNC)                                   \
    X(2094, cuStreamQuery, HV_OP_SYNC)                                        \
    X(2095, cuStreamQuery_ptsz, HV_OP_SYNC)                                   \
    X(2096, cuEventQuery, HV_OP_SYNC)

/* events and streams */
#define HV_CUDRV_EVENT(X)                                                     \
    X(2100, cuEventRecord, HV_OP_EVENT)                                       \
    X(2101, cuEventRecord_ptsz, HV_OP_EVENT)                                  \
    X(2102, cuEventRecordWithFlags, HV_OP_EVENT)                              \
    X(2103, cuEventRecordWithFlags_ptsz, HV_OP_EVENT)                         \
    X(2104, cuStreamWaitEvent, HV_OP_EVENT)                                   \
    X(2105, cuStreamWaitEvent_ptsz, HV_OP_EVENT)                              \
    X(2106, cuEventCreate, HV_OP_EVENT)                                       \
    X(2107, cuEventDestroy_v2, HV_OP_EVENT)                                   \
    X(2110, cuStreamCreate, HV_OP_STREAM)                                     \
    X(2111, cuStreamCreateWithPriority, HV_OP_STREAM)                         \
    X(2112, cuStreamDestroy_v2, HV_OP_STREAM)

/* allocations */
#define HV_CUDRV_ALLOC(X)                                                     \
    X(2120, cuMemAlloc_v2, HV_OP_ALLOC)                                       \
    X(2121, cuMemAllocAsync, HV_OP_ALLOC)                                     \
    X(2122, cuMemAllocAsync_ptsz, HV_OP_ALLOC)                                \
    X(2123, cuMemAllocHost_v2, HV_OP_ALLOC)                                   \
    X(2124, cuMemHostAlloc, HV_OP_ALLOC)                                      \
    X(2125, cuMemHostRegister_v2, HV_OP_ALLOC)                                \
    X(2126, cuMemAllocManaged, HV_OP_ALLOC)                                   \
    X(2130, cuMemFree_v2, HV_OP_FREE)                                         \
    X(2131, cuMemFreeAsync, HV_OP_FREE)                                       \
    X(2132, cuMemFreeAsync_ptsz, HV_OP_FREE)                                  \
    X(2133, cuMemFreeHost, HV_OP_FREE)                                        \
    X(2134, cuMemHostUnregister, HV_OP_FREE)

/* modules, libraries, kernel handles and cuGetProcAddress */
#define HV_CUDRV_MODULE(X)                                                    \
    X(2150, cuModuleLoad, HV_OP_MODULE)                                       \
    X(2151, cuModuleLoadData, HV_OP_MODULE)                                   \
    X(2152, cuModuleLoadDataEx, HV_OP_MODULE)                                 \
    X(2153, cuModuleLoadFatBinary, HV_OP_MODULE)                              \
    X(2154, cuModuleUnload, HV_OP_MODULE)                                     \
    X(2155, cuModuleGetFunction, HV_OP_MODULE)                                \
    X(2156, cuLibraryLoadData, HV_OP_MODULE)                                  \
    X(2157, cuLibraryLoadFromFile, HV_OP_MODULE)                              \
    X(2158, cuLibraryUnload, HV_OP_MODULE)                                    \
    X(2159, cuLibraryGetKernel, HV_OP_MODULE)                                 \
    X(2160, cuKernelGetFunction, HV_OP_MODULE)                                \
    X(2170, cuGetProcAddress, HV_OP_OTHER)                                    \
    X(2171, cuGetProcAddress_v2, HV_OP_OTHER)

/* The CUDA runtime: ids 1000..1999. */
/* profiler start/stop (HIPVIS_START=profiler; src/tracer/names/regions.c) */
#define HV_CUDART_PROFILER(X)                                                 \
    X(1900, cudaProfilerStart, HV_OP_OTHER)                                   \
    X(1901, cudaProfilerStop, HV_OP_OTHER)
#define HV_CUDRV_PROFILER(X)                                                  \
    X(2900, cuProfilerStart, HV_OP_OTHER)                                     \
    X(2901, cuProfilerStop, HV_OP_OTHER)

/* More families (docs/semantics.md): symbol and 3D copies, 3D memsets,
 * stream callbacks, allocators, capture mode */
#define HV_CUDART_MORE(X)                                                     \
    X(1200, cudaMemcpyToSymbol, HV_OP_COPY)                                   \
    X(1201, cudaMemcpyToSymbol_ptds, HV_OP_COPY)                              \
    X(1202, cudaMemcpyFromSymbol, HV_OP_COPY)                                 \
    X(1203, cudaMemcpyFromSymbol_ptds, HV_OP_COPY)                            \
    X(1204, cudaMemcpyToSymbolAsync, HV_OP_COPY)                              \
    X(1205, cudaMemcpyToSymbolAsync_ptsz, HV_OP_COPY)                         \
    X(1206, cudaMemcpyFromSymbolAsync, HV_OP_COPY)                            \
    X(1207, cudaMemcpyFromSymbolAsync_ptsz, HV_OP_COPY)                       \
    X(1208, cudaMemcpy3D, HV_OP_COPY)                                         \
    X(1209, cudaMemcpy3D_ptds, HV_OP_COPY)                                    \
    X(1210, cudaMemcpy3DAsync, HV_OP_COPY)                                    \
    X(1211, cudaMemcpy3DAsync_ptsz, HV_OP_COPY)                               \
    X(1220, cudaMemset3D, HV_OP_MEMSET)                                       \
    X(1221, cudaMemset3D_ptds, HV_OP_MEMSET)                                  \
    X(1222, cudaMemset3DAsync, HV_OP_MEMSET)                                  \
    X(1223, cudaMemset3DAsync_ptsz, HV_OP_MEMSET)                             \
    X(1230, cudaStreamAddCallback, HV_OP_LAUNCH)                              \
    X(1231, cudaStreamAddCallback_ptsz, HV_OP_LAUNCH)                         \
    X(1240, cudaMallocPitch, HV_OP_ALLOC)                                     \
    X(1241, cudaMalloc3D, HV_OP_ALLOC)                                        \
    X(1242, cudaMallocFromPoolAsync, HV_OP_ALLOC)                             \
    X(1243, cudaMallocFromPoolAsync_ptsz, HV_OP_ALLOC)                        \
    X(1244, cudaIpcOpenMemHandle, HV_OP_ALLOC)                                \
    X(1245, cudaIpcCloseMemHandle, HV_OP_FREE)                                \
    X(1250, cudaThreadExchangeStreamCaptureMode, HV_OP_OTHER)                \
    X(1260, cudaMemcpyBatchAsync, HV_OP_COPY)                                \
    X(1261, cudaMemcpyBatchAsync_ptsz, HV_OP_COPY)                           \
    X(1262, cudaMemcpy3DBatchAsync, HV_OP_COPY)                              \
    X(1263, cudaMemcpy3DBatchAsync_ptsz, HV_OP_COPY)                         \
    X(1264, cudaGraphNodeSetEnabled, HV_OP_GRAPH)                            \
    X(1265, cudaStreamBeginCaptureToGraph, HV_OP_CAPTURE)                    \
    X(1266, cudaStreamBeginCaptureToGraph_ptsz, HV_OP_CAPTURE)               \
    X(1267, cudaStreamGetCaptureInfo, HV_OP_OTHER)                           \
    X(1268, cudaStreamGetCaptureInfo_ptsz, HV_OP_OTHER)                      \
    X(1269, cudaStreamUpdateCaptureDependencies, HV_OP_OTHER)                \
    X(1270, cudaStreamUpdateCaptureDependencies_ptsz, HV_OP_OTHER)
#define HV_CUDRV_MORE(X)                                                      \
    X(2200, cuStreamWriteValue32_v2, HV_OP_MEMOP)                             \
    X(2201, cuStreamWriteValue32_v2_ptsz, HV_OP_MEMOP)                        \
    X(2202, cuStreamWriteValue64_v2, HV_OP_MEMOP)                             \
    X(2203, cuStreamWriteValue64_v2_ptsz, HV_OP_MEMOP)                        \
    X(2204, cuStreamWaitValue32_v2, HV_OP_MEMOP)                              \
    X(2205, cuStreamWaitValue32_v2_ptsz, HV_OP_MEMOP)                         \
    X(2206, cuStreamWaitValue64_v2, HV_OP_MEMOP)                              \
    X(2207, cuStreamWaitValue64_v2_ptsz, HV_OP_MEMOP)                         \
    X(2208, cuStreamBatchMemOp_v2, HV_OP_MEMOP)                               \
    X(2209, cuStreamBatchMemOp_v2_ptsz, HV_OP_MEMOP)                          \
    X(2220, cuMemcpy3D_v2, HV_OP_COPY)                                        \
    X(2221, cuMemcpy3D_v2_ptds, HV_OP_COPY)                                   \
    X(2222, cuMemcpy3DAsync_v2, HV_OP_COPY)                                   \
    X(2223, cuMemcpy3DAsync_v2_ptsz, HV_OP_COPY)                              \
    X(2224, cuMemcpy2D_v2, HV_OP_COPY)                                        \
    X(2225, cuMemcpy2D_v2_ptds, HV_OP_COPY)                                   \
    X(2230, cuStreamAddCallback, HV_OP_LAUNCH)                                \
    X(2231, cuStreamAddCallback_ptsz, HV_OP_LAUNCH)                           \
    X(2240, cuMemAllocPitch_v2, HV_OP_ALLOC)                                  \
    X(2241, cuIpcOpenMemHandle_v2, HV_OP_ALLOC)                               \
    X(2242, cuIpcCloseMemHandle, HV_OP_FREE)                                 \
    X(2250, cuMemcpyBatchAsync, HV_OP_COPY)                                  \
    X(2251, cuMemcpyBatchAsync_ptsz, HV_OP_COPY)                             \
    X(2252, cuMemcpyBatchAsync_v2, HV_OP_COPY)                               \
    X(2253, cuMemcpyBatchAsync_v2_ptsz, HV_OP_COPY)                          \
    X(2254, cuMemcpy3DBatchAsync, HV_OP_COPY)                                \
    X(2255, cuMemcpy3DBatchAsync_ptsz, HV_OP_COPY)                           \
    X(2256, cuMemcpy3DBatchAsync_v2, HV_OP_COPY)                             \
    X(2257, cuMemcpy3DBatchAsync_v2_ptsz, HV_OP_COPY)                        \
    X(2258, cuGraphNodeSetEnabled, HV_OP_GRAPH)                              \
    X(2259, cuStreamBeginCaptureToGraph, HV_OP_CAPTURE)                      \
    X(2260, cuStreamBeginCaptureToGraph_ptsz, HV_OP_CAPTURE)                 \
    X(2261, cuStreamGetCaptureInfo_v2, HV_OP_OTHER)                          \
    X(2262, cuStreamGetCaptureInfo_v2_ptsz, HV_OP_OTHER)                     \
    X(2263, cuStreamGetCaptureInfo_v3, HV_OP_OTHER)                          \
    X(2264, cuStreamGetCaptureInfo_v3_ptsz, HV_OP_OTHER)                     \
    X(2265, cuStreamUpdateCaptureDependencies, HV_OP_OTHER)                  \
    X(2266, cuStreamUpdateCaptureDependencies_ptsz, HV_OP_OTHER)             \
    X(2267, cuStreamUpdateCaptureDependencies_v2, HV_OP_OTHER)               \
    X(2268, cuStreamUpdateCaptureDependencies_v2_ptsz, HV_OP_OTHER)          \
    X(2269, cuThreadExchangeStreamCaptureMode, HV_OP_OTHER)                  \
    X(2270, cuMemAllocFromPoolAsync, HV_OP_ALLOC)                            \
    X(2271, cuMemAllocFromPoolAsync_ptsz, HV_OP_ALLOC)                       \
    X(2272, cuGraphExecMemcpyNodeSetParams, HV_OP_GRAPH)                     \
    X(2273, cuGraphExecMemsetNodeSetParams, HV_OP_GRAPH)                     \
    X(2274, cuGraphExecHostNodeSetParams, HV_OP_GRAPH)                       \
    X(2275, cuGraphExecChildGraphNodeSetParams, HV_OP_GRAPH)                 \
    X(2276, cuGraphExecEventRecordNodeSetEvent, HV_OP_GRAPH)                 \
    X(2277, cuGraphExecEventWaitNodeSetEvent, HV_OP_GRAPH)                   \
    X(2278, cuGraphExecNodeSetParams, HV_OP_GRAPH)

#define HV_CUDA_APIS(X) \
    HV_CUDART_COPY(X) HV_CUDART_LAUNCH(X) HV_CUDART_GRAPH(X) \
    HV_CUDART_SYNC(X) HV_CUDART_EVENT(X) HV_CUDART_ALLOC(X) \
    HV_CUDART_LOOKUP(X) HV_CUDART_PROFILER(X) HV_CUDART_MORE(X)

/* The CUDA driver: ids 2000..2999. */
#define HV_CUDA_DRV_APIS(X) \
    HV_CUDRV_COPY(X) HV_CUDRV_MEMSET(X) HV_CUDRV_LAUNCH(X) \
    HV_CUDRV_GRAPH(X) HV_CUDRV_SYNC(X) HV_CUDRV_EVENT(X) \
    HV_CUDRV_ALLOC(X) HV_CUDRV_MODULE(X) HV_CUDRV_PROFILER(X) HV_CUDRV_MORE(X)

#endif
