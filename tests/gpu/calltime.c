/*
 * calltime.so: a diagnostic shim that times CUDA runtime calls where the
 * application makes them, for attributing hipvis's in-situ cost per API
 * (tests/gpu/cost_attr.py). Preloaded BEFORE libhipvis.so
 * (LD_PRELOAD="calltime.so libhipvis.so"), each wrapper reads the TSC,
 * calls the next definition (hipvis's wrapper, then the runtime) and adds
 * the elapsed ticks to its API's slot. Only the thread that called
 * calltime_reset() is counted, so the A/B driver's arms (recording on/off
 * for that thread) compare like with like.
 *
 * Not part of hipvis: a measuring instrument for tests/gpu/ only. The
 * prototypes use opaque pointers; dim3 is passed by value as CUDA does.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "common/elfsym.h"   /* not dlsym: hipvis interposes it and answers RTLD_NEXT itself */

typedef struct { unsigned x, y, z; } dim3_t;

enum {
    CT_MEMCPY_ASYNC, CT_GRAPH_LAUNCH, CT_STREAM_SYNC, CT_LAUNCH_KERNEL, CT_EVENT_RECORD,
    CT_EVENT_QUERY, CT_STREAM_WAIT_EVENT, CT_GET_DEVICE, CT_SET_DEVICE, CT_STREAM_IS_CAPTURING,
    CT_GET_LAST_ERROR, CT_PEEK_LAST_ERROR, CT_DEVICE_SYNC, CT_EVENT_SYNC, CT_LAUNCH_KERNEL_EXC,
    CT_MEMSET_ASYNC, CT_STREAM_QUERY, CT_POINTER_ATTRS, CT_MEMCPY, CT__COUNT
};
static const char *const ct_names[CT__COUNT] = {
    "cudaMemcpyAsync", "cudaGraphLaunch", "cudaStreamSynchronize", "cudaLaunchKernel",
    "cudaEventRecord", "cudaEventQuery", "cudaStreamWaitEvent", "cudaGetDevice", "cudaSetDevice",
    "cudaStreamIsCapturing", "cudaGetLastError", "cudaPeekAtLastError", "cudaDeviceSynchronize",
    "cudaEventSynchronize", "cudaLaunchKernelExC", "cudaMemsetAsync", "cudaStreamQuery",
    "cudaPointerGetAttributes", "cudaMemcpy",
};

static uint64_t ct_calls[CT__COUNT], ct_ticks[CT__COUNT];
static void *ct_next[CT__COUNT];
static pthread_t ct_thread;
static int ct_on;

/* The next definition: hipvis's wrapper when CALLTIME_NEXT names the
 * preloaded libhipvis.so and it wraps the function, else the runtime's. */
