/*
 * Added cost per intercepted call, measured side by side in one process:
 * blocks of calls through the direct alias and through the interposed name
 * alternate, and the median block of each arm is reported, as ns per call
 * and as a ratio. Between blocks the writer gets time to drain, so the
 * traced arm measures recording, not the (cheaper) drop path; drops are
 * reported so a reader can see that.
 *
 * Threads: the same back-to-back loop run by 1 thread and by 2 threads
 * calling at once (both start at a barrier; the fraction of each block the
 * two threads really overlapped is printed), direct and traced, alternated
 * in the same rounds. With two CPUs or more, each worker is pinned to a CPU
 * of its own and the 1-thread blocks take turns between them: a 2-thread
 * block is the mean over both CPUs, so the 1-thread figure is taken on both
 * too (the development VM's two vCPUs differ in speed from hour to hour,
 * and one unpinned worker stayed on whichever the scheduler gave it). Built with -DHV_BENCH_LTTNG (bench_intercept_lttng,
 * where liblttng-ust-dev is installed) it adds a third arm: the direct call
 * wrapped in an LTTng-UST tracepoint recording the same arguments, which
 * costs what LTTng costs when a session enables the event.
 *
 * Isolated calls, hot and cold (issue 12): a serving loop makes a handful of
 * runtime calls per step between long stretches of Python, torch and driver
 * work that evict the tracer's code and data, so there the cost of a call is
 * its latency with cold caches, not its share of a back-to-back loop. Each
 * sample is one call timed alone (an ordered TSC read on each side), the
 * direct and the traced call alternating; "cold" sweeps a data working set
 * (1 or 8 MiB, one load per cache line) and 256 KiB of code (4096 small
 * functions on distinct lines) before every call, the sweep outside the
 * timed part. The medians of both arms are printed side by side.
 *
 * GPU-like calls (issue 12): the same hot and cold, for the two calls of a
 * serving step whose runtime function takes about a microsecond (a pinned
 * H2D copy on the legacy stream, a legacy-stream synchronize; stub_runtime.c):
 * the time a wrapper's prefetches, issued before the real call, have to
 * arrive. This is the figure that models a GPU loop's in-situ cost.
 *
 * --footprint (footprint.sh, under valgrind's lackey): one traced call
 * between two markers, for counting the distinct cache lines and pages the
 * tracer's own instructions touch.
 */
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_util.h"

#ifdef HV_BENCH_LTTNG
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "bench_tp.h"
#endif

typedef int hipError_t;
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
hipError_t bench_direct_hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
hipError_t hipMemcpyDtoDAsync(void *dst, void *src, size_t n, void *s);
hipError_t bench_direct_hipMemcpyDtoDAsync(void *dst, void *src, size_t n, void *s);
hipError_t hipHostMalloc(void **p, size_t n, unsigned flags);
hipError_t hipMalloc(void **p, size_t n);
hipError_t hipMemcpyHtoDAsync(void *dst, void *src, size_t n, void *s);
hipError_t bench_direct_hipMemcpyHtoDAsync(void *dst, void *src, size_t n, void *s);
hipError_t hipStreamSynchronize(void *s);
hipError_t bench_direct_hipStreamSynchronize(void *s);

#define BLOCK 5000
#define ROUNDS 101


/* One arm: BLOCK calls of `call`, ns per call. */
typedef void (*call_fn)(void);

static char dst[64], src[64];
static void null_direct(void) { bench_direct_hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000); }
static void null_traced(void) { hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000); }
static void busy_direct(void) { bench_direct_hipMemcpyDtoDAsync(dst, src, 64, (void *)0x1000); }
static void busy_traced(void) { hipMemcpyDtoDAsync(dst, src, 64, (void *)0x1000); }
#ifdef HV_BENCH_LTTNG
static void null_lttng(void)
{
    int r = bench_direct_hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000);
    lttng_ust_tracepoint(hipvis_bench, memcpy_async, dst, src, 64, 1, (void *)0x1000, r);
}
#endif

static double block(call_fn call)
{
    uint64_t t0 = now_ns();
    for (int i = 0; i < BLOCK; i++)
        call();
    return (double)(now_ns() - t0) / BLOCK;
}

static void pause_for_writer(void)
{
    struct timespec ts = {0, 3 * 1000000L};
    nanosleep(&ts, NULL);
}

