/* Model data structures against brute-force references. */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/imap.h"
#include "common/grow.h"
#include "common/strset.h"
#include "common/u64map.h"
#include "analyze/model/vclock.h"
#include "tcheck.h"

void test_u64map(void)
{
    struct hv_u64map m;
    hv_u64map_init(&m);
    CHECK(hv_u64map_get(&m, 0) == HV_U64MAP_NONE);
    for (uint32_t i = 0; i < 5000; i++)
        hv_u64map_put(&m, (uint64_t)i * 4096u, i);
    hv_u64map_put(&m, 0, 77);  /* key 0 is a real key (the "no stream" id) */
    CHECK_EQ_U(hv_u64map_get(&m, 0), 77);
    int ok = 1;
    for (uint32_t i = 1; i < 5000; i++)
        ok &= hv_u64map_get(&m, (uint64_t)i * 4096u) == i;
    CHECK(ok);
    /* Delete every other key: the rest must still be found (backward shift). */
    for (uint32_t i = 1; i < 5000; i += 2)
        CHECK(hv_u64map_del(&m, (uint64_t)i * 4096u) == i);
    ok = 1;
    for (uint32_t i = 1; i < 5000; i++)
        ok &= hv_u64map_get(&m, (uint64_t)i * 4096u) == (i % 2 ? HV_U64MAP_NONE : i);
    CHECK(ok);
    CHECK_EQ_U(m.count, 2500);
    CHECK(hv_u64map_del(&m, 12345) == HV_U64MAP_NONE);
    hv_u64map_free(&m);
}

/* Several values under one key (keys that are hashes): each is found once. */
void test_u64map_multi(void)
{
    struct hv_u64map m;
    hv_u64map_init(&m);
    size_t pos = 0;
    CHECK(hv_u64map_next(&m, 5, &pos) == HV_U64MAP_NONE);
    for (uint32_t i = 0; i < 300; i++)
        CHECK(hv_u64map_add(&m, i % 3, i) == 0);   /* grows while keys repeat */
    /* Each key yields its own 100 values, each once (their sum says so). */
    int ok = 1;
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t n = 0, sum = 0;
        pos = 0;
        for (uint32_t v; (v = hv_u64map_next(&m, k, &pos)) != HV_U64MAP_NONE; n++, sum += v)
            ok &= v % 3 == k;
        ok &= n == 100 && sum == 3 * 4950 + 100 * k;
    }
    CHECK(ok);
    pos = 0;
    CHECK(hv_u64map_next(&m, 3, &pos) == HV_U64MAP_NONE);
    hv_u64map_free(&m);

    struct hv_strset set = {0};
    uint32_t a = hv_strset_intern(&set, "alpha"), b = hv_strset_intern(&set, "beta");
    CHECK(a != b && a != HV_U64MAP_NONE && b != HV_U64MAP_NONE);
    CHECK_EQ_U(hv_strset_intern(&set, "alpha"), a);
    CHECK(strcmp(set.v[b], "beta") == 0);
    CHECK_EQ_U(set.n, 2);
    hv_strset_free(&set);
}

/* The growth family: doubling from init, a bound, zeroed tails, parallel
 * arrays, and a capacity that its type cannot hold. */
