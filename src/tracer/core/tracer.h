/*
 * The tracer's contract: everything the rest of the in-process library
 * (the intercept wrappers, the features under src/tracer/{evidence,guard,
 * names,pyframes}) may use of the core, and the one way the core reaches a
 * feature (struct hv_feature below). The core includes no feature's header
 * and calls no feature by name; the wrappers call the features directly.
 *
 *   hv_enter / hv_leave          a traced call's envelope (the thread's context)
 *   hv_call_start / _commit      a call record, in place in the thread's ring
 *   hv_aux_begin / _commit       an auxiliary record following a call
 *   hv_observe_*, hv_observed    host observations of completion
 *   hv_string_id                 interned strings
 *   struct hv_feature            a feature's set-up, header bits and observer
 * and, through the headers it includes, the stream and allocation tables,
 * the configuration, the real runtime functions and fault-free reads. A
 * feature includes this header and no other of the core.
 *
 * Lifecycle (lifecycle.c): the constructor only reads configuration. The
 * first traced call (which may come before the constructor ran, from
 * another library's constructor) initialises what is missing and starts the
 * writer, so a process that never calls the GPU runtime gets no thread and
 * no file.
 */
#ifndef HV_TRACER_CORE_TRACER_H
#define HV_TRACER_CORE_TRACER_H

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hipvis/trace.h"
#include "tracer/core/allocmap.h"
#include "tracer/core/config.h"
#include "tracer/core/hot.h"
#include "tracer/core/realsym.h"    /* HV_EXPORT, the real functions, hv_runtime_sym */
#include "tracer/core/safecopy.h"   /* reads that never fault */
#include "tracer/core/stream_table.h"
#include "tracer/record/collector.h"

/*
 * Measurement hooks. A measurement build (HV_MEASURE, or one of the
 * switches below, on the command line: tests/bench/module.mk) gets them
 * from src/tracer/measure/measure.h; the shipped library gets these
 * defaults, which compile to nothing:
 *   HV_LEAN                 the derivations a call skips (0: none)
 *   HV_COMMITTED(p, bytes)  after a record is published
 *   HV_ST_BEGIN, HV_ST_MARK, HV_ST_END, HV_ST_PART   hipvis's own time
 *   HV_FLOOR_APIS_READ      whether HIPVIS_FLOOR_APIS means anything (0)
 */
#if defined(HV_MEASURE) || defined(HV_LEAN) || defined(HV_RECORD_FLOOR) || defined(HV_DEMOTE) || \
    defined(HV_SELFTIME) || defined(HV_NO_CALL_PREFETCH) || defined(HV_SLED_LINES) || defined(HV_SLED_BRANCHES)
#include "tracer/measure/measure.h"
#endif
#ifndef HV_LEAN
#define HV_LEAN 0
#endif
#ifndef HV_COMMITTED
#define HV_COMMITTED(p, bytes) ((void)(p), (void)(bytes))
#endif
#ifndef HV_ST_BEGIN
#define HV_ST_BEGIN (void)0
#define HV_ST_MARK(v) (void)0
#define HV_ST_END(api) (void)0
#define HV_ST_PART(part, stmt) \
    do {                       \
        stmt;                  \
    } while (0)
#endif
#ifndef HV_FLOOR_APIS_READ
#define HV_FLOOR_APIS_READ 0
#endif

enum hv_tracer_state {
    HV_TRACER_UNINIT = 0,    /* nothing set up yet */
    HV_TRACER_READY,         /* tables ready, writer not started (also: fork child, after exec failure) */
    HV_TRACER_ON,            /* recording */
    HV_TRACER_OFF,           /* disabled by configuration or a fatal setup error */
    HV_TRACER_STOPPED,       /* process exiting / exec'ing */
};

/* The configuration, read once at set-up, before the state first leaves
 * UNINIT; never written after. */
extern struct hv_config hv_tracer_cfg;
extern __thread struct hv_thread_ctx hv_tls __attribute__((tls_model("initial-exec")));

HV_COLD_FN int hv_tracer_activate(void);   /* slow path of hv_enter */
HV_COLD_FN void hv_tracer_call_no_ring(void);   /* a call of a thread without a ring: counted (cold) */
/* hv_enter when tracing is not ON yet or the thread has no ring. */
HV_COLD_FN struct hv_thread_ctx *hv_enter_slow(void);

/* The calling thread's context, through hv_hot.tls_off (valid once the
 * state was ON) and the thread pointer, whose line (%fs:0, the stack
 * protector's canary next to it) every process keeps hot. */
