/*
 * hipvis's own time, in diagnostic builds only (`make selftime` builds
 * build-selftime/libhipvis.so with -DHV_SELFTIME; src/tracer/core/selftime.c).
 * The production build compiles every macro here to nothing.
 *
 * HV_ST_BEGIN / HV_ST_MARK / HV_ST_END: every traced call adds the TSC
 * ticks hipvis spent around the real call (entry to the call, return to
 * exit) to its API's total, so a real loop shows where hipvis's in-situ
 * cost goes per API, cold caches included; the ticks before the real call
 * (what the wrapper asks for ahead of it) also go to "pre:<api>".
 * HV_ST_PART(part, stmt): the ticks of `stmt` also go to a part's total
 * (Python frames, copy evidence), so the per-API figure can be split into
 * the record path and the evidence a default turns on.
 */
#ifndef HIPVIS_PRELOAD_SELFTIME_H
#define HIPVIS_PRELOAD_SELFTIME_H

#include <stdint.h>

enum hv_st_part {
    HV_ST_PART_PYFRAMES,   /* hv_py_site: the Python frames key, memo, stack records */
    HV_ST_PART_COPY_EV,    /* hv_ev_copy_begin/end: payload hash, rewrite check */
    HV_ST_PART_COPY_START,    /* hv_trace_copy: the call record opened (hv_call_start) */
    HV_ST_PART_COPY_KINDS,    /* hv_trace_copy: both sides' memory kinds (hv_alloc_copy_kinds) */
    HV_ST_PART_LAUNCH_KERNEL, /* the kernel's layout: hv_trace_launch's hv_kernels_find, or the CUDA front
                               * end's lookup before it (hv_cu_kernel, hv_cudart_kernel) */
    HV_ST_PART_LAUNCH_CALL,   /* hv_trace_launch: the call record opened (hv_begin_on) */
    HV_ST_PART_LAUNCH_SCAN,   /* hv_trace_launch: the pointer arguments found (hv_kargs_collect) */
    HV_ST_PART_LAUNCH_REC,    /* hv_trace_launch: the call committed, the arguments' record (hv_kargs_emit) */
    HV_ST_PART_LAUNCH_CODEOBJ, /* hv_trace_launch: whether the kernel's code object is stored (hv_costore_touch) */
    HV_ST_PART_OBSERVE_EV,    /* hv_ev_observed: an observation's evidence work (the rewrite check's
                               * second hash of each copy it completes, the probe's snapshots) */
    HV_ST_PART__N
};

#ifdef HV_SELFTIME
#include <x86intrin.h>
void hv_selftime_add(uint16_t api, uint64_t pre_ticks, uint64_t ticks);
void hv_selftime_part(enum hv_st_part part, uint64_t ticks);
#define HV_ST_BEGIN uint64_t st0_ = __rdtsc(), st1_ = 0, st2_ = 0
#define HV_ST_MARK(v) ((v) = __rdtsc())
#define HV_ST_END(api) hv_selftime_add((api), st1_ - st0_, (st1_ - st0_) + (__rdtsc() - st2_))
#define HV_ST_PART(part, stmt)                          \
    do {                                                \
        uint64_t stp_ = __rdtsc();                      \
        stmt;                                           \
        hv_selftime_part((part), __rdtsc() - stp_);     \
    } while (0)
#else
#define HV_ST_BEGIN (void)0
#define HV_ST_MARK(v) (void)0
#define HV_ST_END(api) (void)0
#define HV_ST_PART(part, stmt) \
    do {                       \
        stmt;                  \
    } while (0)
#endif

#endif