void test_grow(void)
{
    int *v = NULL;
    uint32_t n = 0, cap = 0;
    int ok = 1;
    for (int i = 0; i < 100; i++) {
        ok &= HV_GROW(v, n, cap, 8);
        v[n++] = i;
    }
    CHECK(ok);
    CHECK_EQ_U(cap, 128);
    CHECK(HV_GROW_ZERO(v, 300, cap, 8) && cap == 512 && v[99] == 99 && v[128] == 0 && v[511] == 0);
    free(v);

    char *buf = NULL;
    size_t bcap = 0;
    CHECK(HV_GROW_UPTO(buf, 1, bcap, 64, 100) && bcap == 64);
    CHECK(HV_GROW_UPTO(buf, bcap + 1, bcap, 64, 100) && bcap == 100);   /* the last step is cut */
    CHECK(!HV_GROW_UPTO(buf, bcap + 1, bcap, 64, 100) && bcap == 100);
    free(buf);

    uint64_t *a = NULL;
    uint16_t *b = NULL;
    size_t pn = 0, pcap = 0;
    for (; pn < 40; pn++) {
        ok &= HV_GROW2(a, b, pn, pcap, 4);
        a[pn] = pn;
        b[pn] = (uint16_t)pn;
    }
    CHECK(ok && pcap == 64 && a[39] == 39 && b[39] == 39);
    free(a);
    free(b);

    char *c = NULL;
    uint8_t ccap = 0;
    size_t need = 200;
    CHECK(HV_GROW_TO(c, need, ccap, 16) && ccap == 255);   /* 256 does not fit a uint8_t */
    need = 256;
    CHECK(!HV_GROW_TO(c, need, ccap, 16) && ccap == 255);
    free(c);
}

/* The imap against a byte array holding each byte's last value. */
void test_imap_random(void)
{
    enum { SPACE = 512 };
    uint32_t ref[SPACE];
    memset(ref, 0, sizeof ref);
    struct hv_imap m;
    hv_imap_init(&m, sizeof(uint32_t));
    srand(7);
    int ok = 1;
    for (uint32_t step = 1; step <= 40000 && ok; step++) {
        uint64_t lo = (uint64_t)(rand() % SPACE), len = 1 + (uint64_t)(rand() % 40);
        /* The second half: buffer-shaped writes (aligned starts, a few
         * lengths), so whole rewrites, prefixes and two-segment rewrites of
         * the same starts happen all the time (assign's fast paths). */
        if (step > 20000) {
            lo = (uint64_t)(rand() % (SPACE / 32)) * 32;
            len = 16 * (1 + (uint64_t)(rand() % 4));
        }
        uint64_t hi = lo + len > SPACE ? SPACE : lo + len;
        if (rand() % 4 == 0) {
            hv_imap_erase(&m, lo, hi);
            for (uint64_t b = lo; b < hi; b++)
                ref[b] = 0;
        } else {
            uint32_t *v = hv_imap_assign(&m, lo, hi);
            ok &= v != NULL;
            if (v)
                *v = step;
            for (uint64_t b = lo; b < hi; b++)
                ref[b] = step;
        }
        if (step % 97 == 0 || (step > 19900 && step <= 20000) || step > 39900) {
            size_t segs = 0;
            for (uint64_t b = 0; b < SPACE; b++) {
                struct hv_imap_seg s;
                int f = hv_imap_find(&m, b, &s);
                ok &= f ? (ref[b] == *(uint32_t *)s.val && s.lo <= b && b < s.hi) : ref[b] == 0;
            }
            struct hv_imap_seg s;
            uint64_t prev_hi = 0;
            for (int f = hv_imap_seek(&m, 0, &s); f; f = hv_imap_seek(&m, s.hi, &s)) {
                ok &= s.lo >= prev_hi && s.lo < s.hi;  /* disjoint, ordered */
                prev_hi = s.hi;
                segs++;
            }
            ok &= segs == hv_imap_count(&m);
            /* hv_imap_next walks the same segments, from any start. */
            uint64_t from = (uint64_t)(rand() % SPACE);
            struct hv_imap_seg a, b;
            int fa = hv_imap_seek(&m, from, &a), fb = fa ? hv_imap_seek(&m, from, &b) : 0;
            while (fa && fb) {
                ok &= a.lo == b.lo && a.hi == b.hi && a.val == b.val;
                fa = hv_imap_next(&m, &a);
                fb = hv_imap_seek(&m, b.hi, &b);
            }
            ok &= fa == fb;
        }
    }
    CHECK(ok);
    /* Exact rewrite of an existing segment reuses it. */
    hv_imap_clear(&m);
    *(uint32_t *)hv_imap_assign(&m, 100, 200) = 1;
    size_t before = m.used;
    for (int i = 0; i < 1000; i++)
        *(uint32_t *)hv_imap_assign(&m, 100, 200) = 2;
    CHECK_EQ_U(m.used, before);
    CHECK_EQ_U(hv_imap_count(&m), 1);
    /* Splitting one segment in three. */
    *(uint32_t *)hv_imap_assign(&m, 150, 160) = 3;
    CHECK_EQ_U(hv_imap_count(&m), 3);
    struct hv_imap_seg s;
    CHECK(hv_imap_find(&m, 170, &s) && s.lo == 160 && s.hi == 200 && *(uint32_t *)s.val == 2);
    CHECK(hv_imap_find(&m, 120, &s) && s.lo == 100 && s.hi == 150);
    CHECK(!hv_imap_find(&m, 200, &s));
    CHECK(hv_imap_assign(&m, 5, 5) == NULL);
    hv_imap_free(&m);
}

