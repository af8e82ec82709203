/*
 * Evidence collection (docs/evidence.md): what the record fillers in
 * src/tracer/intercept/common call, at fixed points, to collect more than the call
 * records say:
 *   payload.c  source bytes of H2D copies and the host-source rewrite check
 *   probe.c    three-point D2D snapshots around a copy and a graph launch
 *   stacks.c   caller stacks at writes and graph launches, memory maps
 *
 * Every hook sits behind one test of `hv_hot.ev_flags`, fixed at setup, so with
 * every option off the hot path gains a load and a branch that is never
 * taken. Hooks run inside a traced call (depth 1): the runtime calls they
 * make themselves (probe snapshots) are never recorded.
 */
#ifndef HIPVIS_EVIDENCE_H
#define HIPVIS_EVIDENCE_H

#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/config.h"
#include "tracer/core/hot.h"
#include "tracer/core/selftime.h"
#include "tracer/record/collector.h"

enum {
    HV_EV_PAYLOAD = 1u,   /* HIPVIS_PAYLOAD_BYTES > 0 */
    HV_EV_REWRITE = 2u,   /* HIPVIS_REWRITE_CHECK_KB > 0 */
    HV_EV_PROBE = 4u,     /* HIPVIS_PROBE */
    HV_EV_STACKS = 8u,    /* HIPVIS_STACKS=1 */
    HV_EV_HOSTCHECK = 16u,/* HIPVIS_HOSTCHECK (src/tracer/hostcheck) */
};
#define HV_EV_COPY (HV_EV_PAYLOAD | HV_EV_REWRITE | HV_EV_PROBE | HV_EV_STACKS | HV_EV_HOSTCHECK)
#define HV_EV_OBSERVE (HV_EV_REWRITE | HV_EV_PROBE | HV_EV_HOSTCHECK)

/* hv_hot.ev_flags (preload/hot.h): the HV_EV_* options on. */

static inline int hv_ev(unsigned bits)
{
    return __builtin_expect((hv_hot.ev_flags & bits) != 0, 0);
}

/* The thread's next draw (xorshift32, seeded from the thread id): the
 * samplings' only source of chance, so a thread's draws are its own. */