/* Alternates direct and traced blocks and prints the medians side by side. */
static void compare(const char *what, call_fn direct_fn, call_fn traced_fn)
{
    double direct[ROUNDS], traced[ROUNDS];
    block(direct_fn);
    block(traced_fn);
    for (int r = 0; r < ROUNDS; r++) {
        direct[r] = block(direct_fn);
        pause_for_writer();
        traced[r] = block(traced_fn);
        pause_for_writer();
    }
    qsort(direct, ROUNDS, sizeof direct[0], cmp_double);
    qsort(traced, ROUNDS, sizeof traced[0], cmp_double);
    double d = direct[ROUNDS / 2], t = traced[ROUNDS / 2];
    printf("bench-intercept: %s: direct %.1f ns/call, through libhipvis %.1f ns/call: "
           "+%.1f ns per call, ratio %.3fx (median of %d blocks of %d calls)\n",
           what, d, t, t - d, d > 0 ? t / d : 0.0, ROUNDS, BLOCK);
}

/* ---- 1 and 2 threads calling at once ---- */

enum { ARM_DIRECT, ARM_HIPVIS, ARM_LTTNG, ARMS };
static const char *const arm_names[ARMS] = {"direct", "libhipvis", "LTTng-UST"};
static call_fn arm_fn[ARMS] = {null_direct, null_traced,
#ifdef HV_BENCH_LTTNG
                               null_lttng
#else
                               NULL
#endif
};

/* Workers spin on a generation counter instead of sleeping at a barrier:
 * a futex wake-up takes longer than a block on a busy machine, and the two
 * threads' blocks must really run at the same time. */
#define TBLOCK 20000
static _Atomic unsigned go_gen, done_count, ready_count, nactive;
static struct {
    call_fn fn;
    int active;              /* this worker runs the block */
    int pin;                 /* the CPU it is pinned to (-1: not pinned) */
    uint64_t t0, t1;         /* wall clock: how far the two blocks overlapped */
    uint64_t cpu;            /* the thread's CPU time for the block */
} work[2];

