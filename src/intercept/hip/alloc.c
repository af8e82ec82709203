/* Allocations feed the allocation map (pinned/pageable, pointer arguments)
 * and the analyzer's stale-pointer rule. */
#include "intercept/hip/hip_common.h"

static void trace_alloc(struct hv_thread_ctx *t, uint16_t api, hipError_t r, void **pp, size_t bytes,
                        unsigned flags, enum hv_mem mem, hipStream_t s)
{
    struct hv_call *c = s ? hv_hip_begin(t, api, r, s, HV_HIP_LEGACY, NULL) : hv_call_begin(t, api, (int32_t)r);
    void *p = pp && r == hipSuccess ? *pp : NULL;
    c->a.alloc.ptr = (uint64_t)(uintptr_t)p;
    c->a.alloc.bytes = bytes;
    c->a.alloc.flags = flags;
    c->a.alloc.mem = (uint8_t)mem;
    if (p)
        hv_alloc_add(hv_tracer.allocs, c->a.alloc.ptr, bytes, mem, t->device);
    hv_call_commit(t, c);
}

static void trace_free(struct hv_thread_ctx *t, uint16_t api, hipError_t r, void *p, hipStream_t s)
{
    struct hv_call *c = s ? hv_hip_begin(t, api, r, s, HV_HIP_LEGACY, NULL) : hv_call_begin(t, api, (int32_t)r);
    c->a.alloc.ptr = (uint64_t)(uintptr_t)p;
    c->a.alloc.mem = (uint8_t)hv_alloc_kind(hv_tracer.allocs, c->a.alloc.ptr);
    if (r == hipSuccess)
        c->a.alloc.bytes = hv_alloc_remove(hv_tracer.allocs, c->a.alloc.ptr);
    hv_call_commit(t, c);
}

static void trace_register(struct hv_thread_ctx *t, uint16_t api, hipError_t r, void *p, size_t bytes, unsigned f)
{
    trace_alloc(t, api, r, &p, bytes, f, HV_MEM_HOST_REGISTERED, NULL);
}

HV_HIP_WRAP(hipMalloc, (void **pp, size_t n), (pp, n), trace_alloc(t_, api_, r_, pp, n, 0, HV_MEM_DEVICE, NULL))
HV_HIP_WRAP(hipMallocAsync, (void **pp, size_t n, hipStream_t s), (pp, n, s),
            trace_alloc(t_, api_, r_, pp, n, 0, HV_MEM_DEVICE, s))
HV_HIP_WRAP(hipExtMallocWithFlags, (void **pp, size_t n, unsigned int f), (pp, n, f),
            trace_alloc(t_, api_, r_, pp, n, f, HV_MEM_DEVICE, NULL))
HV_HIP_WRAP(hipHostMalloc, (void **pp, size_t n, unsigned int f), (pp, n, f),
            trace_alloc(t_, api_, r_, pp, n, f, HV_MEM_HOST_PINNED, NULL))
HV_HIP_WRAP(hipHostRegister, (void *p, size_t n, unsigned int f), (p, n, f), trace_register(t_, api_, r_, p, n, f))
HV_HIP_WRAP(hipFree, (void *p), (p), trace_free(t_, api_, r_, p, NULL))
HV_HIP_WRAP(hipFreeAsync, (void *p, hipStream_t s), (p, s), trace_free(t_, api_, r_, p, s))
HV_HIP_WRAP(hipHostFree, (void *p), (p), trace_free(t_, api_, r_, p, NULL))
HV_HIP_WRAP(hipHostUnregister, (void *p), (p), trace_free(t_, api_, r_, p, NULL))
