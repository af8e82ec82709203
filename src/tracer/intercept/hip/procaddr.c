/*
 * hipGetProcAddress (ROCm 6.2+): programs and libraries that fetch runtime
 * functions through it call them by pointer, past symbol interposition. It
 * hands out hipvis's wrapper of the function the runtime picked (by name,
 * version and the per-thread flag, which picks the `_spt` form) and keeps
 * the real address for the wrapper; common/fill_lookup.c does the matching.
 */
#include "tracer/intercept/hip/hip_int.h"

HV_WRAP_ALWAYS(hipError_t, hipErrorSharedObjectSymbolNotFound, hipGetProcAddress,
               (const char *sym, void **pfn, int ver, uint64_t flags, hv_hipDriverProcAddressQueryResult *st),
               (sym, pfn, ver, flags, st), void *got_ = hv_lookup_substitute(sym, pfn, (int32_t)r_, hv_runtime_sym),
               hv_trace_lookup(t_, api_, (int32_t)r_, sym, got_, pfn, flags, (uint64_t)ver))
