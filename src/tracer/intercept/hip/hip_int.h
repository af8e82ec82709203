/*
 * What every HIP wrapper shares: the wrapper envelope and HIP's stream
 * handles. A wrapper is one HV_HIP_WRAP line plus the call to a neutral
 * record filler (src/tracer/intercept/common), which runs after the real call
 * returned.
 */
#ifndef HV_TRACER_INTERCEPT_HIP_HIP_INT_H
#define HV_TRACER_INTERCEPT_HIP_HIP_INT_H

#include "tracer/intercept/common/intercept.h"

/* core/hot.h HV_STEP_fn: this front end's step wrappers, together. */
#define HV_STEP_FRONT_END "3hip"
#include "tracer/intercept/hip/hip_api_int.h"

/* Exported wrapper `name`; see HV_WRAP. */
#define HV_HIP_WRAP(name, params, args, trace) \
    HV_WRAP(hipError_t, hipErrorSharedObjectSymbolNotFound, name, params, args, trace)

/* Which default-stream convention an entry point follows. */
#define HV_HIP_LEGACY HV_SPT_LEGACY
#define HV_HIP_SPT HV_SPT_PER_THREAD

/* hipStreamLegacy, ROCm 6 and later (hip_runtime_api.h: ((hipStream_t)1)); the
 * Debian HIP 5.2 headers predate it. CLR treats it as the null stream. */
#ifndef hipStreamLegacy
#define hipStreamLegacy ((hipStream_t)1)
#endif

/* Canonical stream of a HIP stream argument: NULL and hipStreamLegacy are
 * the device's legacy stream (form LEGACY_HANDLE for the latter: a
 * synchronize on it covers less, see enum hv_stream_form). */
#define HV_HIP_SREF(t, s, spt)                                                                    \
    hv_sref_of((t), (uintptr_t)(s), (enum hv_spt)(spt), (uintptr_t)hipStreamLegacy, (uintptr_t)hipStreamPerThread, \
               HV_STREAM_FORM_LEGACY_HANDLE)
#define HV_HIP_S(s, spt) HV_HIP_SREF(t_, s, spt)

/* The packed argument block of a HIP `extra` array, NULL when none. */
static inline const void *hip_extra_block(void **extra, size_t *bytes)
{
    return hv_extra_block(extra, HIP_LAUNCH_PARAM_END, HIP_LAUNCH_PARAM_BUFFER_POINTER, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                          bytes);
}

/* hipMemcpyKind numbers its kinds like enum hv_copy_kind. */
_Static_assert((int)hipMemcpyHostToHost == HV_KIND_H2H && (int)hipMemcpyHostToDevice == HV_KIND_H2D &&
                   (int)hipMemcpyDeviceToHost == HV_KIND_D2H && (int)hipMemcpyDeviceToDevice == HV_KIND_D2D &&
                   (int)hipMemcpyDefault == HV_KIND_DEFAULT,
               "hipMemcpyKind values");

#endif
