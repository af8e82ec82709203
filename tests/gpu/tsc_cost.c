/*
 * tsc_cost: what each clock read hipvis can make costs on this host's CPU
 * (issue 13: a call's fenced read is most of what it adds; tests/gpu/clock.sh).
 *
 * Per form (plain `rdtsc`, `lfence; rdtsc` as src/ring/clock.h reads it
 * once a second thread has traced, `rdtscp`, the vDSO's CLOCK_MONOTONIC):
 *   - back to back: the read and one store, in a loop;
 *   - after a miss: each read follows a load that misses every cache (a
 *     random line of a 256 MiB buffer, its address independent of the
 *     previous load so the misses could overlap): what the read adds to
 *     the miss alone. `lfence` waits for that load; whether a plain `rdtsc`
 *     does depends on the CPU (measured: the H200 host's Intel CPU
 *     waits, the development VM's AMD one mostly does not).
 * ns per read, wall clock, best of five rounds.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !defined(__x86_64__)
int main(void)
{
    puts("tsc_cost: x86-64 only");
    return 0;
}
#else

static inline uint64_t rd_plain(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return (uint64_t)hi << 32 | lo;
}
static inline uint64_t rd_fenced(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return (uint64_t)hi << 32 | lo;
}
static inline uint64_t rd_tscp(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    return (uint64_t)hi << 32 | lo;
}
static inline uint64_t rd_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t rd_none(void) { return 0; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define BIG (256u << 20)
#define N_B2B 5000000
#define N_MISS 200000
static volatile uint64_t sink;
static uint8_t *buf;
static uint32_t *idx;   /* random line numbers, precomputed: the loads do not depend on each other */

/* ns per read of `fn`, back to back or (miss) each after a missing load. */
#define MEASURE(name, fn)                                                       \
    static double time_##name(int miss)                                        \
    {                                                                          \
        int n = miss ? N_MISS : N_B2B;                                         \
        double best = 1e30;                                                    \
        for (int r = 0; r < 5; r++) {                                          \
            uint64_t s = 0;                                                    \
            double t0 = now();                                                 \
            for (int i = 0; i < n; i++) {                                      \
                if (miss)                                                      \
                    s += *(volatile uint64_t *)(buf + (uint64_t)idx[i] * 64);  \
                s += fn();                                                     \
                sink = s;                                                      \
            }                                                                  \
            double t = (now() - t0) / n;                                       \
            best = t < best ? t : best;                                        \
        }                                                                      \
        return best;                                                           \
    }
MEASURE(none, rd_none)
MEASURE(plain, rd_plain)
MEASURE(fenced, rd_fenced)
MEASURE(tscp, rd_tscp)
MEASURE(mono, rd_mono)

int main(void)
{
    buf = calloc(1, BIG);
    idx = malloc(N_MISS * sizeof *idx);
    if (!buf || !idx)
        return 1;
    for (size_t i = 0; i < BIG; i += 4096)   /* every page backed before the timing */
        buf[i] = 1;
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N_MISS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        idx[i] = (uint32_t)(x % (BIG / 64));
    }
    double m0 = time_none(1);
    printf("tsc_cost: back to back (ns per read): rdtsc %.1f, lfence;rdtsc %.1f, rdtscp %.1f, clock_gettime %.1f "
           "(loop alone %.1f)\n",
           time_plain(0), time_fenced(0), time_tscp(0), time_mono(0), time_none(0));
    printf("tsc_cost: after a load that misses every cache, added to the miss alone (%.1f ns per load): "
           "rdtsc %+.1f, lfence;rdtsc %+.1f, rdtscp %+.1f, clock_gettime %+.1f\n",
           m0, time_plain(1) - m0, time_fenced(1) - m0, time_tscp(1) - m0, time_mono(1) - m0);
    return 0;
}
#endif
