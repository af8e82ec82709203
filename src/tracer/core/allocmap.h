/*
 * The allocations the runtime handed out or registered, so a record can say
 * whether a copy's host side is pinned and which allocation a kernel's
 * pointer argument falls in.
 *
 * Reads (on every copy and launch) are lock-free: a sorted array under a
 * sequence lock, retried a bounded number of times and answered "unknown"
 * if updates keep racing. Updates (alloc/free, far rarer) serialise on a
 * mutex among themselves; that mutex is taken around fork so a child never
 * inherits it locked.
 */
#ifndef HV_TRACER_CORE_ALLOCMAP_H
#define HV_TRACER_CORE_ALLOCMAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/hot.h"
#include "tracer/record/collector.h"

#define HV_ALLOC_CAPACITY 65536u

struct hv_alloc_range {
    uint64_t base, bytes;
    uint8_t mem;        /* enum hv_mem */
    int8_t device;
};

struct hv_alloc_map {
    pthread_mutex_t update_lock;
    /* The version, odd while an update is in progress: own_version, or for
     * the tracer's map hv_hot.alloc_version, so that a copy's memo check
     * reads the line every call reads anyway and not this map's first
     * line (hv_alloc_version_hot). */
    _Atomic uint64_t *version;
    _Atomic uint64_t own_version;
    _Atomic uint32_t count;
    _Atomic uint64_t overflow;         /* allocations not tracked: map full */
    struct hv_alloc_range ranges[HV_ALLOC_CAPACITY];
};

/* `version`: where the map keeps its version (NULL: in the map). */
void hv_alloc_map_init(struct hv_alloc_map *m, _Atomic uint64_t *version);
void hv_alloc_add(struct hv_alloc_map *m, uint64_t base, uint64_t bytes, enum hv_mem mem, int device);
/* Removes the allocation starting at base; returns its size (0 unknown). */
uint64_t hv_alloc_remove(struct hv_alloc_map *m, uint64_t base);
/* Finds the allocation containing addr. Returns 1 and fills *out, 0 when
 * not tracked (or the answer could not be read consistently). */
int hv_alloc_find(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_range *out);

/* Memory kind of a pointer: tracked kind, or pageable/unknown by heuristics. */
enum hv_mem hv_alloc_kind(struct hv_alloc_map *m, uint64_t addr);

/* What hv_alloc_find answers for an address, and the interval [lo, hi)
 * around it over which the answer stays the same while the map's version
 * stays `version` (the allocation that holds it, or the gap between two). */
struct hv_alloc_span {
    uint64_t version, lo, hi;    /* empty (lo == hi) until filled */
    int in;                      /* 1: inside allocation r */
    struct hv_alloc_range r;
};
/* Fills *s for addr (an empty interval when none can be reused); 0 when no
 * consistent answer could be read (s untouched). */
int hv_alloc_span_at(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_span *s);
static inline int hv_alloc_span_holds(struct hv_alloc_map *m, const struct hv_alloc_span *s, uint64_t addr)
{
    return addr - s->lo < s->hi - s->lo &&
           atomic_load_explicit(m->version, memory_order_acquire) == s->version;
}

/*
 * hv_alloc_span_at through a memo of spans (HV_SPAN_MEMO_WAYS ways: the
 * thread's launch_memo, record/collector.h struct hv_span_memo): a launch's
 * pointer arguments fall in the allocations the previous launches' did, so
 * a repeat is a version compare and a range test per way tried instead of
 * a binary search, whose levels are each a miss in situ.
 * `version` is m's (hv_alloc_version_hot for the tracer's map). A miss in
 * every way searches, shifts the ways down (the last is dropped) and keeps
 * the answer in way 0. Fills *s with the interval, `in` and, when in, the
 * allocation's base and size that hv_alloc_span_at gives for the same
 * version (not its mem and device, which a way does not keep, nor a gap's
 * neighbour); returns 0 when no consistent answer could be read (s
 * untouched).
 */
HV_COLD_FN int hv_alloc_span_memo_fill(struct hv_alloc_map *m, uint64_t addr, struct hv_span_memo *memo,
                                       struct hv_alloc_span *s);
static inline int hv_alloc_span_memo(struct hv_alloc_map *m, uint64_t version, uint64_t addr,
                                     struct hv_span_memo *memo, struct hv_alloc_span *s)
{
    for (int w = 0; w < HV_SPAN_MEMO_WAYS; w++) {
        const struct hv_span_memo *e = &memo[w];
        if (version == e->version && addr - e->lo < e->len) {
            *s = (struct hv_alloc_span){.version = version, .lo = e->lo, .hi = e->lo + e->len, .in = e->bytes != 0,
                                        .r = {e->bytes ? e->lo : 0, e->bytes, 0, 0}};
            return 1;
        }
    }
    return hv_alloc_span_memo_fill(m, addr, memo, s);
}

/*
 * The memory kinds of a copy's two sides, through the thread's two-way memo
 * (struct hv_copy_memo[2], in the thread's context: record/collector.h):
 * per way and side the interval around the address last looked up over
 * which the answer cannot change while the map's version stays the way's
 * (the allocation that holds it, or the gap between two allocations). A
 * loop copies between the same buffers call after call, and a serving step
 * makes two such copies in turn, so a repeat costs a version compare and
 * two range tests (per way tried) instead of two binary searches. A miss in
 * both ways moves way 0 to way 1 and fills way 0. The answers are the ones
 * hv_alloc_kind gives for the same version. Returns the destination's kind
 * | the source's << 8.
 */
HV_COLD_FN unsigned hv_alloc_copy_kinds_fill(struct hv_alloc_map *m, uint64_t dst, uint64_t src,
                                              struct hv_copy_memo memo[2]);
/* The map's version for hv_alloc_copy_kinds. Acquire pairs with
 * end_update's release: a version equal to a memo's means no update
 * finished or is running since the memo was filled. */
static inline uint64_t hv_alloc_version(struct hv_alloc_map *m)
{
    return atomic_load_explicit(m->version, memory_order_acquire);
}
/* The version of the tracer's map (hv_hot.allocs), which lives in hv_hot. */
static inline uint64_t hv_alloc_version_hot(void)
{
    return atomic_load_explicit(&hv_hot.alloc_version, memory_order_acquire);
}
/* hv_alloc_span_holds for the tracer's map. */
static inline int hv_alloc_span_holds_hot(const struct hv_alloc_span *s, uint64_t addr)
{
    return addr - s->lo < s->hi - s->lo && hv_alloc_version_hot() == s->version;
}
/* `version`: m's (hv_alloc_version, or hv_alloc_version_hot for the
 * tracer's map: m is then read only when the memo misses). */
static inline int hv_copy_memo_holds(const struct hv_copy_memo *w, uint64_t version, uint64_t dst, uint64_t src)
{
    return version == w->version && dst - w->lo[0] < w->len[0] && src - w->lo[1] < w->len[1];
}
static inline unsigned hv_alloc_copy_kinds(struct hv_alloc_map *m, uint64_t version, uint64_t dst, uint64_t src,
                                           struct hv_copy_memo memo[2])
{
    if (__builtin_expect(hv_copy_memo_holds(&memo[0], version, dst, src), 1))
        return memo[0].mem[0] | (unsigned)memo[0].mem[1] << 8;
    if (__builtin_expect(hv_copy_memo_holds(&memo[1], version, dst, src), 1))
        return memo[1].mem[0] | (unsigned)memo[1].mem[1] << 8;
    return hv_alloc_copy_kinds_fill(m, dst, src, memo);
}

#endif
