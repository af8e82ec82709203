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
 *   a ring in the making is unmapped by hv_ring_prep_discard.
 */
#include <stdio.h>
#include <string.h>

#include "record/collector.h"

static struct hv_collector col;
static int failed;

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

    printf("ring-prep: %s\n", failed ? "FAIL" : "ok");
    return failed ? 1 : 0;
}
