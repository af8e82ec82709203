/* Producer side of the sidecar transport; see record/shm_transport.h. */
#include "tracer/record/shm_transport.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ring/clock.h"
#include "ring/ring.h"

/* One line on stderr with one write(2): the traced program's stdio is not ours. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof msg - 1)
        n = (int)sizeof msg - 1;
    if (n > 0 && write(2, msg, (size_t)n) < 0) {
    }
}

/* The collector's allocator: slot i's ring at its fixed offset. fallocate
 * only ever grows the file, so threads claiming slots at the same time need
 * no lock; MAP_POPULATE takes the guest's page faults now, not on traced
 * calls. A spare (hv_collector_prepare) instead gets one byte per page
 * written through this very mapping (collector.c ring_new says why; writes
 * by the sidecar through its own mapping would not do), and no MAP_POPULATE:
 * on a shared mapping that maps the pages read-only, so each write would be
 * a write-protect fault whose TLB flush reaches the other CPUs running this
 * process. On this VM that made a thread in its own first lap slow again
 * (3-4 of 10 runs, ~200-300 ns per 120-byte record against ~7; mapped
 * unpopulated and written, 0 of 10). The bytes written are the zeros
 * fallocate left, before the ring is initialised or published: what the
 * sidecar reads does not change. */
static struct hv_ring *shm_ring_alloc(void *ctx, uint32_t slot, uint64_t bytes, uint32_t tid, int spare)
{
    struct hv_shm_transport *t = ctx;
    struct hv_shm_header *h = t->hdr;
    uint64_t off = h->rings_offset + (uint64_t)slot * h->ring_stride;
    if (slot >= h->nslots || bytes != h->ring_bytes || posix_fallocate(t->fd, (off_t)off, (off_t)h->ring_stride) != 0)
        return NULL;
    void *mem = mmap(NULL, h->ring_stride, PROT_READ | PROT_WRITE, MAP_SHARED | (spare ? 0 : MAP_POPULATE), t->fd,
                     (off_t)off);
    if (mem == MAP_FAILED)
        return NULL;
    if (spare)
        for (uint64_t o = 0; o < h->ring_stride; o += 4096)
            ((volatile unsigned char *)mem)[o] = 0;
    struct hv_ring *r = hv_ring_init(mem, bytes, tid);
    if (spare)
        atomic_store_explicit(&r->state, HV_RING_FREE, memory_order_relaxed);
    /* Release: the ring is initialised before the sidecar can see the slot. */
    atomic_store_explicit(&h->slot_offset[slot], off, memory_order_release);
    return r;
}

/*
 * The preparer: the sidecar transport's only thread. It keeps one spare ring
 * written ahead for the next new thread, as the writer thread does in file
 * mode, and otherwise sleeps on the spare's state word (a futex) until a
 * claim wakes it (collector.c hv_collector_claim): no periodic wake-up, no
 * file I/O but the fallocate + mmap of the next ring. It takes no signals,
 * no lock of the tracer's and never the GIL. It stops when the image is
 * closed (and is started again if a failed exec takes the segment back),
 * when no slot is left, or when a ring cannot be had (a claim then fails the
 * same way, and counts).
 */
static void *preparer_main(void *arg)
{
    struct hv_shm_transport *t = arg;
    /* The lowest priority there is. A claim wakes this thread; at normal
     * priority it often took the claiming thread's CPU at once and kept it
     * for its fallocate + mmap + page writes (the claim measured 2-4 ms in 3
     * of 5 runs on this VM, ~40 us otherwise; nice 19 still did, and a 1 ms
     * pause after the wake moved its page writes into the new thread's first
     * lap). Idle, it uses only a CPU nobody else wants: on a machine with no
     * idle CPU no spare gets written, and a new thread makes its own ring on
     * its first call, as without the preparer. */
    struct sched_param none = {0};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
    for (;;) {
        int live = atomic_load_explicit(&t->hdr->state, memory_order_acquire) == HV_SHM_LIVE;
        int rc = live ? hv_collector_prepare(t->col) : 0;
        struct hv_ring *spare = live && rc >= 0 ? hv_collector_spare(t->col) : NULL;
        if (spare) {
            /* Returns at once when the spare was taken in between. */
            syscall(SYS_futex, &spare->state, FUTEX_WAIT_PRIVATE, HV_RING_FREE, NULL, NULL, 0);
            continue;
        }
        /* Live, and the spare was taken as soon as it was there: again. */
        if (live && rc >= 0 && atomic_load_explicit(&t->col->nrings, memory_order_acquire) < HV_MAX_RINGS - 1)
            continue;
        /* Stop: no ring could be had (retrying would only use up slots), no
         * slot is left, or the image is closed; a closed segment that came
         * back LIVE (hv_shm_start after a failed exec) before that could see
         * us stopped is served on. */
        atomic_store_explicit(&t->preparer, 0, memory_order_seq_cst);
        if (live || atomic_load_explicit(&t->hdr->state, memory_order_seq_cst) != HV_SHM_LIVE ||
            atomic_exchange_explicit(&t->preparer, 1, memory_order_seq_cst) != 0)
            return NULL;
    }
}

