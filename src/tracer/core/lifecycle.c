/*
 * The tracer's lifecycle: set-up (configuration, tables, the features'
 * set-up through their table), activation on the first traced call (the
 * trace header, the writer or the sidecar segment, the thread's ring),
 * fork, exec and exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tracer/core/knobs.h"
#include "tracer/core/realsym.h"
#include "tracer/core/runtime_version_int.h"
#include "tracer/core/tracer_int.h"

struct hv_tracer hv_tracer;
struct hv_config hv_tracer_cfg;
__thread struct hv_thread_ctx hv_tls __attribute__((tls_model("initial-exec"))) = {.device = 0};

static pthread_key_t thread_exit_key;
static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *plain_getenv(const char *name) { return getenv(name); }

/* The command line, read once at set-up (the constructor, or an earlier
 * first call): a program may rewrite its argv area later (setproctitle),
 * and a fork child's trace gets the same command. Written into every
 * header (fill_header). */
static struct {
    uint32_t argc, bytes, flags;
    char text[sizeof ((struct hv_file_header *)0)->argv];
} cmdline;

static void read_cmdline(int record)
{
    if (!record) {
        cmdline.flags = HV_ARGV_OFF;
        return;
    }
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    /* One byte more than fits tells a longer command line apart. Static:
     * the first traced call may come from a thread with a small stack, and
     * set-up runs under setup_lock. */
    static char buf[sizeof cmdline.text + 1];
    size_t n = 0;
    ssize_t r;
    while (n < sizeof buf && (r = read(fd, buf + n, sizeof buf - n)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)r;
    }
    close(fd);
    /* Whole arguments only: one cut short would paste as a different command. */
    size_t keep = 0;
    uint32_t argc = 0;
    for (size_t i = 0; i < n && i < sizeof cmdline.text; i++)
        if (buf[i] == '\0') {
            keep = i + 1;
            argc++;
        }
    if (keep < n)
        cmdline.flags = HV_ARGV_TRUNCATED;
    memcpy(cmdline.text, buf, keep);
    cmdline.bytes = (uint32_t)keep;
    cmdline.argc = argc;
}

void *hv_map_zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Runs in each exiting thread that traced something: hand its ring to the
 * consumer. */
static void on_thread_exit(void *ring)
{
    hv_collector_release(hv_tracer.col, ring);
    hv_thread_set_ring(&hv_tls, NULL);
}

static void atfork_prepare(void);
static void atfork_parent(void);
static void atfork_child(void);

/* Tables and configuration; no thread, no file. Caller holds setup_lock. */
static int setup_locked(void)
{
    char err[1024];
    if (atomic_load(&hv_hot.state) != HV_TRACER_UNINIT)
        return atomic_load(&hv_hot.state) != HV_TRACER_OFF;
    hv_config_load(&hv_tracer_cfg, plain_getenv, err, sizeof err);
    hv_config_check_names(&hv_tracer_cfg, environ, err, sizeof err);
    if (err[0]) {
        if (write(2, err, strlen(err)) < 0) {
        }
    }
    if (!hv_tracer_cfg.enabled) {
        atomic_store(&hv_hot.state, HV_TRACER_OFF);
        return 0;
    }
    /* Set, but this build records every call in full: say so rather than
     * let a measurement compare two identical arms. */
    if (!HV_FLOOR_APIS_READ && hv_tracer_cfg.floor_apis_set && !hv_tracer_cfg.quiet) {
        static const char note[] = "hipvis: HIPVIS_FLOOR_APIS is ignored: only a measurement build made with "
                                   "EXTRA_CFLAGS=-DHV_RECORD_FLOOR=3, 4 or 5 reads it\n";
        if (write(2, note, sizeof note - 1) < 0) {
        }
    }
    /* Sidecar mode: the collector lives in the shared segment made at activation. */
    hv_tracer.col = hv_tracer_cfg.sidecar ? NULL : hv_map_zeroed(sizeof *hv_tracer.col);
    hv_hot.streams = hv_map_zeroed(sizeof *hv_hot.streams);
    hv_hot.allocs = hv_map_zeroed(sizeof *hv_hot.allocs);
    if ((!hv_tracer.col && !hv_tracer_cfg.sidecar) || !hv_hot.streams || !hv_hot.allocs ||
        pthread_key_create(&thread_exit_key, on_thread_exit) != 0) {
        atomic_store(&hv_hot.state, HV_TRACER_OFF);
        return 0;
    }
    if (hv_tracer.col)
        hv_collector_init(hv_tracer.col, hv_tracer_cfg.ring_bytes);
    hv_hot.record_args = hv_tracer_cfg.record == HV_RECORD_ARGS;
    HV_FEATURES_EACH(f)
        if (f->setup)
            f->setup(&hv_tracer_cfg);
    read_cmdline(hv_tracer_cfg.record_argv);
    hv_alloc_map_init(hv_hot.allocs, &hv_hot.alloc_version);
#if defined(__x86_64__) || defined(__aarch64__)
    hv_hot.tls_off = (intptr_t)((char *)&hv_tls - (char *)__builtin_thread_pointer());
#endif
    hv_writer_init(&hv_tracer.writer, hv_tracer.col, hv_tracer_cfg.output, hv_tracer_cfg.zstd_level,
                   hv_tracer_cfg.flush_ms, hv_tracer_cfg.quiet);
    hv_tracer.writer.print_stats = hv_tracer_cfg.writer_stats;
    hv_tracer.writer.no_end_line = !hv_tracer_cfg.end_line;
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
    atomic_store(&hv_hot.state, HV_TRACER_READY);
    return 1;
}

