/*
 * What every front end (HIP, CUDA runtime, CUDA driver) shares: the wrapper
 * envelope, canonical streams, and the runtime-neutral record fillers.
 *
 * A front end turns its runtime's arguments into the neutral descriptions
 * below (a canonical stream, a copy shape, a launch) and calls the filler;
 * the filler runs after the real call returned and writes the same record,
 * whatever the runtime. Results are passed through as int32_t: every
 * runtime here uses 0 for success (hipSuccess, cudaSuccess, CUDA_SUCCESS),
 * which is all the fillers need to know about them.
 */
#ifndef HV_TRACER_INTERCEPT_COMMON_INTERCEPT_H
#define HV_TRACER_INTERCEPT_COMMON_INTERCEPT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/call_rules.h"
#include "tracer/core/kernels.h"
#include "tracer/core/realsym.h"
#include "tracer/core/tracer.h"
#include "tracer/evidence/evidence.h"
#include "tracer/guard/guard_modes.h"
#include "tracer/hostcheck/hostcheck.h"
#include "tracer/names/marks.h"
#include "tracer/pyframes/sites.h"

/*
 * Defines exported wrapper `name` returning `ret_t`: calls the real function
 * with `args` (or returns `missing` when it cannot be found), runs `always`
 * with `t_` (thread context, NULL when this call is not traced) and `r_`
 * (the runtime's result) in scope, and, when the call is to be traced, runs
 * `trace` with `t_`, `api_` (record id) and `r_`. errno is restored to what
 * the runtime left before returning.
 */
#define HV_WRAP_ALWAYS(ret_t, missing, name, params, args, always, trace) \
    HV_WRAP_IMPL(ret_t, missing, name, params, args, (void)0, (void)0, 1, always, trace)

/* The same, running `before` (with `t_` and `api_` in scope) ahead of the
 * real call when the call is traced: for what must happen on the stream
 * before the call's own work (the probe's pre-replay snapshot). */
#define HV_WRAP_BEFORE(ret_t, missing, name, params, args, before, always, trace) \
    HV_WRAP_IMPL(ret_t, missing, name, params, args, (void)0, before, 1, always, trace)

/* HV_ST_*: hipvis's own time per API in `make selftime` builds (tracer.h's
 * measurement hooks). */

/* Attributes of the wrappers defined next, of their code (part fn) and of
 * their registry entry, which holds the real function's address (part
 * data): none, or HV_HOT_fn / HV_HOT_data (core/hot.h) around the
 * wrappers of the APIs a serving loop calls every step:
 *   #undef HV_WRAP_ATTRS / #define HV_WRAP_ATTRS(part) HV_HOT_##part ... wrappers ...
 *   #undef HV_WRAP_ATTRS / #define HV_WRAP_ATTRS(part)
 * so that their code sits with the fillers they call and their entries
 * with the tracer's hot state. */
#ifndef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
#endif

/* HV_WRAP_COPIES: 1 in the files of the copy wrappers (defined before
 * including this header), whose calls also read the context's copy memo
 * and rewrite tick: the other wrappers do not prefetch those lines. */
#ifndef HV_WRAP_COPIES
#define HV_WRAP_COPIES 0
#endif
/* Measurement hook: what a traced call asks for before the real call
 * (tracer.h hv_call_prefetch). A measurement build (tracer.h's hooks)
 * may ask for nothing. */
#ifndef HV_CALL_PREFETCH
#define HV_CALL_PREFETCH(t) hv_call_prefetch(t, HV_WRAP_COPIES)
#endif
/* The Python site of an argument record (HIPVIS_RECORD=args, and a
 * measurement build's, src/tracer/measure/measure.h), by its API's op
 * class, as the full fillers take it: copies and memsets as writes of
 * their first argument word `target`, graph launches as replays of it,
 * kernel launches as launches of it; synchronizes none. Inline with `api`
 * the wrapper's constant, the class folds for the argument records' APIs;
 * other APIs ask the table. */
static inline void hv_args_site(struct hv_thread_ctx *t, uint16_t api, uint64_t seq, uint64_t target)
{
    static const uint8_t why_of_op[HV_OP__COUNT] = {[HV_OP_COPY] = HV_PY_AT_WRITE, [HV_OP_MEMSET] = HV_PY_AT_WRITE,
                                                    [HV_OP_LAUNCH] = HV_PY_AT_LAUNCH, [HV_OP_GRAPH] = HV_PY_AT_REPLAY};
    enum hv_args_family f = hv_args_family(api);
    unsigned why = f == HV_ARGS_COPY    ? HV_PY_AT_WRITE
                   : f == HV_ARGS_GRAPH ? HV_PY_AT_REPLAY
                   : f != HV_ARGS_NONE  ? 0
                                        : why_of_op[hv_api_op(api)];
    if (why)
        hv_py_site(t, seq, why, target);
}
/* An argument as one raw word: its first 8 bytes (a narrower one zero-extended as it lies in memory). */
#define HV_RAW_STORE(c, i, x)                                                                    \
    do {                                                                                         \
        __typeof__(x) v_ = (x);                                                                  \
        uint64_t w_ = 0;                                                                         \
        memcpy(&w_, &v_, sizeof v_ < sizeof w_ ? sizeof v_ : sizeof w_);                         \
        (c)->a.raw[i] = w_;                                                                      \
    } while (0)
