/* hipProfilerStart/Stop: region marks, and the recording window of
 * HIPVIS_START=profiler (src/tracer/names/regions.c). HIP declares them deprecated
 * (in favour of roctx, which src/tracer/names/roctx.c records too); programs still
 * call them, so they are intercepted all the same. */
#include "tracer/intercept/hip/hip_int.h"
#include "tracer/names/marks.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

HV_HIP_WRAP(hipProfilerStart, (void), (), hv_trace_profiler(t_, api_, r_, 1))
HV_HIP_WRAP(hipProfilerStop, (void), (), hv_trace_profiler(t_, api_, r_, 0))
