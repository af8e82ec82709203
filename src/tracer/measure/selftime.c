/*
 * hipvis's own time per API, in diagnostic builds only (`make selftime`
 * builds build-selftime/libhipvis.so with -DHV_SELFTIME; the production
 * library has none of this). The wrappers add the TSC ticks spent outside
 * the real call (measure.h HV_ST_*); tests/gpu/cost_attr.py reads the
 * totals per block through hipvis_selftime() to attribute hipvis's in-situ
 * cost in a real loop to APIs, cold caches and Python frames included.
 * Totals are process-wide, a slot's count and ticks on one cache line,
 * added with a relaxed load and store instead of a locked add: a part's
 * bookkeeping runs inside its API's interval (after the part's own clock
 * read), and with two locked adds per part an eager launch (seven parts)
 * read 60-85 ns more than it does now (H200, tests/gpu/cost_attr.sh
 * BASE_AB, processes in the same step mode). Two threads adding to one
 * slot at the same moment can lose one addition: the loops measured make
 * their calls from one thread.
 */
#ifdef HV_SELFTIME
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "hipvis/api.h"
#include "tracer/measure/measure.h"

/* Slots [0, HV_API__MAX): APIs; then one per enum hv_st_part; then each
 * API's ticks before the real call ("pre:<api>"). */
#define ST_PRE (HV_API__MAX + HV_ST_PART__N)
#define ST_SLOTS (ST_PRE + HV_API__MAX)
static struct {
    _Atomic uint64_t calls, ticks;
} st[ST_SLOTS];
static const char *const part_names[HV_ST_PART__N] = {
    [HV_ST_PART_PYFRAMES] = "part:pyframes",
    [HV_ST_PART_COPY_EV] = "part:copy-evidence",
    [HV_ST_PART_COPY_START] = "part:copy-start",
    [HV_ST_PART_COPY_KINDS] = "part:copy-kinds",
    [HV_ST_PART_LAUNCH_KERNEL] = "part:launch-kernel",
    [HV_ST_PART_LAUNCH_CALL] = "part:launch-call",
    [HV_ST_PART_LAUNCH_SCAN] = "part:launch-scan",
    [HV_ST_PART_LAUNCH_REC] = "part:launch-rec",
    [HV_ST_PART_LAUNCH_CODEOBJ] = "part:launch-codeobj",
    [HV_ST_PART_OBSERVE_EV] = "part:observe-evidence",
};

static void add(unsigned slot, uint64_t ticks)
{
    atomic_store_explicit(&st[slot].calls, atomic_load_explicit(&st[slot].calls, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_store_explicit(&st[slot].ticks, atomic_load_explicit(&st[slot].ticks, memory_order_relaxed) + ticks,
                          memory_order_relaxed);
}

void hv_selftime_add(uint16_t api, uint64_t pre_ticks, uint64_t ticks)
{
    if (api < HV_API__MAX) {
        add(api, ticks);
        add(ST_PRE + api, pre_ticks);
    }
}

void hv_selftime_part(enum hv_st_part part, uint64_t ticks)
{
    if ((unsigned)part < HV_ST_PART__N)
        add(HV_API__MAX + (unsigned)part, ticks);
}

/* Slot i (APIs, then parts named "part:..."): its name (NULL when none), calls and
 * ticks so far; returns -1 past the last slot. reset != 0 zeroes every
 * slot instead (i ignored). Exported as the wrappers are (realsym.h
 * HV_EXPORT), without including the core, which this scaffolding sits
 * beside, not above. */
#define ST_EXPORT __attribute__((visibility("default")))
ST_EXPORT int hipvis_selftime(int i, int reset, const char **name, uint64_t *calls, uint64_t *ticks);
ST_EXPORT int hipvis_selftime(int i, int reset, const char **name, uint64_t *calls, uint64_t *ticks)
{
    if (reset) {
        for (int k = 0; k < ST_SLOTS; k++) {
            atomic_store_explicit(&st[k].calls, 0, memory_order_relaxed);
            atomic_store_explicit(&st[k].ticks, 0, memory_order_relaxed);
        }
        return 0;
    }
    if (i < 0 || i >= ST_SLOTS)
        return -1;
    static char pre_names[HV_API__MAX][48];   /* "pre:<api>", written once each (a measuring build) */
    if (i >= ST_PRE && !pre_names[i - ST_PRE][0]) {
        const char *api = hv_api_name((uint16_t)(i - ST_PRE));
        snprintf(pre_names[i - ST_PRE], sizeof pre_names[0], "pre:%s", api ? api : "?");
    }
    *name = i < HV_API__MAX ? hv_api_name((uint16_t)i)
            : i < ST_PRE    ? part_names[i - HV_API__MAX]
                            : pre_names[i - ST_PRE];
    *calls = atomic_load_explicit(&st[i].calls, memory_order_relaxed);
    *ticks = atomic_load_explicit(&st[i].ticks, memory_order_relaxed);
    return 0;
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int hv_selftime_unused;
#endif