#define HV_RAW_1(c, a) HV_RAW_STORE(c, 0, a)
#define HV_RAW_2(c, a, b) HV_RAW_1(c, a); HV_RAW_STORE(c, 1, b)
#define HV_RAW_3(c, a, b, d) HV_RAW_2(c, a, b); HV_RAW_STORE(c, 2, d)
#define HV_RAW_4(c, a, b, d, e) HV_RAW_3(c, a, b, d); HV_RAW_STORE(c, 3, e)
#define HV_RAW_5(c, a, b, d, e, f) HV_RAW_4(c, a, b, d, e); HV_RAW_STORE(c, 4, f)
#define HV_RAW_6(c, a, b, d, e, f, g) HV_RAW_5(c, a, b, d, e, f); HV_RAW_STORE(c, 5, g)
#define HV_RAW_7(c, a, b, d, e, f, g, h) HV_RAW_6(c, a, b, d, e, f, g); HV_RAW_STORE(c, 6, h)
#define HV_RAW_8(c, a, b, d, e, f, g, h, i) HV_RAW_7(c, a, b, d, e, f, g, h); HV_RAW_STORE(c, 7, i)
#define HV_RAW_N(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, N, ...) N
/* Beyond 8 arguments the record holds the first 8. */
#define HV_RAW_MORE(c, a, b, d, e, f, g, h, i, ...) HV_RAW_8(c, a, b, d, e, f, g, h, i)
#define HV_RAW_PICK(c, ...)                                                                      \
    HV_RAW_N(__VA_ARGS__, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, \
             HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_MORE, HV_RAW_8,    \
             HV_RAW_7, HV_RAW_6, HV_RAW_5, HV_RAW_4, HV_RAW_3, HV_RAW_2, HV_RAW_1, )(c, __VA_ARGS__)
/* `args` as the wrapper passes them, "(a, b, ...)"; "()" stores nothing. */
#define HV_RAW_UNPAREN(...) __VA_ARGS__
#define HV_RAW_FILL_(c, ...) __VA_OPT__(HV_RAW_PICK(c, __VA_ARGS__);)
#define HV_RAW_FILL(c, ...) HV_RAW_FILL_(c, __VA_ARGS__)
/* A call as its argument words (a.raw[], the rest zero) with record flags
 * `cflags`; `site`: take its Python site (hv_args_site) after the commit. */
#define HV_RAW_RECORD(t, api, r, args, cflags, site)                                              \
    do {                                                                                          \
        struct hv_call *rc_ = hv_call_start(                                                      \
            (t), HV_CALL_KEY((api), HV_STREAM_FORM_NONE, (r)) | (uint64_t)(cflags) << 24, 0, 1);   \
        HV_RAW_FILL(rc_, HV_RAW_UNPAREN args)                                                     \
        uint64_t seq_ = rc_->h.seq, w0_ = rc_->a.raw[0];                                          \
        hv_call_commit((t), rc_);                                                                 \
        if (site)                                                                                 \
            hv_args_site((t), (api), seq_, w0_);                                                  \
    } while (0)

/*
 * Whether this call, of HV_ARGS_APIS family `f`, is written as its
 * arguments (HIPVIS_RECORD=args): yes, but where the rewrite check wants
 * the full filler. An async copy whose kind may be host-to-device (`kind`
 * H2D or Default) takes the full path on its turn of the check's sampling
 * (evidence.h hv_ev_args_copy_skip); a synchronize takes it while a
 * checked copy waits for its observation (hv_hot.observe_pending), so that
 * the filler re-hashes the source. Everything else the full fillers would
 * do at these calls is the reader's (derive.c) or refused in this mode
 * (config.c).
 */
static inline int hv_args_now(struct hv_thread_ctx *t, enum hv_args_family f, int kind)
{
    if (f == HV_ARGS_COPY) {
        /* The H2D copy is the step's own (the loop's metadata): its path falls through. */
        if (__builtin_expect(!(hv_hot.ev_flags & HV_EV_REWRITE) || (kind != HV_KIND_H2D && kind != HV_KIND_DEFAULT), 0))
            return 1;
        return hv_ev_args_copy_skip(t);
    }
    if (f == HV_ARGS_GRAPH)
        return 1;
    /* acquire: a 0 read here orders this thread's later rewrites after
     * another observer's second hash (payload.c hv_payload_observed). */
    return __builtin_expect(atomic_load_explicit(&hv_hot.observe_pending, memory_order_acquire) == 0, 1);
}
/* A copy's kind among a wrapper's `args` (its fourth: HV_ARGS_APIS's copy
 * words), 0 for a call with fewer; taken as its first bytes, as
 * HV_RAW_STORE takes a word, so that it compiles for any wrapper (only the
 * copies' is ever used). */
#define HV_ARG4_(a, b, c, d, ...) d
#define HV_ARG4(...) HV_ARG4_(__VA_ARGS__)
#define HV_ARGS_KIND(args)                                                                        \
    __extension__({                                                                               \
        __typeof__(HV_ARG4(HV_RAW_UNPAREN args, 0, 0, 0, 0)) k_ = HV_ARG4(HV_RAW_UNPAREN args, 0, 0, 0, 0); \
        uint64_t w_ = 0;                                                                          \
        memcpy(&w_, &k_, sizeof k_ < sizeof w_ ? sizeof k_ : sizeof w_);                          \
        (int)w_;                                                                                  \
    })
