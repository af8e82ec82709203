/*
 * guard_hip: the runtime calls of HIPVIS_GUARD (src/tracer/guard/guard_modes.h) for
 * HIP. They go to the real runtime's own functions (hv_runtime_sym), never
 * through hipvis's wrappers, so the trace holds only the program's calls
 * plus one HV_REC_GUARD per guarded launch.
 */
#include "tracer/intercept/hip/guard_hip_int.h"

#include <pthread.h>

/* ROCm 6+ flag, absent from the HIP 5.2 headers: the event's record skips
 * the system-scope fence. */
#ifndef hipEventDisableSystemFence
#define hipEventDisableSystemFence 0x20000000
#endif

static void load(void);
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static struct {
    hipError_t (*stream_sync)(hipStream_t);
    hipError_t (*event_create)(hipEvent_t *, unsigned);
    hipError_t (*event_destroy)(hipEvent_t);
    hipError_t (*event_record)(hipEvent_t, hipStream_t);
    hipError_t (*event_sync)(hipEvent_t);
    hipError_t (*peek)(void);
    hipError_t (*get)(void);
} fn;

/* Resolved on first use (the runtime may load after hipvis). A function the
 * runtime lacks answers as the runtime would for a missing symbol; the
 * guard then records that result and does nothing. */
#define CALL(f, ...) \
    (pthread_once(&load_once, load), fn.f ? (int)fn.f(__VA_ARGS__) : (int)hipErrorSharedObjectSymbolNotFound)

static int stream_sync(void *s) { return CALL(stream_sync, (hipStream_t)s); }
static int event_create(void **e, unsigned flags) { return CALL(event_create, (hipEvent_t *)e, flags); }
static int event_destroy(void *e) { return CALL(event_destroy, (hipEvent_t)e); }
static int event_record(void *e, void *s) { return CALL(event_record, (hipEvent_t)e, (hipStream_t)s); }
static int event_sync(void *e) { return CALL(event_sync, (hipEvent_t)e); }
static int peek_error(void) { return CALL(peek); }
static int get_error(void) { return CALL(get); }

/* Canonical ids back to HIP handles: the legacy stream is 0, a thread's
 * default stream hipStreamPerThread, an explicit stream its handle. */
static void *raw_stream(uint64_t id)
{
    if (id & HV_STREAM_LEGACY)
        return NULL;
    if (id & HV_STREAM_PER_THREAD)
        return (void *)hipStreamPerThread;
    return (void *)(uintptr_t)id;
}

static const struct hv_guard_ops hip_ops = {
    stream_sync, event_create, event_destroy, event_record, event_sync, peek_error, get_error, raw_stream,
    .flags = {
        [HV_GUARD_EVENT_SYNC] = hipEventDisableTiming,
        [HV_GUARD_COPY_SYNC] = hipEventDisableTiming,
        [HV_GUARD_EVENT_SYNC_NOFENCE] = hipEventDisableTiming | hipEventDisableSystemFence,
        [HV_GUARD_RELEASE_EVENT] = hipEventDisableTiming | hipEventReleaseToSystem,
    },
};

static void load(void)
{
#define LOAD(f, name) fn.f = (__typeof__(fn.f))hv_runtime_sym(name)
    LOAD(stream_sync, "hipStreamSynchronize");
    LOAD(event_create, "hipEventCreateWithFlags");
    LOAD(event_destroy, "hipEventDestroy");
    LOAD(event_record, "hipEventRecord");
    LOAD(event_sync, "hipEventSynchronize");
    LOAD(peek, "hipPeekAtLastError");
    LOAD(get, "hipGetLastError");
#undef LOAD
}

void hv_guard_hip(struct hv_thread_ctx *t, hipGraphExec_t e, hipStream_t s, int spt)
{
    if (hv_guard_mode() == HV_GUARD_OFF)
        return;
    struct hv_sref r = HV_HIP_SREF(t, s, spt);
    /* An _spt launch on stream 0 runs on this thread's default stream: the
     * guard must synchronize that one, not the legacy stream. */
    hipStream_t raw = spt == HV_HIP_SPT && !s ? hipStreamPerThread : s;
    hv_guard_before_launch(t, HV_PTR(e), r.id, (void *)raw, &hip_ops);
}

/* copy-sync runs from the runtime-neutral copy filler: it finds HIP's calls
 * through this registration. */
__attribute__((constructor)) static void register_hip(void)
{
    hv_guard_register("hip", &hip_ops);
}