/* Starts the preparer unless it runs; without it (pthread_create failed),
 * new threads' rings are made on their first call, as before. */
static void start_preparer(struct hv_shm_transport *t)
{
    if (atomic_exchange_explicit(&t->preparer, 1, memory_order_seq_cst) != 0)
        return;
    pthread_attr_t attr;
    pthread_t th;
    sigset_t all, old;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        /* The thread takes no signals: they belong to the application's threads. */
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        rc = pthread_create(&th, &attr, preparer_main, t);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&attr);
    }
    if (rc != 0)
        atomic_store_explicit(&t->preparer, 0, memory_order_seq_cst);
}

/* 64 unpredictable bits for the segment's name. getrandom(2) first
 * (GRND_NONBLOCK: never wait for the pool at early boot), /dev/urandom when
 * the call is missing or filtered; -errno when neither is available. */
static int nonce64(uint64_t *out)
{
    ssize_t n = getrandom(out, sizeof *out, GRND_NONBLOCK);
    if (n == (ssize_t)sizeof *out)
        return 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -errno;
    n = read(fd, out, sizeof *out);
    int e = errno;
    close(fd);
    return n == (ssize_t)sizeof *out ? 0 : n < 0 ? -e : -EIO;
}

/* O_EXCL under a random name (record/shm_layout.h): nobody else can have
 * taken it on purpose, so EEXIST is a 2^-64 coincidence; a few fresh draws
 * settle it. */
static int create_file(struct hv_shm_transport *t, const char *dir, uint64_t uid, uint64_t pid)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        uint64_t nonce;
        int rc = nonce64(&nonce);
        if (rc != 0)
            return rc;
        if (hv_shm_path(t->path, sizeof t->path, dir, uid, pid, nonce) < 0)
            return -ENAMETOOLONG;
        int fd = open(t->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            /* The sidecar refuses anything but 0600; a umask must not make it stricter. */
            if (fchmod(fd, 0600) != 0) {
                int e = errno;
                unlink(t->path);
                close(fd);
                return -e;
            }
            return fd;
        }
        if (errno != EEXIST)
            return -errno;
    }
    return -EEXIST;
}

static void fill(struct hv_shm_header *h, const struct hv_shm_geometry *g, uint64_t ring_bytes,
                 const struct hv_file_header *fh)
{
    struct hv_clock_cal cal;
    hv_clock_init(&cal);
    h->version = HV_SHM_VERSION;
    h->header_bytes = sizeof *h;
    h->pid = fh->pid;
    h->ppid = fh->ppid;
    h->uid = getuid();
    char st;
    if (hv_shm_proc_start(fh->pid, &h->proc_start_ticks, &st) != 0)
        h->proc_start_ticks = 0;
    h->tsc0 = cal.tsc0;
    h->ns0 = cal.ns0;
    h->clock = cal.use_tsc ? HV_CLOCK_TSC_MONOTONIC : HV_CLOCK_MONOTONIC;
    h->nslots = HV_MAX_RINGS;
    h->ring_bytes = ring_bytes;
    h->ring_stride = g->ring_stride;
    h->collector_offset = g->collector_offset;
    h->collector_bytes = g->collector_bytes;
    h->rings_offset = g->rings_offset;
    h->file = *fh;
    h->file.transport = HV_TRANSPORT_SHM;
    h->file.clock = h->clock;
    atomic_store_explicit(&h->state, HV_SHM_LIVE, memory_order_relaxed);
}

/* After a failed exec: take the CLOSED segment back unless the sidecar has
 * finalized it already (then its rings are gone for good). */
