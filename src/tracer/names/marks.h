/*
 * names — what the program calls things, recorded in its trace:
 * hipvis_name() (HV_REC_NAME), regions and marks from hipvis, NVTX, roctx,
 * profiler start/stop and SIGUSR2 (HV_REC_MARK), and HIPVIS_START, which
 * records data calls only inside the profiler / signal window.
 */
#ifndef HV_TRACER_NAMES_MARKS_H
#define HV_TRACER_NAMES_MARKS_H

#include <stdint.h>

#include "tracer/core/tracer.h"

/* Emits one mark (a no-op while tracing is off or inside a traced call). */
void hv_mark_emit(unsigned kind, unsigned source, const char *name, uint64_t id);

/* ---- HIPVIS_START (regions.c) ---- */

/* hv_hot.data_gate (core/hot.h): nonzero when HIPVIS_START is not "all";
 * set up by regions.c's feature entry. */

HV_COLD_FN int hv_data_skip_slow(struct hv_thread_ctx *t, uint64_t stream);

/* Whether a data call (async copy, memset, kernel or graph launch) on
 * canonical stream `stream` is outside the recorded window and is to be
 * skipped (counted). Calls into a capturing stream are always recorded. */
static inline int hv_data_skip(struct hv_thread_ctx *t, uint64_t stream)
{
    return __builtin_expect(hv_hot.data_gate, 0) && hv_data_skip_slow(t, stream);
}

/* hip/cuda/cuProfilerStart (on=1) and ...Stop (on=0): records the call,
 * then opens or closes the window (HIPVIS_START=profiler) with a mark. */
void hv_trace_profiler(struct hv_thread_ctx *t, uint16_t api, int32_t r, int on);

#endif
