/*
 * The writer thread readies the next spare ring a slice at a time
 * (hv_collector_prepare_step), draining between slices: a 4 MiB ring's
 * 1024 page writes took 10-100 ms on the firecracker VM, longer than the
 * ring lasts at 1.5 M calls/s, and the old all-at-once preparation left
 * every ring undrained for that long. Checks, exactly (no timing):
 *   a slice with no time budget writes 8 pages and publishes nothing;
 *   the ring appears (FREE, the collector's size) after exactly
 *   ceil(pages / 8) slices, and no second one while a spare is ready;
 *   a thread's claim takes it, and the next slice starts another;
 *   a producer keeps writing into a claimed ring that the consumer drains
 *   between the slices (nothing dropped, nothing out of order);
 *   a ring in the making is unmapped by hv_ring_prep_discard;
 *   a drain gives space back as it goes (every 256 KiB), not only at its
 *   end: a slow pass (preempted, or faulting in its buffers) no longer
 *   holds the whole ring from its producer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tracer/record/collector.h"

static struct hv_collector col;
static int failed;

#define CHECKF(cond, ...)                                             \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
            failed++;                                                 \
        }                                                             \
    } while (0)
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
            failed++;                                                 \
        }                                                             \
    } while (0)

static uint64_t drained, last_seq, out_of_order;

static int consume(const struct hv_rec_header *rec, void *ctx)
{
    (void)ctx;
    if (rec->seq <= last_seq)
        out_of_order++;
    last_seq = rec->seq;
    drained++;
    return 0;
}

struct release_probe {
    struct hv_ring *r;
    uint64_t seen, tail_moved_at;   /* records visited; the first one visited with the tail moved */
};

static int probe_tail(const struct hv_rec_header *rec, void *ctx)
{
    (void)rec;
    struct release_probe *p = ctx;
    p->seen++;
    if (!p->tail_moved_at && atomic_load(&p->r->tail) > 0)
        p->tail_moved_at = p->seen;
    return 0;
}

/* The mapping of /proc/self/smaps that holds `addr`: whether it is marked
 * MADV_HUGEPAGE ("hg" in VmFlags), and its AnonHugePages in kB. -1 when
 * not found. */
static int smaps_of(const void *addr, long *huge_kb)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, hg = -1;
    *huge_kb = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            if (in)
                break;
            in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
            continue;
        }
        if (in && sscanf(line, "AnonHugePages: %ld kB", huge_kb) == 1)
            continue;
        if (in && strncmp(line, "VmFlags:", 8) == 0)
            hg = strstr(line, " hg") != NULL;
    }
    fclose(f);
    return hg;
}

/*
 * The rings a waiting thread gets (the activating thread's, at activation,
 * hv_collector_prepare; a claim that found no spare) are mapped for huge
 * pages: on a 2 MiB boundary and marked MADV_HUGEPAGE, so their first
 * writes are three page-table entries, not 1024 (collector.c ring_map).
 * The writer's sliced spares are not marked. Whether the kernel then
 * gave huge pages (THP "never", none free) is printed, not checked.
 */
static void check_huge_rings(void)
{
    struct hv_collector hc;
    hv_collector_init(&hc, 4u << 20);
    CHECK(hv_collector_prepare(&hc) == 1);
    struct hv_ring *r = hv_collector_spare(&hc);
    CHECK(r != NULL);
    if (!r)
        return;
    long kb = 0;
    CHECKF((uintptr_t)r % (2u << 20) == 0, "activation ring at %p", (void *)r);
    CHECKF(smaps_of(r, &kb) == 1, "activation ring's mapping not marked MADV_HUGEPAGE");
    printf("ring-prep: activation ring: 2 MiB aligned, MADV_HUGEPAGE, %ld kB in huge pages\n", kb);
    struct hv_ring *mine = hv_collector_claim(&hc, 7);
    CHECK(mine == r);
    struct hv_ring_prep p;
    memset(&p, 0, sizeof p);
    int rc;
    while ((rc = hv_collector_prepare_step(&hc, &p, 1000000000u)) == 0) {
    }
    CHECK(rc == 1);
    struct hv_ring *spare = hv_collector_spare(&hc);
    CHECK(spare != NULL && spare != r);
    if (spare)
        CHECKF(smaps_of(spare, &kb) == 0, "the writer's sliced spare is marked MADV_HUGEPAGE");
}