/* The trace part of a wrapper: an argument record when HIPVIS_RECORD=args,
 * the API is one of HV_ARGS_APIS (hipvis/api.h; `api` is the wrapper's
 * constant, so the test folds away in every other wrapper) and
 * hv_args_now says so, else `trace` (through HV_TRACE_PART). The
 * argument record is the expected branch, as it is the default: laid out
 * as the wrapper's fall-through path, a step's call takes no jump to a
 * far block and back (each such taken branch a line and a guess the
 * predictor may have lost between two calls: docs/performance.md), and the
 * full fillers go out of line. */
#define HV_TRACE_CALL(t, api, r, args, trace)                                                     \
    do {                                                                                          \
        if (hv_args_family(api) != HV_ARGS_NONE && __builtin_expect(hv_hot.record_args != 0, 1) && \
            hv_args_now((t), hv_args_family(api), hv_args_family(api) == HV_ARGS_COPY ? HV_ARGS_KIND(args) : 0)) \
            HV_RAW_RECORD(t, api, r, args, HV_CALL_ARGS, 1);                                      \
        else                                                                                      \
            HV_TRACE_PART(t, api, r, args, trace);                                                \
    } while (0)

/* Measurement hook: the wrapper's `trace` part. A measurement build
 * (tracer.h's hooks) may write a floor record instead. */
#ifndef HV_TRACE_PART
#define HV_TRACE_PART(t, api, r, args, trace) trace
#endif

/* keep_errno_: 1 when `always` may run hipvis code on untraced calls; 0
 * leaves an untraced call with no errno save/restore (the constant folds).
 * `decl`: a declaration in the wrapper's scope, before the real call, which
 * `args`, `before`, `always` and `trace` may use. */
#define HV_WRAP_IMPL(ret_t, missing, name, params, args, decl, before, keep_errno_, always, trace)  \
    HV_EXPORT HV_WRAP_ATTRS(fn) ret_t name params;                                          \
    HV_WRAPPER_IN(name, HV_WRAP_ATTRS(data));                                               \
    HV_EXPORT ret_t name params                                                             \
    {                                                                                       \
        HV_ST_BEGIN;                                                                        \
        decl;                                                                               \
        __typeof__(&name) real_ = HV_REAL(name);                                            \
        struct hv_thread_ctx *t_ = hv_enter();                                              \
        if (t_) {                                                                           \
            const uint16_t api_ = HV_API_##name;                                            \
            (void)api_;                                                                     \
            HV_CALL_PREFETCH(t_);                                                           \
            before;                                                                         \
        }                                                                                   \
        HV_ST_MARK(st1_);                                                                   \
        ret_t r_ = real_ ? real_ args : (missing);                                          \
        HV_ST_MARK(st2_);                                                                   \
        /* errno's address: the thread's own, kept when its ring was claimed (always  \
         * before hv_enter first returns a context: no test on the traced path). */   \
        int *ep_ = NULL;                                                                    \
        int errno_ = 0;                                                                     \
        if (t_) {                                                                           \
            ep_ = t_->errno_loc;                                                            \
            errno_ = *ep_;                                                                  \
        } else if (keep_errno_) {                                                           \
            ep_ = &errno;                                                                   \
            errno_ = *ep_;                                                                  \
        }                                                                                   \
        always;                                                                             \
        if (t_) {                                                                           \
            const uint16_t api_ = HV_API_##name;                                            \
            HV_TRACE_CALL(t_, api_, r_, args, trace);                                       \
            hv_leave(t_);                                                                   \
            HV_ST_END(api_);                                                                \
            *ep_ = errno_;                                                                  \
        } else if (keep_errno_) {                                                           \
            *ep_ = errno_;                                                                  \
        }                                                                                   \
        return r_;                                                                          \
    }

/* The usual wrapper: nothing to do for untraced calls. */
#define HV_WRAP(ret_t, missing, name, params, args, trace) \
    HV_WRAP_IMPL(ret_t, missing, name, params, args, (void)0, (void)0, 0, (void)0, trace)

static inline struct hv_hc_fn hv_host_fn_of(void (*fn)(void), void *user)
{
    return (struct hv_hc_fn){fn, user, NULL};
}
static inline void hv_host_fn_sub(struct hv_thread_ctx *t, struct hv_sref s, int callback, struct hv_hc_fn *f)
{
    hv_hc_host_fn(t, s.id, s.form, callback, f);
}
/*
 * A host function or stream callback enqueued on a stream (docs/semantics.md
 * H1): a wrapper whose parameters name the program's function `fn` and its
 * data `user`, and whose `args` pass HV_HOST_FN_ARG(fn) and HV_HOST_FN_USER
 * in their place. They are the program's own unless HIPVIS_HOSTCHECK is on:
 * then the check's trampoline and its context (hostcheck.h hv_hc_host_fn,
 * for stream `sref`; `callback` 1 for the stream-callback signature), freed
 * again when the runtime refused the call. `trace` sees `fn` and `user`
 * unchanged.
 */
#define HV_WRAP_HOST_FN(ret_t, missing, name, params, args, sref, callback, trace)                     \
    HV_WRAP_IMPL(ret_t, missing, name, params, args, struct hv_hc_fn hf_ = hv_host_fn_of((void (*)(void))fn, user), \
                 (hv_ev(HV_EV_HOSTCHECK) ? hv_host_fn_sub(t_, (sref), (callback), &hf_) : (void)0), 1,    \
                 (hf_.ctx && r_ != 0 ? hv_hc_host_fn_drop(&hf_) : (void)0), trace)
