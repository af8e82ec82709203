/*
 * bench_step: the serving-loop step of issue 12 on the HIP runtime test
 * double, with 1 live stream and then with 130 (PyTorch's stream pools),
 * in one process.
 *
 * Per step, all on the legacy (NULL) stream as PyTorch's default stream: a
 * 2 KiB pinned H2D hipMemcpyAsync of the step's metadata, a graph replay
 * (three graphs, batch 64/128/256, in turn), and hipStreamSynchronize(NULL);
 * every 8th step is an eager "prefill" that rewrites the pinned source
 * first and launches the kernel directly instead of replaying.
 *
 * Under LD_PRELOAD=libhipvis.so, blocks of steps alternate recording off
 * and on (hipvis_record_this_thread: both arms go through the wrappers, so
 * the difference is what recording adds); the median block of each arm is
 * reported as ns per step and the difference as the added cost, first with
 * 1 stream, then after creating 129 more non-blocking streams. Records per
 * step and records dropped come from hipvis_record_counts. Without the
 * preload both arms are the same direct calls: the noise floor. A last
 * line gives the median and quartiles of each round's on-minus-off thread
 * CPU: the 130/1 ratio's target (1.2x) is a gap of ~20-30 ns per step,
 * and the quartiles say whether the run's noise is smaller than that
 * (at load 7 the noise floor's 130-stream quartiles were -98..+152 ns).
 * `--footprint 130` lays lackey's windows over the 130-stream phase.
 */
#include "../runtime-double/hipdouble.h"
#include "bench_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define META_BYTES 2048
#define BLOCK 400          /* steps per block */
#ifndef ROUNDS
#define ROUNDS 41          /* blocks per arm and phase */
#endif
#define PREFILL_EVERY 8
#define POOL_STREAMS 129   /* created for the second phase: 130 live with the legacy stream's peer */

static const char k_stub;  /* host stub: its address names the kernel */
static void kernel(void **args, dim3 g, dim3 b, void *u)
{
    (void)args;
    (void)g;
    (void)b;
    (void)u;
}

static void (*record_this_thread)(int);
static int (*record_counts)(uint64_t *, uint64_t *);

