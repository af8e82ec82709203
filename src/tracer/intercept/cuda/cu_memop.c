/* Driver stream memory operations and stream callbacks (docs/semantics.md
 * V1-V3, H1): the records HIP's twins make. CUDA waits have no mask. */
#include "tracer/intercept/cuda/cuda_int.h"

#define MEMOP(spt, op_, size_)                                                                         \
    hv_trace_memop(t_, api_, r_, HV_CU_S(s, spt),                                                       \
                   &(struct hv_memop_args){.addr = (uint64_t)a, .value = v, .mask = UINT64_MAX, .flags = f, \
                                           .op = (op_), .size = (size_)})
#define MEMOPS(name, vt, op_, size_)                                                                     \
    HV_CU_WRAP(name##_v2, (CUstream s, CUdeviceptr a, vt v, unsigned f), (s, a, v, f),                    \
               MEMOP(HV_SPT_LEGACY, op_, size_))                                                          \
    HV_CU_WRAP(name##_v2_ptsz, (CUstream s, CUdeviceptr a, vt v, unsigned f), (s, a, v, f),               \
               MEMOP(HV_SPT_PER_THREAD, op_, size_))

MEMOPS(cuStreamWriteValue32, cuuint32_t, HV_MEMOP_WRITE, 4)
MEMOPS(cuStreamWriteValue64, cuuint64_t, HV_MEMOP_WRITE, 8)
MEMOPS(cuStreamWaitValue32, cuuint32_t, HV_MEMOP_WAIT, 4)
MEMOPS(cuStreamWaitValue64, cuuint64_t, HV_MEMOP_WAIT, 8)

_Static_assert(sizeof(CUstreamBatchMemOpParams) == 48, "the batch entry layout hv_trace_memop_batch reads");
HV_CU_WRAP(cuStreamBatchMemOp_v2, (CUstream s, unsigned n, CUstreamBatchMemOpParams *ops, unsigned f), (s, n, ops, f),
           hv_trace_memop_batch(t_, api_, r_, HV_CU_S(s, HV_SPT_LEGACY), ops, n))
HV_CU_WRAP(cuStreamBatchMemOp_v2_ptsz, (CUstream s, unsigned n, CUstreamBatchMemOpParams *ops, unsigned f),
           (s, n, ops, f), hv_trace_memop_batch(t_, api_, r_, HV_CU_S(s, HV_SPT_PER_THREAD), ops, n))

HV_CU_HOST_FN(cuStreamAddCallback, (CUstream s, CUstreamCallback fn, void *user, unsigned f), HV_CU_CALLBACK_ARGS,
              HV_SPT_LEGACY, 1)
HV_CU_HOST_FN(cuStreamAddCallback_ptsz, (CUstream s, CUstreamCallback fn, void *user, unsigned f),
              HV_CU_CALLBACK_ARGS, HV_SPT_PER_THREAD, 1)
HV_CUDART_HOST_FN(cudaStreamAddCallback, (cudaStream_t s, cudaStreamCallback_t fn, void *user, unsigned f),
                  HV_CU_CALLBACK_ARGS, HV_SPT_LEGACY, 1)
HV_CUDART_HOST_FN(cudaStreamAddCallback_ptsz, (cudaStream_t s, cudaStreamCallback_t fn, void *user, unsigned f),
                  HV_CU_CALLBACK_ARGS, HV_SPT_PER_THREAD, 1)
HV_CUDART_WRAP(cudaThreadExchangeStreamCaptureMode, (enum cudaStreamCaptureMode * m), (m),
               hv_trace_raw(t_, api_, r_, HV_NO_STREAM, m && !r_ ? (uint64_t)*m : 0, 0, 0, 0))
