/*
 * hipvis's own time per API, in diagnostic builds only (`make selftime`
 * builds build-selftime/libhipvis.so with -DHV_SELFTIME; the production
 * library has none of this). The wrappers add the TSC ticks spent outside
 * the real call (intercept.h HV_ST_*); tests/gpu/cost_attr.py reads the
 * totals per block through hipvis_selftime() to attribute hipvis's in-situ
 * cost in a real loop to APIs, cold caches and Python frames included.
 * Totals are process-wide relaxed atomics: a measuring instrument, not a
 * hot path to keep fast.
 */
#ifdef HV_SELFTIME
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/api.h"
#include "preload/realsym.h"

static _Atomic uint64_t st_calls[HV_API__MAX], st_ticks[HV_API__MAX];

void hv_selftime_add(uint16_t api, uint64_t ticks);
void hv_selftime_add(uint16_t api, uint64_t ticks)
{
    if (api >= HV_API__MAX)
        return;
    atomic_fetch_add_explicit(&st_calls[api], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&st_ticks[api], ticks, memory_order_relaxed);
}

/* Slot i (0 .. HV_API__MAX-1): its API name (NULL when none), calls and
 * ticks so far; returns -1 past the last slot. reset != 0 zeroes every
 * slot instead (i ignored). */
HV_EXPORT int hipvis_selftime(int i, int reset, const char **name, uint64_t *calls, uint64_t *ticks);
HV_EXPORT int hipvis_selftime(int i, int reset, const char **name, uint64_t *calls, uint64_t *ticks)
{
    if (reset) {
        for (int k = 0; k < HV_API__MAX; k++) {
            atomic_store_explicit(&st_calls[k], 0, memory_order_relaxed);
            atomic_store_explicit(&st_ticks[k], 0, memory_order_relaxed);
        }
        return 0;
    }
    if (i < 0 || i >= HV_API__MAX)
        return -1;
    *name = hv_api_name((uint16_t)i);
    *calls = atomic_load_explicit(&st_calls[i], memory_order_relaxed);
    *ticks = atomic_load_explicit(&st_ticks[i], memory_order_relaxed);
    return 0;
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int hv_selftime_unused;
#endif
