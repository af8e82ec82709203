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
#ifndef HV_TRACER_EVIDENCE_EVIDENCE_H
#define HV_TRACER_EVIDENCE_EVIDENCE_H

#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/api.h"   /* hv_args_family */
#include "hipvis/trace.h"
#include "tracer/core/tracer.h"

enum {
    HV_EV_PAYLOAD = 1u,   /* HIPVIS_PAYLOAD_BYTES > 0 */
    HV_EV_REWRITE = 2u,   /* HIPVIS_REWRITE_CHECK_KB > 0 */
    HV_EV_PROBE = 4u,     /* HIPVIS_PROBE */
    HV_EV_STACKS = 8u,    /* HIPVIS_STACKS=1 */
    HV_EV_HOSTCHECK = 16u,/* HIPVIS_HOSTCHECK (src/tracer/hostcheck) */
};
#define HV_EV_COPY (HV_EV_PAYLOAD | HV_EV_REWRITE | HV_EV_PROBE | HV_EV_STACKS | HV_EV_HOSTCHECK)
#define HV_EV_OBSERVE (HV_EV_REWRITE | HV_EV_PROBE | HV_EV_HOSTCHECK)

/* hv_hot.ev_flags (core/hot.h): the HV_EV_* options on. */

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
 *
 * hv_ev_launch_sampled is the one test every front end's eager launch
 * makes: a launch drawn, or any launch on a capturing stream (it becomes a
 * graph node, which a replay runs again and again). The capture state is
 * read only for a launch not drawn.
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
static inline int hv_ev_launch_sampled(struct hv_thread_ctx *t, uint64_t stream)
{
    if (__builtin_expect(hv_ev_launch_drawn(t), 1))
        return 1;
    struct hv_stream_state *st = stream ? hv_stream_cached(t, stream) : NULL;
    return st && atomic_load_explicit(&st->capture_id, memory_order_acquire) != 0;
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
 * hv_ev_args_copy_skip, whether or not it turns out eligible, so that a
 * loop whose copies are all pageable leaves its warm-up too; on the full
 * path an eligible copy (hv_ev_rewrite_turn). hv_ev_rewrite_count counts
 * the turn being taken; hv_ev_rewrite_warm says whether the thread is
 * still in its warm-up after it (nothing to skip); hv_ev_rewrite_gap gives
 * the eligible copies to skip after it, which moves the thread to its next
 * window.
 *
 * The count down is coded once, below, and every copy that can take a
 * turn goes through it: the full path's tick t->rewrite_skip
 * (hv_ev_rewrite_skip: hv_ev_copy_wanted before the commit, payload.c's
 * hv_payload_hash when other options want the copy anyway), and argument
 * records' tick t->args_tick (hv_ev_args_copy_skip, intercept.h
 * hv_args_now), which a checked copy's turn reloads with the same gap.
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
    uint32_t e = hv_hot.rewrite_every;   /* above 1: sampled only then */
    if (hv_ev_rewrite_warm(t))
        return 0;
    uint32_t next = hv_ev_draw(t) % e;   /* the place in the next window */
    uint32_t gap = e - 1 - t->rewrite_pos + next;
    t->rewrite_pos = next;
    return gap;
}

/* One copy's step of a count down: 1 (and one less to go) while `*tick`
 * is above 0, 0 once it has run out: the copy takes its turn. Counting
 * down is the expected branch (all but one copy in HIPVIS_REWRITE_EVERY),
 * laid out as the fall-through path of the copy wrappers it is inlined in. */
static inline int hv_ev_tick(uint32_t *tick)
{
    if (__builtin_expect(*tick != 0, 1)) {
        --*tick;
        return 1;
    }
    return 0;
}

/* Whether copy record `c` (filled, its kinds known) could be checked, so
 * takes a step of the count down: it ran (or will: not failed, not
 * captured), its source is one range (not 2D) and within the check's size
 * limit (hv_ev_copy_begin's and hv_payload_hash's conditions). */
static inline int hv_ev_rewrite_countable(const struct hv_call *c)
{
    const struct hv_copy_args *a = &c->a.copy;
    return c->result == 0 && !(c->flags & HV_CALL_CAPTURING) && !(a->flags & HV_COPY_2D) && a->src &&
           a->bytes <= hv_hot.rewrite_limit;
}

/* The full path's count down, for an eligible copy: 1 when the sampling
 * skips it (HIPVIS_REWRITE_EVERY above 1 and copies left to skip). */
static inline int hv_ev_rewrite_skip(struct hv_thread_ctx *t)
{
    return hv_hot.rewrite_every > 1 && hv_ev_tick(&t->rewrite_skip);
}

/* An eligible copy of API `api` on the full path: 0 when the count down
 * skips it, 1 when it is checked. A checked copy's turn is counted against
 * the warm-up, unless hv_ev_args_copy_skip counted it already (an
 * argument-record API's copy, with argument records on), and both ticks
 * get the gap to the next one. */
static inline int hv_ev_rewrite_turn(struct hv_thread_ctx *t, uint16_t api)
{
    if (hv_hot.rewrite_every <= 1)
        return 1;
    if (hv_ev_rewrite_skip(t))
        return 0;
    if (!(hv_hot.record_args && hv_args_family(api) == HV_ARGS_COPY))
        hv_ev_rewrite_count(t);
    t->rewrite_skip = t->args_tick = hv_ev_rewrite_gap(t);
    return 1;
}

/* HIPVIS_RECORD=args: an async copy whose kind may be host-to-device (the
 * check's candidates, told apart with no memory-kind lookup) counts down
 * t->args_tick. 1 while it does: the copy is written as its arguments. 0
 * on its turn, counted against the warm-up: the copy takes the full path,
 * with the full path's tick at 0 so that the filler checks it when its
 * source is pinned (a checked copy's turn then reloads both ticks); the
 * tick's next gap is the one after a turn whose copy was not eligible
 * (pageable). Other copies never tick, so a loop's other copies cannot
 * make the turns miss its H2D ones. */
static inline int hv_ev_args_copy_skip(struct hv_thread_ctx *t)
{
    if (hv_ev_tick(&t->args_tick))
        return 1;
    hv_ev_rewrite_count(t);
    t->args_tick = hv_ev_rewrite_warm(t) ? 0 : hv_hot.rewrite_every - 1;
    t->rewrite_skip = 0;
    return 0;
}

/* Evidence's set-up (its options: hv_hot.ev_flags), trace header bits and
 * observer reach the core through its feature entry (ev_hooks.c). */

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
 * sampling skips takes its step of the count down here
 * (hv_ev_rewrite_countable, hv_ev_rewrite_skip), the one hv_payload_hash
 * would have taken (hv_ev_rewrite_turn), so the copies checked are the
 * same ones. The other options look at every copy. */
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
    return !(hv_ev_rewrite_countable(c) && hv_ev_rewrite_skip(t));
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

/* Host observations reach evidence through the core (tracer.h hv_observed:
 * the rewrite check re-hashes the copies it queued, the probe reads back
 * its snapshots); its observer is ev_hooks.c's. */

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

#endif
