/* Events: record/wait give the analyzer its cross-stream happens-before edges. */
#include "tracer/intercept/hip/hip_int.h"

#define RECORD(spt, f) hv_trace_event_record(t_, api_, r_, HV_PTR(e), HV_HIP_S(s, spt), f)
#define WAIT(spt) hv_trace_stream_wait(t_, api_, r_, HV_HIP_S(s, spt), HV_PTR(e), f)

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipEventRecord, (hipEvent_t e, hipStream_t s), (e, s), RECORD(HV_HIP_LEGACY, 0))
HV_HIP_WRAP(hipEventRecord_spt, (hipEvent_t e, hipStream_t s), (e, s), RECORD(HV_HIP_SPT, 0))
HV_HIP_WRAP(hipEventRecordWithFlags, (hipEvent_t e, hipStream_t s, unsigned int f), (e, s, f), RECORD(HV_HIP_LEGACY, f))
HV_HIP_WRAP(hipStreamWaitEvent, (hipStream_t s, hipEvent_t e, unsigned int f), (s, e, f), WAIT(HV_HIP_LEGACY))
HV_HIP_WRAP(hipStreamWaitEvent_spt, (hipStream_t s, hipEvent_t e, unsigned int f), (s, e, f), WAIT(HV_HIP_SPT))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_HIP_WRAP(hipEventCreate, (hipEvent_t * pe), (pe), hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), 0))
HV_HIP_WRAP(hipEventCreateWithFlags, (hipEvent_t * pe, unsigned f), (pe, f),
            hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), f))
HV_HIP_WRAP(hipEventDestroy, (hipEvent_t e), (e), hv_trace_event_handle(t_, api_, r_, HV_PTR(e), 0))
