/*
 * Lookups that hand out driver functions: cuGetProcAddress (how the CUDA
 * runtime, dynamic or static, reaches the driver) and the runtime's
 * cudaGetDriverEntryPoint (how PyTorch and NCCL do). Like the interposed
 * dlsym, they hand out hipvis's wrapper and keep the real address for it,
 * so driver calls made through function pointers are traced too. NCCL links
 * the runtime statically: its driver calls are seen only this way.
 *
 * The lookups ask by base name ("cuMemcpyHtoDAsync"); common/fill_lookup.c
 * matches the address the driver returns to the wrapper of that version.
 *
 * The substitution happens for untraced calls too (nested inside another
 * traced call: the runtime fetching its driver table); only the record
 * needs tracing on.
 */
#include "tracer/intercept/cuda/cuda_int.h"

#undef cuGetProcAddress /* cuda.h maps it to _v2; both are exported */

/* cudaGetDriverEntryPoint is deprecated in favour of ...ByVersion, but it
 * is what binaries call. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define LOOKUP_WRAP(ret_t, missing, name, params, args, version, flags)                                \
    HV_WRAP_ALWAYS(ret_t, missing, name, params, args,                                                 \
                   void *got_ = hv_lookup_substitute(sym, pfn, (int32_t)r_, hv_cu_sym),                \
                   hv_trace_lookup(t_, api_, (int32_t)r_, sym, got_, pfn, flags, version))
#define CU_LOOKUP(name, params, args) \
    LOOKUP_WRAP(CUresult, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, name, params, args, (uint64_t)ver, f)
#define RT_LOOKUP(name, params, args, version) \
    LOOKUP_WRAP(cudaError_t, cudaErrorSharedObjectSymbolNotFound, name, params, args, version, f)
#define RT_STATUS enum cudaDriverEntryPointQueryResult *st

CU_LOOKUP(cuGetProcAddress, (const char *sym, void **pfn, int ver, cuuint64_t f), (sym, pfn, ver, f))
CU_LOOKUP(cuGetProcAddress_v2, (const char *sym, void **pfn, int ver, cuuint64_t f, CUdriverProcAddressQueryResult *st),
          (sym, pfn, ver, f, st))
RT_LOOKUP(cudaGetDriverEntryPoint, (const char *sym, void **pfn, unsigned long long f, RT_STATUS), (sym, pfn, f, st), 0)
RT_LOOKUP(cudaGetDriverEntryPoint_ptsz, (const char *sym, void **pfn, unsigned long long f, RT_STATUS),
          (sym, pfn, f, st), 0)
RT_LOOKUP(cudaGetDriverEntryPointByVersion,
          (const char *sym, void **pfn, unsigned int ver, unsigned long long f, RT_STATUS), (sym, pfn, ver, f, st), ver)
RT_LOOKUP(cudaGetDriverEntryPointByVersion_ptsz,
          (const char *sym, void **pfn, unsigned int ver, unsigned long long f, RT_STATUS), (sym, pfn, ver, f, st), ver)
