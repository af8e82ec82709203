/* cudaProfilerStart/Stop (torch.cuda.profiler.start/stop) and the driver's
 * cuProfilerStart/Stop: region marks, and the recording window of
 * HIPVIS_START=profiler (src/tracer/names/regions.c). */
#include "tracer/intercept/cuda/cuda_int.h"
#include "tracer/names/marks.h"

HV_CUDART_WRAP(cudaProfilerStart, (void), (), hv_trace_profiler(t_, api_, r_, 1))
HV_CUDART_WRAP(cudaProfilerStop, (void), (), hv_trace_profiler(t_, api_, r_, 0))
HV_CU_WRAP(cuProfilerStart, (void), (), hv_trace_profiler(t_, api_, r_, 1))
HV_CU_WRAP(cuProfilerStop, (void), (), hv_trace_profiler(t_, api_, r_, 0))