#define OK(x)                                                                              \
    do {                                                                                   \
        hipError_t e_ = (x);                                                               \
        if (e_ != hipSuccess) {                                                            \
            fprintf(stderr, "bench-step: %s: %s\n", #x, hipGetErrorName(e_));              \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)


static struct {
    unsigned char *pinned;
    void *meta, *dev;
    hipGraphExec_t graphs[3];
    long step;
} g;

static void one_step(void)
{
    int prefill = g.step % PREFILL_EVERY == 0;
    if (prefill)
        memset(g.pinned, (int)(g.step & 0xff), META_BYTES);   /* the host rewrites the pinned source */
    else
        g.pinned[0] = (unsigned char)g.step;
    OK(hipMemcpyAsync(g.meta, g.pinned, META_BYTES, hipMemcpyHostToDevice, NULL));
    if (prefill) {
        void *args[] = {&g.meta};
        OK(hipLaunchKernel(&k_stub, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args, 0, NULL));
    } else {
        OK(hipGraphLaunch(g.graphs[g.step % 3], NULL));
    }
    OK(hipStreamSynchronize(NULL));
    g.step++;
}

/* The calling thread's CPU time: on a shared machine wall time also counts
 * other processes' turns (printed too; the writer thread's work shows only
 * there). */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double block(int record, double *cpu)
{
    if (record_this_thread)
        record_this_thread(record);
    uint64_t t0 = now_ns(), c0 = cpu_ns();
    for (int i = 0; i < BLOCK; i++)
        one_step();
    uint64_t ns = now_ns() - t0;
    *cpu = (double)(cpu_ns() - c0) / BLOCK;
    if (record_this_thread)
        record_this_thread(1);
    return (double)ns / BLOCK;
}

static void pause_for_writer(void)
{
    struct timespec ts = {0, 2 * 1000000L};
    nanosleep(&ts, NULL);
}

struct phase {
    double off, on, cpu_off, cpu_on, records_per_step;
    uint64_t dropped;
    /* Thread CPU added per step, from the difference within each round (an
     * off block and the on block right after it): median and quartiles. A
     * drift in the machine's speed (other processes, frequency) moves both
     * blocks of a round alike, so this spread says how far apart two runs'
     * figures can be. */
    double pair_cpu, pair_cpu_q1, pair_cpu_q3;
};

static struct phase run_phase(void)
{
    double off[ROUNDS], on[ROUNDS], coff[ROUNDS], con[ROUNDS], pair[ROUNDS], c;
    uint64_t m0 = 0, d0 = 0, m1 = 0, d1 = 0;
    block(0, &c);
    block(1, &c);
    if (record_counts)
        record_counts(&m0, &d0);
    for (int r = 0; r < ROUNDS; r++) {
        off[r] = block(0, &coff[r]);
        pause_for_writer();
        on[r] = block(1, &con[r]);
        pause_for_writer();
        pair[r] = con[r] - coff[r];
    }
    if (record_counts)
        record_counts(&m1, &d1);
    qsort(off, ROUNDS, sizeof off[0], cmp_double);
    qsort(on, ROUNDS, sizeof on[0], cmp_double);
    qsort(coff, ROUNDS, sizeof coff[0], cmp_double);
    qsort(con, ROUNDS, sizeof con[0], cmp_double);
    qsort(pair, ROUNDS, sizeof pair[0], cmp_double);
    return (struct phase){off[ROUNDS / 2], on[ROUNDS / 2], coff[ROUNDS / 2], con[ROUNDS / 2],
                          (double)(m1 - m0) / ((double)ROUNDS * BLOCK), d1 - d0,
                          pair[ROUNDS / 2], pair[ROUNDS / 4], pair[3 * ROUNDS / 4]};
}

static void print_phase(const char *what, const struct phase *p)
{
    printf("bench-step: %s: recording off %.0f ns/step, on %.0f ns/step: +%.0f ns per step wall, "
           "+%.0f ns thread CPU (%.2f records/step, %llu dropped)\n",
           what, p->off, p->on, p->on - p->off, p->cpu_on - p->cpu_off, p->records_per_step,
           (unsigned long long)p->dropped);
}

/* --count (instr.sh): steps with recording off and on, each arm in a
 * function of its own for an instruction counter, with 1 stream and with
 * 130; noipa and the empty statement keep each a function of its own
 * under its own name. */
#define COUNT_STEPS 2000
static void steps(int record, long n)
{
    for (long done = 0; done < n; done += BLOCK) {
        double c;
        block(record, &c);
        pause_for_writer();
    }
}
#define COUNT_ARM(name, record)                      \
    static __attribute__((noipa)) void name(long n) \
    {                                                \
        steps(record, n);                            \
        __asm__ __volatile__("");                    \
    }
COUNT_ARM(count_off_1, 0)
COUNT_ARM(count_on_1, 1)
COUNT_ARM(count_off_130, 0)
COUNT_ARM(count_on_130, 1)

/* --footprint (footprint.sh): marks around single recorded steps; lackey's
 * trace of the stores to fp_mark delimits them. */
volatile int fp_mark;
static void footprint(void)
{
    int here;
    steps(1, BLOCK);   /* warm-up: ring claimed, writer started */
    printf("fp mark %p\nfp tls %p\nfp stack %p\n", (void *)&fp_mark, (void *)&errno, (void *)&here);
    fflush(stdout);
    for (int i = 1; i <= 16; i++) {   /* two prefill cycles */
        fp_mark = i;
        one_step();
        fp_mark = -i;
    }
    print_maps();
}

int main(int argc, char **argv)
{
    int count = argc > 1 && strcmp(argv[1], "--count") == 0;
    record_this_thread = (void (*)(int))dlsym(RTLD_DEFAULT, "hipvis_record_this_thread");
    record_counts = (int (*)(uint64_t *, uint64_t *))dlsym(RTLD_DEFAULT, "hipvis_record_counts");
    size_t sz = sizeof(void *);
    if (hipdouble_register_kernel(&k_stub, "decode_step", kernel, 1, &sz, NULL) != 0)
        return 1;
    OK(hipHostMalloc((void **)&g.pinned, META_BYTES, 0));
    OK(hipMalloc(&g.meta, META_BYTES));
    hipStream_t cap;
    OK(hipStreamCreateWithFlags(&cap, hipStreamNonBlocking));
    for (int i = 0; i < 3; i++) {   /* batch 64, 128, 256: one graph each */
        hipGraph_t graph;
        void *args[] = {&g.meta};
        OK(hipStreamBeginCapture(cap, hipStreamCaptureModeThreadLocal));
        OK(hipLaunchKernel(&k_stub, (dim3){(unsigned)(1u << i), 1, 1}, (dim3){64, 1, 1}, args, 0, cap));
        OK(hipStreamEndCapture(cap, &graph));
        OK(hipGraphInstantiate(&g.graphs[i], graph, NULL, NULL, 0));
        OK(hipGraphDestroy(graph));
    }
    OK(hipDeviceSynchronize());
    if (argc > 1 && strcmp(argv[1], "--footprint") == 0) {
        for (int i = 0; argc > 2 && i < POOL_STREAMS; i++) {   /* --footprint 130: the 130-stream phase */
            hipStream_t s;
            OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
        }
        footprint();
        return 0;
    }
    if (!record_this_thread)
        printf("bench-step: not under libhipvis: both arms run the same direct calls (noise floor)\n");
    if (count) {
        steps(1, BLOCK);   /* warm-up: ring claimed, writer started */
        count_off_1(COUNT_STEPS);
        count_on_1(COUNT_STEPS);
        for (int i = 0; i < POOL_STREAMS; i++) {
            hipStream_t s;
            OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
        }
        count_off_130(COUNT_STEPS);
        count_on_130(COUNT_STEPS);
        printf("pair step_with_1_stream count_off_1 count_on_1 %d step\n", COUNT_STEPS);
        printf("pair step_with_130_streams count_off_130 count_on_130 %d step\n", COUNT_STEPS);
        return 0;
    }
    double load[3] = {0};
    getloadavg(load, 3);
    struct phase one = run_phase();
    for (int i = 0; i < POOL_STREAMS; i++) {
        hipStream_t s;
        OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    }
    struct phase many = run_phase();
    print_phase("1 stream   ", &one);
    print_phase("130 streams", &many);
    double a1 = one.on - one.off, a130 = many.on - many.off;
    double c1 = one.cpu_on - one.cpu_off, c130 = many.cpu_on - many.cpu_off;
    printf("bench-step: added cost 130 streams / 1 stream: %.2fx wall, %.2fx thread CPU (median of %d blocks of "
           "%d steps per arm; load average %.2f)\n",
           a1 > 0 ? a130 / a1 : 0.0, c1 > 0 ? c130 / c1 : 0.0, ROUNDS, BLOCK, load[0]);
    printf("bench-step: thread CPU added, median of the %d rounds' on-minus-off differences (quartiles): "
           "1 stream +%.0f (%+.0f..%+.0f) ns, 130 streams +%.0f (%+.0f..%+.0f) ns per step: %.2fx\n",
           ROUNDS, one.pair_cpu, one.pair_cpu_q1, one.pair_cpu_q3, many.pair_cpu, many.pair_cpu_q1, many.pair_cpu_q3,
           one.pair_cpu > 0 ? many.pair_cpu / one.pair_cpu : 0.0);
    return 0;
}
