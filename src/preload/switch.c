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
#include "preload/realsym.h"
#include "preload/tracer.h"

HV_EXPORT void hipvis_record_this_thread(int on);

HV_EXPORT void hipvis_record_this_thread(int on)
{
    hv_tls.depth = on ? 0 : 1;
}
