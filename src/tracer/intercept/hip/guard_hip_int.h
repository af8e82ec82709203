/* HIPVIS_GUARD for HIP graph launches: HIP's half of src/tracer/guard/guard_modes.h
 * (the runtime calls a guard makes, and HIP's stream handles). */
#ifndef HV_TRACER_INTERCEPT_HIP_GUARD_HIP_INT_H
#define HV_TRACER_INTERCEPT_HIP_GUARD_HIP_INT_H

#include "tracer/intercept/hip/hip_int.h"
#include "tracer/guard/guard_modes.h"

/* Before the real hipGraphLaunch(_spt)(e, s): applies the configured
 * pattern when the launch is flagged. `spt`: HV_HIP_LEGACY / HV_HIP_SPT. */
void hv_guard_hip(struct hv_thread_ctx *t, hipGraphExec_t e, hipStream_t s, int spt);

#endif