#define HV_HOST_FN_ARG(fn) ((__typeof__(fn))hf_.fn)
#define HV_HOST_FN_USER (hf_.user)

/* The handle an API wrote through out-pointer `pp`, 0 when the call failed. */
#define HV_OUT(pp, r) ((pp) && (r) == 0 ? HV_PTR(*(pp)) : 0)

/* ---- streams ---- */

#define HV_NO_STREAM ((struct hv_sref){0, HV_STREAM_FORM_NONE})

/* Which default-stream convention an entry point follows: legacy, or
 * per-thread (HIP `_spt`, CUDA `_ptsz`/`_ptds`). */
enum hv_spt { HV_SPT_LEGACY = 0, HV_SPT_PER_THREAD = 1 };

/* Canonical id of stream handle `s` named by this thread (format/call_rules.h). */
static inline struct hv_sref hv_sref_of(const struct hv_thread_ctx *t, uintptr_t s, enum hv_spt spt,
                                        uintptr_t legacy, uintptr_t per_thread, uint8_t legacy_form)
{
    return hv_sref_canon((uint64_t)s, spt, legacy, per_thread, legacy_form, t->tid, t->device);
}

/* Begins a call record, on stream `s` unless s.id is 0; *state (when
 * asked) gets the stream's state (may be NULL): hv_call_start has just put
 * it in the thread's one-entry cache, so asking again is one compare. */
static inline struct hv_call *hv_begin_on(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                                          struct hv_stream_state **state)
{
    struct hv_call *c = hv_call_start(t, HV_CALL_KEY(api, s.id ? s.form : HV_STREAM_FORM_NONE, r), s.id, 1);
    if (state)
        *state = s.id ? hv_stream_cached(t, s.id) : NULL;
    return c;
}

/* ---- copies and memsets (fill_copy.c) ---- */

/* Copy shape, shared by every memcpy flavour of every runtime. `kind` is the
 * runtime memcpy kind: hipMemcpyKind and cudaMemcpyKind number
 * HostToHost..Default 0..4 alike (front ends assert it); driver copies pass
 * the equivalent. */
struct hv_copy_desc {
    const void *dst, *src;
    size_t bytes;            /* width for 2D */
    size_t dpitch, spitch, height;
    int kind;
    uint8_t flags;           /* HV_COPY_* */
    int dst_device, src_device;
};

/* A copy record fills the whole argument union: hv_call_start leaves it as
 * the ring had it, so hv_trace_copy writes every field, none left over. */
_Static_assert(sizeof(struct hv_copy_args) == sizeof(union hv_call_args), "copy args fill the record");
_Static_assert(offsetof(struct hv_copy_args, kind) == 48 && offsetof(struct hv_copy_args, dst_device) == 56 &&
                   offsetof(struct hv_copy_args, payload_hash) == 60,
               "no padding between the copy fields hv_trace_copy writes");

/* What a copy does beyond its record (fill_copy.c): evidence (when `evidence`,
 * hv_ev_copy_wanted's answer), Python frames, the guard's note, a blocking
 * copy's observation; or nothing, when none of them applies. Commits `c`.
 * `width`: bytes per row. Takes no pointer to the description, so that the
 * description never leaves registers in the inline part. */
HV_STEP_FN void hv_trace_copy_rest(struct hv_thread_ctx *t, struct hv_call *c, uint64_t width, int evidence);

/* The hv_hot.gates a copy asks about besides evidence: Python frames, the
 * guard armed (or not read yet). */
#define HV_GATES_COPY (HV_GATE_BITS(2, 0xff) | HV_GATE_BITS(3, 0xff))

/* Measurement hooks of a copy: both sides' memory kinds for the record,
 * and whether evidence wants the copy. A measurement build (tracer.h's
 * hooks) may look the kinds up only for evidence. */
#ifndef HV_COPY_KINDS
#define HV_COPY_KINDS(t, cp) \
    hv_alloc_copy_kinds(hv_hot.allocs, hv_alloc_version_hot(), HV_PTR((cp)->dst), HV_PTR((cp)->src), (t)->copy_memo)
#endif
#ifndef HV_COPY_WANTED
#define HV_COPY_WANTED(t, c, cp) hv_ev_copy_wanted(t, c)
#endif

/*
 * The copy's call record. Inline in every copy wrapper: the description is
 * a compound literal there, so its constant fields fold away and the common
 * case (an async copy with no evidence, Python frames or guard on) is the
 * record's stores and one commit; anything else goes to hv_trace_copy_rest,
 * which decides before the commit.
 */
