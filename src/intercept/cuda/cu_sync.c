/* Driver host observations, events and streams. */
#include "intercept/cuda/cuda_common.h"

#define SSYNC(spt) hv_trace_stream_sync(t_, api_, r_, HV_CU_S(s, spt))
#define RECORD(spt, f) hv_trace_event_record(t_, api_, r_, HV_PTR(e), HV_CU_S(s, spt), f)
#define WAIT(spt) hv_trace_stream_wait(t_, api_, r_, HV_CU_S(s, spt), HV_PTR(e), f)
#define CREATED(f, p) hv_trace_stream_handle(t_, api_, r_, HV_OUT(ps, r_), 1, f, p)

HV_CU_WRAP(cuStreamSynchronize, (CUstream s), (s), SSYNC(HV_SPT_LEGACY))
HV_CU_WRAP(cuStreamSynchronize_ptsz, (CUstream s), (s), SSYNC(HV_SPT_PER_THREAD))
HV_CU_WRAP(cuStreamQuery, (CUstream s), (s), SSYNC(HV_SPT_LEGACY))
HV_CU_WRAP(cuStreamQuery_ptsz, (CUstream s), (s), SSYNC(HV_SPT_PER_THREAD))
/* The context's device: the thread's current device as far as hipvis knows. */
HV_CU_WRAP(cuCtxSynchronize, (void), (), hv_trace_device_sync(t_, api_, r_))
HV_CU_WRAP(cuEventSynchronize, (CUevent e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))
HV_CU_WRAP(cuEventQuery, (CUevent e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))

HV_CU_WRAP(cuEventRecord, (CUevent e, CUstream s), (e, s), RECORD(HV_SPT_LEGACY, 0))
HV_CU_WRAP(cuEventRecord_ptsz, (CUevent e, CUstream s), (e, s), RECORD(HV_SPT_PER_THREAD, 0))
HV_CU_WRAP(cuEventRecordWithFlags, (CUevent e, CUstream s, unsigned f), (e, s, f), RECORD(HV_SPT_LEGACY, f))
HV_CU_WRAP(cuEventRecordWithFlags_ptsz, (CUevent e, CUstream s, unsigned f), (e, s, f),
           RECORD(HV_SPT_PER_THREAD, f))
HV_CU_WRAP(cuStreamWaitEvent, (CUstream s, CUevent e, unsigned f), (s, e, f), WAIT(HV_SPT_LEGACY))
HV_CU_WRAP(cuStreamWaitEvent_ptsz, (CUstream s, CUevent e, unsigned f), (s, e, f), WAIT(HV_SPT_PER_THREAD))
HV_CU_WRAP(cuEventCreate, (CUevent * pe, unsigned f), (pe, f), hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), f))
HV_CU_WRAP(cuEventDestroy_v2, (CUevent e), (e), hv_trace_event_handle(t_, api_, r_, HV_PTR(e), 0))

HV_CU_WRAP(cuStreamCreate, (CUstream * ps, unsigned f), (ps, f), CREATED(f, 0))
HV_CU_WRAP(cuStreamCreateWithPriority, (CUstream * ps, unsigned f, int p), (ps, f, p), CREATED(f, p))
HV_CU_WRAP(cuStreamDestroy_v2, (CUstream s), (s), hv_trace_stream_handle(t_, api_, r_, HV_PTR(s), 0, 0, 0))
