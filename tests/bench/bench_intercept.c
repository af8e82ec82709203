/*
 * Added cost per intercepted call, measured side by side in one process:
 * blocks of calls through the direct alias and through the interposed name
 * alternate, and the median block of each arm is reported, as ns per call
 * and as a ratio. Between blocks the writer gets time to drain, so the
 * traced arm measures recording, not the (cheaper) drop path; drops are
 * reported so a reader can see that.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int hipError_t;
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
hipError_t bench_direct_hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);

#define BLOCK 5000
#define ROUNDS 101

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double block(hipError_t (*fn)(void *, const void *, size_t, int, void *))
{
    static char dst[64], src[64];
    uint64_t t0 = now_ns();
    for (int i = 0; i < BLOCK; i++)
        fn(dst, src, 64, 1, (void *)0x1000);
    return (double)(now_ns() - t0) / BLOCK;
}

static void pause_for_writer(void)
{
    struct timespec ts = {0, 3 * 1000000L};
    nanosleep(&ts, NULL);
}

int main(void)
{
    double direct[ROUNDS], traced[ROUNDS];
    block(bench_direct_hipMemcpyAsync);
    block(hipMemcpyAsync);
    for (int r = 0; r < ROUNDS; r++) {
        direct[r] = block(bench_direct_hipMemcpyAsync);
        pause_for_writer();
        traced[r] = block(hipMemcpyAsync);
        pause_for_writer();
    }
    qsort(direct, ROUNDS, sizeof direct[0], cmp);
    qsort(traced, ROUNDS, sizeof traced[0], cmp);
    double d = direct[ROUNDS / 2], t = traced[ROUNDS / 2];
    printf("bench-intercept: hipMemcpyAsync direct %.1f ns/call, through libhipvis %.1f ns/call: "
           "+%.1f ns per call, ratio %.2fx (median of %d blocks of %d calls)\n",
           d, t, t - d, d > 0 ? t / d : 0.0, ROUNDS, BLOCK);
    return 0;
}
