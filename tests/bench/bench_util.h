/* What every benchmark here needs: a monotonic clock in ns and a comparator
 * for qsort'ing block timings to take their median. */
#ifndef HIPVIS_BENCH_UTIL_H
#define HIPVIS_BENCH_UTIL_H

#include <stdint.h>

#include "record/clock.h"   /* hv_mono_ns: the tracer's own CLOCK_MONOTONIC reader */

static inline uint64_t now_ns(void) { return hv_mono_ns(); }

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
