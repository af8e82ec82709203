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
 * An eager launch's code after the real call, asked for before it (issue
 * 12). A serving step's eager launches (PyTorch's prefill: four ATen
 * kernels every 8th step) ran ~60 lines of hipvis code each: the lookup
 * of the kernel, the scan of its by-value block for pointers, the
 * arguments' record. Between two launches the interpreter, the framework
 * and the driver evict that code; an instruction fetch that misses waits
 * for its line, one line after another along the path, and on the H200
 * host a prefill step cost +1.57 µs against +0.24 µs for a replay step
 * (docs/validation.md, sixth session). HV_LAUNCH_FN places those functions
 * together (".text.sorted.hv_step2l1", between the shared step functions
 * and the HIP front end's wrappers) between two empty marker functions
 * (steptext.c), and each launch wrapper asks for every line between them
 * with PREFETCHT1 before the real call: the driver's launch takes
 * microseconds, time for the lines to reach the second-level cache, which
 * instruction fetches read. A prefetch never faults, so a linker that
 * placed the markers elsewhere would cost bandwidth, never a wrong
 * answer; tests/core/step_text.sh checks the order in the built library.
 * Only launches: one instruction per line (~4 KiB: ~60) costs a call made
 * back to back ~0.5 ns per line on the development VM, which a copy or a
 * synchronize (issue 13's back-to-back figure) does not pay.
 */
#define HV_LAUNCH_FN __attribute__((hot, section(".text.sorted.hv_step2l1")))
void hv_launch_text_begin(void);
void hv_launch_text_end(void);
static inline void hv_launch_code_prefetch(void)
{
    for (const char *p = (const char *)hv_launch_text_begin; p < (const char *)hv_launch_text_end; p += 64)
        __builtin_prefetch(p, 0, 2);
}
/* The third part of intercept.h's HV_WRAP_ATTRS(part): what a wrapper asks
 * for before the real call beyond its data (HV_CALL_PREFETCH). Launch
 * wrappers take the attributes of step or hot wrappers plus the prefetch. */
#define HV_HOT_pf
#define HV_STEP_pf
#define HV_STEP_LAUNCH_fn HV_STEP_fn
#define HV_STEP_LAUNCH_data HV_STEP_data
#define HV_STEP_LAUNCH_pf hv_launch_code_prefetch()
#define HV_HOT_LAUNCH_fn HV_HOT_fn
#define HV_HOT_LAUNCH_data HV_HOT_data
#define HV_HOT_LAUNCH_pf hv_launch_code_prefetch()

#endif
