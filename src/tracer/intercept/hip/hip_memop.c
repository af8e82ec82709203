/* Stream memory operations (docs/semantics.md V1-V3): a write-value writes
 * its word and signals; a wait-value orders its stream after the latest
 * satisfying signal. */
#include "tracer/intercept/hip/hip_int.h"

#define MEMOP(op_, size_, v, f, m) \
    hv_trace_memop(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY), \
                   &(struct hv_memop_args){.addr = HV_PTR(p), .value = (v), .mask = (m), .flags = (f), \
                                           .op = (op_), .size = (size_)})

HV_HIP_WRAP(hipStreamWriteValue32, (hipStream_t s, void *p, uint32_t v, unsigned f), (s, p, v, f),
            MEMOP(HV_MEMOP_WRITE, 4, v, f, UINT64_MAX))
HV_HIP_WRAP(hipStreamWriteValue64, (hipStream_t s, void *p, uint64_t v, unsigned f), (s, p, v, f),
            MEMOP(HV_MEMOP_WRITE, 8, v, f, UINT64_MAX))
HV_HIP_WRAP(hipStreamWaitValue32, (hipStream_t s, void *p, uint32_t v, unsigned f, uint32_t m), (s, p, v, f, m),
            MEMOP(HV_MEMOP_WAIT, 4, v, f, m))
HV_HIP_WRAP(hipStreamWaitValue64, (hipStream_t s, void *p, uint64_t v, unsigned f, uint64_t m), (s, p, v, f, m),
            MEMOP(HV_MEMOP_WAIT, 8, v, f, m))
HV_HIP_WRAP(hipStreamBatchMemOp, (hipStream_t s, unsigned n, void *ops, unsigned f), (s, n, ops, f),
            hv_trace_memop_batch(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY), ops, n))
