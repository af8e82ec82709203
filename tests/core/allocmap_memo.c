/*
 * The per-thread two-way copy memo (core/allocmap.h hv_alloc_copy_kinds)
 * gives for both sides of a copy the answers hv_alloc_kind gives, whatever
 * the map did in between: random allocations, frees and replacements,
 * queried at random addresses and at the edges of every range (first byte,
 * last byte, one past), on either side, with the other side held or moving
 * the way copies use it (a loop's repeat, a new buffer on one side, a
 * second copy in turn); and a step's two copies in turn keep one way each.
 * The span a
 * launch's argument scan carries from word to word (hv_alloc_span_holds,
 * else hv_alloc_span_at) gives the allocation hv_alloc_find gives, and so
 * does the thread's launch memo across launches (hv_alloc_span_memo); a
 * loop's launches over three buffers in turn keep one way each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/core/allocmap.h"

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

/* The launch memo (hv_alloc_span_memo) answers as hv_alloc_find does. */
static struct hv_span_memo launch_memo[HV_SPAN_MEMO_WAYS];
static void check_launch(uint64_t addr)
{
    struct hv_alloc_range want;
    struct hv_alloc_span s = {0};
    int want_in = hv_alloc_find(&map, addr, &want);
    int ok = hv_alloc_span_memo(&map, hv_alloc_version(&map), addr, launch_memo, &s);
    checked++;
    if ((!ok || s.in != want_in || !((s.lo <= addr && addr < s.hi) || s.lo == s.hi) ||
         (want_in && (s.r.base != want.base || s.r.bytes != want.bytes))) &&
        failed++ < 10)
        fprintf(stderr, "FAIL launch memo at %#llx: %d in %d [%#llx +%llu), map says %d [%#llx +%llu]\n",
                (unsigned long long)addr, ok, s.in, (unsigned long long)s.r.base, (unsigned long long)s.r.bytes, want_in,
                want_in ? (unsigned long long)want.base : 0ull, want_in ? (unsigned long long)want.bytes : 0ull);
}

static int same_memo(const struct hv_copy_memo *a, const struct hv_copy_memo *b)
{
    return a->version == b->version && a->lo[0] == b->lo[0] && a->lo[1] == b->lo[1] && a->len[0] == b->len[0] &&
           a->len[1] == b->len[1] && a->mem[0] == b->mem[0] && a->mem[1] == b->mem[1];
}

static void check(uint64_t dst, uint64_t src, struct hv_copy_memo memo[2])
{
    enum hv_mem want_d = hv_alloc_kind(&map, dst), want_s = hv_alloc_kind(&map, src);
    unsigned got = hv_alloc_copy_kinds(&map, hv_alloc_version(&map), dst, src, memo);
    checked++;
    if ((got & 0xff) != want_d || got >> 8 != want_s)
        if (failed++ < 10)
            fprintf(stderr, "FAIL dst %#llx src %#llx: memo says %u/%u, map says %d/%d\n", (unsigned long long)dst,
                    (unsigned long long)src, got & 0xff, got >> 8, want_d, want_s);
}

