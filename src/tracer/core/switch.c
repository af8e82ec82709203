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
#include "tracer/core/realsym.h"
#include "tracer/core/tracer_int.h"

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
 * check; struct hv_feature's measure_bit), as configured again once it is
 * cleared. For comparing in one process what each costs, block by block
 * (tests/gpu/cost.py ab --feature-arms): the host's state then moves both
 * sides of a comparison alike, which separate processes do not
 * (docs/performance.md). A rewrite check already queued
 * is still completed. Returns 0, or -1 when not recording (nothing
 * changed). Like hipvis_record_this_thread, for timing: the blocks run with
 * a feature off lack what it records. Called from the measuring thread
 * between blocks; each feature stores its hot-line byte whole, so a
 * concurrent call reads the old setting or the new one. */
HV_EXPORT int hipvis_measure_features_off(unsigned mask);

HV_EXPORT int hipvis_measure_features_off(unsigned mask)
{
    if (atomic_load(&hv_hot.state) != HV_TRACER_ON)
        return -1;
    HV_FEATURES_EACH(f)
        if (f->measure_bit && f->measure_off)
            f->measure_off((mask & f->measure_bit) != 0);
    return 0;
}
