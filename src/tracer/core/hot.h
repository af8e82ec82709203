/*
 * What every traced call reads of the process-wide state, on one cache line.
 *
 * In a serving loop a handful of runtime calls sit between long stretches of
 * interpreter, framework and driver work that evict the tracer's lines, so
 * each distinct line a call reads is a likely cache (and TLB) miss on every
 * call (bench-intercept's "isolated calls, cold" and footprint
 * figures). The tracer's state, the flags each module sets once at setup
 * and the table pointers therefore live together here instead of in one
 * variable per module on pages of their own. Each module still owns and
 * sets its own field.
 */
#ifndef HV_TRACER_CORE_HOT_H
#define HV_TRACER_CORE_HOT_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

struct hv_stream_table;
struct hv_alloc_map;

struct hv_hot {
    alignas(64) _Atomic int state;    /* enum hv_tracer_state (tracer.h) */
    _Atomic int clock_mode;           /* enum hv_clock_mode (record/clock.h): how a call reads its ticks */
    /* Per-call options, each owned by its module; one word so that a copy
     * asks about several with one load and one test (HV_GATES_COPY,
     * intercept.h hv_trace_copy). */
    union {
        struct {
            uint8_t data_gate;        /* names: nonzero when HIPVIS_START is not "all" */
            uint8_t ev_flags;         /* evidence: the HV_EV_* options on */
            uint8_t py_on;            /* pyframes: Python frames recorded */
            /* guard: 0 once HIPVIS_GUARD was read and is off; 1 before
             * (a copy then asks hv_guard_mode, which reads it) and when on */
            uint8_t guard_armed;
        };
        uint32_t gates;
    };
    /* core: work the features' observers queued for the next host
     * observation (the rewrite check's copies, payload.c); an observation
     * with none pending, and no feature asking for every one
     * (observe_all), runs no feature code (tracer.h hv_observed). Written
     * by a sampled copy and the observation that takes it, one in
     * HIPVIS_REWRITE_EVERY pinned copies. */
    _Atomic uint32_t observe_pending;
    _Atomic int guard_mode;           /* guard: enum hv_guard_mode once HIPVIS_GUARD is read, -1 before */
    uint32_t rewrite_limit;           /* evidence: largest copy the rewrite check hashes */
    uint32_t rewrite_every;           /* evidence: the check takes one such copy in this many */
    /* tracer: HIPVIS_RECORD=args, the step's calls written as their
     * arguments (intercept.h HV_TRACE_CALL); set before the state is ON. */
    uint8_t record_args;
    /* core: nonzero when a feature's observer looks at every host
     * observation (evidence: the probe); set at set-up. */
    uint8_t observe_all;
    uint16_t spare;
    struct hv_stream_table *streams;  /* tracer: stream and event state */
    struct hv_alloc_map *allocs;      /* tracer: allocations */
    /* tracer: where this library's thread context (hv_tls, initial-exec TLS)
     * sits from the thread pointer, the same for every thread; set before
     * the state first becomes ON. A call then finds its context from this
     * line and the thread pointer instead of from the GOT (tracer.h
     * hv_enter): one line and one page fewer per call. */
    intptr_t tls_off;
    /* tracer: the allocation map's version (core/allocmap.h): changes
     * only when an allocation is made or freed. */
    _Atomic uint64_t alloc_version;
};
_Static_assert(sizeof(struct hv_hot) == 64, "the hot state is one cache line");

/* hv_hot.gates with only `byte` (0: data_gate ... 3: guard_armed) and
 * `mask` of it: what a test of one of the gates reads in the word. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HV_GATE_BITS(byte, mask) ((uint32_t)(mask) << (8 * (byte)))
#else
#define HV_GATE_BITS(byte, mask) ((uint32_t)(mask) << (8 * (3 - (byte))))
#endif

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

/*
 * The step itself: the wrappers of the calls a GPU serving loop makes every
 * step (a pinned H2D copy, a graph replay, an eager kernel launch, a stream
 * synchronize; HIP and CUDA) and what they run after the real call. .text.hot
 * holds every hot wrapper (59 KiB, 15 pages), and one step's code sat on 7
 * or 8 of those pages; cold in the instruction TLB and caches each time, as
 * the interpreter and the runtime run between two calls. GNU ld places the
 * .text.sorted.* input sections together, sorted by name, just after
 * .text.hot, so these functions share a few pages and no line with code a
 * step does not run. Their registry entries (the real functions'
 * addresses, read before each real call) likewise share a section.
 */
#define HV_STEP_FN __attribute__((hot, section(".text.sorted.hv_step2")))
#define HV_STEP_DATA __attribute__((section("hv_step_data")))
/* The wrappers themselves, one front end on each side of the shared
 * functions (HV_STEP_FRONT_END, defined by each front end's header: CUDA's
 * before, HIP's after), so that either front end's step is one short run of
 * pages. */
#define HV_STEP_SECTION_(fe) __attribute__((hot, section(".text.sorted.hv_step" fe)))
#define HV_STEP_fn HV_STEP_SECTION_(HV_STEP_FRONT_END)
#define HV_STEP_data HV_STEP_DATA

#endif
