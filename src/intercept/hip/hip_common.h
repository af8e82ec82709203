/*
 * What every HIP wrapper shares: the wrapper envelope, canonical streams,
 * and filling copy records. A wrapper is one HV_HIP_WRAP line plus the call
 * to its family's record filler, which runs after the real call returned.
 */
#ifndef HIPVIS_HIP_COMMON_H
#define HIPVIS_HIP_COMMON_H

#include <errno.h>

#include "intercept/hip/hip_api.h"
#include "preload/realsym.h"
#include "preload/tracer.h"

/*
 * Defines exported wrapper `name`: calls the real function with `args`, and,
 * when the call is to be traced, runs `trace` with `t_` (thread context),
 * `api_` (record id) and `r_` (the runtime's result) in scope. errno is
 * restored to what the runtime left before returning.
 */
#define HV_HIP_WRAP(name, params, args, trace)                                              \
    HV_EXPORT hipError_t name params;                                                       \
    HV_WRAPPER(name);                                                                       \
    HV_EXPORT hipError_t name params                                                        \
    {                                                                                       \
        __typeof__(&name) real_ = HV_REAL(name);                                            \
        struct hv_thread_ctx *t_ = hv_enter();                                              \
        hipError_t r_ = real_ ? real_ args : hipErrorSharedObjectSymbolNotFound;            \
        if (t_) {                                                                           \
            int errno_ = errno;                                                             \
            const uint16_t api_ = HV_API_##name;                                            \
            trace;                                                                          \
            hv_leave(t_);                                                                   \
            errno = errno_;                                                                 \
        }                                                                                   \
        return r_;                                                                          \
    }

/* Which default-stream convention an entry point follows. */
enum hv_hip_stream_api { HV_HIP_LEGACY = 0, HV_HIP_SPT = 1 };

/* Canonical id of a HIP stream argument (see HV_STREAM_* in trace.h). */
static inline uint64_t hv_hip_stream(struct hv_thread_ctx *t, hipStream_t s, enum hv_hip_stream_api spt,
                                     uint8_t *form)
{
    if (s == hipStreamPerThread) {
        *form = HV_STREAM_FORM_PER_THREAD;
        return HV_STREAM_PER_THREAD | t->tid;
    }
    if (s == NULL) {
        *form = spt ? HV_STREAM_FORM_SPT_NULL : HV_STREAM_FORM_LEGACY_NULL;
        return spt ? (HV_STREAM_PER_THREAD | t->tid) : (HV_STREAM_LEGACY | (uint32_t)t->device);
    }
    *form = HV_STREAM_FORM_EXPLICIT;
    return (uint64_t)(uintptr_t)s;
}

/* Begins a call record on a stream; returns the stream state (may be NULL). */
static inline struct hv_call *hv_hip_begin(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                                           enum hv_hip_stream_api spt, struct hv_stream_state **state)
{
    struct hv_call *c = hv_call_begin(t, api, (int32_t)r);
    uint8_t form;
    uint64_t id = hv_hip_stream(t, s, spt, &form);
    struct hv_stream_state *st = hv_call_stream(t, c, id, form);
    if (state)
        *state = st;
    return c;
}

/* Copy shape, shared by every memcpy flavour. */
struct hv_hip_copy {
    const void *dst, *src;
    size_t bytes;            /* width for 2D */
    size_t dpitch, spitch, height;
    int kind;                /* hipMemcpyKind */
    uint8_t flags;           /* HV_COPY_* */
    int dst_device, src_device;
};

void hv_hip_trace_copy(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                       enum hv_hip_stream_api spt, const struct hv_hip_copy *cp);

#endif
