/* Host observations of completion: these advance stream epochs. */
#include "tracer/intercept/hip/hip_int.h"

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_HIP_WRAP(hipStreamSynchronize, (hipStream_t s), (s), hv_trace_stream_sync(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipStreamSynchronize_spt, (hipStream_t s), (s), hv_trace_stream_sync(t_, api_, r_, HV_HIP_S(s, HV_HIP_SPT)))
HV_HIP_WRAP(hipStreamQuery, (hipStream_t s), (s), hv_trace_stream_sync(t_, api_, r_, HV_HIP_S(s, HV_HIP_LEGACY)))
HV_HIP_WRAP(hipStreamQuery_spt, (hipStream_t s), (s), hv_trace_stream_sync(t_, api_, r_, HV_HIP_S(s, HV_HIP_SPT)))
HV_HIP_WRAP(hipDeviceSynchronize, (void), (), hv_trace_device_sync(t_, api_, r_))
HV_HIP_WRAP(hipEventSynchronize, (hipEvent_t e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))
HV_HIP_WRAP(hipEventQuery, (hipEvent_t e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
/* CUDA's cuCtxSynchronize twin: the current device (older CLR returns
 * hipErrorNotSupported, and a failed call observes nothing). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  /* deprecated, still exported */
HV_HIP_WRAP(hipCtxSynchronize, (void), (), hv_trace_device_sync(t_, api_, r_))
#pragma GCC diagnostic pop
