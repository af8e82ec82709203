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
hipError_t hipMemcpyDtoDAsync(void *dst, void *src, size_t n, void *s);
hipError_t bench_direct_hipMemcpyDtoDAsync(void *dst, void *src, size_t n, void *s);

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

/* One arm: BLOCK calls of `call`, ns per call. */
typedef void (*call_fn)(void);

static char dst[64], src[64];
static void null_direct(void) { bench_direct_hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000); }
static void null_traced(void) { hipMemcpyAsync(dst, src, 64, 1, (void *)0x1000); }
static void busy_direct(void) { bench_direct_hipMemcpyDtoDAsync(dst, src, 64, (void *)0x1000); }
static void busy_traced(void) { hipMemcpyDtoDAsync(dst, src, 64, (void *)0x1000); }

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
    qsort(direct, ROUNDS, sizeof direct[0], cmp);
    qsort(traced, ROUNDS, sizeof traced[0], cmp);
    double d = direct[ROUNDS / 2], t = traced[ROUNDS / 2];
    printf("bench-intercept: %s: direct %.1f ns/call, through libhipvis %.1f ns/call: "
           "+%.1f ns per call, ratio %.3fx (median of %d blocks of %d calls)\n",
           what, d, t, t - d, d > 0 ? t / d : 0.0, ROUNDS, BLOCK);
}

int main(void)
{
    compare("hipMemcpyAsync, empty runtime function, calls back to back", null_direct, null_traced);
    compare("hipMemcpyDtoDAsync, runtime function doing ~2000 instructions", busy_direct, busy_traced);
    return 0;
}
