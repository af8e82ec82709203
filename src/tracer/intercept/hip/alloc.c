/* Allocations feed the allocation map (pinned/pageable, pointer arguments)
 * and the analyzer's stale-pointer rule. */
#include "tracer/intercept/hip/hip_int.h"

#define ALLOC(n, f, mem, s) hv_trace_alloc(t_, api_, r_, HV_OUT(pp, r_), n, f, mem, s)
#define FREE(s) hv_trace_free(t_, api_, r_, HV_PTR(p), s)
/* A stream-ordered call with a NULL stream is recorded without one. */
#define ON(s) ((s) ? HV_HIP_S(s, HV_HIP_LEGACY) : HV_NO_STREAM)

HV_HIP_WRAP(hipMalloc, (void **pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_HIP_WRAP(hipMallocAsync, (void **pp, size_t n, hipStream_t s), (pp, n, s), ALLOC(n, 0, HV_MEM_DEVICE, ON(s)))
HV_HIP_WRAP(hipExtMallocWithFlags, (void **pp, size_t n, unsigned int f), (pp, n, f),
            ALLOC(n, f, HV_MEM_DEVICE, HV_NO_STREAM))
HV_HIP_WRAP(hipHostMalloc, (void **pp, size_t n, unsigned int f), (pp, n, f),
            ALLOC(n, f, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_HIP_WRAP(hipHostRegister, (void *p, size_t n, unsigned int f), (p, n, f),
            hv_trace_alloc(t_, api_, r_, r_ == hipSuccess ? HV_PTR(p) : 0, n, f, HV_MEM_HOST_REGISTERED, HV_NO_STREAM))
HV_HIP_WRAP(hipFree, (void *p), (p), FREE(HV_NO_STREAM))
HV_HIP_WRAP(hipFreeAsync, (void *p, hipStream_t s), (p, s), FREE(ON(s)))
HV_HIP_WRAP(hipHostFree, (void *p), (p), FREE(HV_NO_STREAM))
HV_HIP_WRAP(hipHostUnregister, (void *p), (p), FREE(HV_NO_STREAM))

/* The runtime still exports its deprecated allocators (hipMallocHost,
 * hipFreeHost); programs that call them are traced like the rest. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* More allocators (docs/semantics.md A1-A3). A pitched allocation is
 * pitch x rows; an IPC mapping is as large as the runtime says the range is. */
static size_t range_of(const void *p, hipError_t r)
{
    static hipError_t (*get)(hipDeviceptr_t *, size_t *, hipDeviceptr_t);
    hipDeviceptr_t base = NULL;
    size_t n = 0;
    if (r != hipSuccess || !p)
        return 0;
    if (!get)
        get = (__typeof__(get))hv_runtime_sym("hipMemGetAddressRange");
    return get && get(&base, &n, (hipDeviceptr_t)(uintptr_t)p) == hipSuccess ? n : 0;
}

HV_HIP_WRAP(hipMallocManaged, (void **pp, size_t n, unsigned int f), (pp, n, f), ALLOC(n, f, HV_MEM_MANAGED, HV_NO_STREAM))
HV_HIP_WRAP(hipMallocHost, (void **pp, size_t n), (pp, n), ALLOC(n, 0, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_HIP_WRAP(hipHostAlloc, (void **pp, size_t n, unsigned int f), (pp, n, f), ALLOC(n, f, HV_MEM_HOST_PINNED, HV_NO_STREAM))
HV_HIP_WRAP(hipMallocFromPoolAsync, (void **pp, size_t n, hipMemPool_t pool, hipStream_t s), (pp, n, pool, s),
            ALLOC(n, 0, HV_MEM_DEVICE, ON(s)))
HV_HIP_WRAP(hipMallocPitch, (void **pp, size_t *pitch, size_t w, size_t h), (pp, pitch, w, h),
            ALLOC(pitch && !r_ ? *pitch * h : 0, 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_HIP_WRAP(hipMemAllocPitch, (hipDeviceptr_t * pp, size_t *pitch, size_t w, size_t h, unsigned elem),
            (pp, pitch, w, h, elem), ALLOC(pitch && !r_ ? *pitch * h : 0, 0, HV_MEM_DEVICE, HV_NO_STREAM))
HV_HIP_WRAP(hipMalloc3D, (hipPitchedPtr * pp, hipExtent e), (pp, e),
            hv_trace_alloc(t_, api_, r_, pp && !r_ ? HV_PTR(pp->ptr) : 0,
                           pp && !r_ ? pp->pitch * e.height * (e.depth ? e.depth : 1) : 0, 0, HV_MEM_DEVICE,
                           HV_NO_STREAM))
HV_HIP_WRAP(hipIpcOpenMemHandle, (void **pp, hipIpcMemHandle_t h, unsigned int f), (pp, h, f),
            ALLOC(range_of(pp ? *pp : NULL, r_), f, HV_MEM_DEVICE, HV_NO_STREAM))
HV_HIP_WRAP(hipIpcCloseMemHandle, (void *p), (p), FREE(HV_NO_STREAM))
HV_HIP_WRAP(hipFreeHost, (void *p), (p), FREE(HV_NO_STREAM))
