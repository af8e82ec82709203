#include "ring/clock.h"

#include <stdio.h>
#include <string.h>

int hv_clock_use_tsc;

/* Both flags are needed: constant_tsc (fixed rate across P-states) and
 * nonstop_tsc (keeps counting in deep C-states). */
static int tsc_is_invariant(void)
{
#if defined(__x86_64__)
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[4096];
    int constant = 0, nonstop = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
#else
    return 0;
#endif
}

/* A pair taken with the TSC read bracketed by the clock read, so the pair is
 * consistent to within one clock_gettime. */
static void take_pair(uint64_t *tsc, uint64_t *ns)
{
#if defined(__x86_64__)
    uint64_t a = hv_mono_ns();
    *tsc = hv_rdtsc();
    uint64_t b = hv_mono_ns();
    *ns = a + (b - a) / 2;
#else
    *tsc = *ns = hv_mono_ns();
#endif
}

void hv_clock_init(struct hv_clock_cal *cal)
{
    memset(cal, 0, sizeof *cal);
    cal->use_tsc = tsc_is_invariant();
    cal->refined = !cal->use_tsc;
    hv_clock_use_tsc = cal->use_tsc;
    take_pair(&cal->tsc0, &cal->ns0);
    /* Nominal guess until the first refine: 1 tick per ns is wrong by the
     * TSC rate but is replaced at the first drain, before anything is written. */
    cal->ns_per_tick = 1.0;
}

void hv_clock_refine(struct hv_clock_cal *cal)
{
    if (!cal->use_tsc)
        return;
    uint64_t tsc, ns;
    take_pair(&tsc, &ns);
    /* Only refine over intervals long enough that the clock read jitter
     * (tens of ns) is negligible. */
    if (tsc > cal->tsc0 && ns > cal->ns0 + 1000000) {
        cal->ns_per_tick = (double)(ns - cal->ns0) / (double)(tsc - cal->tsc0);
        cal->refined = 1;
    }
}
