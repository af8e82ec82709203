/* Stream lifetime and device selection. */
#include "tracer/intercept/hip/hip_int.h"

#define CREATED(f, p) hv_trace_stream_handle(t_, api_, r_, HV_OUT(ps, r_), 1, f, p)

HV_HIP_WRAP(hipStreamCreate, (hipStream_t * ps), (ps), CREATED(0, 0))
HV_HIP_WRAP(hipStreamCreateWithFlags, (hipStream_t * ps, unsigned int f), (ps, f), CREATED(f, 0))
HV_HIP_WRAP(hipStreamCreateWithPriority, (hipStream_t * ps, unsigned int f, int p), (ps, f, p), CREATED(f, p))
HV_HIP_WRAP(hipStreamDestroy, (hipStream_t s), (s), hv_trace_stream_handle(t_, api_, r_, HV_PTR(s), 0, 0, 0))
HV_HIP_WRAP(hipSetDevice, (int dev), (dev), hv_trace_set_device(t_, api_, r_, dev))
