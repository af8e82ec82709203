/* What every benchmark here needs: a monotonic clock in ns and a comparator
 * for qsort'ing block timings to take their median. */
#ifndef HV_TESTS_BENCH_BENCH_UTIL_H
#define HV_TESTS_BENCH_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "ring/clock.h"   /* hv_mono_ns: the tracer's own CLOCK_MONOTONIC reader */

static inline uint64_t now_ns(void) { return hv_mono_ns(); }

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The process's mappings as "fp map LINE" lines, for footprint.py to name
 * the pages a counted window touched (bench_intercept and bench_step
 * --footprint). */
static inline void print_maps(void)
{
    FILE *m = fopen("/proc/self/maps", "r");
    char line[512];
    while (m && fgets(line, sizeof line, m))
        printf("fp map %s", line);
    if (m)
        fclose(m);
}

#endif
