/*
 * A producer without the preload library (TEST-ONLY): the sidecar
 * transport's own code (record/shm_transport.h, the collector, the inline
 * reserve/commit) linked in directly, emitting one call record per "call".
 * Same command line and output as sc_producer; used where LD_PRELOAD of the
 * tracer is not possible (the ASan build: an instrumented preload library
 * cannot come before the sanitizer runtime) and to measure the transport
 * alone.
 *
 *   sc_rawprod RATE SECONDS [KILL_AFTER|fork]      (HIPVIS_SIDECAR_DIR: segment directory)
 *   sc_rawprod --spares                            the rings written ahead (below)
 *   sc_rawprod --spares-full                       the same when no ring can be had
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracer/record/collector.h"
#include "tracer/record/shm_transport.h"

static struct hv_shm_transport shm;
static struct hv_collector *col;
static struct hv_thread_ctx self;

static void start(void)
{
    struct hv_file_header fh;
    memset(&fh, 0, sizeof fh);
    fh.pid = (uint64_t)getpid();
    fh.ppid = (uint64_t)getppid();
    fh.start_ns = hv_mono_ns();
    fh.start_realtime_ns = (uint64_t)time(NULL) * 1000000000ull;
    ssize_t n = readlink("/proc/self/exe", fh.exe, sizeof fh.exe - 1);
    fh.exe[n > 0 ? n : 0] = '\0';
    const char *dir = getenv("HIPVIS_SIDECAR_DIR");
    /* HIPVIS_RING_KB as the preload library takes it (a power of two). */
    const char *kb = getenv("HIPVIS_RING_KB");
    uint64_t ring = kb ? strtoull(kb, NULL, 10) * 1024 : 1u << 20;
    if (hv_shm_start(&shm, dir ? dir : "/dev/shm", ring, &fh, 1, &col) != 0)
        exit(3);
    memset(&self, 0, sizeof self);
    self.tid = (uint32_t)syscall(SYS_gettid);
    hv_thread_set_ring(&self, hv_collector_claim(col, self.tid));
}

/* One "call": a call record filled in place, as the intercepts do. */
static void call(void)
{
    uint64_t seq = hv_next_seq(col);
    struct hv_call *c = (struct hv_call *)hv_emit_begin(&self, HV_REC_CALL, sizeof *c, seq);
    if (!c)
        return;
    memset((char *)c + sizeof c->h, 0, sizeof *c - sizeof c->h);
    c->api = 1;
    c->stream = 0x1000;
    hv_emit_commit(&self, &c->h);
}

/* --spares: the preparer keeps one ring written ahead (shm_transport.c).
 * The activating thread gets slot 0, made at start; a FREE spare then
 * appears in slot 1, published to the sidecar, empty; a new thread takes
 * it, and the next spare appears in slot 2. No sidecar needed: the segment
 * is read through the producer's own collector. */