static inline uint32_t hv_ev_draw(struct hv_thread_ctx *t)
{
    uint32_t x = t->draw ? t->draw : (t->tid * 2654435761u) | 1u;   /* never 0 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    t->draw = x;
    return x;
}

/*
 * HIPVIS_LAUNCH_EVERY: whether an eager launch looks its kernel up and
 * records its evidence (pointer arguments, Python site, code-object check).
 * Each thread's first HIPVIS_LAUNCH_FIRST launches all do: a short program,
 * a test, and a serving loop's first steps (every kernel of its prefill)
 * are seen whole, so that what N > 1 leaves out is only the repeats of a
 * long-running loop. After them, drawn per launch with probability 1/N from
 * the thread's xorshift state, not counted: a count aliases with a step's
 * fixed sequence of kernels (four launches a prefill and one in 16 taken:
 * always the same kernel), where independent draws scan every kernel of a
 * repeating step within a few of its launches, so that a hazard that recurs
 * every step is seen. hv_launch_below is UINT32_MAX / N (UINT32_MAX at N = 1:
 * every launch, no count, no draw); both on the step's data lines, which the
 * launch's wrapper reads anyway.
 */
extern uint32_t hv_launch_below, hv_launch_first;
static inline int hv_ev_launch_drawn(struct hv_thread_ctx *t)
{
    uint32_t below = hv_launch_below;
    if (__builtin_expect(below == UINT32_MAX, 1))
        return 1;
    /* Saturates at hv_launch_first: no wrap back into the warm-up. */
    if (__builtin_expect(t->launches_first < hv_launch_first, 0)) {
        t->launches_first++;
        return 1;
    }
    return hv_ev_draw(t) <= below;
}

/*
 * HIPVIS_REWRITE_FIRST and HIPVIS_REWRITE_EVERY: each thread's first N
 * eligible copies are all checked, as the launches' warm-up does (a short
 * program or a test is checked whole; only a long-running loop's repeats
 * are sampled), then one in each window of E = HIPVIS_REWRITE_EVERY
 * consecutive eligible copies, at a place in the window drawn anew for each
 * window (jittered systematic sampling). Not the E-th copy every time: a
 * fixed gap aliases with a step pattern whose period shares a factor with E
 * (a prefill that rewrites the pinned source every 8th step and one copy in
 * 16: the check lands on the same phase of the pattern for ever, and may
 * never see the rewrite). Not independent draws either: one check a window
 * keeps the rate exactly 1/E (over n copies n/E, +-1), so a count of checks
 * and bench-step's instructions do not move from run to run. The copies
 * between two checks only count down (no draw, no division on the hot
 * path); the draw is made on the checked copy.
 *
 * The warm-up counts turns, the copies a tick takes (t->rewrites_first,
 * saturating): with argument records an async H2D or Default copy through
 * hv_args_now (intercept.h), whether or not it turns out eligible, so that a
 * loop whose copies are all pageable leaves its warm-up too; on the full
 * path an eligible copy (payload.c). hv_ev_rewrite_count counts the turn
 * being taken; hv_ev_rewrite_warm says whether the thread is still in its
 * warm-up after it (nothing to skip); hv_ev_rewrite_gap gives the eligible
 * copies to skip after it, which moves the thread to its next window.
 */
extern uint32_t hv_rewrite_first;
static inline void hv_ev_rewrite_count(struct hv_thread_ctx *t)
{
    if (t->rewrites_first < hv_rewrite_first)
        t->rewrites_first++;
}
static inline int hv_ev_rewrite_warm(const struct hv_thread_ctx *t)
{
    return t->rewrites_first < hv_rewrite_first;
}
static inline uint32_t hv_ev_rewrite_gap(struct hv_thread_ctx *t)
{
    uint32_t e = hv_hot.rewrite_every;   /* above 1: payload.c samples only then */
    if (hv_ev_rewrite_warm(t))
        return 0;
    uint32_t next = hv_ev_draw(t) % e;   /* the place in the next window */
    uint32_t gap = e - 1 - t->rewrite_pos + next;
    t->rewrite_pos = next;
    return gap;
}

/* Reads the options (after hv_config_load); sets hv_hot.ev_flags. */
void hv_evidence_setup(const struct hv_config *cfg);
/* HV_HDR_* bits for the trace header. */
uint32_t hv_evidence_header_flags(void);

/* A copy, between filling its call record and committing it. begin() sets
 * the record's payload_hash and keeps what end() needs; end() runs after the
 * commit (a ring holds one reservation at a time) and emits the payload,
 * queues the rewrite check, takes the after-copy probe snapshot and the
 * stack. */
struct hv_copy_ev {
    uint64_t seq, ts, stream, epoch, dst, src, bytes, hash;
    const unsigned char *staged; /* the source bytes hashed (thread's buffer), NULL if not hashed */
    uint16_t api;
    uint8_t stream_form, src_mem, dst_mem, dir, async, hashed, ok;
    uint8_t checked;             /* picked for the rewrite check (sampled) */
    int32_t device;
};
HV_HOT_FN void hv_ev_copy_begin(struct hv_copy_ev *ev, struct hv_call *c);

/* Whether copy record `c` (filled, not committed) needs begin/end at all.
 * With the rewrite check alone (the defaults) only an async H2D copy from
 * pinned or registered memory can be checked, and only one such copy in
 * HIPVIS_REWRITE_EVERY is; every other copy skips both calls. A copy the
 * sampling skips takes its turn of the tick here, exactly as
 * hv_payload_hash would have (same conditions), so the copies checked are
 * the same ones. The other options look at every copy. The tick is
 * t->rewrite_skip (eligible copies still to skip: a count down, no
 * division per copy); the limits hv_hot.rewrite_limit and rewrite_every. */
static inline int hv_ev_copy_wanted(struct hv_thread_ctx *t, const struct hv_call *c)
{
    unsigned f = hv_hot.ev_flags;
    if (!(f & HV_EV_COPY))   /* no expectation: the defaults have the rewrite check on */
        return 0;
    if (f & (HV_EV_COPY & ~HV_EV_REWRITE))
        return 1;
    const struct hv_copy_args *a = &c->a.copy;
    if (a->dir != HV_DIR_H2D || !(a->flags & HV_COPY_ASYNC) ||
        (a->src_mem != HV_MEM_HOST_PINNED && a->src_mem != HV_MEM_HOST_REGISTERED))
        return 0;
    /* hv_ev_copy_begin's and hv_payload_hash's conditions for a tick. */
    if (c->result == 0 && !(c->flags & HV_CALL_CAPTURING) && !(a->flags & HV_COPY_2D) && a->src &&
        a->bytes <= hv_hot.rewrite_limit && hv_hot.rewrite_every > 1 && t->rewrite_skip) {
        t->rewrite_skip--;
        return 0;
    }
    return 1;
}
HV_HOT_FN void hv_ev_copy_end(struct hv_thread_ctx *t, const struct hv_copy_ev *ev);

void hv_stacks_emit(struct hv_thread_ctx *t, uint64_t seq);
/* libunwind's unw_backtrace loaded for use in a signal handler (NULL
 * without it), and a memory-map snapshot unless the last one still holds. */
int (*hv_stacks_unwinder(void))(void **, int);
void hv_stacks_maps(struct hv_thread_ctx *t, uint64_t seq);

/* The caller's stack for call `seq` (memsets, kernel launches). */
static inline void hv_ev_stack(struct hv_thread_ctx *t, uint64_t seq)
{
    if (hv_ev(HV_EV_STACKS))
        hv_stacks_emit(t, seq);
}

/* The host observed all work of the streams `o` covers enqueued before the
 * call whose ordered ticks are `upto` complete, at call `seq` (already
 * committed, as are its epoch records). Ticks, not seqs, order calls of
 * different threads (seqs are per thread). Work bounded by what is
 * pending, not by the number of streams. */
struct hv_obs;
HV_COLD_FN void hv_ev_observed_now(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
/* With the rewrite check alone (the defaults) an observation has work only
 * while a sampled copy waits for one (one copy in HIPVIS_REWRITE_EVERY):
 * the test is here, so that the other observations run none of the
 * evidence code (issue 12: fewer code lines per step). The probe and the
 * host-access check look at every observation. The load acquires: a 0 read means another thread's
 * second hash of a copy this one may now rewrite is done (payload.c
 * hv_payload_observed); a plain load on x86. */
static inline void hv_ev_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    if ((hv_hot.ev_flags & (HV_EV_PROBE | HV_EV_HOSTCHECK)) ||
        atomic_load_explicit(&hv_hot.ev_pending, memory_order_acquire))
        HV_ST_PART(HV_ST_PART_OBSERVE_EV, hv_ev_observed_now(t, seq, o, upto));
}

/* Around a graph launch on canonical stream `stream`: before() runs before
 * the real launch (pre-replay snapshots), after() once its record is
 * committed (post-replay snapshots; r is the launch's result). */
void hv_ev_replay_before(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, uint64_t exec, uint16_t api);
void hv_ev_replay_done(struct hv_thread_ctx *t, uint64_t seq, int32_t r);
static inline void hv_ev_replay_after(struct hv_thread_ctx *t, uint64_t seq, int32_t r)
{
    if (hv_ev(HV_EV_PROBE | HV_EV_STACKS))
        hv_ev_replay_done(t, seq, r);
}

/* ---- internal to src/tracer/evidence/{payload,probe,stacks}.c ---- */

/* XXH3-64, seed 0, of n bytes: the hash in HV_REC_PAYLOAD (srchash.c). */
uint64_t hv_hash64(const void *p, size_t n);
/* Copies n bytes of host memory at src (kind `mem`) into dst without ever
 * faulting: directly for memory the runtime allocated or registered for
 * the host and for memory hostmem.c knows is host memory, through
 * hv_safe_read when unsure; never for managed memory (a CPU read migrates
 * its pages). 1 when all was read. */
int hv_read_host(void *dst, uint64_t src, uint64_t n, uint8_t mem);
/* Whether [p, p+n) is ordinary readable host memory (hostmem.c): 1 yes,
 * 0 no, -1 unknown right now (use hv_safe_read). */
int hv_host_readable(uint64_t p, uint64_t n);
void hv_hostmem_setup(void);

void hv_payload_setup(const struct hv_config *cfg);
/* Stages and hashes ev's source when the options want it (sets staged, hash, hashed). */
HV_HOT_FN void hv_payload_hash(struct hv_copy_ev *ev);
HV_HOT_FN void hv_payload_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev);
HV_HOT_FN void hv_payload_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);

void hv_probe_setup(const struct hv_config *cfg);
void hv_probe_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev);
void hv_probe_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
void hv_probe_replay_before(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, uint64_t exec, uint16_t api);
void hv_probe_replay_after(struct hv_thread_ctx *t, uint64_t seq, int32_t r);

#endif
