/*
 * roctx (libroctx64, ROCm's marker API) interposed by name: each call goes
 * to the real function first (the profiler that may be listening still
 * sees it, and its return value is the caller's), then becomes a mark.
 * The names are registered as wrappers, so a program that looks roctx up
 * with dlsym and has no libroctx64 still finds nothing.
 */
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/names/marks.h"

typedef uint64_t roctx_range_id_t;

HV_EXPORT int roctxRangePushA(const char *message);
HV_EXPORT int roctxRangePop(void);
HV_EXPORT void roctxMarkA(const char *message);
HV_EXPORT roctx_range_id_t roctxRangeStartA(const char *message);
HV_EXPORT void roctxRangeStop(roctx_range_id_t id);
HV_WRAPPER(roctxRangePushA);
HV_WRAPPER(roctxRangePop);
HV_WRAPPER(roctxMarkA);
HV_WRAPPER(roctxRangeStartA);
HV_WRAPPER(roctxRangeStop);

HV_EXPORT int roctxRangePushA(const char *message)
{
    __typeof__(&roctxRangePushA) real = HV_REAL(roctxRangePushA);
    int r = real ? real(message) : -1;
    hv_mark_emit(HV_MARK_PUSH, HV_MARK_ROCTX, message, 0);
    return r;
}

HV_EXPORT int roctxRangePop(void)
{
    __typeof__(&roctxRangePop) real = HV_REAL(roctxRangePop);
    int r = real ? real() : -1;
    hv_mark_emit(HV_MARK_POP, HV_MARK_ROCTX, NULL, 0);
    return r;
}

HV_EXPORT void roctxMarkA(const char *message)
{
    __typeof__(&roctxMarkA) real = HV_REAL(roctxMarkA);
    if (real)
        real(message);
    hv_mark_emit(HV_MARK_POINT, HV_MARK_ROCTX, message, 0);
}

HV_EXPORT roctx_range_id_t roctxRangeStartA(const char *message)
{
    __typeof__(&roctxRangeStartA) real = HV_REAL(roctxRangeStartA);
    roctx_range_id_t id = real ? real(message) : 0;
    hv_mark_emit(HV_MARK_START, HV_MARK_ROCTX, message, id);
    return id;
}

HV_EXPORT void roctxRangeStop(roctx_range_id_t id)
{
    __typeof__(&roctxRangeStop) real = HV_REAL(roctxRangeStop);
    if (real)
        real(id);
    hv_mark_emit(HV_MARK_END, HV_MARK_ROCTX, NULL, id);
}