int main(void)
{
    hv_alloc_map_init(&map, NULL);
    static uint64_t bases[512];
    int nb = 0;
    struct hv_copy_memo memo[2] = {{0}};
    uint64_t held = 0x10000;   /* the side a loop keeps copying from */
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
            check(a + (uint64_t)(int64_t)d, held, memo);
            check(a + (uint64_t)(int64_t)d, held, memo);   /* the repeat a loop makes */
            check(held, a + (uint64_t)(int64_t)d - 4096, memo);   /* and a second copy in turn */
            check(held, a + (uint64_t)(int64_t)d, memo);   /* the other side moving */
            check_span(a + (uint64_t)(int64_t)d);
            check_launch(a + (uint64_t)(int64_t)d);
            check_launch(held);   /* another argument of the same launch */
        }
        check_span(next_rand() >> (next_rand() % 64));   /* small words, as in a kernel's arguments */
        check_launch(next_rand() >> (next_rand() % 64));
        held = 0x10000 + next_rand() % (4096 * 64 + 1024);
        check(held, next_rand(), memo);
        check(next_rand(), held, memo);
    }
    /* A step's two copies in turn (the pinned H2D copy into a device
     * buffer; the D2H copy of a device result into an untracked host
     * scalar): once both were looked up, neither refills a way while the
     * map stays the same. */
    struct hv_alloc_map m2;
    hv_alloc_map_init(&m2, NULL);
    hv_alloc_add(&m2, 0x100000, 4096, HV_MEM_DEVICE, 0);
    hv_alloc_add(&m2, 0x300000, 4096, HV_MEM_HOST_PINNED, 0);
    hv_alloc_add(&m2, 0x500000, 4096, HV_MEM_DEVICE, 0);
    struct hv_copy_memo w[2] = {{0}};
    (void)hv_alloc_copy_kinds(&m2, hv_alloc_version(&m2), 0x100010, 0x300010, w);
    (void)hv_alloc_copy_kinds(&m2, hv_alloc_version(&m2), 0x7fff0000, 0x500010, w);
    struct hv_copy_memo before[2] = {w[0], w[1]};
    for (int i = 0; i < 8; i++) {
        unsigned h2d = hv_alloc_copy_kinds(&m2, hv_alloc_version(&m2), 0x100010 + (uint64_t)i, 0x300010, w);
        int kept = same_memo(&w[0], &before[0]) && same_memo(&w[1], &before[1]);
        unsigned d2h = hv_alloc_copy_kinds(&m2, hv_alloc_version(&m2), 0x7fff0000 + (uint64_t)i, 0x500010, w);
        kept = kept && same_memo(&w[0], &before[0]) && same_memo(&w[1], &before[1]);
        checked += 2;
        if ((h2d != (HV_MEM_DEVICE | HV_MEM_HOST_PINNED << 8) || d2h != (HV_MEM_UNKNOWN | HV_MEM_DEVICE << 8) ||
             !kept) && failed++ < 10)
            fprintf(stderr, "FAIL alternating copies: %#x %#x, memo %s\n", h2d, d2h, kept ? "kept" : "refilled");
    }
    /* Launches of two kernels in turn over three buffers, (a, b) then
     * (b, c), as the double's decode loop makes them: once each buffer was
     * looked up, no launch refills a way while the map stays the same. */
    struct hv_span_memo lm[HV_SPAN_MEMO_WAYS] = {{0}};
    static const uint64_t args[4] = {0x100010, 0x300010, 0x300020, 0x500010};
    struct hv_alloc_span sp;
    for (int i = 0; i < 4; i++)
        (void)hv_alloc_span_memo(&m2, hv_alloc_version(&m2), args[i], lm, &sp);
    struct hv_span_memo lm_before[HV_SPAN_MEMO_WAYS];
    memcpy(lm_before, lm, sizeof lm);
    for (int i = 0; i < 32; i++) {
        int ok = hv_alloc_span_memo(&m2, hv_alloc_version(&m2), args[i % 4] + (uint64_t)i, lm, &sp);
        checked++;
        if ((!ok || !sp.in || sp.r.base != (args[i % 4] & ~(uint64_t)0xfff) || sp.r.bytes != 4096 ||
             memcmp(lm, lm_before, sizeof lm) != 0) && failed++ < 10)
            fprintf(stderr, "FAIL launches in turn: argument %#llx: %d in %d base %#llx, memo %s\n",
                    (unsigned long long)args[i % 4], ok, sp.in, (unsigned long long)sp.r.base,
                    memcmp(lm, lm_before, sizeof lm) ? "refilled" : "kept");
    }
    printf("allocmap-memo: %ld lookups, %ld disagreed with hv_alloc_kind / hv_alloc_find\n", checked, failed);
    return failed != 0;
}
