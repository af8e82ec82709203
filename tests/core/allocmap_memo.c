/*
 * The per-thread allocation memo (preload/allocmap.h hv_alloc_kind_memo)
 * gives the answer hv_alloc_kind gives, whatever the map did in between:
 * random allocations, frees and replacements, queried at random addresses
 * and at the edges of every range (first byte, last byte, one past), with
 * two two-way memos used the way copies use them (destination, source),
 * and two addresses used in turn keep one memo each. The span a
 * launch's argument scan carries from word to word (hv_alloc_span_holds,
 * else hv_alloc_span_at) gives the allocation hv_alloc_find gives.
 */
#include <stdio.h>
#include <stdlib.h>

#include "preload/allocmap.h"

static struct hv_alloc_map map;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static long checked, failed;
static struct hv_alloc_span span;

static void check_span(uint64_t addr)
{
    struct hv_alloc_range want;
    int want_in = hv_alloc_find(&map, addr, &want);
    if (!hv_alloc_span_holds(&map, &span, addr) && !hv_alloc_span_at(&map, addr, &span))
        span = (struct hv_alloc_span){0};
    checked++;
    if ((span.in != want_in || (want_in && (span.r.base != want.base || span.r.bytes != want.bytes))) &&
        failed++ < 10)
        fprintf(stderr, "FAIL addr %#llx: span says %d [%#llx +%llu], map says %d [%#llx +%llu]\n",
                (unsigned long long)addr, span.in, (unsigned long long)span.r.base,
                (unsigned long long)span.r.bytes, want_in, want_in ? (unsigned long long)want.base : 0ull,
                want_in ? (unsigned long long)want.bytes : 0ull);
}

static int same_memo(const struct hv_alloc_memo *a, const struct hv_alloc_memo *b)
{
    return a->version == b->version && a->lo == b->lo && a->hi == b->hi && a->mem == b->mem;
}

static void check(uint64_t addr, struct hv_alloc_memo *memo)
{
    enum hv_mem want = hv_alloc_kind(&map, addr);
    enum hv_mem got = hv_alloc_kind_memo(&map, addr, &memo[0], &memo[1]);
    checked++;
    if (got != want && failed++ < 10)
        fprintf(stderr, "FAIL addr %#llx: memo says %d, map says %d\n", (unsigned long long)addr, got, want);
}

int main(void)
{
    hv_alloc_map_init(&map, NULL);
    static uint64_t bases[512];
    int nb = 0;
    struct hv_alloc_memo memo[2][2] = {{{0}}};   /* [side][way] here */
    for (int step = 0; step < 20000; step++) {
        uint64_t r = next_rand();
        if (r % 8 == 0 && nb < 512) {
            /* Allocations in a small window so they sit next to each other,
             * and some wrap the top of the address space. */
            uint64_t base = r % 64 == 0 ? UINT64_MAX - (r >> 40) % 4096 : 0x10000 + ((r >> 8) % 4096) * 64;
            uint64_t bytes = 1 + (r >> 20) % 512;
            hv_alloc_add(&map, base, bytes, (enum hv_mem)(1 + (r >> 32) % 5), 0);
            bases[nb++] = base;
        } else if (r % 8 == 1 && nb > 0) {
            int k = (int)((r >> 8) % (uint64_t)nb);
            hv_alloc_remove(&map, bases[k]);
            bases[k] = bases[--nb];
        }
        /* Around a known base (edges), and anywhere in the window. */
        uint64_t a = nb ? bases[(r >> 16) % (uint64_t)nb] : 0x10000;
        for (int d = -1; d <= 600; d += 1 + (int)(next_rand() % 97)) {
            check(a + (uint64_t)(int64_t)d, memo[0]);
            check(a + (uint64_t)(int64_t)d, memo[0]);   /* the repeat a loop makes */
            check(a + (uint64_t)(int64_t)d - 4096, memo[0]);   /* and a second address in turn */
            check_span(a + (uint64_t)(int64_t)d);
        }
        check_span(next_rand() >> (next_rand() % 64));   /* small words, as in a kernel's arguments */
        check(0x10000 + next_rand() % (4096 * 64 + 1024), memo[1]);
        check(next_rand(), memo[1]);
    }
    /* A step's two copies name two destinations in turn (a tracked device
     * buffer, an untracked host scalar): once both are looked up, neither
     * lookup refills a memo while the map stays the same. */
    struct hv_alloc_map m2;
    hv_alloc_map_init(&m2, NULL);
    hv_alloc_add(&m2, 0x100000, 4096, HV_MEM_DEVICE, 0);
    hv_alloc_add(&m2, 0x300000, 4096, HV_MEM_HOST_PINNED, 0);
    struct hv_alloc_memo w[2] = {{0}};
    (void)hv_alloc_kind_memo(&m2, 0x100010, &w[0], &w[1]);
    (void)hv_alloc_kind_memo(&m2, 0x7fff0000, &w[0], &w[1]);
    struct hv_alloc_memo before[2] = {w[0], w[1]};
    for (int i = 0; i < 8; i++) {
        enum hv_mem dev = hv_alloc_kind_memo(&m2, 0x100010 + (uint64_t)i, &w[0], &w[1]);
        int kept = same_memo(&w[0], &before[0]) && same_memo(&w[1], &before[1]);
        enum hv_mem host = hv_alloc_kind_memo(&m2, 0x7fff0000 + (uint64_t)i, &w[0], &w[1]);
        kept = kept && same_memo(&w[0], &before[0]) && same_memo(&w[1], &before[1]);
        checked += 2;
        if ((dev != HV_MEM_DEVICE || host != HV_MEM_UNKNOWN || !kept) && failed++ < 10)
            fprintf(stderr, "FAIL alternating lookups: %d %d, memos %s\n", dev, host, kept ? "kept" : "refilled");
    }
    printf("allocmap-memo: %ld lookups, %ld disagreed with hv_alloc_kind / hv_alloc_find\n", checked, failed);
    return failed != 0;
}