static void fill_header(struct hv_file_header *h)
{
    struct timespec mono, real;
    memset(h, 0, sizeof *h);
    memcpy(h->magic, HV_FILE_MAGIC, sizeof h->magic);
    h->format_version = HV_FORMAT_VERSION;
    h->header_size = sizeof *h;
    h->pid = (uint64_t)getpid();
    h->ppid = (uint64_t)getppid();
    clock_gettime(CLOCK_MONOTONIC, &mono);
    clock_gettime(CLOCK_REALTIME, &real);
    h->start_ns = (uint64_t)mono.tv_sec * 1000000000ull + (uint64_t)mono.tv_nsec;
    h->start_realtime_ns = (uint64_t)real.tv_sec * 1000000000ull + (uint64_t)real.tv_nsec;
    h->clock = hv_clock_use_tsc ? HV_CLOCK_TSC_MONOTONIC : HV_CLOCK_MONOTONIC;
    h->transport = HV_TRANSPORT_FILE;
    h->ring_kb = (uint32_t)(hv_tracer_cfg.ring_bytes / 1024);
    h->flags = HV_HDR_THREAD_SEQ | (hv_hot.record_args ? HV_HDR_DERIVE : 0);
    HV_FEATURES_EACH(f)
        if (f->header_flags)
            h->flags |= f->header_flags();
    snprintf(h->hipvis_version, sizeof h->hipvis_version, "%s", HIPVIS_VERSION);
    gethostname(h->host, sizeof h->host - 1);
    snprintf(h->runtime_path, sizeof h->runtime_path, "%s", hv_runtime_path());
    hv_runtime_version(h->runtime_path, h->runtime_version, sizeof h->runtime_version);
    ssize_t n = readlink("/proc/self/exe", h->exe, sizeof h->exe - 1);
    if (n > 0)
        h->exe[n] = '\0';
    if (hv_knobs_fill(h->knobs, sizeof h->knobs))
        h->flags |= HV_HDR_KNOBS_TRUNCATED;
    h->argc = cmdline.argc;
    h->argv_bytes = cmdline.bytes;
    h->argv_flags = cmdline.flags;
    memcpy(h->argv, cmdline.text, cmdline.bytes);
}

/* The consumer of the rings: the in-process writer thread, or (HIPVIS_SIDECAR=1)
 * a shared segment that hipvis-sidecar drains, with no thread here. */
