/*
 * TEST-ONLY: a HIP program on the runtime double that makes one data call
 * (hipMemsetAsync) every EVERY ms for MS ms of wall-clock time, so that a
 * recording window in time (hipvis run --delay / --duration) has something
 * to cut. Prints how many it made: the trace holds that many memsets when
 * nothing is cut.
 *
 * usage: paced_app [MS [EVERY]]   (defaults 1000 and 5)
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    double ms = argc > 1 ? atof(argv[1]) : 1000, every = argc > 2 ? atof(argv[2]) : 5;
    void *d = NULL;
    if (hipMalloc(&d, 4096) != hipSuccess)
        return 1;
    double start = now_ms();
    long n = 0;
    while (now_ms() - start < ms) {
        hipMemsetAsync(d, (int)(n & 0xff), 4096, 0);
        n++;
        struct timespec pause = {0, (long)(every * 1e6)};
        nanosleep(&pause, NULL);
    }
    hipDeviceSynchronize();
    hipFree(d);
    printf("paced_app: %ld memsets\n", n);
    return 0;
}
