/*
 * The collector: every traced thread's ring, the process-wide call sequence,
 * and the hot-path helpers that fill a record in place.
 *
 * Rings are kept in a fixed array of slots. A thread claims a slot on its
 * first traced call — first by recycling a ring whose owner exited and which
 * the consumer has drained, else by appending — with one CAS and no lock, so
 * a new thread never waits for another. Memory is bounded by
 * (threads that trace at the same time) x HIPVIS_RING_KB.
 */
#ifndef HV_TRACER_RECORD_COLLECTOR_H
#define HV_TRACER_RECORD_COLLECTOR_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hipvis/trace.h"
#include "ring/clock.h"
#include "ring/collector_layout.h"
#include "ring/ring.h"

/* Per-thread context. `depth` suppresses recording of calls the runtime makes
 * into its own exported API while serving a traced call.
 *
 * Layout: in a serving loop the interpreter and the runtime evict
 * the tracer between two calls, so each line a call reads is a likely miss.
 * What a traced copy reads comes first: 64 bytes that every call needs,
 * then the copy's allocation memos; the rest (the failed-claim flag,
 * scratch) is touched only on rare paths. Not aligned to a line: the
 * library's initial-exec TLS must fit the static TLS surplus glibc keeps
 * for a library loaded by dlopen (ctypes.CDLL), and 64-byte alignment
 * cost padding there ("cannot allocate memory in static TLS block"); the
 * hot part then spans two lines at most. */
struct hv_stream_state;

/* One way of a copy's allocation-map memo (core/allocmap.h
 * hv_alloc_copy_kinds): for each side (destination, source) the interval
 * [lo, lo + len) around the address last looked up over which the answer
 * (its mem) cannot change while the map's version stays `version`. One
 * version for both sides, and lengths rather than ends: a repeat is one
 * compare and two range tests Defined here so that it sits in
 * the thread's context, on the lines after the hot one. */
struct hv_copy_memo {
    uint64_t version;   /* even: a consistent snapshot's version; never odd */
    uint64_t lo[2], len[2];   /* [0] destination, [1] source; empty (len 0) until filled */
    uint8_t mem[2];
};

/* One way of a launch's allocation-map memo (core/allocmap.h
 * hv_alloc_span_memo): the span [lo, lo + len) an argument's lookup found
 * (an allocation of `bytes` at lo, or a gap when bytes is 0), valid while
 * the map's version stays `version`. Kept in the thread's context across
 * launches: the eager launches of a serving step pass pointers
 * into the same few allocations (the framework's memory pool) launch after
 * launch. What a kernel argument records of its allocation is its extent,
 * so that is all a way keeps (32 bytes: the context is static TLS). */
#define HV_SPAN_MEMO_WAYS 4
struct hv_span_memo {
    uint64_t version;   /* even; 0 with len 0: empty */
    uint64_t lo, len, bytes;
};

struct hv_thread_ctx {
    struct hv_ring *ring;
    /* Where the next record most likely goes (just past the last one
     * committed): what a wrapper prefetches before the real call
     * (tracer.h hv_call_prefetch). A hint only: wrong after a wrap. */
    const uint8_t *next_rec;
    uint64_t seq;            /* this thread's calls so far: a call's seq (HV_HDR_THREAD_SEQ) */
    uint64_t stream_id;      /* the stream this thread named last (0: none) ... */
    struct hv_stream_state *stream_state;   /* ... and its table slot (tracer.h hv_stream_cached) */
    int *errno_loc;          /* &errno of this thread (set before its first traced call) */
    int32_t depth;
    uint32_t tid;
    int32_t device;          /* last hipSetDevice of this thread, -1 unknown */
    uint32_t ring_mask;      /* ring->capacity - 1 (at most 1 GiB), kept here so a reserve reads no other ring line */
    /* Second and third lines: the allocation memo of a copy's two sides, two
     * ways A serving step makes two copies whose sides differ
     * (the pinned H2D copy of the metadata; `.item()`'s D2H copy into an
     * untracked host scalar), so with one way every copy missed and
     * searched the map twice (in situ, a miss per level of the search). */
    struct hv_copy_memo copy_memo[2];
    /* The spans this thread's last launches' pointer arguments fell in:
     * the map is searched (a miss per level in situ) only for an allocation
     * or gap none of them named. Four ways: the double's decode loop
     * alternates two kernels over three buffers. */
    struct hv_span_memo launch_memo[HV_SPAN_MEMO_WAYS];
    uint32_t rewrite_skip;   /* evidence: eligible copies the rewrite check skips before its next one */
    uint32_t args_tick;      /* HIPVIS_RECORD=args: async copies written as arguments before the next full one */
    uint32_t draw;           /* evidence: the samplings' xorshift state (0: not seeded yet) */
    uint32_t launches_first; /* evidence: launches counted against HIPVIS_LAUNCH_FIRST (saturates there) */
    uint32_t rewrites_first; /* evidence: the rewrite check's turns counted against HIPVIS_REWRITE_FIRST (saturates there) */
    uint32_t rewrite_pos;    /* evidence: the last checked copy's place in its window of HIPVIS_REWRITE_EVERY */
    int32_t ring_failed;     /* the claim failed once; do not retry on every call */
    alignas(8) uint8_t scratch[sizeof(struct hv_call)];  /* target of dropped calls */
};

/* The thread's ring (NULL: none): set through here so that ring_cap follows. */
static inline void hv_thread_set_ring(struct hv_thread_ctx *t, struct hv_ring *r)
{
    t->ring = r;
    t->ring_mask = r ? (uint32_t)(r->capacity - 1) : 0;
    t->next_rec = r ? (const uint8_t *)r + HV_RING_DATA_OFFSET +
                          (atomic_load_explicit(&r->head, memory_order_relaxed) & (r->capacity - 1))
                    : NULL;
}

