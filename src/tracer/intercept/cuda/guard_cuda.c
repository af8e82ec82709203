/*
 * guard_cuda: HIPVIS_GUARD (src/tracer/guard/guard_modes.h) for CUDA graph launches
 * and copies. The calls go to the driver (hv_cu_sym): CUDA streams are
 * driver streams, and the driver keeps no sticky "last error" a guard
 * could disturb. CUDA events have no scope flags: event-sync-nofence is
 * event-sync there, release-event only records (no host wait), so only
 * stream-sync, event-sync and copy-sync mean the same on both runtimes.
 */
#include <pthread.h>

#include "tracer/intercept/cuda/cuda_int.h"
#include "tracer/guard/guard_modes.h"

static void load(void);
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static struct {
    CUresult (*stream_sync)(CUstream);
    CUresult (*event_create)(CUevent *, unsigned);
    CUresult (*event_destroy)(CUevent);
    CUresult (*event_record)(CUevent, CUstream);
    CUresult (*event_sync)(CUevent);
} fn;

#define CALL(f, ...) \
    (pthread_once(&load_once, load), fn.f ? (int)fn.f(__VA_ARGS__) : (int)CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND)

static int stream_sync(void *s) { return CALL(stream_sync, (CUstream)s); }
static int event_create(void **e, unsigned flags) { return CALL(event_create, (CUevent *)e, flags); }
static int event_destroy(void *e) { return CALL(event_destroy, (CUevent)e); }
static int event_record(void *e, void *s) { return CALL(event_record, (CUevent)e, (CUstream)s); }
static int event_sync(void *e) { return CALL(event_sync, (CUevent)e); }

/* Canonical ids back to handles the driver accepts. */
static void *raw_stream(uint64_t id)
{
    if (id & HV_STREAM_LEGACY)
        return (void *)CU_STREAM_LEGACY;
    if (id & HV_STREAM_PER_THREAD)
        return (void *)CU_STREAM_PER_THREAD;
    return (void *)(uintptr_t)id;
}

static const struct hv_guard_ops cuda_ops = {
    stream_sync, event_create, event_destroy, event_record, event_sync, NULL, NULL, raw_stream,
    .flags = {
        [HV_GUARD_EVENT_SYNC] = CU_EVENT_DISABLE_TIMING,
        [HV_GUARD_EVENT_SYNC_NOFENCE] = CU_EVENT_DISABLE_TIMING,
        [HV_GUARD_RELEASE_EVENT] = CU_EVENT_DISABLE_TIMING,
        [HV_GUARD_COPY_SYNC] = CU_EVENT_DISABLE_TIMING,
    },
};

static void load(void)
{
#define LOAD(f, name) fn.f = (__typeof__(fn.f))hv_cu_sym(name)
    LOAD(stream_sync, "cuStreamSynchronize");
    LOAD(event_create, "cuEventCreate");
    LOAD(event_destroy, "cuEventDestroy_v2");
    LOAD(event_record, "cuEventRecord");
    LOAD(event_sync, "cuEventSynchronize");
#undef LOAD
}

/* Before the real cudaGraphLaunch / cuGraphLaunch (and _ptsz) of e on s. */
void hv_guard_cuda(struct hv_thread_ctx *t, void *e, void *s, int spt)
{
    if (hv_guard_mode() == HV_GUARD_OFF)
        return;
    struct hv_sref r = hv_sref_of(t, (uintptr_t)s, (enum hv_spt)spt, (uintptr_t)CU_STREAM_LEGACY,
                                  (uintptr_t)CU_STREAM_PER_THREAD, HV_STREAM_FORM_LEGACY_NULL);
    hv_guard_before_launch(t, HV_PTR(e), r.id, raw_stream(r.id), &cuda_ops);
}

/* Runtime (cuda*) and driver (cu*) copies alike: "cu" prefixes both. */
__attribute__((constructor)) static void register_cuda(void)
{
    hv_guard_register("cu", &cuda_ops);
}