static int start_transport(const struct hv_file_header *h)
{
    if (!hv_tracer_cfg.sidecar) {
        int rc = hv_writer_start(&hv_tracer.writer, h);
        /* The activating thread's ring, its pages written once now (three
         * huge pages, or 1024 pages where huge pages are refused) instead of
         * faulting through its first lap on traced calls; the writer thread
         * readies the later ones. Meanwhile the compression thread warms the
         * writer's buffers. Activation does not wait for that: a program
         * kept waiting catches up afterwards, and on this project's VM a
         * wait (up to ~100 ms when the huge pages were memory the host had
         * never backed) made that burst, and the loss, larger. */
        if (rc == 0) {
            hv_collector_prepare(hv_tracer.col);
            hv_writer_activated(&hv_tracer.writer);
        }
        return rc;
    }
    return hv_shm_start(&hv_tracer.shm, hv_tracer_cfg.sidecar_dir, hv_tracer_cfg.ring_bytes, h, hv_tracer_cfg.quiet,
                        &hv_tracer.col);
}

static uint64_t transport_pid(void)
{
    return hv_tracer_cfg.sidecar ? hv_tracer.shm.pid : hv_tracer.writer.hdr.pid;
}

/* Threads that have made a traced call (attach_thread), ever. While there
 * is one, its calls read the clock with no fence (HV_CLOCK_MODE_ALONE): the
 * fence only serves a call that an acquire orders after another producer
 * thread's call, and there is no other. */
static _Atomic unsigned threads_seen;

/* This thread's ring, claimed on its first traced call. */
static void attach_thread(void)
{
    if (!hv_tls.errno_loc) {
        /* A second producer thread: every call from now on fences its clock
         * read. Stored before this thread's first record and so before any
         * release it makes after one; a call that an acquire orders after
         * that release loads the mode after the acquire (x86 keeps loads in
         * order) and sees ORDERED. A call that was made before this store
         * needs no fence: it is on the releasing side, where the read
         * precedes the release in program order. */
        if (atomic_fetch_add(&threads_seen, 1) >= 1) {
            int alone = HV_CLOCK_MODE_ALONE;
            atomic_compare_exchange_strong(&hv_hot.clock_mode, &alone, HV_CLOCK_MODE_ORDERED);
        }
    }
    hv_tls.errno_loc = &errno;   /* the wrappers save and restore errno through it */
    if (hv_tls.ring || hv_tls.ring_failed)
        return;
    hv_tls.tid = (uint32_t)syscall(SYS_gettid);
    hv_thread_set_ring(&hv_tls, hv_collector_claim(hv_tracer.col, hv_tls.tid));
    if (hv_tls.ring)
        pthread_setspecific(thread_exit_key, hv_tls.ring);
    else
        hv_tls.ring_failed = 1; /* its calls are counted as HV_DROP_NO_RING */
}

int hv_tracer_activate(void)
{
    int st = atomic_load_explicit(&hv_hot.state, memory_order_acquire);
    if (st == HV_TRACER_OFF || st == HV_TRACER_STOPPED)
        return 0;
    if (st == HV_TRACER_ON) {
        int saved = errno;
        attach_thread();
        errno = saved;
        return 1;
    }
    /* Keep errno: setup may touch files, and the application's errno must
     * be what the runtime left. */
    int saved = errno;
    pthread_mutex_lock(&setup_lock);
    int ok = setup_locked();
    if (ok && atomic_load(&hv_hot.state) == HV_TRACER_READY) {
        struct hv_file_header h;
        fill_header(&h);
        int rc = start_transport(&h);
        /* hv_clock_use_tsc is chosen by hv_clock_init (the transport's start). */
        atomic_store(&hv_hot.clock_mode, !hv_clock_use_tsc                  ? HV_CLOCK_MODE_MONO
                                         : atomic_load(&threads_seen) <= 1 ? HV_CLOCK_MODE_ALONE
                                                                           : HV_CLOCK_MODE_ORDERED);
        atomic_store(&hv_hot.state, rc == 0 ? HV_TRACER_ON : HV_TRACER_OFF);
    }
    ok = atomic_load(&hv_hot.state) == HV_TRACER_ON;
    pthread_mutex_unlock(&setup_lock);
    if (ok)
        attach_thread();
    errno = saved;
    return ok;
}