static void *next_of(int id)
{
    void *p = __atomic_load_n(&ct_next[id], __ATOMIC_ACQUIRE);
    if (p)
        return p;
    static const char *const libs[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so"};
    const char *hv = getenv("CALLTIME_NEXT");
    if (hv && *hv)
        p = hv_elf_lookup(hv, ct_names[id]);
    for (size_t i = 0; !p && i < sizeof libs / sizeof libs[0]; i++)
        p = hv_elf_lookup(libs[i], ct_names[id]);
    if (getenv("CALLTIME_DEBUG")) {
        Dl_info di;
        fprintf(stderr, "calltime: %s -> %p (%s)\n", ct_names[id], p,
                p && dladdr(p, &di) && di.dli_fname ? di.dli_fname : "?");
    }
    __atomic_store_n(&ct_next[id], p, __ATOMIC_RELEASE);
    return p;
}

static inline int counted(void) { return ct_on && pthread_equal(pthread_self(), ct_thread); }

static inline void add(int id, uint64_t t0)
{
    uint64_t t1 = __rdtsc();
    ct_calls[id]++;
    ct_ticks[id] += t1 - t0;
}

#define CT_WRAP(id, ret, name, params, args)                                                  \
    ret name params                                                                          \
    {                                                                                        \
        ret (*fn) params = (ret (*) params)next_of(id);                                      \
        if (!fn)                                                                             \
            return (ret)999; /* cudaErrorUnknown-like: the symbol is missing */              \
        if (!counted())                                                                      \
            return fn args;                                                                  \
        uint64_t t0 = __rdtsc();                                                             \
        ret r = fn args;                                                                     \
        add(id, t0);                                                                         \
        return r;                                                                            \
    }

CT_WRAP(CT_MEMCPY_ASYNC, int, cudaMemcpyAsync, (void *d, const void *s, size_t n, int k, void *st), (d, s, n, k, st))
CT_WRAP(CT_GRAPH_LAUNCH, int, cudaGraphLaunch, (void *g, void *st), (g, st))
CT_WRAP(CT_STREAM_SYNC, int, cudaStreamSynchronize, (void *st), (st))
CT_WRAP(CT_LAUNCH_KERNEL, int, cudaLaunchKernel,
        (const void *f, dim3_t g, dim3_t b, void **a, size_t sh, void *st), (f, g, b, a, sh, st))
CT_WRAP(CT_EVENT_RECORD, int, cudaEventRecord, (void *e, void *st), (e, st))
CT_WRAP(CT_EVENT_QUERY, int, cudaEventQuery, (void *e), (e))
CT_WRAP(CT_STREAM_WAIT_EVENT, int, cudaStreamWaitEvent, (void *st, void *e, unsigned fl), (st, e, fl))
CT_WRAP(CT_GET_DEVICE, int, cudaGetDevice, (int *d), (d))
CT_WRAP(CT_SET_DEVICE, int, cudaSetDevice, (int d), (d))
CT_WRAP(CT_STREAM_IS_CAPTURING, int, cudaStreamIsCapturing, (void *st, int *s), (st, s))
CT_WRAP(CT_GET_LAST_ERROR, int, cudaGetLastError, (void), ())
CT_WRAP(CT_PEEK_LAST_ERROR, int, cudaPeekAtLastError, (void), ())
CT_WRAP(CT_DEVICE_SYNC, int, cudaDeviceSynchronize, (void), ())
CT_WRAP(CT_EVENT_SYNC, int, cudaEventSynchronize, (void *e), (e))
CT_WRAP(CT_LAUNCH_KERNEL_EXC, int, cudaLaunchKernelExC, (const void *c, const void *f, void **a), (c, f, a))
CT_WRAP(CT_MEMSET_ASYNC, int, cudaMemsetAsync, (void *d, int v, size_t n, void *st), (d, v, n, st))
CT_WRAP(CT_STREAM_QUERY, int, cudaStreamQuery, (void *st), (st))
CT_WRAP(CT_POINTER_ATTRS, int, cudaPointerGetAttributes, (void *a, const void *p), (a, p))
CT_WRAP(CT_MEMCPY, int, cudaMemcpy, (void *d, const void *s, size_t n, int k), (d, s, n, k))

/* Start counting on the calling thread from zero. */
void calltime_reset(void)
{
    memset(ct_calls, 0, sizeof ct_calls);
    memset(ct_ticks, 0, sizeof ct_ticks);
    ct_thread = pthread_self();
    ct_on = 1;
}

/* TSC ticks per nanosecond, measured over ~20 ms against CLOCK_MONOTONIC. */
double calltime_ticks_per_ns(void)
{
    struct timespec a, b, d = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = __rdtsc();
    nanosleep(&d, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    uint64_t t1 = __rdtsc();
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    return (double)(t1 - t0) / ns;
}

/* Slot i: its name, calls and ticks; returns NULL past the last slot. */
const char *calltime_get(int i, uint64_t *calls, uint64_t *ticks)
{
    if (i < 0 || i >= CT__COUNT)
        return NULL;
    *calls = ct_calls[i];
    *ticks = ct_ticks[i];
    return ct_names[i];
}