static inline __attribute__((always_inline)) void hv_trace_copy(struct hv_thread_ctx *t, uint16_t api, int32_t r,
                                                               struct hv_sref s, const struct hv_copy_desc *cp)
{
    /* HIPVIS_START: async copies outside the window are not recorded;
     * blocking ones are host observations and always are. */
    if ((cp->flags & HV_COPY_ASYNC) && hv_data_skip(t, s.id))
        return;
    struct hv_call *c;
    HV_ST_PART(HV_ST_PART_COPY_START, c = hv_call_start(t, HV_CALL_KEY(api, s.form, r), s.id, 0));   /* a copy names a stream */
    struct hv_copy_args *a = &c->a.copy;
    unsigned kinds;
    HV_ST_PART(HV_ST_PART_COPY_KINDS, kinds = HV_COPY_KINDS(t, cp));
    HV_COPY_SIDES(cp->kind, kinds, dir, dm, sm);
    uint64_t height = cp->height ? cp->height : 1;
    a->dst = HV_PTR(cp->dst);
    a->src = HV_PTR(cp->src);
    a->bytes = (uint64_t)cp->bytes * height;
    a->dpitch = cp->dpitch;
    a->spitch = cp->spitch;
    a->height = height;
    a->kind = (uint32_t)cp->kind;
    a->dir = (uint8_t)dir;
    a->dst_mem = (uint8_t)dm;
    a->src_mem = (uint8_t)sm;
    a->flags = cp->flags;
    a->dst_device = (int16_t)cp->dst_device;
    a->src_device = (int16_t)cp->src_device;
    a->payload_hash = 0;
    /* Beyond the record: a blocking copy (an observation), evidence, or an
     * option that may want this copy (hv_trace_copy_rest decides). The
     * evidence test stays inline: at the defaults (the rewrite check on) it
     * is asked on every copy and says no to most. */
    int evidence = HV_COPY_WANTED(t, c, cp);
    if (__builtin_expect(!(cp->flags & HV_COPY_ASYNC) || evidence || (hv_hot.gates & HV_GATES_COPY), 0)) {
        hv_trace_copy_rest(t, c, cp->bytes, evidence);
        return;
    }
    hv_call_commit(t, c);
}

#define HV_COPY1D(dst_, src_, n_, kind_, flags_)                                                          \
    (&(struct hv_copy_desc){.dst = (const void *)(uintptr_t)(dst_), .src = (const void *)(uintptr_t)(src_), \
                            .bytes = (n_), .kind = (kind_), .flags = (flags_), .dst_device = -1,            \
                            .src_device = -1})

/* A 3D copy between pitched pointers (hipMemcpy3DParms / cudaMemcpy3DParms
 * shape): `width` bytes of `height` rows of `depth` slices. The record is a
 * 2D copy of its rows: exact when the slices are contiguous in rows (ysize
 * == height, or depth 1); otherwise the rows between slices are included
 * (the record has no slice pitch). An array side has no linear address: a
 * copy into an array writes nothing hipvis can name (bytes 0). */
struct hv_pitched3d {
    const void *ptr;
    size_t pitch, ysize;
    size_t x, y, z;
    const void *array;
};

static inline uint64_t hv_rows3d(size_t height, size_t depth, size_t ysize)
{
    if (depth <= 1)
        return height;
    return ysize > height ? (uint64_t)(depth - 1) * ysize + height : (uint64_t)height * depth;
}

static inline const void *hv_pitched_at(const struct hv_pitched3d *p)
{
    if (p->array || !p->ptr)
        return NULL;
    return (const char *)p->ptr + (p->z * (p->ysize ? p->ysize : 0) + p->y) * p->pitch + p->x;
}

static inline struct hv_copy_desc hv_copy3d(const struct hv_pitched3d *dst, const struct hv_pitched3d *src,
                                            size_t width, size_t height, size_t depth, int kind, uint8_t flags)
{
    const void *d = hv_pitched_at(dst);
    uint64_t rows = hv_rows3d(height ? height : 1, depth ? depth : 1, dst->ysize);
    return (struct hv_copy_desc){.dst = d, .src = hv_pitched_at(src), .bytes = d ? width : 0, .dpitch = dst->pitch,
                                 .spitch = src->pitch, .height = d ? rows : 1, .kind = kind,
                                 .flags = flags | HV_COPY_2D, .dst_device = -1, .src_device = -1};
}

/* The copy of a hipMemcpy3DParms / cudaMemcpy3DParms (the same fields, two
 * types): `p` may be NULL. */
#define HV_COPY3D_PARMS(p, flags)                                                                               \
    ((p) ? hv_copy3d(&(struct hv_pitched3d){(p)->dstPtr.ptr, (p)->dstPtr.pitch, (p)->dstPtr.ysize, (p)->dstPos.x,   \
                                            (p)->dstPos.y, (p)->dstPos.z, (p)->dstArray},                          \
                     &(struct hv_pitched3d){(p)->srcPtr.ptr, (p)->srcPtr.pitch, (p)->srcPtr.ysize, (p)->srcPos.x,   \
                                            (p)->srcPos.y, (p)->srcPos.z, (p)->srcArray},                          \
                     (p)->extent.width, (p)->extent.height, (p)->extent.depth, (int)(p)->kind, (flags))            \
         : (struct hv_copy_desc){.dst_device = -1, .src_device = -1})

/* A batch of copies (hipMemcpyBatchAsync, hipMemcpy3DBatchAsync, their
 * CUDA twins; docs/semantics.md C11, C12): `elem` describes copy i of the
 * batch into out[0..1] and returns how many records it makes (0: nothing
 * hipvis can name, 2: a swap writes both sides). One copy record per
 * description, in array order, under the batch's api; a failed or empty
 * batch is one empty record (nothing ran; the call is still recorded). */
typedef unsigned (*hv_copy_elem_fn)(const void *ctx, size_t i, struct hv_copy_desc out[2]);
void hv_trace_copy_batch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, size_t count,
                         hv_copy_elem_fn elem, const void *ctx);

/* The layouts HIP and CUDA share for batch copies (hipMemcpyAttributes /
 * cudaMemcpyAttributes / CUmemcpyAttributes; hipMemcpy3DBatchOp /
 * cudaMemcpy3DBatchOp / CUDA_MEMCPY3D_BATCH_OP): front ends assert their
 * types against these. */