void test_vclock(void)
{
    struct hv_vclock a, b;
    hv_vc_init(&a);
    hv_vc_init(&b);
    CHECK_EQ_U(hv_vc_get(&a, 3), 0);
    hv_vc_raise(&a, 5, 10);
    hv_vc_raise(&a, 2, 7);
    hv_vc_raise(&a, 5, 4);  /* lower: ignored */
    CHECK_EQ_U(hv_vc_get(&a, 5), 10);
    CHECK_EQ_U(hv_vc_get(&a, 2), 7);
    hv_vc_raise(&b, 2, 9);
    hv_vc_raise(&b, 8, 1);
    hv_vc_join(&a, &b);
    CHECK_EQ_U(hv_vc_get(&a, 2), 9);
    CHECK_EQ_U(hv_vc_get(&a, 8), 1);
    CHECK_EQ_U(hv_vc_count(&a), 3);
    hv_vc_copy(&b, &a);
    CHECK_EQ_U(hv_vc_count(&b), 3);
    CHECK_EQ_U(hv_vc_get(&b, 5), 10);
    /* Clocks share nodes: raising the copy leaves the original as it was. */
    hv_vc_raise(&b, 5, 11);
    hv_vc_raise(&b, 1, 1);
    CHECK_EQ_U(hv_vc_get(&a, 5), 10);
    CHECK_EQ_U(hv_vc_get(&a, 1), 0);
    CHECK_EQ_U(hv_vc_get(&b, 5), 11);
    hv_vc_free(&a);
    hv_vc_free(&b);
}

/* Persistent clocks against flat arrays: random raises, copies, joins and
 * resets over 8 clocks that share nodes, every entry compared after each
 * step (ASan in the sanitizer tree sees any use after free or leak). */
void test_vclock_random(void)
{
    enum { NC = 8, NS = 64 };
    struct hv_vclock c[NC];
    uint64_t flat[NC][NS] = {{0}};
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < NC; i++)
        hv_vc_init(&c[i]);
    int bad = 0;
    for (int step = 0; step < 20000 && !bad; step++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int a = (int)(x % NC), b = (int)((x >> 8) % NC), op = (int)((x >> 16) % 10);
        uint32_t s = (uint32_t)((x >> 24) % NS);
        uint64_t q = (x >> 32) % 1000;
        if (op < 5) {
            hv_vc_raise(&c[a], s, q);
            if (q > flat[a][s])
                flat[a][s] = q;
        } else if (op < 8) {
            hv_vc_join(&c[a], &c[b]);
            for (int k = 0; k < NS; k++)
                if (flat[b][k] > flat[a][k])
                    flat[a][k] = flat[b][k];
        } else if (op < 9) {
            hv_vc_copy(&c[a], &c[b]);
            for (int k = 0; k < NS; k++)
                flat[a][k] = flat[b][k];
        } else {
            hv_vc_reset(&c[a]);
            for (int k = 0; k < NS; k++)
                flat[a][k] = 0;
        }
        for (int i = 0; i < NC; i++) {
            for (int k = 0; k < NS; k++)
                if (hv_vc_get(&c[i], (uint32_t)k) != flat[i][k])
                    bad = 1;
        }
    }
    CHECK(!bad);
    for (int i = 0; i < NC; i++)
        hv_vc_free(&c[i]);
}