/* The thread's ring capacity - 1 (a power of two, less one). */
static inline uint64_t hv_thread_ring_mask(const struct hv_thread_ctx *t) { return t->ring_mask; }

void hv_collector_init(struct hv_collector *c, uint64_t ring_bytes);

/* Claims a ring for the calling thread; NULL when none can be had (counted). */
struct hv_ring *hv_collector_claim(struct hv_collector *c, uint32_t tid);
/* Keeps one unclaimed ring ready, its pages written once, so that a
 * thread's first traced calls never pay for first-touch page faults
 * (collector.c ring_new). Called at activation for the activating thread's
 * ring, then off the traced threads: by the writer thread, or in sidecar
 * mode by the transport's preparer thread (record/shm_transport.c), which
 * sleeps on the spare's state word until a thread claims it. Returns 1 when
 * it made one, 0 when one was ready (or no slot is left), -1 when the ring's
 * memory could not be had. */
int hv_collector_prepare(struct hv_collector *c);
/* The same a slice at a time, for a consumer that must go on draining
 * while it readies the spare (the writer thread: writing 1024 pages took
 * 10-100 ms on this VM, longer than a 4 MiB ring lasts at 1.5 M calls/s,
 * and a ring nobody drains for that long drops). Each call writes pages for
 * about `budget_ns` (at least 8), and publishes the ring once every page is
 * written. `p` (zeroed to start) holds the ring in the making. Returns 1
 * when it published one, 0 otherwise (in progress, or none wanted), -1 when
 * no memory could be had. In sidecar mode (a ring allocator) it is
 * hv_collector_prepare. */
struct hv_ring_prep {
    void *mem;            /* the mapping being written, NULL when none */
    size_t len, done;     /* its bytes, and how many have had their page written */
};
int hv_collector_prepare_step(struct hv_collector *c, struct hv_ring_prep *p, uint64_t budget_ns);
/* Unmaps a ring in the making (the writer stops, or a fork child forgets it). */
void hv_ring_prep_discard(struct hv_ring_prep *p);
/* An unclaimed (HV_RING_FREE) ring, NULL when none. */
struct hv_ring *hv_collector_spare(struct hv_collector *c);
/* The owner exited: the consumer drains the ring, then frees it. */
void hv_collector_release(struct hv_collector *c, struct hv_ring *r);

/*
 * Consumer side: drains every ring once in slot order, handing records to
 * `fn`, and recycles rings of exited threads once empty (`on_free` sees each
 * such ring first so its final drop counts can be written). Returns records
 * drained.
 */
typedef void (*hv_ring_free_fn)(struct hv_ring *r, void *ctx);
long hv_collector_drain(struct hv_collector *c, hv_ring_visit_fn fn, hv_ring_free_fn on_free, void *ctx);

/* Totals over all rings (a snapshot). */
void hv_collector_totals(struct hv_collector *c, uint64_t *made, uint64_t dropped[HV_DROP__COUNT]);

/* In a fork child: the parent's records are the parent's to write. Forget
 * them, reset counters, and free the rings of threads that do not exist in
 * the child; `self` (may be NULL) stays owned by the forking thread. */
void hv_collector_after_fork_child(struct hv_collector *c, struct hv_ring *self);

/* ---- hot path ---- */

/* A process-wide seq: one shared atomic add. Only producers that are not
 * the tracer use it (tests/sidecar's raw producer); the tracer numbers calls
 * per thread (core/record.c hv_call_start), with no write to a shared line. */
static inline uint64_t hv_next_seq(struct hv_collector *c)
{
    return atomic_fetch_add_explicit(&c->seq, 1, memory_order_relaxed) + 1;
}

/* A call of a thread with no ring: counted in the collector's seq (the
 * tracer's calls are otherwise numbered per thread and counted in their own
 * ring, core/record.c hv_call_start). */
void hv_count_call_no_ring(struct hv_collector *c);

/* Fills a record header: type, size and tid as one 8-byte store (an
 * immediate and the tid), not two constants the compiler may load from
 * .rodata (one line fewer), then seq and ticks. */
static inline void hv_rec_header_fill(struct hv_rec_header *h, uint16_t type, uint32_t size, uint32_t tid,
                                      uint64_t seq, uint64_t ts)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w = (uint64_t)type | (uint64_t)(uint16_t)size << 16 | (uint64_t)tid << 32;
    memcpy(h, &w, sizeof w);
#else
    h->type = type;
    h->size = (uint16_t)size;
    h->tid = tid;
#endif
    h->seq = seq;
    h->ts_ns = ts;
}

/* Reserves a record of `size` bytes (multiple of 8) in the thread's ring,
 * header filled; NULL when it cannot be delivered (already counted). */
static inline struct hv_rec_header *hv_emit_begin_at(struct hv_thread_ctx *t, uint16_t type, uint32_t size,
                                                     uint64_t seq, uint64_t ts)
{
    if (!t->ring)
        return NULL;
    struct hv_rec_header *h = hv_ring_reserve_mask(t->ring, hv_thread_ring_mask(t), size);
    if (!h)
        return NULL;
    hv_rec_header_fill(h, type, size, t->tid, seq, ts);
    return h;
}

static inline struct hv_rec_header *hv_emit_begin(struct hv_thread_ctx *t, uint16_t type, uint32_t size,
                                                  uint64_t seq)
{
    return hv_emit_begin_at(t, type, size, seq, hv_ticks());
}

static inline void hv_emit_commit(struct hv_thread_ctx *t, struct hv_rec_header *h)
{
    uint32_t len = h->size;
    hv_ring_commit_at(t->ring, h, len);
    t->next_rec = (const uint8_t *)h + len;
}

#endif