/* The block's cost is the thread's CPU time, not wall time: on a shared
 * machine a preempted thread's wall time grows with the block, which would
 * count other processes' work as tracing cost; contention on shared cache
 * lines (what this section is about) stalls the thread and counts. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
static _Atomic int quit;

static void *worker(void *arg)
{
    int w = (int)(intptr_t)arg;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        while ((g = atomic_load_explicit(&go_gen, memory_order_acquire)) == seen)
            sched_yield();   /* leave the core to whoever runs a block */
        seen = g;
        if (atomic_load(&quit))
            return NULL;
        if (work[w].active) {
            call_fn fn = work[w].fn;
            /* Rendezvous: both workers are on a core before either starts. */
            atomic_fetch_add_explicit(&ready_count, 1, memory_order_acq_rel);
            while (atomic_load_explicit(&ready_count, memory_order_acquire) < atomic_load(&nactive))
                __builtin_ia32_pause();
            work[w].t0 = now_ns();
            uint64_t c0 = cpu_ns();
            for (int i = 0; i < TBLOCK; i++)
                fn();
            work[w].cpu = cpu_ns() - c0;
            work[w].t1 = now_ns();
        }
        if (atomic_fetch_add_explicit(&done_count, 1, memory_order_acq_rel) + 1 == 2)
            syscall(SYS_futex, (unsigned *)&done_count, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

/* One block of `fn` on `nthreads` workers at once (one: worker `first`):
 * ns per call (mean over the threads) and the fraction of the block both
 * threads ran together. */
static double threaded_block(call_fn fn, int nthreads, int first, double *overlap)
{
    for (int w = 0; w < 2; w++) {
        work[w].fn = fn;
        work[w].active = nthreads == 2 || w == first;
    }
    atomic_store(&done_count, 0);
    atomic_store(&ready_count, 0);
    atomic_store(&nactive, (unsigned)nthreads);
    atomic_fetch_add_explicit(&go_gen, 1, memory_order_acq_rel);
    /* The controller sleeps until the second worker is done, woken once:
     * two cores are for the workers. It used to poll every 50 us; each of
     * those wakeups interrupted the worker on that CPU, in the worker's CPU
     * time, and a traced block (~14x longer than a direct one) took ~14x
     * as many: +8-20 ns per traced call on that CPU alone. */
    unsigned d;
    while ((d = atomic_load_explicit(&done_count, memory_order_acquire)) < 2)
        syscall(SYS_futex, (unsigned *)&done_count, FUTEX_WAIT_PRIVATE, d, NULL, NULL, 0);
    double ns = 0;
    for (int w = 0; w < 2; w++)
        if (work[w].active)
            ns += (double)work[w].cpu / TBLOCK;
    if (nthreads == 2) {
        uint64_t lo = work[0].t0 > work[1].t0 ? work[0].t0 : work[1].t0;
        uint64_t hi = work[0].t1 < work[1].t1 ? work[0].t1 : work[1].t1;
        uint64_t span = (work[0].t1 - work[0].t0 + work[1].t1 - work[1].t0) / 2;
        *overlap = hi > lo && span ? (double)(hi - lo) / (double)span : 0.0;
    }
    return ns / nthreads;
}

static void compare_threads(void)
{
    double r[ARMS][2][ROUNDS], ov[ROUNDS];
    pthread_t th[2];
    /* The first two CPUs this process may use, one per worker. */
    cpu_set_t allowed;
    int ncpu = 0;
    work[0].pin = work[1].pin = -1;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int c = 0; c < CPU_SETSIZE && ncpu < 2; c++)
            if (CPU_ISSET(c, &allowed))
                work[ncpu++].pin = c;
    if (ncpu < 2)
        work[0].pin = work[1].pin = -1;
    for (int w = 0; w < 2; w++) {
        pthread_create(&th[w], NULL, worker, (void *)(intptr_t)w);
        if (work[w].pin >= 0) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(work[w].pin, &one);
            pthread_setaffinity_np(th[w], sizeof one, &one);
        }
    }
    double dummy;
    for (int a = 0; a < ARMS; a++)   /* warm-up: rings claimed, pages touched */
        if (arm_fn[a])
            threaded_block(arm_fn[a], 2, 0, &dummy);
    for (int k = 0; k < ROUNDS; k++) {
        for (int a = 0; a < ARMS; a++) {
            if (!arm_fn[a])
                continue;
            r[a][0][k] = threaded_block(arm_fn[a], 1, k & 1, &dummy);   /* the two CPUs in turn */
            pause_for_writer();
            r[a][1][k] = threaded_block(arm_fn[a], 2, 0, a == ARM_HIPVIS ? &ov[k] : &dummy);
            pause_for_writer();
        }
    }
    /* libhipvis's 1-thread figure on each CPU apart (rounds of each parity),
     * before the sorts below: how far the two CPUs differ. */
    double per_cpu[2] = {0, 0};
    if (work[0].pin >= 0) {
        for (int c = 0; c < 2; c++) {
            double v[ROUNDS];
            int n = 0;
            for (int k = c; k < ROUNDS; k += 2)
                v[n++] = r[ARM_HIPVIS][0][k] - r[ARM_DIRECT][0][k];
            qsort(v, (size_t)n, sizeof v[0], cmp_double);
            per_cpu[c] = v[n / 2];
        }
    }
    atomic_store(&quit, 1);
    atomic_fetch_add_explicit(&go_gen, 1, memory_order_acq_rel);
    for (int w = 0; w < 2; w++)
        pthread_join(th[w], NULL);
    double med[ARMS][2];
    for (int a = 0; a < ARMS; a++)
        for (int n = 0; n < 2; n++) {
            if (!arm_fn[a])
                continue;
            qsort(r[a][n], ROUNDS, sizeof r[a][n][0], cmp_double);
            med[a][n] = r[a][n][ROUNDS / 2];
        }
    qsort(ov, ROUNDS, sizeof ov[0], cmp_double);
    double load[3] = {0};
    getloadavg(load, 3);
    for (int a = ARM_HIPVIS; a < ARMS; a++) {
        if (!arm_fn[a])
            continue;
        double add1 = med[a][0] - med[ARM_DIRECT][0], add2 = med[a][1] - med[ARM_DIRECT][1];
        printf("bench-intercept: threads: %s: 1 thread +%.1f ns per call, 2 threads at once +%.1f ns per call "
               "(%.2fx the 1-thread figure; direct %.1f / %.1f ns/call)\n",
               arm_names[a], add1, add2, add1 > 0 ? add2 / add1 : 0.0, med[ARM_DIRECT][0], med[ARM_DIRECT][1]);
    }
    if (arm_fn[ARM_LTTNG]) {
        double h = med[ARM_HIPVIS][0] - med[ARM_DIRECT][0], l = med[ARM_LTTNG][0] - med[ARM_DIRECT][0];
        double h2 = med[ARM_HIPVIS][1] - med[ARM_DIRECT][1], l2 = med[ARM_LTTNG][1] - med[ARM_DIRECT][1];
        printf("bench-intercept: threads: libhipvis / LTTng-UST added cost: 1 thread %.2fx, 2 threads %.2fx\n",
               l > 0 ? h / l : 0.0, l2 > 0 ? h2 / l2 : 0.0);
    } else {
        printf("bench-intercept: threads: LTTng-UST arm not built (no liblttng-ust-dev) or not run: skipped\n");
    }
    printf("bench-intercept: threads: hipMemcpyAsync back to back, thread CPU time per call, median of %d rounds "
           "of %d calls per thread; 2-thread blocks overlapped %.0f%% of their wall time (median); load average %.2f\n",
           ROUNDS, TBLOCK, 100.0 * ov[ROUNDS / 2], load[0]);
    if (work[0].pin >= 0)
        printf("bench-intercept: threads: workers pinned to CPUs %d and %d, 1-thread blocks in turn on each: libhipvis "
               "1 thread +%.1f ns on CPU %d, +%.1f ns on CPU %d (median of each CPU's rounds, same-round direct block "
               "subtracted)\n",
               work[0].pin, work[1].pin, per_cpu[0], work[0].pin, per_cpu[1], work[1].pin);
    else
        printf("bench-intercept: threads: one CPU allowed: workers not pinned (the 2-thread blocks share it)\n");
}

