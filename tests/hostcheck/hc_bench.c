/*
 * hc_bench.c - TEST-ONLY benchmark program: a host-heavy loop around async
 * pinned copies on the HIP runtime test double, for the cost of the
 * host-access check (make bench-hostcheck; docs/hostcheck.md "Cost").
 *
 * usage: hc_bench MODE STEPS
 *   unprotected  each step: an H2D copy from pinned memory and a D2H copy into
 *                pinned memory on a stream, then the host works on 64 KiB of
 *                its own (pageable) memory, then synchronizes: the check's
 *                cost is its protect / release per copy
 *   protected    the same, and the host also reads the in-flight D2H
 *                destination before synchronizing (a race the check faults
 *                on and records every step): the cost of a fault
 * Prints a checksum so that the work is not optimized away.
 */
#include "../runtime-double/hipdouble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_INTS 1024
#define WORK_INTS (16 * 1024)

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hc_bench unprotected|protected STEPS\n");
        return 2;
    }
    int touch = !strcmp(argv[1], "protected");
    long steps = atol(argv[2]);
    int *dev, *src, *dst;
    static int work[WORK_INTS];
    hipStream_t s;
    if (hipMalloc((void **)&dev, PAGE_INTS * sizeof(int)) || hipHostMalloc((void **)&src, PAGE_INTS * sizeof(int), 0) ||
        hipHostMalloc((void **)&dst, PAGE_INTS * sizeof(int), 0) || hipStreamCreate(&s))
        return 1;
    long sum = 0;
    for (long i = 0; i < steps; i++) {
        src[0] = (int)i;
        hipMemcpyAsync(dev, src, PAGE_INTS * sizeof(int), hipMemcpyHostToDevice, s);
        hipMemcpyAsync(dst, dev, PAGE_INTS * sizeof(int), hipMemcpyDeviceToHost, s);
        for (int k = 0; k < WORK_INTS; k++)
            work[k] += k ^ (int)i;
        if (touch)
            sum += dst[1];
        hipStreamSynchronize(s);
        sum += dst[0] + work[i % WORK_INTS];
    }
    printf("checksum %ld\n", sum);
    return 0;
}
