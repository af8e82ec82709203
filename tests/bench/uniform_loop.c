/*
 * TEST-ONLY fake-runtime loop: the same hipMemcpyAsync (device to device,
 * one stream) over and over on the stub runtime (stub_runtime.c), so that
 * under LD_PRELOAD=libhipvis.so it produces the most uniform trace there is.
 * Used for bytes per record on the uniform loop and for the writer's
 * "nothing lost at a sustained call rate" check (make bench).
 *
 *   uniform_loop [--calls N] [--rate CALLS_PER_S] [--threads T] [--pace-from start|first]
 *
 * --rate paces the calls (busy-waiting on CLOCK_MONOTONIC in blocks of 64
 * calls); 0 (the default) calls back to back. Prints calls made, seconds
 * and the achieved rate.
 *
 * --pace-from says where the schedule starts. "start" (the default): before
 * the first call, so a first call that takes long (under libhipvis it
 * activates tracing: on this project's VM ~10 ms of the ring's first page
 * writes) is caught up afterwards in one burst at full speed, ~15,000 calls
 * at 1.5 M calls/s. "first": from the first call's return, so the rate is
 * steady from there on: the sustained-rate case, without the burst.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int hipError_t;
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);

static long g_calls = 1000000;
static double g_rate;
static int g_pace_first;   /* --pace-from first */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *loop(void *arg)
{
    (void)arg;
    static char dst[64], src[64];
    uint64_t t0 = now_ns();
    double ns_per_call = g_rate > 0 ? 1e9 / g_rate : 0;
    for (long i = 0; i < g_calls; i++) {
        /* hipMemcpyDeviceToDevice (3): no payload capture, one record per call. */
        hipMemcpyAsync(dst, src, 64, 3, (void *)0x1000);
        if (i == 0 && g_pace_first)   /* the schedule starts as if the first call had taken its share */
            t0 = now_ns() - (uint64_t)ns_per_call;
        if (ns_per_call > 0 && (i & 63) == 63) {
            uint64_t due = t0 + (uint64_t)((double)(i + 1) * ns_per_call);
            while (now_ns() < due) {
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"calls", required_argument, NULL, 'n'},
        {"rate", required_argument, NULL, 'r'},
        {"threads", required_argument, NULL, 't'},
        {"pace-from", required_argument, NULL, 'p'},
        {NULL, 0, NULL, 0},
    };
    int threads = 1, c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            g_calls = strtol(optarg, NULL, 10);
            break;
        case 'r':
            g_rate = strtod(optarg, NULL);
            break;
        case 't':
            threads = atoi(optarg);
            break;
        case 'p':
            if (strcmp(optarg, "first") != 0 && strcmp(optarg, "start") != 0) {
                fprintf(stderr, "%s: --pace-from takes start or first, not '%s'\n", argv[0], optarg);
                return 2;
            }
            g_pace_first = strcmp(optarg, "first") == 0;
            break;
        default:
            fprintf(stderr, "usage: %s [--calls N] [--rate CALLS_PER_S] [--threads T] [--pace-from start|first]\n",
                    argv[0]);
            return 2;
        }
    }
    if (g_calls < 1 || threads < 1 || threads > 64) {
        fprintf(stderr, "%s: --calls >= 1, --threads 1..64\n", argv[0]);
        return 2;
    }
    uint64_t t0 = now_ns();
    pthread_t th[64];
    for (int i = 1; i < threads; i++)
        pthread_create(&th[i], NULL, loop, NULL);
    loop(NULL);
    for (int i = 1; i < threads; i++)
        pthread_join(th[i], NULL);
    double s = (double)(now_ns() - t0) / 1e9;
    printf("uniform_loop: calls=%ld threads=%d seconds=%.3f rate=%.0f calls/s\n", g_calls * threads, threads, s,
           (double)g_calls * threads / s);
    return 0;
}