struct hv_copy_attr {
    int32_t src_access_order;
    int32_t src_loc[2], dst_loc[2];
    uint32_t flags;
};
struct hv_copy_operand {
    int32_t type;            /* 1 pointer, 2 array */
    union {
        struct {
            uint64_t ptr;
            size_t row_length, layer_height;   /* elements (1 byte for pointers); 0: packed */
            int32_t loc[2];
        } ptr;
        struct {
            uint64_t array;
            size_t x, y, z;
        } array;
    } op;
};
struct hv_copy_op3d {
    struct hv_copy_operand src, dst;
    size_t width, height, depth;
    int32_t src_access_order;
    uint32_t flags;
};
_Static_assert(sizeof(struct hv_copy_attr) == 24 && sizeof(struct hv_copy_op3d) == 112, "batch copy layouts");

/* A 1D batch: dsts[i] <- srcs[i], sizes[i] bytes; attrs[k] applies from
 * copy idxs[k] on. `swap`: the attribute flag that makes a copy exchange
 * both sides (HIP's hipMemcpyFlagExtOpSwap; 0 for CUDA). */
struct hv_batch1d {
    const uint64_t *dsts, *srcs;
    const size_t *sizes;
    const struct hv_copy_attr *attrs;
    const size_t *idxs;
    size_t nattrs;
    uint32_t swap;
};
unsigned hv_batch1d_elem(const void *ctx, size_t i, struct hv_copy_desc out[2]);
/* A 3D batch: `ctx` is the struct hv_copy_op3d array. */
unsigned hv_batch3d_elem(const void *ctx, size_t i, struct hv_copy_desc out[2]);

struct hv_memset_desc {
    const void *dst;
    size_t count;            /* elements (width for 2D) */
    size_t pitch, height;
    uint32_t value;
    uint8_t elem;            /* 1, 2 or 4 */
    uint8_t async;
};

HV_HOT_FN void hv_trace_memset(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                     const struct hv_memset_desc *m);

#define HV_SET(dst_, n_, v_, elem_, async_)                                                                   \
    (&(struct hv_memset_desc){.dst = (const void *)(uintptr_t)(dst_), .count = (n_), .value = (uint32_t)(v_), \
                              .elem = (elem_), .async = (async_)})

/* The device address of `symbol` + offset through the runtime's lookup
 * `getter` ("hipGetSymbolAddress", "cudaGetSymbolAddress": both
 * `status = get(void **out, const void *symbol)`), after a successful copy
 * (r == 0: the runtime resolved the same symbol for it). NULL otherwise. */
static inline const void *hv_symbol_at(const char *getter, const void *symbol, size_t offset, int32_t r)
{
    void *p = NULL;
    int (*get)(void **, const void *) = r == 0 ? (int (*)(void **, const void *))hv_runtime_sym(getter) : NULL;
    return get && get(&p, symbol) == 0 && p ? (const char *)p + offset : NULL;
}

/* ---- stream memory operations (fill_memop.c) ---- */

/* One write-value or wait-value (struct hv_memop_args). A write is a write
 * of [addr, addr+size) and a signal a later wait may observe; a wait orders
 * its stream after the latest satisfying signal (docs/semantics.md V1-V3). */
void hv_trace_memop(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                    const struct hv_memop_args *m);

/* A batch of memory operations in the layout HIP and CUDA share (48-byte
 * entries: operation, address, value, flags, alias): one record per write or
 * wait entry, under the batch's api with the entry's index. */
void hv_trace_memop_batch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, const void *entries,
                          unsigned count);

/* ---- launches (fill_launch.c) ---- */

struct hv_launch_desc {
    uint64_t func;
    uint32_t grid[3], block[3];
    size_t shmem;
    void **params;           /* array of pointers to each argument */
    const void *kblock;      /* or: the packed argument block (`extra` form) */
    size_t kblock_bytes;
    uint64_t ev_start, ev_stop;
    uint8_t form;            /* enum hv_launch_form */
    /* A kernel learnt at this launch: its HV_REC_KERNEL follows the call. */
    const struct hv_kernel_info *announce;
    /* `known`: the front end already looked the kernel up by `func` (the
     * CUDA front end must, to learn a new kernel's layout from the driver),
     * and `kernel` is its answer (NULL: none): hv_trace_launch does not
     * look it up a second time. */
    const struct hv_kernel_info *kernel;
    uint8_t known;
    /* Not drawn by HIPVIS_LAUNCH_EVERY (evidence.h hv_ev_launch_sampled):
     * no lookup, no evidence; the record says so (HV_CALL_UNSAMPLED). */
    uint8_t unsampled;
};

HV_STEP_FN void hv_trace_launch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                     const struct hv_launch_desc *l);

/* The packed argument block of an `extra` launch array, given the runtime's
 * markers (HIP and CUDA differ in the end marker). Inline: the usual launch
 * has no `extra`, and then costs one test, with no call to a function
 * outside the step's pages (core/hot.h HV_STEP_*). */
static inline const void *hv_extra_block(void **extra, const void *end, const void *ptr_key,
                                         const void *size_key, size_t *bytes)
{
    const void *buf = NULL;
    *bytes = 0;
    for (int i = 0; extra && i < 16 && extra[i] != end; i += 2) {
        if (extra[i] == ptr_key)
            buf = extra[i + 1];
        else if (extra[i] == size_key && extra[i + 1])
            *bytes = *(size_t *)extra[i + 1];
    }
    return buf;
}

