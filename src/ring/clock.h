/*
 * Timestamps for the hot path. Reading the TSC costs a few ns where
 * clock_gettime costs ~20 (measured on this project's machines, see
 * shared/research/tracer-anchors.md), so records carry raw ticks and the
 * consumer converts them to CLOCK_MONOTONIC ns with a calibration it refines
 * at every drain. Without an invariant TSC the raw value *is* CLOCK_MONOTONIC
 * ns and the conversion is the identity.
 */
#ifndef HV_RING_CLOCK_H
#define HV_RING_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "common/mono.h"


#if defined(__x86_64__)
static inline uint64_t hv_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* An ordered read (issue 13, docs/trace-format.md "Ordering without a shared
 * counter"): lfence keeps rdtsc from executing before the loads and stores
 * ahead of it complete, so a call that happens after another thread's
 * release (mutex, condvar, atomic flag) reads a later time than that
 * thread's call before the release. Without an invariant TSC, CLOCK_MONOTONIC
 * (the vDSO orders its own TSC read). */
#if defined(__x86_64__)
static inline uint64_t hv_rdtsc_ordered(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

/* The same, kept by the compiler after the instruction that produced
 * `after` (the real call's result) by a data dependency instead of a memory
 * clobber: the fence orders the CPU, and the record's stores around the read
 * stay free to be scheduled (a clobber would force every value the record
 * is built from through memory). */
static inline uint64_t hv_rdtsc_ordered_after(uint64_t after)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : "r"(after));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* Conversion state, owned by the consumer. */
struct hv_clock_cal {
    int use_tsc;          /* 0: ticks are already monotonic ns */
    uint64_t tsc0, ns0;   /* first calibration pair */
    double ns_per_tick;   /* refined from (tsc0,ns0) .. latest pair */
    int refined;          /* ns_per_tick measured over >= 1 ms */
};

/* The producer's clock, chosen once at start by hv_clock_init. */
extern int hv_clock_use_tsc;

static inline uint64_t hv_ticks(void)
{
#if defined(__x86_64__)
    if (hv_clock_use_tsc)
        return hv_rdtsc();
#endif
    return hv_mono_ns();
}

static inline uint64_t hv_ticks_ordered(void)
{
#if defined(__x86_64__)
    if (hv_clock_use_tsc)
        return hv_rdtsc_ordered();
#endif
    return hv_mono_ns();
}

/* How a producer's call reads its ticks (hv_ticks_call). */
enum hv_clock_mode {
    HV_CLOCK_MODE_MONO = 0,      /* no usable TSC: CLOCK_MONOTONIC (the vDSO orders its own read) */
    HV_CLOCK_MODE_ORDERED = 1,   /* lfence; rdtsc (hv_rdtsc_ordered_after) */
    HV_CLOCK_MODE_ALONE = 2,     /* rdtsc with no fence: no other producer thread exists, so no
                                  * acquire can order this call after another producer's call */
};

/* A call's ticks, read after the computation of `after` (the real call's
 * result), as `mode` says. */
static inline uint64_t hv_ticks_call(int mode, uint64_t after)
{
#if defined(__x86_64__)
    if (__builtin_expect(mode == HV_CLOCK_MODE_ALONE, 1)) {
        uint32_t lo, hi;
        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) : "r"(after));
        return ((uint64_t)hi << 32) | lo;
    }
    if (mode == HV_CLOCK_MODE_ORDERED)
        return hv_rdtsc_ordered_after(after);
#endif
    (void)mode;
    (void)after;
    return hv_mono_ns();
}

/* Decides whether the TSC is usable (constant + nonstop) and takes the
 * first calibration pair. */
void hv_clock_init(struct hv_clock_cal *cal);
/* Takes a new pair; later pairs make the rate more precise. */
void hv_clock_refine(struct hv_clock_cal *cal);
static inline uint64_t hv_clock_to_ns(const struct hv_clock_cal *cal, uint64_t ticks)
{
    if (!cal->use_tsc)
        return ticks;
    double d = (double)(int64_t)(ticks - cal->tsc0) * cal->ns_per_tick;
    return cal->ns0 + (uint64_t)(int64_t)d;
}

#endif
