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
    /* evidence: rewrite checks queued and not yet observed (payload.c); an
     * observation with none pending runs no evidence code (evidence.h
     * hv_ev_observed). Written by a sampled copy and the observation that
     * takes it, one in HIPVIS_REWRITE_EVERY pinned copies. */
    _Atomic uint32_t ev_pending;
    _Atomic int guard_mode;           /* guard: enum hv_guard_mode once HIPVIS_GUARD is read, -1 before */
    uint32_t rewrite_limit;           /* evidence: largest copy the rewrite check hashes */
    uint32_t rewrite_every;           /* evidence: the check takes one such copy in this many */
    /* tracer: HIPVIS_RECORD=args, the step's calls written as their
     * arguments (intercept.h HV_TRACE_CALL); set before the state is ON. */
    uint32_t record_args;
    struct hv_stream_table *streams;  /* tracer: stream and event state */
    struct hv_alloc_map *allocs;      /* tracer: allocations */
    /* tracer: where this library's thread context (hv_tls, initial-exec TLS)
     * sits from the thread pointer, the same for every thread; set before
     * the state first becomes ON. A call then finds its context from this
     * line and the thread pointer instead of from the GOT (tracer.h
     * hv_enter): one line and one page fewer per call. */
    intptr_t tls_off;
    /* tracer: the allocation map's version (preload/allocmap.h): changes
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

/*
 * HV_LEAN: a measurement build, never shipped (like intercept.h's
 * HV_RECORD_FLOOR): which of a call's derivations the calling thread skips,
 * to ask the GPU what moving each to a reader would save (issue 12). Bits:
 * 1 streams (no epoch, capture state or observation advance: the stream
 * table is never read or written by a call), 2 copies (no memory-kind
 * lookup, except on the rewrite check's sampled turn), 4 eager launches (a
 * learnt launch's pointer words recorded as read, not placed in their
 * allocations); and parts of an eager launch: 8 no kargs record (its
 * pointer words scanned, not written), 16 no scan either, 32 no Python site
 * or code-object check, 64 no kernel lookup (no layout, no name), 128 no
 * stream (the launch's record is opened with none: no stream-table read).
 * Its traces lack what was skipped: for counting only.
 * On the GPU decode loop bits 1-4 together read as the shipped library in
 * the same call (docs/validation.md, sixteenth and eighteenth sessions);
 * all six saved 0.4-1.2 points on the H200 host, none on an H100
 * (seventeenth, eighteenth); with argument records the default, the
 * launch's bits 8-32 saved ~0.15 points and a launch recorded as its raw
 * arguments ~0.8 (twenty-second session); with bits 8-32, bit 64 saved
 * ~0.5 points (resolved) and bit 128 ~0.25 (not), while a per-thread
 * kernel memo and a launch record with no stream read, evidence kept,
 * saved nothing measurable (twenty-third session): the share most likely
 * is the kernel's data as the evidence reads it, not the table or stream.
 */
#ifndef HV_LEAN
#define HV_LEAN 0
#endif

#endif