/* HV_REC_KERNEL for `info` (bound to handle info->func), after call `seq`. */
void hv_emit_kernel_sym(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *info, uint64_t module,
                        uint64_t code_object_hash);
/* HV_REC_KARG_NAMES for `info`'s explicit arguments, names[i] the metadata
 * name of info->args[i] ("" or NULL: none); nothing when no argument has
 * one. Cold: once per kernel binding, after its HV_REC_KERNEL. */
void hv_emit_karg_names(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *info,
                        uint64_t code_object_hash, const char *const *names);

/* ---- host observations, events, streams, allocations (fill_sync.c) ---- */

HV_STEP_FN void hv_trace_stream_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s);
HV_HOT_FN void hv_trace_device_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r);
HV_HOT_FN void hv_trace_event_sync(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event);

HV_HOT_FN void hv_trace_event_record(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event, struct hv_sref s,
                           unsigned flags);
HV_HOT_FN void hv_trace_stream_wait(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, uint64_t event,
                          unsigned flags);
void hv_trace_event_handle(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t event, unsigned flags);

/* `created`: the call made stream `handle` (0 if it failed); else destroyed it. */
void hv_trace_stream_handle(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t handle, int created,
                            unsigned flags, int prio);
void hv_trace_set_device(struct hv_thread_ctx *t, uint16_t api, int32_t r, int dev);

void hv_trace_alloc(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t ptr, size_t bytes, unsigned flags,
                    enum hv_mem mem, struct hv_sref s);
void hv_trace_free(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t ptr, struct hv_sref s);

/* A module-family call; returns its seq (for the front end's kernel binding). */
uint64_t hv_trace_module(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t module, uint64_t func,
                         uint32_t nkernels, uint32_t problems);
/* The same with every field (image hash, name) given. */
uint64_t hv_trace_module_args(struct hv_thread_ctx *t, uint16_t api, int32_t r, const struct hv_module_args *a);

/* ---- function-pointer lookups (fill_lookup.c) ---- */

/* After a lookup (cuGetProcAddress, hipGetProcAddress, ...) returned `r`:
 * replaces *pfn by the wrapper of the function it points to, found among
 * the wrappers of `symbol` and its versioned / per-thread forms (`resolve`
 * gives their real addresses by name). Returns what the runtime gave, NULL
 * when it gave nothing. Done for untraced calls too. */
void *hv_lookup_substitute(const char *symbol, void **pfn, int32_t r, void *(*resolve)(const char *));

/* The lookup's call record. raw: [0] name string id, [1] address the
 * runtime gave, [2] address handed out (hipvis's wrapper when substituted),
 * [3] flags, [4] requested version. */
void hv_trace_lookup(struct hv_thread_ctx *t, uint16_t api, int32_t r, const char *symbol, void *got, void **pfn,
                     uint64_t flags, uint64_t version);

/* ---- graphs (fill_graph.c) ---- */

/* What a memcpy or memset node's payload says of its bytes. */
enum hv_node_shape {
    HV_NODE_SHAPE_UNREAD = 0,   /* its parameters were not read */
    HV_NODE_SHAPE_1D,           /* the one range [dst (src), + bytes) */
    HV_NODE_SHAPE_ROWS,         /* rows with a pitch, or a 3D position: not the one range */
};

/* One node as a front end describes it for the inventory. */
struct hv_node_desc {
    uint16_t type;                                   /* enum hv_node_type */
    uint8_t shape;                                   /* memcpy, memset: enum hv_node_shape */
    __typeof__(((struct hv_graph_node *)0)->u) u;    /* the record's payload */
    void **kparams;                                  /* kernel: argument pointers, or */
    const void *kblock;                              /* kernel: the packed argument block (`extra` form) */
    size_t kblock_bytes;
    void *child;                                     /* child-graph node: the graph */
};

/* The runtime's graph query API, for the walk. Returns 0 on success; a NULL
 * output array asks for the count only. `describe` sets the node's type and
 * fills kernel, memcpy and memset payloads (their parameter structs differ
 * between runtimes); the rest comes from `get`. */
struct hv_graph_ops {
    int (*nodes)(void *ctx, void *graph, void **out, size_t *n);
    int (*edges)(void *ctx, void *graph, void **from, void **to, size_t *n);
    void (*describe)(void *ctx, struct hv_thread_ctx *t, void *node, struct hv_node_desc *d);
};

/* A host node's parameters: hipHostNodeParams and CUDA_HOST_NODE_PARAMS
 * are both this pair. */
struct hv_host_params {
    void *fn, *user;
};

/* Node queries every runtime shapes alike, `status (0 ok) = query(node,
 * &out)`, loaded by name (hipGraphEventRecordNodeGetEvent,
 * cuGraphEventRecordNodeGetEvent, ...); NULL where the runtime lacks one. */
struct hv_node_getters {
    int (*record_event)(void *node, void **event);
    int (*wait_event)(void *node, void **event);
    int (*host)(void *node, struct hv_host_params *p);
    int (*child)(void *node, void **graph);
};

/* A memset node's payload: `width` elements of `elem` bytes per row. */
static inline void hv_node_memset(struct hv_node_desc *d, uint64_t dst, uint64_t width, uint32_t elem,
                                  uint64_t height, uint32_t value)
{
    d->u.memset.dst = dst;
    d->u.memset.bytes = width * elem * (height ? height : 1);
    d->u.memset.value = value;
    d->u.memset.elem_size = elem;
    d->shape = height > 1 ? HV_NODE_SHAPE_ROWS : HV_NODE_SHAPE_1D;
}

