/*
 * hipvis_record_this_thread(0|1): a runtime switch for measuring hipvis in
 * one process (A/B blocks of the same loop, recording off and on). While
 * off, the calling thread's calls still go through the wrappers, which see
 * the thread as inside a traced call and pass straight through, so the
 * "off" arm keeps the interposition cost and drops only recording. Other
 * threads are unaffected. Calls made while off are missing from the trace
 * (epochs, allocations and events they would have updated included): a
 * trace with switched-off blocks is for timing, not analysis.
 *
 * From Python: ctypes.CDLL(None).hipvis_record_this_thread(0).
 */
#include "tracer/evidence/evidence.h"
#include "tracer/core/realsym.h"
#include "tracer/core/tracer.h"

HV_EXPORT void hipvis_record_this_thread(int on);

HV_EXPORT void hipvis_record_this_thread(int on)
{
    hv_tls.depth = on ? 0 : 1;
}

/* Records made and dropped so far by this process's threads (every cause),
 * for benchmarks and A/B scripts that report loss next to their figures
 * (tests/bench/bench_step.c, tests/gpu/cost.py). Returns 0, or -1 when not
 * recording (both set to 0). From Python: two ctypes.c_uint64 by reference. */
HV_EXPORT int hipvis_record_counts(uint64_t *made, uint64_t *dropped);

HV_EXPORT int hipvis_record_counts(uint64_t *made, uint64_t *dropped)
{
    uint64_t m = 0, d[HV_DROP__COUNT] = {0}, total = 0;
    int on = atomic_load(&hv_hot.state) == HV_TRACER_ON && hv_tracer.col;
    if (on)
        hv_collector_totals(hv_tracer.col, &m, d);
    for (int i = 0; i < HV_DROP__COUNT; i++)
        total += d[i];
    if (made)
        *made = m;
    if (dropped)
        *dropped = total;
    return on ? 0 : -1;
}

/* hipvis_measure_features_off(mask): the defaults' two evidence features
 * off process-wide while their bit is set (1: Python frames, 2: the rewrite
 * check), as configured again once it is cleared. For comparing in one
 * process what each costs, block by block (tests/gpu/cost.py ab
 * --feature-arms): the host's state then moves both sides of a comparison
 * alike, which separate processes do not (docs/validation.md, sixteenth
 * session). A rewrite check already queued is still completed. Returns 0,
 * or -1 when not recording (nothing changed). Like
 * hipvis_record_this_thread, for timing: the blocks run with a feature off
 * lack what it records. Called from the measuring thread between blocks;
 * the hot line's bytes are stored whole, so a concurrent call reads the old
 * setting or the new one. */
HV_EXPORT int hipvis_measure_features_off(unsigned mask);

HV_EXPORT int hipvis_measure_features_off(unsigned mask)
{
    /* The configured settings, taken at the first call (setup is done: the
     * tracer is recording). */
    static uint8_t py_cfg, rewrite_cfg;
    static int taken;
    if (atomic_load(&hv_hot.state) != HV_TRACER_ON)
        return -1;
    if (!taken) {
        py_cfg = __atomic_load_n(&hv_hot.py_on, __ATOMIC_RELAXED);
        rewrite_cfg = __atomic_load_n(&hv_hot.ev_flags, __ATOMIC_RELAXED) & HV_EV_REWRITE;
        taken = 1;
    }
    __atomic_store_n(&hv_hot.py_on, (uint8_t)(mask & 1u ? 0 : py_cfg), __ATOMIC_RELAXED);
    uint8_t ev = __atomic_load_n(&hv_hot.ev_flags, __ATOMIC_RELAXED);
    __atomic_store_n(&hv_hot.ev_flags, (uint8_t)((ev & ~HV_EV_REWRITE) | (mask & 2u ? 0 : rewrite_cfg)),
                     __ATOMIC_RELAXED);
    return 0;
}