static int reopen(struct hv_shm_transport *t)
{
    uint32_t expect = HV_SHM_CLOSED;
    if (atomic_compare_exchange_strong(&t->hdr->state, &expect, HV_SHM_LIVE))
        return 0;
    if (expect == HV_SHM_LIVE)
        return 0;
    say("hipvis: the sidecar already finalized %s; tracing stays off after the failed exec\n", t->path);
    return -ESTALE;
}

int hv_shm_start(struct hv_shm_transport *t, const char *dir, uint64_t ring_bytes, const struct hv_file_header *fh,
                 int quiet, struct hv_collector **col)
{
    if (t->hdr && t->pid == fh->pid) {
        int rc = reopen(t);
        if (rc == 0)
            start_preparer(t);
        return rc;
    }
    struct hv_shm_geometry g;
    hv_shm_geometry(ring_bytes, &g);
    memset(t, 0, sizeof *t);
    int fd = create_file(t, dir, getuid(), fh->pid);
    if (fd < 0) {
        say("hipvis: cannot create the sidecar segment in %s: %s; tracing disabled\n", dir, strerror(-fd));
        return fd;
    }
    /* Said even with HIPVIS_QUIET: a configuration that costs the traced
     * program page faults for as long as it runs (shm_layout.h). Tracing
     * goes on: the records are still all delivered. */
    char fs[32];
    if (hv_shm_fs_in_memory(fd, fs, sizeof fs) == 0)
        say("hipvis: HIPVIS_SIDECAR_DIR=%s is on %s, not a memory filesystem: the kernel writes the rings back to "
            "disk every ~30 s and each page written back costs the next record on it a page fault; use a tmpfs "
            "such as /dev/shm\n",
            dir, fs);
    void *map = MAP_FAILED;
    int rc = ftruncate(fd, (off_t)g.rings_offset) == 0 ? 0 : -errno;
    if (rc == 0) {
        map = mmap(NULL, g.rings_offset, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
            rc = -errno;
    }
    if (rc != 0) {
        say("hipvis: cannot size the sidecar segment %s: %s; tracing disabled\n", t->path, strerror(-rc));
        unlink(t->path);
        close(fd);
        return rc;
    }
    t->fd = fd;
    t->hdr = map;
    t->map_bytes = g.rings_offset;
    t->pid = fh->pid;
    fill(t->hdr, &g, ring_bytes, fh);
    struct hv_collector *c = (struct hv_collector *)((char *)map + g.collector_offset);
    hv_collector_init(c, ring_bytes);
    c->ring_alloc = shm_ring_alloc;
    c->ring_alloc_ctx = t;
    /* Release: the whole header is visible before the magic that marks it ready. */
    atomic_store_explicit(&t->hdr->magic, HV_SHM_MAGIC, memory_order_release);
    *col = c;
    t->col = c;
    /* The activating thread's ring, its pages written now (as in file mode:
     * one ~1024-page pass at start-up), claimed by it next; later threads'
     * by the preparer. */
    hv_collector_prepare(c);
    start_preparer(t);
    if (!quiet)
        say("hipvis: tracing to sidecar segment %s\n", t->path);
    return 0;
}

void hv_shm_close(struct hv_shm_transport *t, uint64_t calls)
{
    if (!t->hdr)
        return;
    atomic_store_explicit(&t->hdr->calls, calls, memory_order_relaxed);
    atomic_store_explicit(&t->hdr->end_ns, hv_mono_ns(), memory_order_relaxed);
    /* Release: calls and end_ns are final before the sidecar sees CLOSED. */
    uint32_t expect = HV_SHM_LIVE;
    atomic_compare_exchange_strong_explicit(&t->hdr->state, &expect, HV_SHM_CLOSED, memory_order_release,
                                            memory_order_relaxed);
}

void hv_shm_forget_after_fork(struct hv_shm_transport *t, struct hv_collector *col)
{
    if (!t->hdr)
        return;
    uint32_t n = atomic_load_explicit(&col->nrings, memory_order_relaxed);
    if (n > HV_MAX_RINGS)
        n = HV_MAX_RINGS;
    for (uint32_t i = 0; i < n; i++) {
        struct hv_ring *r = atomic_load_explicit(&col->rings[i], memory_order_relaxed);
        if (r)
            munmap(r, t->hdr->ring_stride);
    }
    munmap(t->hdr, t->map_bytes);
    close(t->fd);
    memset(t, 0, sizeof *t);
}
