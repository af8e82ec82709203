/*
 * Single-producer single-consumer byte ring for variable-size records.
 *
 * One ring per traced thread: the thread is the only producer, the writer
 * (thread or sidecar) the only consumer, so the hot path needs no atomic
 * read-modify-write at all — one acquire load of `tail` when the cached copy
 * says the ring might be full, and one release store of `head` to publish.
 * Positions are free-running 64-bit byte counters (they never wrap in
 * practice), masked into the buffer.
 *
 * A record never straddles the end of the buffer: when it would, the
 * producer fills the rest with a padding record (type 0) and starts at 0.
 * So every record is contiguous and can be handed to the file writer
 * without copying.
 *
 * The struct lives at the start of the memory it manages so the same layout
 * works in private memory (writer thread) and in a shared-memory segment
 * (sidecar transport), where it must be position independent: it holds no
 * pointers.
 */
#ifndef HV_RING_RING_H
#define HV_RING_RING_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"

#define HV_RING_PAD_TYPE 0u

/* Where the producer's line sits in the ring's header (the ring itself is
 * page aligned): not on the page's first lines. Every page-aligned object of
 * the traced program (its buffers, a runtime's allocations, malloc's
 * per-thread cache, the start of each data segment) begins on the first line
 * of a page, so the first-level cache's set of page offset 0 is the most
 * crowded one: the runtime double's 130-stream step already puts 11 lines
 * there, as many as the set's 12 ways hold with hipvis's 3 (the ring's
 * producer line and the legacy stream's two lines, all at page offset 0) and
 * the set then missed on every step (bench-step, callgrind's cache model:
 * +8.8 read misses per step with 130 streams, none with 1). The producer line
 * is the one line of this header that every record touches; the stream
 * table does the same for its own lines (stream_table.h). */
#define HV_RING_PRODUCER_AT 0x8c0u

struct hv_ring {
    /* Consumer side. */
    alignas(64) _Atomic uint64_t tail;       /* bytes consumed */
    alignas(64) uint64_t capacity;           /* bytes, power of two */
    uint32_t tid;
    _Atomic uint32_t state;                  /* enum hv_ring_state */
    uint64_t data_offset;                    /* from the struct to the data bytes */
    char colour_[HV_RING_PRODUCER_AT - 64 - 24];   /* up to the producer line (asserted below) */
    /* Producer side (written by the owning thread only): what a record
     * touches is head, limit and made, on this one line. */
    alignas(64) _Atomic uint64_t head;       /* bytes published */
    /* How far head may advance before the producer must look again: the
     * lesser of its last view of tail + capacity (the ring's free space)
     * and the end of head's lap of the buffer (a record never straddles
     * it). One compare per record instead of a test of each;
     * 0 (a fresh ring) sends the first reserve to the slow path, which
     * sets it. */
    uint64_t limit;
    _Atomic uint64_t made;                   /* records the producer tried to emit */
    _Atomic uint64_t calls;                  /* call records (every owner of this ring, cumulative) */
    _Atomic uint64_t dropped[HV_DROP__COUNT];/* records not delivered, by cause */
};
_Static_assert(offsetof(struct hv_ring, head) == HV_RING_PRODUCER_AT, "the producer line where HV_RING_PRODUCER_AT says");

enum hv_ring_state {
    HV_RING_FREE = 0,     /* unowned, drained: may be claimed by a new thread */
    HV_RING_LIVE = 1,     /* owned by a running thread */
    HV_RING_EXITED = 2,   /* owner exited; consumer drains, then frees */
};

/* Counters only the producer writes: not a locked read-modify-write; the
 * consumer's snapshot reads are atomic loads. On x86 one unlocked `incq`
 * on memory (an aligned 8-byte store, which a concurrent load sees whole):
 * GCC does not fuse a relaxed atomic load and store into one instruction,
 * and every record bumps two of these: one instruction each, not two. */
static inline void hv_ring_bump(_Atomic uint64_t *counter)
{
#if defined(__x86_64__)
    __asm__ __volatile__("incq %0" : "+m"(*(uint64_t *)counter));
#else
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1, memory_order_relaxed);
#endif
}

/* Bytes needed for a ring of `capacity` data bytes (a power of two). */
size_t hv_ring_footprint(uint64_t capacity);
/* Lays a ring over `mem` (hv_ring_footprint bytes, 64-byte aligned);
 * `capacity` is at least HV_RING_MIN_BYTES. */
struct hv_ring *hv_ring_init(void *mem, uint64_t capacity, uint32_t tid);

static inline uint8_t *hv_ring_data(struct hv_ring *r) { return (uint8_t *)r + r->data_offset; }

/* The slow half of hv_ring_reserve_mask (ring.c): the record would pass the
 * ring's limit (the end of the buffer or the producer's view of the
 * tail), or is too large. */
__attribute__((cold)) void *hv_ring_reserve_slow(struct hv_ring *r, uint32_t len, uint64_t head);

/* Where a ring's data starts: hv_ring_init lays it right after the struct
 * (data_offset, which a consumer of a shared segment checks, says the same). */
#define HV_RING_DATA_OFFSET ((sizeof(struct hv_ring) + (HV_REC_ALIGN - 1)) & ~(size_t)(HV_REC_ALIGN - 1))
/* Smallest ring (HIPVIS_RING_KB's lower bound): a record of at most half of
 * it is never too large, which a constant length lets the reserve skip. */
