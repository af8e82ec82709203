/*
 * Host observations of completion, events and streams, for the runtime and
 * the driver at once: their entry points take the same arguments
 * (cudaStream_t is a CUstream, cudaEvent_t a CUevent) under different names
 * and result types, so each family is written once, for both.
 */
#include "tracer/intercept/cuda/cuda_int.h"

/* The runtime's entry point and the driver's, same parameters. */
#define BOTH(rt, drv, params, args, trace) \
    HV_CUDART_WRAP(rt, params, args, trace) \
    HV_CU_WRAP(drv, params, args, trace)

#define SSYNC(spt) hv_trace_stream_sync(t_, api_, r_, HV_CU_S(s, spt))
#define ESYNC() hv_trace_event_sync(t_, api_, r_, HV_PTR(e))
#define RECORD(spt, f) hv_trace_event_record(t_, api_, r_, HV_PTR(e), HV_CU_S(s, spt), f)
#define WAIT(spt) hv_trace_stream_wait(t_, api_, r_, HV_CU_S(s, spt), HV_PTR(e), f)
#define CREATED(f, p) hv_trace_stream_handle(t_, api_, r_, HV_OUT(ps, r_), 1, f, p)
#define L HV_SPT_LEGACY
#define PT HV_SPT_PER_THREAD

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
BOTH(cudaStreamSynchronize, cuStreamSynchronize, (cudaStream_t s), (s), SSYNC(L))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
BOTH(cudaStreamSynchronize_ptsz, cuStreamSynchronize_ptsz, (cudaStream_t s), (s), SSYNC(PT))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
BOTH(cudaStreamQuery, cuStreamQuery, (cudaStream_t s), (s), SSYNC(L))
BOTH(cudaStreamQuery_ptsz, cuStreamQuery_ptsz, (cudaStream_t s), (s), SSYNC(PT))
/* cuCtxSynchronize: the context's device, as far as hipvis knows the thread's. */
BOTH(cudaDeviceSynchronize, cuCtxSynchronize, (void), (), hv_trace_device_sync(t_, api_, r_))
BOTH(cudaEventSynchronize, cuEventSynchronize, (cudaEvent_t e), (e), ESYNC())
BOTH(cudaEventQuery, cuEventQuery, (cudaEvent_t e), (e), ESYNC())

BOTH(cudaEventRecord, cuEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s), RECORD(L, 0))
BOTH(cudaEventRecord_ptsz, cuEventRecord_ptsz, (cudaEvent_t e, cudaStream_t s), (e, s), RECORD(PT, 0))
BOTH(cudaEventRecordWithFlags, cuEventRecordWithFlags, (cudaEvent_t e, cudaStream_t s, unsigned f), (e, s, f),
     RECORD(L, f))
BOTH(cudaEventRecordWithFlags_ptsz, cuEventRecordWithFlags_ptsz, (cudaEvent_t e, cudaStream_t s, unsigned f),
     (e, s, f), RECORD(PT, f))
BOTH(cudaStreamWaitEvent, cuStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f), WAIT(L))
BOTH(cudaStreamWaitEvent_ptsz, cuStreamWaitEvent_ptsz, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f),
     WAIT(PT))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
BOTH(cudaEventCreateWithFlags, cuEventCreate, (cudaEvent_t * pe, unsigned f), (pe, f),
     hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), f))
BOTH(cudaEventDestroy, cuEventDestroy_v2, (cudaEvent_t e), (e), hv_trace_event_handle(t_, api_, r_, HV_PTR(e), 0))
HV_CUDART_WRAP(cudaEventCreate, (cudaEvent_t * pe), (pe), hv_trace_event_handle(t_, api_, r_, HV_OUT(pe, r_), 0))

BOTH(cudaStreamCreateWithFlags, cuStreamCreate, (cudaStream_t * ps, unsigned f), (ps, f), CREATED(f, 0))
BOTH(cudaStreamCreateWithPriority, cuStreamCreateWithPriority, (cudaStream_t * ps, unsigned f, int p), (ps, f, p),
     CREATED(f, p))
BOTH(cudaStreamDestroy, cuStreamDestroy_v2, (cudaStream_t s), (s), hv_trace_stream_handle(t_, api_, r_, HV_PTR(s), 0, 0, 0))
HV_CUDART_WRAP(cudaStreamCreate, (cudaStream_t * ps), (ps), CREATED(0, 0))
HV_CUDART_WRAP(cudaSetDevice, (int dev), (dev), hv_trace_set_device(t_, api_, r_, dev))
