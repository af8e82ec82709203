/* HIPVIS_GUARD for HIP graph launches: HIP's half of src/tracer/guard/guard.h
 * (the runtime calls a guard makes, and HIP's stream handles). */
#ifndef HIPVIS_GUARD_HIP_H
#define HIPVIS_GUARD_HIP_H

#include "tracer/intercept/hip/hip_common.h"
#include "tracer/guard/guard.h"

/* Before the real hipGraphLaunch(_spt)(e, s): applies the configured
 * pattern when the launch is flagged. `spt`: HV_HIP_LEGACY / HV_HIP_SPT. */
void hv_guard_hip(struct hv_thread_ctx *t, hipGraphExec_t e, hipStream_t s, int spt);

#endif
