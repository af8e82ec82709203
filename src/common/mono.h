/* CLOCK_MONOTONIC in ns: one definition for every module that times its own
 * work (the writer's slices, the guard's and host-memory refreshes, the
 * record clock's fallback). */
#ifndef HV_COMMON_MONO_H
#define HV_COMMON_MONO_H

#include <stdint.h>
#include <time.h>

static inline uint64_t hv_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
