/*
 * Measurement builds: the one header behind which every switch that makes
 * a libhipvis.so for measuring, never for shipping, lives. The shipped
 * library never includes it; the tracer's contract (core/tracer.h) pulls
 * it in when a build defines HV_MEASURE or any of the switches below
 * (tests/bench/module.mk's floor, lean, reader and demote builds, `make
 * selftime`), and otherwise defines each hook to what the shipped library
 * does. Its traces are for counting, not for the analyzer.
 *
 * What the product code knows of this file is its hooks, each with the
 * shipped library's default next to the code that uses it:
 *   core/tracer.h      HV_LEAN (0), HV_COMMITTED (nothing), HV_ST_* (nothing),
 *                      HV_FLOOR_APIS_READ (0)
 *   intercept.h        HV_TRACE_PART (the wrapper's trace), HV_CALL_PREFETCH
 *                      (hv_call_prefetch), HV_COPY_KINDS (both sides' lookup),
 *                      HV_COPY_WANTED (hv_ev_copy_wanted)
 * This header defines only the hooks its switches change; the others keep
 * their defaults. Every hook here is a macro, expanded where the product
 * code uses it, so this header needs none of the tracer's types to be
 * included first.
 */
#ifndef HV_TRACER_MEASURE_MEASURE_H
#define HV_TRACER_MEASURE_MEASURE_H

#include <stdint.h>

/*
 * HV_LEAN: which of a call's derivations the calling thread skips, to ask
 * the GPU what moving each to a reader would save Bits:
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
 * the same call (docs/performance.md);
 * all six saved 0.4-1.2 points on the H200 host, none on an H100
 * (seventeenth, eighteenth); with argument records the default, the
 * launch's bits 8-32 saved ~0.15 points and a launch recorded as its raw
 * arguments ~0.8; with bits 8-32, bit 64 saved
 * ~0.5 points (resolved) and bit 128 ~0.25 (not), while a per-thread
 * kernel memo and a launch record with no stream read, evidence kept,
 * saved nothing measurable: the share most likely
 * is the kernel's data as the evidence reads it, not the table or stream.
 */
/* (HV_LEAN's default, 0, is core/tracer.h's.) */

/*
 * HV_RECORD_FLOOR (make bench-floor builds it as $(BUILD)-floor/libhipvis.so).
 * 1: every traced call writes a call record of the shipped size holding
 * only its header and call-level fields (api, result, device, seq, ticks:
 * hv_call_start with no stream and the arguments zeroed, then the commit);
 * 2: no record at all (hv_enter, the real call, hv_leave); 3: the calls of
 * the APIs HIPVIS_FLOOR_APIS names as in 1, every other call in full, so
 * that one build gives every arm of a comparison of API families (each arm
 * a setting of the variable: docs/performance.md); 4: as
 * 3, the named calls' floor records also holding the wrapper's arguments
 * as passed, one 8-byte word each (the first 8 arguments, the first 8
 * bytes of a wider one) and nothing derived from them (no canonical
 * stream, epoch, memory kind or kernel argument): what a call costs when
 * its record is its arguments alone, the rest to be derived by a reader
 * (docs/performance.md;
 * HIPVIS_FLOOR_APIS=all records every call so); 5: as 4, each named call
 * also taking the Python site a reader could not derive later (hv_py_site,
 * as the shipped library takes it: copies and memsets as writes of their
 * first word, graph launches as replays of it, kernel launches as launches
 * of it; built with HV_LEAN=5 so that the calls not named, eager launches
 * among them, record in full but for the stream table and the placement
 * of launch words): the calling thread of a design whose reader derives
 * the rest, measured before it is built (docs/performance.md). The
 * wrappers' own recording code is still compiled (so the
 * build checks the same code) but never runs at the floor; builds 1 and 2
 * prefetch nothing, builds 3 to 5 prefetch as the shipped library does and
 * read one more line per call (the variable's bits), in every arm alike.
 * What the shipped library costs above build 1 is what its records carry
 * (streams and epochs, arguments and memory kinds, evidence, Python
 * frames), not the record machinery (ordered clock, ring reserve and
 * commit, the record's lines): on the GPU decode loop build 1 read within
 * the noise floor where the shipped library reads +2-3% (docs/performance.md).
 * These builds compare against the full records: run them
 * with HIPVIS_RECORD=full (otherwise the step's calls are argument records
 * before the floor is asked).
 */
