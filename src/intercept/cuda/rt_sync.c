/* Runtime host observations, events, streams and device selection. */
#include "intercept/cuda/cuda_common.h"

#define SSYNC(spt) hv_trace_stream_sync(t_, api_, r_, HV_CU_S(s, spt))
#define RECORD(spt, f) hv_trace_event_record(t_, api_, r_, HV_PTR(e), HV_CU_S(s, spt), f)
#define WAIT(spt) hv_trace_stream_wait(t_, api_, r_, HV_CU_S(s, spt), HV_PTR(e), f)
#define CREATED(f, p) hv_trace_stream_handle(t_, api_, r_, HV_OUT(ps, r_), 1, f, p)

HV_CUDART_WRAP(cudaStreamSynchronize, (cudaStream_t s), (s), SSYNC(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaStreamSynchronize_ptsz, (cudaStream_t s), (s), SSYNC(HV_SPT_PER_THREAD))
HV_CUDART_WRAP(cudaStreamQuery, (cudaStream_t s), (s), SSYNC(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaStreamQuery_ptsz, (cudaStream_t s), (s), SSYNC(HV_SPT_PER_THREAD))
HV_CUDART_WRAP(cudaDeviceSynchronize, (void), (), hv_trace_device_sync(t_, api_, r_))
HV_CUDART_WRAP(cudaEventSynchronize, (cudaEvent_t e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))
HV_CUDART_WRAP(cudaEventQuery, (cudaEvent_t e), (e), hv_trace_event_sync(t_, api_, r_, HV_PTR(e)))

HV_CUDART_WRAP(cudaEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s), RECORD(HV_SPT_LEGACY, 0))
HV_CUDART_WRAP(cudaEventRecord_ptsz, (cudaEvent_t e, cudaStream_t s), (e, s), RECORD(HV_SPT_PER_THREAD, 0))
HV_CUDART_WRAP(cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t s, unsigned f), (e, s, f),
               RECORD(HV_SPT_LEGACY, f))
HV_CUDART_WRAP(cudaEventRecordWithFlags_ptsz, (cudaEvent_t e, cudaStream_t s, unsigned f), (e, s, f),
               RECORD(HV_SPT_PER_THREAD, f))
HV_CUDART_WRAP(cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f), WAIT(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaStreamWaitEvent_ptsz, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f),
               WAIT(HV_SPT_PER_THREAD))
HV_CUDART_WRAP(cudaEventCreate, (cudaEvent_t * pe), (pe), hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), 0))
HV_CUDART_WRAP(cudaEventCreateWithFlags, (cudaEvent_t * pe, unsigned f), (pe, f),
               hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), f))
HV_CUDART_WRAP(cudaEventDestroy, (cudaEvent_t e), (e), hv_trace_event_handle(t_, api_, r_, HV_PTR(e), 0))

HV_CUDART_WRAP(cudaStreamCreate, (cudaStream_t * ps), (ps), CREATED(0, 0))
HV_CUDART_WRAP(cudaStreamCreateWithFlags, (cudaStream_t * ps, unsigned f), (ps, f), CREATED(f, 0))
HV_CUDART_WRAP(cudaStreamCreateWithPriority, (cudaStream_t * ps, unsigned f, int p), (ps, f, p), CREATED(f, p))
HV_CUDART_WRAP(cudaStreamDestroy, (cudaStream_t s), (s), hv_trace_stream_handle(t_, api_, r_, HV_PTR(s), 0, 0, 0))
HV_CUDART_WRAP(cudaSetDevice, (int dev), (dev), hv_trace_set_device(t_, api_, r_, dev))