static inline struct hv_thread_ctx *hv_tls_ctx(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
    return (struct hv_thread_ctx *)((char *)__builtin_thread_pointer() + hv_hot.tls_off);
#else
    return &hv_tls;
#endif
}

/* Starts a traced call: NULL when this call must not be recorded (tracing
 * off, or a call the runtime makes into itself while serving one). */
static inline struct hv_thread_ctx *hv_enter(void)
{
    if (__builtin_expect(atomic_load_explicit(&hv_hot.state, memory_order_acquire) == HV_TRACER_ON, 1)) {
        struct hv_thread_ctx *t = hv_tls_ctx();
        if (t->depth)
            return NULL;
        if (__builtin_expect(t->ring != NULL, 1)) {
            t->depth = 1;
            return t;
        }
    }
    return hv_enter_slow();
}

static inline void hv_leave(struct hv_thread_ctx *t) { t->depth = 0; }

/* The seq of this thread's latest call; for strings interned before the
 * call that uses them has a seq of its own (an auxiliary record carries its
 * own thread's call seq, HV_HDR_THREAD_SEQ), and for names and marks, which
 * are no calls. */
static inline uint64_t hv_seq_peek(void)
{
    return hv_tls.seq;
}

/* A pointer as a record's 64-bit word. */
#define HV_PTR(p) ((uint64_t)(uintptr_t)(p))

/* A hint that the line at `p` is about to be written (PREFETCHW; it never
 * faults, so a stale or NULL hint is harmless). */