/* ---- isolated calls: hot, and after a sweep of caches and TLBs ---- */

/* The code sweep: 4096 functions, each on a 64-byte line of its own (256 KiB,
 * 64 pages), called in turn: evicts the L1 instruction cache and the
 * instruction TLB, as the interpreter and the libraries between two runtime
 * calls of a serving loop do. */
#define CF(n) static __attribute__((noinline, aligned(64))) int cf_##n(int x) { __asm__ __volatile__("" : "+r"(x)); return x + 1; }
#define CF8(n) CF(n##0) CF(n##1) CF(n##2) CF(n##3) CF(n##4) CF(n##5) CF(n##6) CF(n##7)
#define CF64(n) CF8(n##0) CF8(n##1) CF8(n##2) CF8(n##3) CF8(n##4) CF8(n##5) CF8(n##6) CF8(n##7)
#define CF512(n) CF64(n##0) CF64(n##1) CF64(n##2) CF64(n##3) CF64(n##4) CF64(n##5) CF64(n##6) CF64(n##7)
#define CT(n) cf_##n,
#define CT8(n) CT(n##0) CT(n##1) CT(n##2) CT(n##3) CT(n##4) CT(n##5) CT(n##6) CT(n##7)
#define CT64(n) CT8(n##0) CT8(n##1) CT8(n##2) CT8(n##3) CT8(n##4) CT8(n##5) CT8(n##6) CT8(n##7)
#define CT512(n) CT64(n##0) CT64(n##1) CT64(n##2) CT64(n##3) CT64(n##4) CT64(n##5) CT64(n##6) CT64(n##7)
CF512(1) CF512(2) CF512(3) CF512(4) CF512(5) CF512(6) CF512(7) CF512(8)
static int (*const code_sweep[])(int) = {CT512(1) CT512(2) CT512(3) CT512(4) CT512(5) CT512(6) CT512(7) CT512(8)};
#define CODE_FUNCS (sizeof code_sweep / sizeof code_sweep[0])

static volatile unsigned long sweep_sink;
static unsigned char *sweep_buf;

static void sweep(size_t data_bytes)
{
    unsigned long sum = 0;
    for (size_t i = 0; i < data_bytes; i += 64)
        sum += sweep_buf[i];
    int x = 0;
    for (size_t i = 0; i < CODE_FUNCS; i++)
        x = code_sweep[i](x);
    sweep_sink = sum + (unsigned long)x;
}

#if defined(__x86_64__)
static inline uint64_t tsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#else
static inline uint64_t tsc_fenced(void) { return now_ns(); }
#endif

#define ISO_SAMPLES 2001
/* The mean of the middle 80% of sorted samples: the TSC of a VM may tick
 * in steps of several ns (10 ns on the development VM), which a median
 * would round to; a mean over calls that start at random phases of the
 * tick does not, and the trim drops interrupts and preemption. */
static double trimmed_mean(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    double sum = 0;
    int lo = n / 10, hi = n - n / 10;
    for (int i = lo; i < hi; i++)
        sum += v[i];
    return sum / (hi - lo);
}

/* Trimmed means (ticks) of one direct and one traced call timed alone, the two
 * alternating, each after a sweep of `data_bytes` of data and the code
 * sweep (no sweep at all when data_bytes is 0: hot). */
