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
    int clock_tsc;                    /* record/clock.c hv_clock_use_tsc, copied before the state turns ON */
    int data_gate;                    /* names: nonzero when HIPVIS_START is not "all" */
    unsigned ev_flags;                /* evidence: the HV_EV_* options on */
    int py_on;                        /* pyframes: Python frames recorded */
    _Atomic int guard_mode;           /* guard: enum hv_guard_mode once HIPVIS_GUARD is read, -1 before */
    uint32_t rewrite_limit;           /* evidence: largest copy the rewrite check hashes */
    uint32_t rewrite_every;           /* evidence: the check takes one such copy in this many */
    struct hv_stream_table *streams;  /* tracer: stream and event state */
    struct hv_alloc_map *allocs;      /* tracer: allocations */
};
_Static_assert(sizeof(struct hv_hot) == 64, "the hot state is one cache line");

extern struct hv_hot hv_hot;

#endif
