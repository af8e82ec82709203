/*
 * Guard modes (HIPVIS_GUARD, off by default): apply a synchronization
 * pattern right before a graph launch that same-epoch-write would flag, so
 * a fix for ROCm/hip#3902 can be tried on the real job without editing it.
 *
 * "Would flag", decided in-process and cheaply: since the host last
 * observed the launch stream complete (its epoch, stream_table.h), an async H2D
 * copy on that stream wrote into a byte range that one of the exec's kernel
 * nodes reads (pointer arguments recorded at instantiate: from the pointer
 * to the end of its allocation). Modes (enum hv_guard_mode, trace.h):
 *
 *   stream-sync         hipStreamSynchronize(launch stream)
 *   event-sync          event recorded on the launch stream after the copy,
 *                       host waits on it (hipEventSynchronize); default
 *                       event flags: system-scope release
 *   event-sync-nofence  the same with hipEventDisableSystemFence: orders the
 *                       host after the copy without the system-scope fence
 *                       (A/B against event-sync separates ordering, H1, from
 *                       cache scope, H3)
 *   release-event       hipEventReleaseToSystem event recorded on the launch
 *                       stream, no host wait: a system-scope release/acquire
 *                       between copy and graph on the launch queue only
 *   copy-sync           at the copy, not the launch: an event recorded after
 *                       the copy is waited on by the host before the copy
 *                       call returns, so nothing the program does after the
 *                       call can meet the copy pending (the host race):
 *                       - an async H2D copy from pinned or registered memory
 *                         into a range some exec reads (the program cannot
 *                         rewrite the source under it; eager readers are
 *                         covered too), or any such copy while the program
 *                         has instantiated no exec (no graph narrows which
 *                         copies are host-race candidates there);
 *                       - every async D2H copy into pinned or registered
 *                         memory (the program cannot read the destination
 *                         before the copy wrote it)
 *
 * hipvis_guard_set("mode") (exported) switches the pattern of an armed
 * guard in-process, for A/B blocks of one run (tests/gpu/fix_patterns.py).
 *
 * HIPVIS_GUARD_WHEN=flagged (default) | always: `always` guards every launch
 * (copy-sync: every async pinned H2D and D2H copy) while no capture is in
 * progress (cost baseline for the A/B).
 *
 * What it never changes: the launch's return value, errno, and (unless a
 * guard call fails while an earlier error is still unread) what
 * hip{Get,Peek}AtLastError report. What it changes on purpose: timing.
 * Skipped while any stream captures (a sync could invalidate a global-mode
 * capture). Each guarded launch or copy leaves an HV_REC_GUARD record;
 * host-waiting modes also an HV_REC_EPOCH, because the host did observe the
 * stream complete (so the analyzer no longer reports that replay, and
 * HIPVIS_HOSTCHECK gives the copy's pages back).
 */
#ifndef HV_TRACER_GUARD_GUARD_MODES_H
#define HV_TRACER_GUARD_GUARD_MODES_H

#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/tracer.h"

/* hv_hot.guard_mode (core/hot.h): enum hv_guard_mode once HIPVIS_GUARD
 * is read, -1 before: the mode the process started with. Not OFF = armed
 * (copies and execs are noted); the pattern applied can be switched later
 * with hipvis_guard_set(). */

int hv_guard_init(void);

static inline int hv_guard_mode(void)
{
    int m = atomic_load_explicit(&hv_hot.guard_mode, memory_order_relaxed);
    return __builtin_expect(m >= 0, 1) ? m : hv_guard_init();
}

/* The runtime calls a guard makes, supplied by the front end. Results: 0
 * success (hipSuccess, cudaSuccess). */
struct hv_guard_ops {
    int (*stream_sync)(void *stream);
    int (*event_create)(void **event, unsigned flags);
    int (*event_destroy)(void *event);
    int (*event_record)(void *event, void *stream);
    int (*event_sync)(void *event);
    int (*peek_error)(void);
    int (*get_error)(void);
    void *(*raw_stream)(uint64_t canonical);   /* canonical id (trace.h) -> the runtime's handle */
    unsigned flags[HV_GUARD__MODES];           /* event creation flags per mode */
};

/* A front end's ops, by the prefix of its API names ("hip", "cuda"):
 * copy-sync picks them from the copy's API. Called from a constructor. */
void hv_guard_register(const char *api_prefix, const struct hv_guard_ops *ops);

/* An async copy as the copy filler saw it (src/tracer/intercept/common/
 * fill_copy.c): span is the bytes from dst to the end of the last row,
 * epoch the stream's epoch at enqueue, seq the copy's call. */
struct hv_guard_copy {
    uint64_t dst, span, epoch, seq;
    uint8_t dir, dst_mem, src_mem;   /* enum hv_dir, enum hv_mem */
};

/* Hooks from the record fillers; each returns at once when guards are off.
 * After an async H2D or D2H copy's records are committed: notes an H2D
 * one for the launch check, and applies copy-sync when that is the mode. */
void hv_guard_after_copy(struct hv_thread_ctx *t, uint16_t api, uint64_t stream, const struct hv_guard_copy *c);
/* A fresh inventory of exec begins (instantiate, update). */
void hv_guard_exec_begin(uint64_t exec);
/* Kernel node `node` of exec reads through these arguments (replaces what
 * the node had: SetParams). */
void hv_guard_note_args(uint64_t exec, uint64_t node, const struct hv_karg *args, int n);

/* Before the real graph launch of `exec` on `raw_stream` (canonical id
 * `stream`): applies the configured pattern if this launch is flagged. */
void hv_guard_before_launch(struct hv_thread_ctx *t, uint64_t exec, uint64_t stream, void *raw_stream,
                            const struct hv_guard_ops *ops);

/* CUDA's launch hook (src/tracer/intercept/cuda/guard_cuda.c), with the handles
 * as void * so the CUDA headers stay out of this one. HIP's is
 * hv_guard_hip (src/tracer/intercept/hip/guard_hip_int.h). */
void hv_guard_cuda(struct hv_thread_ctx *t, void *exec, void *stream, int spt);

#endif