static inline void hv_prefetch_w(const void *p)
{
#if defined(__x86_64__)
    __asm__ __volatile__("prefetchw %0" : : "m"(*(const uint8_t *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/*
 * Asks for the lines a traced call's record will touch, before the real
 * call In a serving loop the interpreter, the framework and the
 * runtime evict the tracer between two calls, so each of those lines is a
 * likely miss, and several of them are reached only through another (the
 * thread's context -> its ring -> the record; the stream's slot; the
 * device's observation generations). A real
 * GPU runtime call takes microseconds: requested here, from the one line
 * hv_enter has just read, they arrive while it runs, and the record is
 * filled from cache afterwards. Prefetches never fault and never wait, so
 * a stale hint (a ring wrap, another stream this time) costs a line of
 * bandwidth and nothing else.
 */
static inline void hv_call_prefetch(const struct hv_thread_ctx *t, int copy)
{
    const uint8_t *rec = t->next_rec;
    hv_prefetch_w(rec);
    hv_prefetch_w(rec + 64);
    hv_prefetch_w(rec + sizeof(struct hv_call) - 1);
    hv_prefetch_w(t->ring);   /* the producer's line: head and counters */
    if (copy && !(HV_LEAN & 2)) {
        /* The context's later lines, which only copies read: the copy memo,
         * both ways (the context is not line-aligned: the memo spans up to
         * three lines; the first also holds the end of the hot part), and
         * the rewrite tick. */
        hv_prefetch_w(&t->copy_memo[0]);
        hv_prefetch_w(&t->copy_memo[1]);
        hv_prefetch_w((const uint8_t *)&t->copy_memo[1] + sizeof t->copy_memo[1] - 1);
        hv_prefetch_w((const uint8_t *)&t->ring_failed);
    } else if (copy) {
        hv_prefetch_w((const uint8_t *)&t->ring_failed);   /* the rewrite tick */
    } else {
        hv_prefetch_w((const uint8_t *)t + 63);   /* the hot part's last line (hv_enter read its first) */
    }
    if (HV_LEAN & 1)
        return;
    __builtin_prefetch(t->stream_state, 0, 3);
    struct hv_stream_table *st = hv_hot.streams;
    __builtin_prefetch(&st->gen[(uint32_t)t->device % HV_OBS_DEVICES], 0, 3);
}

/* Count a record that could not even be reserved because the thread has no ring. */
HV_COLD_FN void hv_count_no_ring(void);

/* Where a call record goes when the ring cannot take it (full, no ring):
 * the thread's scratch record, with its seq and ticks (evidence orders
 * observations by them); counted where the ring could not count it. */
HV_COLD_FN struct hv_call *hv_call_scratch(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts);

/* hv_call_start's `key`: the record's api, stream form and result as the
 * 8 bytes at hv_call.api hold them (flags 0; little-endian order, which
 * hv_call_start's other branch takes apart field by field). */
#define HV_CALL_KEY(api, form, result)                                                      \
    ((uint64_t)(uint16_t)(api) | (uint64_t)(uint8_t)(form) << 16 | (uint64_t)(uint32_t)(int32_t)(result) << 32)

/*
 * Opens the call record in place: header, the call-level fields, api,
 * result and device (`key`: HV_CALL_KEY), and when `stream` (canonical, 0:
 * the API takes none, with form HV_STREAM_FORM_NONE) is given the stream's
 * form, epoch and capture state (hv_call_stream's).
 * `zero`: the argument union is zeroed, for fillers that set only some of
 * their fields; otherwise it is left as the ring had it and the caller
 * writes every byte of it (copies do).
 *
 * One copy out of line, shared by every filler, so that the calls of a
 * step (copy, launch, graph replay, synchronize) run the same code lines,
 * and each call-level field is written once, in 8-byte words.
 *
 * Ordering (docs/trace-format.md "Ordering without a shared
 * counter"): seq is this thread's call count and ts an ordered clock read
 * taken here, after the real call returned (`key` holds its result, so the
 * read follows it); readers merge threads by (ts, tid, seq). No traced call
 * writes a line another thread writes. The clock is read first: the fence
 * before it then waits only for the real call's last instructions, and the
 * record's stores overlap the read.
 */
HV_STEP_FN struct hv_call *hv_call_start(struct hv_thread_ctx *t, uint64_t key, uint64_t stream, int zero);

/* A call record on no stream, its argument union zeroed. */
static inline struct hv_call *hv_call_begin(struct hv_thread_ctx *t, uint16_t api, int32_t result)
{
    return hv_call_start(t, HV_CALL_KEY(api, HV_STREAM_FORM_NONE, result), 0, 1);
}

/* A record in the ring has its size; the scratch record (hv_call_scratch)
 * has size 0. Telling them apart by the header just written, not by the
 * scratch's address, keeps the thread pointer (%fs:0) out of the hot path. */
static inline void hv_call_commit(struct hv_thread_ctx *t, struct hv_call *c)
{
    if (__builtin_expect(c->h.size != 0, 1)) {
        hv_ring_commit_at(t->ring, c, sizeof *c);
        t->next_rec = (const uint8_t *)(c + 1);
        HV_COMMITTED(c, sizeof *c);
    }
}

/* The state of canonical stream `stream`, through the thread's one-entry
 * cache: a loop names the same stream call after call, and a table slot,
 * once keyed, keeps its key for the life of the process (stream_table.h), so a
 * cached pointer stays right. */
HV_COLD_FN struct hv_stream_state *hv_stream_lookup(struct hv_thread_ctx *t, uint64_t stream);
static inline struct hv_stream_state *hv_stream_cached(struct hv_thread_ctx *t, uint64_t stream)
{
    if (__builtin_expect(t->stream_id == stream && stream, 1))
        return t->stream_state;
    return hv_stream_lookup(t, stream);
}

/* Fills stream, form, epoch and capture state of an open record from the
 * canonical id (hv_call_start does it for the stream a call names; this
 * is for a stream learnt afterwards, e.g. an event's). */
HV_HOT_FN struct hv_stream_state *hv_call_stream(struct hv_thread_ctx *t, struct hv_call *c, uint64_t stream,
                                                 uint8_t form);

/* An auxiliary record of `size` bytes following call `seq`; NULL if dropped. */
static inline void *hv_aux_begin(struct hv_thread_ctx *t, uint16_t type, uint32_t size, uint64_t seq)
{
    struct hv_rec_header *h = hv_emit_begin(t, type, (uint32_t)hv_rec_padded(size), seq);
    if (!h && !t->ring)
        hv_count_no_ring();
    if (h)
        memset((char *)h + sizeof *h, 0, hv_rec_padded(size) - sizeof *h);
    return h;
}

static inline void hv_aux_commit(struct hv_thread_ctx *t, void *rec)
{
    uint32_t size = ((const struct hv_rec_header *)rec)->size;
    hv_emit_commit(t, rec);
    HV_COMMITTED(rec, size);
}

/*
 * Host observations of completion, each O(1) in the number of streams: the
 * observing call's own record says what it covers (the analyzer derives the
 * streams, docs/trace-format.md "Host observations"), and in-process epochs
 * advance by one atomic add (stream_table.h). A ring holds one reservation at a
 * time, so auxiliary records are only emitted after the call record is
 * committed:
 *  - hv_observe_complete fills an uncommitted sync call's fields (the call
 *    itself says which stream advanced);
 *  - hv_observe_scope runs after the commit of a device or legacy-stream
 *    synchronize: generations and observers, no record;
 *  - hv_observe_stream runs after the commit and emits one HV_REC_EPOCH
 *    (calls whose record alone does not say it: blocking memsets, guards),
 *    or none when `record` is 0 (blocking copies: the analyzer derives it,
 *    with the pageable-H2D exception);
 *  - hv_observed tells the features' observers, when one waits (below).
 * "Complete up to seq X" means all work enqueued before call X is done.
 */
enum hv_obs_scope {
    HV_OBS_STREAM = 0,   /* one stream */
    HV_OBS_LEGACY,       /* the device's legacy stream and its blocking streams */
    HV_OBS_DEVICE,       /* every stream of the device */
};
struct hv_obs {
    uint64_t stream;     /* the stream named (HV_OBS_STREAM), else the device's legacy stream */
    int32_t device;
    uint8_t scope;
};
/* Whether observation o covers canonical stream `stream` (O(1)). */
int hv_obs_covers(const struct hv_obs *o, uint64_t stream);

HV_STEP_FN void hv_observe_complete(struct hv_thread_ctx *t, struct hv_call *c, uint64_t stream, uint64_t completed_seq);
/* `ts`: the observing call's ordered ticks (its record's ts_ns): observers
 * take work enqueued before it as complete (seqs are per thread). */
HV_STEP_FN void hv_observe_scope(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, int32_t device, uint8_t scope);
HV_HOT_FN void hv_observe_stream(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, uint64_t stream, int record);

/*
 * The host observed all work of the streams `o` covers enqueued before the
 * call whose ordered ticks are `upto` complete, at call `seq` (committed,
 * as are its epoch records; ticks, not seqs, order calls of different
 * threads). The features' observers (struct hv_feature's `observed`) are
 * told only while one of them waits for an observation: hv_hot's
 * observe_all (a feature looks at every one: the probe) or observe_pending
 * (work a feature queued for the next one: the rewrite check's copies, one
 * in HIPVIS_REWRITE_EVERY). So an observation with nothing pending runs no
 * feature code and calls nothing: fewer code lines per step.
 * The load acquires: a 0 read means another thread's completion of that
 * work (payload.c hv_payload_observed's second hash of a copy this thread
 * may now rewrite) is done; a plain load on x86.
 */
HV_COLD_FN void hv_observers_run(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
static inline void hv_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    if (hv_hot.observe_all || atomic_load_explicit(&hv_hot.observe_pending, memory_order_acquire))
        HV_ST_PART(HV_ST_PART_OBSERVE_EV, hv_observers_run(t, seq, o, upto));
}

/* Interns a string (cold paths only: names, paths), emitting its
 * HV_REC_STRING record the first time. Returns its id, 0 on failure. */
uint32_t hv_string_id(struct hv_thread_ctx *t, const char *s, uint64_t seq);

/* Before exec: flush and close the trace, so the new image starts its own. */
void hv_tracer_before_exec(void);
void hv_tracer_exec_failed(void);
/* Before _exit/_Exit: the same final drain the destructor would have done. */
void hv_tracer_before_exit(void);

/*
 * A feature of the tracer (evidence, Python frames, names and regions...):
 * what the core calls of it, through this table and nothing else. A
 * feature defines its entry once with HV_FEATURE; the linker gathers the
 * entries in section hv_features, which the core walks in link order, as
 * it finds the wrappers (realsym.h). Any member may be NULL.
 */
struct hv_feature {
    const char *name;
    /* At set-up, after the configuration is read and before anything is
     * recorded (under the set-up lock): reads its options, sets its fields
     * of hv_hot. */
    void (*setup)(const struct hv_config *cfg);
    /* Its HV_HDR_* bits of the trace header (after set-up). */
    uint32_t (*header_flags)(void);
    /* An observation, while hv_observed's test says a feature waits for one. */
    void (*observed)(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
    /* hipvis_measure_features_off (switch.c): the bit of its mask that turns
     * this feature's per-call work off (0: none), and the switch itself
     * (off: 1 off, 0 as configured again). */
    unsigned measure_bit;
    void (*measure_off)(int off);
    /* Before the trace is closed (exit, exec; the writer still runs): gives
     * back what it changed in the process and writes what it queued. */
    void (*before_exit)(void);
};
#define HV_FEATURE(id, ...)                                                        \
    static const struct hv_feature hv_feature_##id = {__VA_ARGS__};                \
    __attribute__((used, section("hv_features"))) static const struct hv_feature \
        *const hv_feature_p_##id = &hv_feature_##id

#endif
