/*
 * What every traced call reads of the process-wide state, on one cache line.
 *
 * In a serving loop a handful of runtime calls sit between long stretches of
 * interpreter, framework and driver work that evict the tracer's lines, so
 * each distinct line a call reads is a likely cache (and TLB) miss on every
 * call (issue 12; bench-intercept's "isolated calls, cold" and footprint
 * figures). The tracer's state, the flags each module sets once at setup
 * and the table pointers therefore live together here instead of in one
 * variable per module on pages of their own. Each module still owns and
 * sets its own field.
 */
#ifndef HIPVIS_HOT_H
#define HIPVIS_HOT_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

struct hv_stream_table;
struct hv_alloc_map;

struct hv_hot {
    alignas(64) _Atomic int state;    /* enum hv_tracer_state (tracer.h) */
    _Atomic int clock_mode;           /* enum hv_clock_mode (record/clock.h): how a call reads its ticks */
    int data_gate;                    /* names: nonzero when HIPVIS_START is not "all" */
    unsigned ev_flags;                /* evidence: the HV_EV_* options on */
    int py_on;                        /* pyframes: Python frames recorded */
    _Atomic int guard_mode;           /* guard: enum hv_guard_mode once HIPVIS_GUARD is read, -1 before */
    uint32_t rewrite_limit;           /* evidence: largest copy the rewrite check hashes */
    uint32_t rewrite_every;           /* evidence: the check takes one such copy in this many */
    struct hv_stream_table *streams;  /* tracer: stream and event state */
    struct hv_alloc_map *allocs;      /* tracer: allocations */
    /* tracer: where this library's thread context (hv_tls, initial-exec TLS)
     * sits from the thread pointer, the same for every thread; set before
     * the state first becomes ON. A call then finds its context from this
     * line and the thread pointer instead of from the GOT (tracer.h
     * hv_enter): one line and one page fewer per call. */
    intptr_t tls_off;
};
_Static_assert(sizeof(struct hv_hot) == 64, "the hot state is one cache line");

extern struct hv_hot hv_hot;

/*
 * Code has the same problem: a step of a serving loop runs a few wrappers
 * and the fillers, observations and evidence hooks they call, and before
 * this each sat on a page of its own in link order. HV_HOT_FN marks the
 * functions a serving loop's calls run (GCC places them together in
 * .text.hot; the wrappers of the APIs such a loop calls every step get it
 * through intercept.h's HV_WRAP_ATTRS), and HV_COLD_FN the slow paths the
 * hot ones branch to (.text.unlikely, and the branches to them laid out as
 * not taken).
 */
#define HV_HOT_FN __attribute__((hot))
#define HV_COLD_FN __attribute__((cold))
/* Data those calls read that is not in struct hv_hot (the wrappers' real
 * function addresses, a few counters): one section, so a few lines on one
 * or two pages instead of one page each. */
#define HV_HOT_DATA __attribute__((section("hv_hot_data")))
/* The two parts of intercept.h's HV_WRAP_ATTRS(part) for hot wrappers. */
#define HV_HOT_fn HV_HOT_FN
#define HV_HOT_data HV_HOT_DATA

#endif
