#include "tracer/core/allocmap.h"

#include <string.h>

void hv_alloc_map_init(struct hv_alloc_map *m, _Atomic uint64_t *version)
{
    pthread_mutex_init(&m->update_lock, NULL);
    m->version = version ? version : &m->own_version;
    atomic_store(m->version, 0);
    atomic_store(&m->count, 0);
}

/* First index whose base is > addr. */
static uint32_t upper_bound(const struct hv_alloc_range *r, uint32_t n, uint64_t addr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void begin_update(struct hv_alloc_map *m)
{
    pthread_mutex_lock(&m->update_lock);
    atomic_fetch_add_explicit(m->version, 1, memory_order_acq_rel);
    /* Readers that see the odd version retry; the fence keeps the array
     * writes after the version bump. */
    atomic_thread_fence(memory_order_release);
}

static void end_update(struct hv_alloc_map *m)
{
    atomic_fetch_add_explicit(m->version, 1, memory_order_release);
    pthread_mutex_unlock(&m->update_lock);
}

void hv_alloc_add(struct hv_alloc_map *m, uint64_t base, uint64_t bytes, enum hv_mem mem, int device)
{
    if (base == 0)
        return;
    begin_update(m);
    uint32_t n = atomic_load_explicit(&m->count, memory_order_relaxed);
    uint32_t i = upper_bound(m->ranges, n, base);
    if (i > 0 && m->ranges[i - 1].base == base) {
        /* The runtime reused an address we never saw freed: replace. */
        m->ranges[i - 1] = (struct hv_alloc_range){base, bytes, (uint8_t)mem, (int8_t)device};
    } else if (n < HV_ALLOC_CAPACITY) {
        memmove(&m->ranges[i + 1], &m->ranges[i], (n - i) * sizeof m->ranges[0]);
        m->ranges[i] = (struct hv_alloc_range){base, bytes, (uint8_t)mem, (int8_t)device};
        atomic_store_explicit(&m->count, n + 1, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&m->overflow, 1, memory_order_relaxed);
    }
    end_update(m);
}

uint64_t hv_alloc_remove(struct hv_alloc_map *m, uint64_t base)
{
    uint64_t bytes = 0;
    if (base == 0)
        return 0;
    begin_update(m);
    uint32_t n = atomic_load_explicit(&m->count, memory_order_relaxed);
    uint32_t i = upper_bound(m->ranges, n, base);
    if (i > 0 && m->ranges[i - 1].base == base) {
        bytes = m->ranges[i - 1].bytes;
        memmove(&m->ranges[i - 1], &m->ranges[i], (n - i) * sizeof m->ranges[0]);
        atomic_store_explicit(&m->count, n - 1, memory_order_relaxed);
    }
    end_update(m);
    return bytes;
}

/* One consistent look (sequence lock) at the allocation whose base is the
 * last <= addr (*prev, zeroed when none: *i is then 0) and the base of the
 * next one (*next, UINT64_MAX when none), under *version. 0 when updates
 * kept racing. */
static int snapshot(struct hv_alloc_map *m, uint64_t addr, uint32_t *i, struct hv_alloc_range *prev, uint64_t *next,
                    uint64_t *version)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        uint64_t v1 = atomic_load_explicit(m->version, memory_order_acquire);
        if (v1 & 1)
            continue;
        uint32_t n = atomic_load_explicit(&m->count, memory_order_relaxed);
        if (n > HV_ALLOC_CAPACITY)
            n = HV_ALLOC_CAPACITY;
        /* Racy reads are fine: the result is discarded unless the version
         * is unchanged afterwards. */
        *i = upper_bound(m->ranges, n, addr);
        *prev = *i > 0 ? m->ranges[*i - 1] : (struct hv_alloc_range){0, 0, 0, 0};
        *next = *i < n ? m->ranges[*i].base : UINT64_MAX;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(m->version, memory_order_relaxed) != v1)
            continue;
        *version = v1;
        return 1;
    }
    return 0;
}

int hv_alloc_find(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_range *out)
{
    uint32_t i;
    uint64_t next, v;
    struct hv_alloc_range r;
    if (!snapshot(m, addr, &i, &r, &next, &v) || i == 0 || addr - r.base >= r.bytes)
        return 0;
    *out = r;
    return 1;
}

/* hv_alloc_find that also says over which interval its answer holds: every
 * address whose upper bound is the same index i gets the same answer, that
 * is [base of i-1, base of i) split at the end of allocation i-1. */
int hv_alloc_span_at(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_span *s)
{
    uint32_t i;
    uint64_t next, v;
    struct hv_alloc_range r;
    if (!snapshot(m, addr, &i, &r, &next, &v))
        return 0;
    uint64_t end = r.base + r.bytes < r.base ? UINT64_MAX : r.base + r.bytes;   /* wraps: to the top */
    int in = i > 0 && addr - r.base < r.bytes;
    uint64_t lo = in ? r.base : i > 0 ? end : 0;
    uint64_t hi = in ? (end < next ? end : next) : next;
    if (!(lo <= addr && addr < hi))
        lo = hi = 0;    /* the last byte of the address space: answer, but nothing to reuse */
    *s = (struct hv_alloc_span){.version = v, .lo = lo, .hi = hi, .in = in, .r = r};
    return 1;
}

int hv_alloc_span_memo_fill(struct hv_alloc_map *m, uint64_t addr, struct hv_span_memo *memo, struct hv_alloc_span *s)
{
    if (!hv_alloc_span_at(m, addr, s))
        return 0;
    /* A span that is an allocation starts at it (hv_alloc_span_at): the
     * way needs only its size. An empty interval (the last byte of the
     * address space) is answered and not kept. */
    if (s->hi > s->lo) {
        memmove(&memo[1], &memo[0], (HV_SPAN_MEMO_WAYS - 1) * sizeof *memo);
        memo[0] = (struct hv_span_memo){s->version, s->lo, s->hi - s->lo, s->in ? s->r.bytes : 0};
    }
    return 1;
}

unsigned hv_alloc_copy_kinds_fill(struct hv_alloc_map *m, uint64_t dst, uint64_t src, struct hv_copy_memo memo[2])
{
    struct hv_alloc_span s[2];
    uint64_t addr[2] = {dst, src};
    unsigned kinds = 0;
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        if (hv_alloc_span_at(m, addr[k], &s[k]))
            kinds |= (unsigned)(s[k].in ? s[k].r.mem : HV_MEM_UNKNOWN) << (8 * k);
        else
            ok = 0;   /* updates kept racing: unknown, nothing to keep */
    }
    /* Kept only when both answers come from one version (an update between
     * the two looks: answered, not kept). */
    if (ok && s[0].version == s[1].version) {
        memo[1] = memo[0];
        memo[0].version = s[0].version;
        for (int k = 0; k < 2; k++) {
            memo[0].lo[k] = s[k].lo;
            memo[0].len[k] = s[k].hi - s[k].lo;
            memo[0].mem[k] = (uint8_t)(kinds >> (8 * k));
        }
    }
    return kinds;
}

enum hv_mem hv_alloc_kind(struct hv_alloc_map *m, uint64_t addr)
{
    struct hv_alloc_range r;
    if (hv_alloc_find(m, addr, &r))
        return (enum hv_mem)r.mem;
    return HV_MEM_UNKNOWN;
}
