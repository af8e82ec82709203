/* What every benchmark here needs: a monotonic clock in ns and a comparator
 * for qsort'ing block timings to take their median. */
#ifndef HIPVIS_BENCH_UTIL_H
#define HIPVIS_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