/* Builds 3 to 5 read HIPVIS_FLOOR_APIS; the others say it is ignored. */
#if HV_RECORD_FLOOR >= 3 && HV_RECORD_FLOOR <= 5
#define HV_FLOOR_APIS_READ 1
#endif
/* A floor record: the call-level fields only (hv_call_start with no stream, the arguments zeroed). */
#define HV_FLOOR_RECORD(t, api, r) \
    hv_call_commit((t), hv_call_start((t), HV_CALL_KEY((api), HV_STREAM_FORM_NONE, (r)), 0, 1))

#if HV_RECORD_FLOOR == 3 || HV_RECORD_FLOOR == 4 || HV_RECORD_FLOOR == 5
#define HV_TRACE_PART(t, api, r, args, trace)                                                      \
    do {                                                                                          \
        if (!hv_config_floor_picked(&hv_tracer_cfg, (api))) {                                     \
            trace;                                                                                \
        } else if (HV_RECORD_FLOOR >= 4)                                                          \
            HV_RAW_RECORD(t, api, r, args, 0, HV_RECORD_FLOOR == 5);                              \
        else                                                                                      \
            HV_FLOOR_RECORD(t, api, r);                                                           \
    } while (0)
#elif HV_RECORD_FLOOR
/*
 * Sleds on the floor build (HV_RECORD_FLOOR=1), for asking the GPU what a
 * kind of work costs in situ (docs/performance.md): after
 * its floor record, each wrapper's traced path runs a sled of its own.
 * HV_SLED_LINES=N: N code lines of 64 bytes, one jump each (what a step's
 * per-API code lines cost, when each is run once a step). HV_SLED_BRANCHES=N:
 * N forward conditional branches that are always taken (on the context's
 * tid, never 0 to the compiler's knowledge), so they cost nothing while
 * the predictor keeps them and a mispredict each when it lost them between
 * two calls.
 */
#ifndef HV_SLED_LINES
#define HV_SLED_LINES 0
#endif
#ifndef HV_SLED_BRANCHES
#define HV_SLED_BRANCHES 0
#endif
/* HV_SLED_STRIDE=S (with HV_SLED_LINES): the sled's lines S bytes apart
 * instead of adjacent (64), so that no next-line prefetch brings the next
 * one: S=1024 asks what a code line costs when it is not the one after the
 * last, S=4096 what it costs on a page of its own. */
#ifndef HV_SLED_STRIDE
#define HV_SLED_STRIDE 64
#endif
#define HV_SLED_STR_(n) #n
#define HV_SLED_STR(n) HV_SLED_STR_(n)
#define HV_SLED(t)                                                                                \
    do {                                                                                          \
        if (HV_SLED_LINES)                                                                        \
            __asm__ volatile(".rept " HV_SLED_STR(HV_SLED_LINES) "\n jmp 1f\n .skip " HV_SLED_STR(HV_SLED_STRIDE) "-64, 0xcc\n .p2align 6, 0xcc\n1:\n.endr"); \
        if (HV_SLED_BRANCHES)                                                                     \
            __asm__ volatile(".rept " HV_SLED_STR(HV_SLED_BRANCHES) "\n test %0, %0\n jnz 1f\n ud2\n1:\n.endr" \
                             : : "r"((t)->tid | 1u) : "cc");                                        \
    } while (0)
#define HV_TRACE_PART(t, api, r, args, trace)                                                      \
    do {                                                                                          \
        if (0) {                                                                                  \
            trace;                                                                                \
        } else if (HV_RECORD_FLOOR == 1) {                                                        \
            HV_FLOOR_RECORD(t, api, r);                                                           \
            HV_SLED(t);                                                                           \
        }                                                                                         \
    } while (0)
