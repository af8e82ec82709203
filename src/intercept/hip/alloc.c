/* Allocations feed the allocation map (pinned/pageable, pointer arguments)
 * and the analyzer's stale-pointer rule. */
#include "intercept/hip/hip_common.h"

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