static void isolated(size_t data_bytes, double *direct, double *traced)
{
    static double d[ISO_SAMPLES], t[ISO_SAMPLES];
    for (int k = -50; k < ISO_SAMPLES; k++) {   /* the first 50 pairs warm up */
        for (int j = 0; j < 2; j++) {
            int arm = j ^ (k & 1);   /* either arm first, in turn */
            if (data_bytes)
                sweep(data_bytes);
            uint64_t t0 = tsc_fenced();
            if (arm)
                null_traced();
            else
                null_direct();
            uint64_t t1 = tsc_fenced();
            if (k >= 0)
                (arm ? t : d)[k] = (double)(t1 - t0);
        }
        if (k % 500 == 499)
            pause_for_writer();
    }
    *direct = trimmed_mean(d, ISO_SAMPLES);
    *traced = trimmed_mean(t, ISO_SAMPLES);
}

static void compare_isolated(void)
{
    static const size_t sizes[] = {0, 1u << 20, 8u << 20};
    sweep_buf = malloc(8u << 20);
    if (!sweep_buf)
        return;
    memset(sweep_buf, 1, 8u << 20);
    uint64_t n0 = now_ns(), c0 = tsc_fenced();
    double d[3], t[3];
    for (int i = 0; i < 3; i++)
        isolated(sizes[i], &d[i], &t[i]);
    double per_ns = (double)(tsc_fenced() - c0) / (double)(now_ns() - n0);   /* ticks per ns */
    if (per_ns <= 0)
        per_ns = 1;
    double load[3] = {0};
    getloadavg(load, 3);
    printf("bench-intercept: isolated calls: hipMemcpyAsync timed alone (ordered TSC read each side), direct and "
           "traced alternating, mean of the middle 80%% of %d each; cold: a data sweep (one load per line) and 256 KiB of code (%zu "
           "functions) run before every call\n", ISO_SAMPLES, CODE_FUNCS);
    for (int i = 0; i < 3; i++) {
        char what[32];
        if (sizes[i])
            snprintf(what, sizeof what, "cold, %zu MiB data", sizes[i] >> 20);
        else
            snprintf(what, sizeof what, "hot");
        printf("bench-intercept: isolated calls: %-17s direct %6.1f ns, through libhipvis %6.1f ns: +%.1f ns per call\n",
               what, d[i] / per_ns, t[i] / per_ns, (t[i] - d[i]) / per_ns);
    }
    printf("bench-intercept: isolated calls: added cost cold (8 MiB) / hot: %.2fx (load average %.2f)\n",
           t[0] > d[0] ? (t[2] - d[2]) / (t[0] - d[0]) : 0.0, load[0]);
    free(sweep_buf);
}

/* ---- GPU-like calls: the runtime call takes a while ----
 *
 * What a serving step's calls look like to the tracer (issue 12): a 2 KiB
 * H2D copy from pinned memory on the legacy stream and a legacy-stream
 * synchronize, each a stand-in runtime call that runs about a microsecond
 * and reads 8 KiB of its own state (stub_runtime.c), each after the sweep
 * of caches and TLBs that a step's Python and framework work amounts to.
 * The added cost here is what the tracer's cold lines cost when the real
 * call's latency can hide what the wrapper asks for before it (prefetches);
 * the empty-function arms above have no such time. */