static int wait_spare(uint32_t slot)
{
    /* The preparer runs at SCHED_IDLE: on a busy machine it waits for an idle moment. */
    for (int i = 0; i < 20000; i++) {
        struct hv_ring *r = atomic_load(&col->rings[slot]);
        if (r && hv_collector_spare(col) == r) {
            uint64_t off = atomic_load(&shm.hdr->slot_offset[slot]);
            if (off != shm.hdr->rings_offset + slot * shm.hdr->ring_stride || atomic_load(&r->head) != 0 || atomic_load(&r->tail) != 0 || r->capacity != shm.hdr->ring_bytes) {
                fprintf(stderr, "sc_rawprod --spares: spare in slot %u: offset %llu head %llu capacity %llu\n", slot,
                        (unsigned long long)off, (unsigned long long)atomic_load(&r->head),
                        (unsigned long long)r->capacity);
                return -1;
            }
            return 0;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    fprintf(stderr, "sc_rawprod --spares: no spare ring in slot %u after 20 s (%u slots)\n", slot,
            atomic_load(&col->nrings));
    return -1;
}

static void *second_thread(void *arg)
{
    *(struct hv_ring **)arg = hv_collector_claim(col, (uint32_t)syscall(SYS_gettid));
    return NULL;
}

static int spares(void)
{
    start();
    if (!self.ring || self.ring != atomic_load(&col->rings[0]) || wait_spare(1) != 0) {
        fprintf(stderr, "sc_rawprod --spares: the activating thread's ring is not slot 0, or no spare\n");
        return 1;
    }
    struct hv_ring *spare = atomic_load(&col->rings[1]), *got = NULL;
    pthread_t th;
    if (pthread_create(&th, NULL, second_thread, &got) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    if (got != spare || atomic_load(&got->state) != HV_RING_LIVE) {
        fprintf(stderr, "sc_rawprod --spares: the new thread did not get the spare ring\n");
        return 1;
    }
    if (wait_spare(2) != 0)
        return 1;
    hv_shm_close(&shm, 0);
    printf("spares: slot 0 at start, spare in slot 1 taken by the next thread, next spare in slot 2\n");
    return 0;
}

/* --spares-full: the segment may not grow past ring 0 (RLIMIT_FSIZE, its
 * SIGXFSZ ignored: the fallocate fails as on a full directory). The
 * preparer must stop after one failed spare, not retry and use up slots;
 * a new thread then gets no ring (the tracer counts its records as no_ring). */
static int spares_full(void)
{
    struct hv_shm_geometry g;
    hv_shm_geometry(1u << 20, &g);
    struct rlimit rl = {g.rings_offset + g.ring_stride, g.rings_offset + g.ring_stride};
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return perror("setrlimit"), 1;
    start();
    struct timespec ms = {0, 300 * 1000000L};
    nanosleep(&ms, NULL);
    uint32_t n = atomic_load(&col->nrings);
    if (!self.ring || n != 2 || atomic_load(&col->rings[1]) || atomic_load(&shm.preparer)) {
        fprintf(stderr, "sc_rawprod --spares-full: ring %p, %u slots taken (2 expected), preparer %d\n",
                (void *)self.ring, n, atomic_load(&shm.preparer));
        return 1;
    }
    struct hv_ring *got = self.ring;
    pthread_t th;
    if (pthread_create(&th, NULL, second_thread, &got) != 0 || pthread_join(th, NULL) != 0 || got)
        return 1;
    nanosleep(&ms, NULL);
    n = atomic_load(&col->nrings);
    if (n != 3) {
        fprintf(stderr, "sc_rawprod --spares-full: %u slots taken after a failed claim (3 expected)\n", n);
        return 1;
    }
    hv_shm_close(&shm, 0);
    printf("spares, segment full: one failed spare, the preparer stopped, the next thread got no ring\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--spares"))
        return spares();
    if (argc == 2 && !strcmp(argv[1], "--spares-full"))
        return spares_full();
    if (argc < 3) {
        fprintf(stderr, "usage: sc_rawprod RATE SECONDS [KILL_AFTER|fork]\n");
        return 2;
    }
    double rate = atof(argv[1]), secs = atof(argv[2]);
    int do_fork = argc > 3 && !strcmp(argv[3], "fork");
    uint64_t kill_after = argc > 3 && !do_fork ? strtoull(argv[3], NULL, 10) : 0;
    start();
    pid_t child = do_fork ? fork() : -1;
    if (child == 0) {
        hv_shm_forget_after_fork(&shm, col);
        start();
    }
    uint64_t t0 = hv_mono_ns(), end = t0 + (uint64_t)(secs * 1e9), calls = 0;
    for (uint64_t t; (t = hv_mono_ns()) < end;) {
        uint64_t due = (uint64_t)((double)(t - t0) * rate / 1e9);
        while (calls < due) {
            call();
            if (++calls == kill_after) {
                printf("pid %ld calls %llu\n", (long)getpid(), (unsigned long long)calls);
                fflush(stdout);
                raise(SIGKILL);
            }
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    hv_collector_release(col, self.ring);
    hv_shm_close(&shm, atomic_load(&col->seq));
    printf("pid %ld calls %llu\n", (long)getpid(), (unsigned long long)calls);
    fflush(stdout);
    if (child > 0)
        waitpid(child, NULL, 0);
    return 0;
}