#endif

/* HV_NO_CALL_PREFETCH: the library without what a traced call asks for
 * before the real call (tracer.h hv_call_prefetch, sites.h
 * hv_py_prefetch), for an A/B of what the prefetches buy in situ
 * (make BUILD=build-nopf EXTRA_CFLAGS=-DHV_NO_CALL_PREFETCH build-nopf/libhipvis.so).
 * Floor builds 1 and 2 prefetch nothing either. */
#if defined(HV_NO_CALL_PREFETCH) || HV_RECORD_FLOOR == 1 || HV_RECORD_FLOOR == 2
#define HV_CALL_PREFETCH(t) ((void)(t))
#endif

#if HV_LEAN & 2
/* HV_LEAN=2's copy: no memory kinds looked up for the record, and the
 * evidence test looks them up only on the rewrite check's sampled turn
 * (the count down takes async H2D or Default copies that could be
 * eligible), so a turn whose copy is not from pinned memory leaves the
 * count at 0 for the next one. */
#define HV_COPY_KINDS(t, cp) 0u
#define HV_COPY_WANTED(t, c, cp)                                                                   \
    __extension__({                                                                               \
        struct hv_thread_ctx *lt_ = (t);                                                          \
        struct hv_call *lc_ = (c);                                                                \
        struct hv_copy_args *la_ = &lc_->a.copy;                                                  \
        int lkind_ = (cp)->kind, lw_ = 0;                                                         \
        unsigned lf_ = hv_hot.ev_flags;                                                           \
        if ((lf_ & HV_EV_COPY) &&                                                                 \
            ((lf_ & (HV_EV_COPY & ~HV_EV_REWRITE)) ||                                             \
             ((la_->flags & HV_COPY_ASYNC) && (lkind_ == HV_KIND_H2D || lkind_ == HV_KIND_DEFAULT) && \
              !(hv_ev_rewrite_countable(lc_) && hv_ev_rewrite_skip(lt_))))) {                      \
            unsigned lkinds_ = hv_alloc_copy_kinds(hv_hot.allocs, hv_alloc_version_hot(), la_->dst, la_->src, \
                                                   lt_->copy_memo);                               \
            HV_COPY_SIDES(lkind_, lkinds_, ldir_, ldm_, lsm_);                                     \
            la_->dir = (uint8_t)ldir_;                                                            \
            la_->dst_mem = (uint8_t)ldm_;                                                         \
            la_->src_mem = (uint8_t)lsm_;                                                         \
            lw_ = hv_ev_copy_wanted(lt_, lc_);                                                    \
        }                                                                                         \
        lw_;                                                                                      \
    })
#endif

/*
 * HV_DEMOTE: after a record is published, `cldemote` each of its lines, a
 * hint that moves a line from the core's L1/L2 to the shared L3 (a no-op
 * on cores without it). The calling thread never reads its records again
 * and the writer thread runs on another core, so the question is whether
 * the lines the ring takes from the program's working set at every call
 * are part of what a step costs in situ (docs/performance.md).
 */
#if HV_DEMOTE
#define HV_COMMITTED(p, bytes)                                                                     \
    do {                                                                                          \
        const uint8_t *db_ = (const uint8_t *)((uintptr_t)(p) & ~(uintptr_t)63);                  \
        const uint8_t *de_ = (const uint8_t *)(p) + (bytes);                                      \
        for (int dk_ = 0; db_ < de_ && dk_ < 8; db_ += 64, dk_++)                                 \
            __asm__ volatile("cldemote %0" : : "m"(*db_));                                        \
    } while (0)
#endif

/*
 * HV_SELFTIME: hipvis's own time (`make selftime` builds
 * build-selftime/libhipvis.so; selftime.c beside this header).
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
    HV_ST_PART_OBSERVE_EV,    /* hv_observed: an observation's evidence work (the rewrite check's
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
#endif

#endif
