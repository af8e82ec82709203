/*
 * bench_lap: what the first lap of a fresh ring costs a traced call, next to
 * the later laps of the same ring, in one process (make bench-lap runs it
 * with the file transport and with HIPVIS_SIDECAR=1).
 *
 * On a virtual machine where the first write through each page of a new
 * mapping is slow (this firecracker VM: ~7 us per 4 KiB page, whatever
 * MAP_POPULATE or MADV_POPULATE_WRITE did), a ring whose pages were not
 * written before its thread got it costs that on the thread's traced calls
 * until the ring has gone round once. hipvis writes one byte per page ahead
 * (docs/trace-format.md "Loss"); this shows whether it did, per thread:
 *
 *   activating  the process's first traced thread (its ring is written at
 *               activation: the first call takes that time, printed);
 *   next        a thread started 200 ms later (it takes the spare ring that
 *               was written ahead for it);
 *   spare taken a thread whose first call comes right after another new
 *               thread's, before the next spare can have been written: its
 *               ring is not written ahead. This is the in-run control arm.
 *
 * Each thread makes LAPS laps of traced hipMemcpyAsync calls on the empty
 * stub runtime (tests/bench/stub_runtime.c) in blocks of BLOCK calls, with a
 * 1 ms pause after each block so the consumer (writer thread or sidecar)
 * keeps the ring from filling; the lap a block belongs to comes from the
 * records the thread has made (hipvis_record_counts; threads run one after
 * another). Reported: median ns per call of the blocks of the first lap and
 * of the later laps, and the difference. Without the preload all arms are
 * direct calls (no ring).
 *
 *   bench_lap [RING_KB]   (the rings' size, HIPVIS_RING_KB; default 4096)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <dlfcn.h>

#include "../bench/bench_util.h"
#include "hipvis/trace.h"

typedef int hipError_t;
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);

#define BLOCK 1000
#define LAPS 3
#define MAX_BLOCKS 4096

static int (*record_counts)(uint64_t *, uint64_t *);
static uint64_t ring_bytes;
static char dst[64], src[64];

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static uint64_t made_now(uint64_t *dropped)
{
    uint64_t m = 0, d = 0;
    if (record_counts)
        record_counts(&m, &d);
    if (dropped)
        *dropped = d;
    return m;
}

struct arm {
    const char *name;
    double first_call_us;          /* the thread's first traced call (claims its ring) */
    double lap1, later;            /* median ns per call */
    int n1, nlater;                /* blocks in each */
    uint64_t dropped;              /* records dropped during its laps */
    /* "spare taken": the thread waits for this flag before its first call,
     * which its predecessor sets right after its own first call. */
    _Atomic int *go_after, *go_next;
    _Atomic int first_done;
};

static void one_call(void) { hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000); }

static double median(double *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return v[n / 2];
}

/* The thread's laps. Its first call is timed alone (it claims the ring). */
static void run_laps(struct arm *a, int claim_only)
{
    static double lap1[MAX_BLOCKS], later[MAX_BLOCKS];
    if (claim_only) {
        if (a->go_after)
            while (!atomic_load(a->go_after)) {
            }
        uint64_t t0 = now_ns();
        one_call();
        a->first_call_us = (double)(now_ns() - t0) / 1000.0;
        if (a->go_next)
            atomic_store(a->go_next, 1);
        atomic_store(&a->first_done, 1);
        return;
    }
    uint64_t d0, d1;
    uint64_t m0 = made_now(&d0);
    uint64_t lap_records = ring_bytes / sizeof(struct hv_call);
    int n1 = 0, nl = 0;
    for (long calls = 0; calls < (long)(LAPS * lap_records) && n1 + nl < MAX_BLOCKS; calls += BLOCK) {
        /* The lap this block writes in: by the records this thread has made
         * (the first call, made before, is in the count too). */
        uint64_t made = made_now(NULL) - m0 + 1;
        int in_first = record_counts ? made + BLOCK <= lap_records : calls + BLOCK <= (long)lap_records;
        uint64_t t0 = now_ns();
        for (int i = 0; i < BLOCK; i++)
            one_call();
        double ns = (double)(now_ns() - t0) / BLOCK;
        if (in_first)
            lap1[n1++] = ns;
        else if (made > lap_records)
            later[nl++] = ns;   /* a block that straddles the lap boundary counts in neither */
        pause_ms(1);
    }
    made_now(&d1);
    a->dropped = d1 - d0;
    a->n1 = n1;
    a->nlater = nl;
    a->lap1 = median(lap1, n1);
    a->later = median(later, nl);
}

