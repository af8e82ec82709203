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
#ifndef HIPVIS_ALLOCMAP_H
#define HIPVIS_ALLOCMAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "preload/hot.h"
#include "record/collector.h"

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
     * line (issue 12; hv_alloc_version_hot). */
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
 * The same through a per-thread memo (struct hv_alloc_memo, in the thread's
 * context: record/collector.h): the interval [lo, hi) around the last
 * address looked up over which the answer cannot change while the map's
 * version stays `version` (the allocation that holds it, or the gap between
 * two allocations). A loop copies between the same buffers call after call,
 * so the repeat costs a version load and a range test instead of a binary
 * search. The answer is the one hv_alloc_kind gives for the same version.
 */
HV_COLD_FN enum hv_mem hv_alloc_kind_fill(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_memo *memo);
/* Two memos for one side of a copy (two ways): a miss in both moves way 0's
 * answer to way 1 and fills way 0, so two addresses used in turn (the
 * destinations of a step's H2D and D2H copies) each keep a memo. */
HV_COLD_FN enum hv_mem hv_alloc_kind_fill2(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_memo *way0,
                                           struct hv_alloc_memo *way1);
/* The map's version for hv_alloc_kind_memo_at: one load serves both sides
 * of a copy. Acquire pairs with end_update's release: a version equal to a
 * memo's means no update finished or is running since the memo was filled. */
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
static inline int hv_alloc_memo_holds(const struct hv_alloc_memo *memo, uint64_t version, uint64_t addr)
{
    return version == memo->version && addr - memo->lo < memo->hi - memo->lo;
}
static inline enum hv_mem hv_alloc_kind_memo_at(struct hv_alloc_map *m, uint64_t version, uint64_t addr,
                                                struct hv_alloc_memo *way0, struct hv_alloc_memo *way1)
{
    if (__builtin_expect(hv_alloc_memo_holds(way0, version, addr), 1))
        return (enum hv_mem)way0->mem;
    if (__builtin_expect(hv_alloc_memo_holds(way1, version, addr), 1))
        return (enum hv_mem)way1->mem;
    return hv_alloc_kind_fill2(m, addr, way0, way1);
}
static inline enum hv_mem hv_alloc_kind_memo(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_memo *way0,
                                             struct hv_alloc_memo *way1)
{
    return hv_alloc_kind_memo_at(m, hv_alloc_version(m), addr, way0, way1);
}

#endif