static void compare_gpu_like(void)
{
    static double d[2][ISO_SAMPLES], t[2][ISO_SAMPLES];
    void *pinned = NULL, *dev = NULL;
    sweep_buf = malloc(8u << 20);
    if (!sweep_buf || hipHostMalloc(&pinned, 2048, 0) != 0 || hipMalloc(&dev, 2048) != 0)
        return;
    memset(sweep_buf, 1, 8u << 20);
    uint64_t n0 = now_ns(), c0 = tsc_fenced();
    for (int hot = 1; hot >= 0; hot--) {
        for (int k = -50; k < ISO_SAMPLES; k++) {
            for (int j = 0; j < 2; j++) {
                int arm = j ^ (k & 1);
                ((unsigned char *)pinned)[0] = (unsigned char)k;
                if (!hot)
                    sweep(8u << 20);
                uint64_t t0 = tsc_fenced();
                if (arm)
                    hipMemcpyHtoDAsync(dev, pinned, 2048, NULL);
                else
                    bench_direct_hipMemcpyHtoDAsync(dev, pinned, 2048, NULL);
                uint64_t t1 = tsc_fenced();
                if (!hot)
                    sweep(8u << 20);
                uint64_t t2 = tsc_fenced();
                if (arm)
                    hipStreamSynchronize(NULL);
                else
                    bench_direct_hipStreamSynchronize(NULL);
                uint64_t t3 = tsc_fenced();
                if (k >= 0) {
                    (arm ? t : d)[0][k] = (double)(t1 - t0);
                    (arm ? t : d)[1][k] = (double)(t3 - t2);
                }
            }
            if (k % 500 == 499)
                pause_for_writer();
        }
        double per_ns = (double)(tsc_fenced() - c0) / (double)(now_ns() - n0);
        if (per_ns <= 0)
            per_ns = 1;
        double load[3] = {0};
        getloadavg(load, 3);
        static const char *const what[2] = {"pinned H2D copy, legacy stream", "legacy-stream synchronize"};
        for (int c = 0; c < 2; c++) {
            double dm = trimmed_mean(d[c], ISO_SAMPLES), tm = trimmed_mean(t[c], ISO_SAMPLES);
            printf("bench-intercept: GPU-like calls, %s: %-31s direct %6.1f ns, through libhipvis %6.1f ns: "
                   "+%.1f ns per call (load average %.2f)\n",
                   hot ? "hot " : "cold", what[c], dm / per_ns, tm / per_ns, (tm - dm) / per_ns, load[0]);
        }
    }
    free(sweep_buf);
}

/* --count (instr.sh): calls through each arm, each arm in a function of its
 * own so an instruction counter (callgrind --toggle-collect) can count one
 * arm alone; the writer gets its pause between blocks as above. No timing:
 * instruction counts do not depend on the machine's load. */
#define COUNT_CALLS 20000
/* Traced calls before a count or a footprint: the ring claimed, the writer
 * started, pages touched, and past the thread's rewrite-check warm-up
 * (HIPVIS_REWRITE_FIRST: its first 4096 async H2D copies all take the full
 * path, checked when eligible), so that both see a long-running loop's
 * calls. */
#define WARM_CALLS 5000
static void arm_loop(call_fn fn, long n)
{
    for (long done = 0; done < n; done += 1000) {
        for (int i = 0; i < 1000; i++)
            fn();
        pause_for_writer();
    }
}
/* noipa and the empty statement after the loop: each stays a function of
 * its own under its own name (no clone, no tail call), as the counter needs. */
static __attribute__((noipa)) void count_direct(long n)
{
    arm_loop(null_direct, n);
    __asm__ __volatile__("");
}
static __attribute__((noipa)) void count_traced(long n)
{
    arm_loop(null_traced, n);
    __asm__ __volatile__("");
}

/* --footprint (footprint.sh): marks around single traced calls; lackey's
 * trace of the stores to fp_mark delimits them. */
volatile int fp_mark;
static void footprint(void)
{
    arm_loop(null_traced, WARM_CALLS);
    int here;
    printf("fp mark %p\nfp tls %p\nfp stack %p\n", (void *)&fp_mark, (void *)&errno, (void *)&here);
    fflush(stdout);
    for (int i = 1; i <= 8; i++) {
        fp_mark = i;           /* window i opens */
        null_traced();
        fp_mark = -i;          /* and closes */
    }
    print_maps();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--footprint") == 0) {
        footprint();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--b2b") == 0) {   /* the back-to-back figure alone (A/B of two builds) */
        compare("hipMemcpyAsync, empty runtime function, calls back to back", null_direct, null_traced);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--isolated") == 0) {
        compare_isolated();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--gpu-like") == 0) {
        compare_gpu_like();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--count") == 0) {
        arm_loop(null_traced, WARM_CALLS);
        count_direct(COUNT_CALLS);
        count_traced(COUNT_CALLS);
        printf("pair hipMemcpyAsync_back_to_back count_direct count_traced %d call\n", COUNT_CALLS);
        return 0;
    }
    if (argc > 1) {   /* --threads: only the threads section (the LTTng build runs that) */
        compare_threads();
        return 0;
    }
    compare("hipMemcpyAsync, empty runtime function, calls back to back", null_direct, null_traced);
    printf("bench-intercept: (so far only this thread has traced: its calls read the clock without a fence, "
           "docs/trace-format.md; the threads section below runs after three threads traced, fenced)\n");
    compare("hipMemcpyDtoDAsync, runtime function doing ~2000 instructions", busy_direct, busy_traced);
    compare_isolated();
    compare_gpu_like();
    compare_threads();
    return 0;
}