struct start {
    struct arm *a;
    _Atomic int *laps_go;
};

/* Set at the end: every thread lives until then, so that no ring is
 * recycled (an exited thread's ring, already written, would go to the next
 * new thread instead of a fresh one). */
static _Atomic int all_done;

static void *thread_main(void *arg)
{
    struct start *s = arg;
    run_laps(s->a, 1);
    while (!atomic_load(s->laps_go))
        pause_ms(1);
    run_laps(s->a, 0);
    atomic_store(&s->a->first_done, 2);
    while (!atomic_load(&all_done))
        pause_ms(1);
    return NULL;
}

static void print_arm(const struct arm *a)
{
    printf("bench-lap:   %-36s first call %8.1f us; ns per call: first lap %6.1f, later laps %6.1f: %+7.1f "
           "(%d / %d blocks of %d calls; %llu dropped)\n",
           a->name, a->first_call_us, a->lap1, a->later, a->lap1 - a->later, a->n1, a->nlater, BLOCK,
           (unsigned long long)a->dropped);
}

int main(int argc, char **argv)
{
    ring_bytes = (uint64_t)(argc > 1 ? strtoul(argv[1], NULL, 10) : 4096) * 1024;
    record_counts = (int (*)(uint64_t *, uint64_t *))dlsym(RTLD_DEFAULT, "hipvis_record_counts");
    double load[3] = {0};
    getloadavg(load, 3);

    static _Atomic int go_d, go_laps[3];
    struct arm act = {.name = "activating thread"};
    struct arm next = {.name = "a thread started 200 ms later"};
    struct arm c = {.name = "another, 200 ms after that", .go_next = &go_d};
    struct arm d = {.name = "one right after it (no spare ready)", .go_after = &go_d};

    run_laps(&act, 1);   /* activates hipvis */
    run_laps(&act, 0);

    /* Threads do their laps one at a time (the lap of a block comes from
     * the process's record count); `next` first, 200 ms after the
     * activating thread's last call, so its spare ring is ready. */
    pause_ms(200);
    pthread_t th[3];
    struct start st[3] = {{&next, &go_laps[0]}, {&c, &go_laps[1]}, {&d, &go_laps[2]}};
    pthread_create(&th[0], NULL, thread_main, &st[0]);
    atomic_store(&go_laps[0], 1);
    while (atomic_load(&next.first_done) != 2)
        pause_ms(1);

    /* c and d claim their rings back to back (d's first call follows c's
     * at once), then make their laps one after the other. */
    pause_ms(200);
    pthread_create(&th[1], NULL, thread_main, &st[1]);
    pthread_create(&th[2], NULL, thread_main, &st[2]);
    while (!atomic_load(&c.first_done) || !atomic_load(&d.first_done))
        pause_ms(1);
    for (int i = 1; i < 3; i++) {
        atomic_store(&go_laps[i], 1);
        while (atomic_load(&st[i].a->first_done) != 2)
            pause_ms(1);
    }
    atomic_store(&all_done, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);

    uint64_t m = 0, dropped = 0;
    if (record_counts)
        record_counts(&m, &dropped);
    else
        printf("bench-lap: not under libhipvis: every arm is a direct call (no ring)\n");
    print_arm(&act);
    print_arm(&next);
    print_arm(&c);
    print_arm(&d);
    printf("bench-lap:   %llu records made, %llu dropped; %llu KiB rings; load average %.2f\n",
           (unsigned long long)m, (unsigned long long)dropped, (unsigned long long)(ring_bytes / 1024), load[0]);
    return 0;
}