/* A memcpy node's payload: `bytes` from `src` to `dst`. */
static inline void hv_node_memcpy(struct hv_node_desc *d, uint64_t dst, uint64_t src, uint64_t bytes, uint32_t kind)
{
    d->type = HV_NODE_MEMCPY;
    d->u.memcpy.dst = dst;
    d->u.memcpy.src = src;
    d->u.memcpy.bytes = bytes;
    d->u.memcpy.kind = kind;
    d->shape = HV_NODE_SHAPE_1D;
}

/* The same from a hipMemcpy3DParms / cudaMemcpy3DParms (pitched pointers;
 * the payload names the pointers, not the positions in them). */
#define HV_NODE_MEMCPY3D_PARMS(d, p)                                                                       \
    do {                                                                                                   \
        hv_node_memcpy((d), HV_PTR((p)->dstPtr.ptr), HV_PTR((p)->srcPtr.ptr),                               \
                       (uint64_t)(p)->extent.width * ((p)->extent.height ? (p)->extent.height : 1) *        \
                           ((p)->extent.depth ? (p)->extent.depth : 1),                                    \
                       (uint32_t)(p)->kind);                                                               \
        if ((p)->extent.height > 1 || (p)->extent.depth > 1 || (p)->srcPos.x || (p)->srcPos.y ||            \
            (p)->srcPos.z || (p)->dstPos.x || (p)->dstPos.y || (p)->dstPos.z)                              \
            (d)->shape = HV_NODE_SHAPE_ROWS;                                                               \
    } while (0)

/* A generic setter's (hipGraphExecNodeSetParams, cudaGraphExecNodeSetParams,
 * cuGraphExecNodeSetParams) host, child-graph or event node: d->type, set
 * by the caller, says which of the runtime's union members applies. */
static inline void hv_node_simple(struct hv_node_desc *d, const void *host_fn, const void *host_user,
                                  const void *child, const void *record_event, const void *wait_event)
{
    if (d->type == HV_NODE_HOST)
        d->u.host.fn = HV_PTR(host_fn), d->u.host.user = HV_PTR(host_user);
    else if (d->type == HV_NODE_GRAPH)
        d->u.child.graph = HV_PTR(child);
    else if (d->type == HV_NODE_EVENT_RECORD)
        d->u.event.event = HV_PTR(record_event);
    else if (d->type == HV_NODE_EVENT_WAIT)
        d->u.event.event = HV_PTR(wait_event);
}

/* Loads the getters through `sym` from the runtime's names for them. */
void hv_node_getters_load(struct hv_node_getters *g, void *(*sym)(const char *), const char *record_event,
                          const char *wait_event, const char *host, const char *child);

/* Records exec's inventory (nodes, kernel arguments, edges, child graphs)
 * after its committed call `seq`. */
void hv_graph_walk(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph, const struct hv_graph_ops *ops,
                   const struct hv_node_getters *get, void *ctx);

/* Front end's inventory of a graph: loads its query API and walks. */
typedef void (*hv_inventory_fn)(struct hv_thread_ctx *t, uint64_t seq, uint64_t exec, void *graph);

void hv_trace_instantiate(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *graph,
                          uint64_t flags, uint64_t err_node, hv_inventory_fn inventory);
HV_STEP_FN void hv_trace_exec_call(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t graph,
                        struct hv_sref s);
void hv_trace_exec_update(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *graph,
                          uint64_t err_node, hv_inventory_fn inventory);
/* A kernel node's new arguments: `params` (kernelParams form) or the packed
 * block of the `extra` form (front ends decode their runtime's markers with
 * hv_extra_block). */
struct hv_kargs_src {
    void **params;
    const void *kblock;
    size_t kblock_bytes;
};
/* Exec*NodeSetParams: `func` and its arguments for kernel nodes (recorded), 0/NULL otherwise. */
void hv_trace_exec_set_node(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                            uint64_t func, const struct hv_kargs_src *a);
void hv_trace_capture(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, int begin, unsigned mode,
                      uint64_t graph);
/* An exec node's new parameters, for setters other than kernel ones
 * (memcpy, memset, host, child graph, event nodes, the generic
 * NodeSetParams, NodeSetEnabled): the call record, then when it succeeded
 * the node as it now is (`d`; NULL when the front end cannot describe it). A
 * node record names the node only (graph 0): the analyzer updates it in
 * place. A disabled node is recorded empty: it reads and writes nothing. */
void hv_trace_exec_node(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                        const struct hv_node_desc *d);
/* hipGraphNodeSetEnabled / cudaGraphNodeSetEnabled / cuGraphNodeSetEnabled
 * (docs/semantics.md G7): disabled, the node is recorded empty (it reads
 * and writes nothing until enabled again); enabled, as its graph describes
 * it (`describe` with `ctx`: the front end's walk). */
void hv_trace_set_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, void *node, unsigned on,
                          void (*describe)(void *ctx, struct hv_thread_ctx *t, void *node, struct hv_node_desc *d),
                          void *ctx);
/* A call recorded with its stream and up to 4 raw words (capture-state
 * queries: status, capture id, graph...). */
void hv_trace_raw(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, uint64_t w0, uint64_t w1,
                  uint64_t w2, uint64_t w3);

#endif