int main(void)
{
    const uint64_t ring = 64 * 1024;
    hv_collector_init(&col, ring);
    size_t pages = (hv_ring_footprint(ring) + 4095) / 4096;
    size_t slices = (pages + 7) / 8;
    struct hv_ring_prep p;
    memset(&p, 0, sizeof p);

    /* The first spare: nothing published before its last slice. */
    for (size_t i = 1; i < slices; i++) {
        CHECK(hv_collector_prepare_step(&col, &p, 0) == 0);
        CHECK(hv_collector_spare(&col) == NULL);
        CHECK(p.mem != NULL && p.done == i * 8 * 4096);
    }
    CHECK(hv_collector_prepare_step(&col, &p, 0) == 1);
    struct hv_ring *spare = hv_collector_spare(&col);
    CHECK(spare != NULL && p.mem == NULL);
    CHECK(spare && spare->capacity == ring && atomic_load(&spare->state) == HV_RING_FREE);
    /* A spare is ready: no second one. */
    CHECK(hv_collector_prepare_step(&col, &p, 0) == 0 && p.mem == NULL);

    /* A thread takes it and calls; the next spare is made a slice at a
     * time while the consumer drains between slices. */
    struct hv_thread_ctx t;
    memset(&t, 0, sizeof t);
    t.tid = 7;
    hv_thread_set_ring(&t, hv_collector_claim(&col, t.tid));
    CHECK(t.ring == spare);
    CHECK(hv_collector_spare(&col) == NULL);
    uint64_t seq = 0;
    int published = 0;
    for (size_t i = 0; i < slices + 2; i++) {
        /* Half a ring of records per slice: the ring holds two slices'
         * worth, so it drops unless drained between slices. */
        for (uint64_t k = 0; k < ring / 2 / sizeof(struct hv_call) - 1; k++) {
            struct hv_rec_header *h = hv_emit_begin(&t, HV_REC_CALL, sizeof(struct hv_call), ++seq);
            if (h)
                hv_emit_commit(&t, h);
        }
        published += hv_collector_prepare_step(&col, &p, 0);
        hv_collector_drain(&col, consume, NULL, NULL);
    }
    uint64_t made, dropped[HV_DROP__COUNT], drops = 0;
    hv_collector_totals(&col, &made, dropped);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        drops += dropped[k];
    CHECK(published == 1);
    CHECK(hv_collector_spare(&col) != NULL && hv_collector_spare(&col) != t.ring);
    CHECK(made == seq && drained == seq && drops == 0 && out_of_order == 0);
    printf("ring-prep: %zu pages in %zu slices; %llu records made, %llu drained, %llu dropped while the next "
           "spare was made\n", pages, slices, (unsigned long long)made, (unsigned long long)drained,
           (unsigned long long)drops);

    /* A ring in the making is given back. */
    hv_thread_set_ring(&t, hv_collector_claim(&col, t.tid + 1));
    CHECK(hv_collector_prepare_step(&col, &p, 0) == 0 && p.mem != NULL);
    hv_ring_prep_discard(&p);
    CHECK(p.mem == NULL);

    /* A 1 MiB ring filled to 3/4: while the drain visits the records past
     * the first 256 KiB, the tail the producer sees has moved. */
    struct hv_collector big;
    hv_collector_init(&big, 1024 * 1024);
    struct hv_thread_ctx u;
    memset(&u, 0, sizeof u);
    u.tid = 9;
    hv_thread_set_ring(&u, hv_collector_claim(&big, u.tid));
    uint64_t n = 0;
    while (atomic_load(&u.ring->head) < 768 * 1024) {
        struct hv_rec_header *h = hv_emit_begin(&u, HV_REC_CALL, sizeof(struct hv_call), ++n);
        if (!h)
            break;
        hv_emit_commit(&u, h);
    }
    struct release_probe pr = { u.ring, 0, 0 };
    long got = hv_ring_drain(u.ring, probe_tail, &pr);
    CHECK(got == (long)n && pr.seen == n);
    CHECKF(pr.tail_moved_at > 0 && pr.tail_moved_at * sizeof(struct hv_call) <= 300 * 1024,
           "tail first moved at record %llu", (unsigned long long)pr.tail_moved_at);
    CHECK(atomic_load(&u.ring->tail) == atomic_load(&u.ring->head));
    printf("ring-prep: a drain of %llu records (%llu KiB) gave space back first at record %llu\n",
           (unsigned long long)n, (unsigned long long)(n * sizeof(struct hv_call) / 1024),
           (unsigned long long)pr.tail_moved_at);

    check_huge_rings();
    printf("ring-prep: %s\n", failed ? "FAIL" : "ok");
    return failed ? 1 : 0;
}
