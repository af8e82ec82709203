/*
 * Python stacks at the calls that matter (in a Python process, unless
 * HIPVIS_PYFRAMES=0): copies / memsets into each destination, launches of
 * each graph exec and kernel, and allocations — once per target at its
 * first call (HIPVIS_PYFRAMES=first, the default), or once per (target,
 * innermost Python frames) with a reference record when a target's caller
 * changes (=1) — plus every capture begin/end and graph instantiation. The
 * record (HV_REC_PYSTACK) follows the call.
 *
 * The hot-path cost of a repeated call is the test of hv_hot.py_on and a
 * per-thread memo of the last key per target; with =1 the key also holds the
 * innermost Python frames (their instruction pointers, read directly once
 * the thread's frames were read with bounds checks), which is what =1 costs
 * more in situ. Only a new key reads the Python frames (bounded reads, a few
 * microseconds).
 */
#ifndef HV_TRACER_PYFRAMES_SITES_H
#define HV_TRACER_PYFRAMES_SITES_H

#include <stdint.h>

#include "tracer/core/tracer.h"   /* hv_hot.py_on: on when Python frames are recorded */

/* Set-up (on when the configuration asks and the process runs CPython)
 * and the trace header's HV_HDR_PYFRAMES bits: sites.c's feature entry. */

HV_STEP_FN void hv_py_site_slow(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target, int dedupe);

/* After call `seq` (committed): its Python stack, once per (site, target). */
static inline void hv_py_site(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target)
{
    if (__builtin_expect(hv_hot.py_on, 0))
        HV_ST_PART(HV_ST_PART_PYFRAMES, hv_py_site_slow(t, seq, why, target, 1));
}

/* The same, every time (rare calls: capture, instantiate, names, marks). */
static inline void hv_py_always(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target)
{
    if (__builtin_expect(hv_hot.py_on, 0))
        hv_py_site_slow(t, seq, why, target, 0);
}

#endif