#define HV_RING_MIN_BYTES (16u * 1024u)

/*
 * Producer: hv_ring_reserve_mask returns space for `len` bytes (a multiple
 * of 8, <= capacity/2) or NULL when the ring is full, in which case the drop
 * is already counted. Never blocks. Must be followed by hv_ring_commit_at
 * with the same len. The common case — the record ends at or before the
 * ring's limit — is one compare (hv_ring_reserve_fast, which returns NULL
 * and counts nothing otherwise, for a caller with a slow path of its own);
 * the rest (padding at the end, a fresh look at the tail, a drop) is out of
 * line.
 */
static inline void *hv_ring_reserve_fast(struct hv_ring *r, uint64_t mask, uint32_t len)
{
    /* Reads only the producer's line (head, limit, made): `mask` is
     * r->capacity - 1 as the caller keeps it (hv_thread_ctx.ring_mask), the
     * data offset a constant. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t off = head & mask;
    int small = __builtin_constant_p(len) && len <= HV_RING_MIN_BYTES / 2 ? 1 : len <= (mask + 1) / 2;
    /* The limit says it fits; the offset test keeps the write inside the
     * buffer even if the line was damaged (in sidecar mode it lies in a
     * segment another process maps). */
    if (__builtin_expect(!(small && head + len <= r->limit && off <= mask + 1 - len), 0))
        return NULL;
    hv_ring_bump(&r->made);
    return (uint8_t *)r + HV_RING_DATA_OFFSET + off;
}

static inline void *hv_ring_reserve_mask(struct hv_ring *r, uint64_t mask, uint32_t len)
{
    void *p = hv_ring_reserve_fast(r, mask, len);
    if (__builtin_expect(p != NULL, 1))
        return p;
    hv_ring_bump(&r->made);
    return hv_ring_reserve_slow(r, len, atomic_load_explicit(&r->head, memory_order_relaxed));
}

/* Asks for the cache lines the next record will be written to, for
 * writing: the consumer read them last (or they left the cache since the
 * ring last wrapped), and without this the next call's first stores wait
 * for that miss. PREFETCHW is a hint (it never faults, so a line past the
 * end of the buffer is harmless); CPUs without it treat it as a NOP. */
static inline void hv_ring_prefetch(const void *next)
{
#if defined(__x86_64__)
    __asm__ __volatile__("prefetchw %0" : : "m"(*(const uint8_t *)next));
    __asm__ __volatile__("prefetchw %0" : : "m"(*((const uint8_t *)next + 64)));
#else
    (void)next;
#endif
}

/*
 * Producer: publishes the record reserved at `rec`. The record's bytes were
 * written with plain stores; the release store of head is the one ordering
 * point: the consumer's acquire load of head (hv_ring_read) then sees every
 * byte of it (on x86 a plain store: TSO keeps earlier stores before it).
 */
static inline void hv_ring_commit_at(struct hv_ring *r, const void *rec, uint32_t len)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    atomic_store_explicit(&r->head, head + len, memory_order_release);
    /* Usually where the next record goes (not after a wrap: then a hint lost). */
    hv_ring_prefetch((const uint8_t *)rec + len);
}

/* Producer: counts a record lost for a reason other than a full ring. */
static inline void hv_ring_count_drop(struct hv_ring *r, enum hv_drop_cause cause)
{
    hv_ring_bump(&r->made);
    hv_ring_bump(&r->dropped[cause]);
}

/*
 * Consumer: calls `fn` for every published record in order, then releases
 * the space. Returns records consumed, or -1 when a record is malformed
 * (a corrupt shared ring): the records before it were visited and released,
 * the malformed one stays where it is.
 */
typedef int (*hv_ring_visit_fn)(const struct hv_rec_header *rec, void *ctx);
long hv_ring_drain(struct hv_ring *r, hv_ring_visit_fn fn, void *ctx);

/*
 * The same in two steps, for a consumer that must not give space back before
 * what it read is safe elsewhere (the sidecar releases once it holds copies,
 * before it writes them, and accounts for a kill in between; see
 * docs/sidecar.md). hv_ring_read visits the records published
 * between *pos (tail <= *pos <= head) and head and advances *pos; it returns
 * records visited, or -1 when the ring or a record is malformed: *pos then
 * stops at the malformed record, the ones before it having been visited.
 * hv_ring_release hands [tail, pos) back to the producer.
 */
long hv_ring_read(struct hv_ring *r, uint64_t *pos, hv_ring_visit_fn fn, void *ctx);
void hv_ring_release(struct hv_ring *r, uint64_t pos);

/* Consumer: a ring whose owner had exited (`state_before`, read before the
 * drain) and which is now empty has no producer left: make it claimable. */
static inline int hv_ring_recycle_if_drained(struct hv_ring *r, uint32_t state_before)
{
    uint32_t expect = HV_RING_EXITED;
    if (state_before != HV_RING_EXITED ||
        atomic_load_explicit(&r->head, memory_order_acquire) != atomic_load_explicit(&r->tail, memory_order_relaxed))
        return 0;
    /* CAS, not a store: in shared memory the state is not ours alone. */
    return atomic_compare_exchange_strong_explicit(&r->state, &expect, HV_RING_FREE, memory_order_release,
                                                   memory_order_relaxed);
}

/* Consumer: sum of drops so far (a snapshot; the producer may be running). */
uint64_t hv_ring_dropped_total(const struct hv_ring *r);

#endif