struct hv_thread_ctx *hv_enter_slow(void)
{
    struct hv_thread_ctx *t = &hv_tls;
    if (t->depth || !hv_tracer_activate())
        return NULL;
    t->depth = 1;
    return t;
}

/* ---- fork, exec, exit ---- */

static void atfork_prepare(void)
{
    pthread_mutex_lock(&setup_lock);
    hv_strings_before_fork();
    if (hv_hot.allocs)
        pthread_mutex_lock(&hv_hot.allocs->update_lock);
    pthread_mutex_lock(&hv_tracer.writer.lock);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&hv_tracer.writer.lock);
    if (hv_hot.allocs)
        pthread_mutex_unlock(&hv_hot.allocs->update_lock);
    hv_strings_after_fork_parent();
    pthread_mutex_unlock(&setup_lock);
}

/* The child has only the forking thread. Its trace is a new file (new pid),
 * started by its first traced call; the parent's pending records stay the
 * parent's. */
static void atfork_child(void)
{
    if (hv_tracer_cfg.sidecar && hv_tracer.col) {
        /* The parent's segment (and the collector in it) stays the parent's. */
        hv_shm_forget_after_fork(&hv_tracer.shm, hv_tracer.col);
        hv_tracer.col = NULL;
        hv_thread_set_ring(&hv_tls, NULL);
        pthread_setspecific(thread_exit_key, NULL);
    }
    hv_writer_forget_after_fork(&hv_tracer.writer);
    if (hv_hot.allocs)
        pthread_mutex_init(&hv_hot.allocs->update_lock, NULL);
    hv_strings_after_fork_child();
    pthread_mutex_init(&setup_lock, NULL);
    if (hv_tracer.col)
        hv_collector_after_fork_child(hv_tracer.col, hv_tls.ring);
    hv_tls.tid = (uint32_t)syscall(SYS_gettid);
    if (hv_tls.ring)
        hv_tls.ring->tid = hv_tls.tid;
    if (hv_tracer.col)
        atomic_store(&hv_tracer.col->seq, 0);
    hv_tls.seq = 0;   /* the child's trace numbers this thread's calls from 1 */
    int st = atomic_load(&hv_hot.state);
    if (st == HV_TRACER_ON)
        atomic_store(&hv_hot.state, HV_TRACER_READY);
}

static void stop_writer(int next_state)
{
    int st = atomic_load(&hv_hot.state);
    if (st != HV_TRACER_ON)
        return;
    /* Features that hold process state (the host-access check's protected
     * pages and SIGSEGV handler) give it back while the writer still runs. */
    HV_FEATURES_EACH(f)
        if (f->before_exit)
            f->before_exit();
    atomic_store(&hv_hot.state, next_state);
    /* Every traced call is counted once, in its thread's ring. */
    if (hv_tracer_cfg.sidecar)
        hv_shm_close(&hv_tracer.shm, hv_collector_calls(hv_tracer.col));
    else
        hv_writer_stop(&hv_tracer.writer, hv_collector_calls(hv_tracer.col));
}

void hv_tracer_before_exec(void)
{
    hv_tracer_before_exit();
}

/* _exit skips destructors; a forked worker that ends with it would lose its
 * last records. A vfork child shares our memory and has no atfork handlers:
 * it must not stop the parent's writer, so only the process that started
 * the writer flushes. */
void hv_tracer_before_exit(void)
{
    int saved = errno;
    if (atomic_load(&hv_hot.state) == HV_TRACER_ON && transport_pid() == (uint64_t)getpid())
        stop_writer(HV_TRACER_STOPPED);
    errno = saved;
}

void hv_tracer_exec_failed(void)
{
    int expect = HV_TRACER_STOPPED;
    atomic_compare_exchange_strong(&hv_hot.state, &expect, HV_TRACER_READY);
}

__attribute__((constructor)) static void hv_tracer_ctor(void)
{
    int saved = errno;
    pthread_mutex_lock(&setup_lock);
    setup_locked();
    pthread_mutex_unlock(&setup_lock);
    errno = saved;
}

__attribute__((destructor)) static void hv_tracer_dtor(void)
{
    int saved = errno;
    stop_writer(HV_TRACER_STOPPED);
    errno = saved;
}
