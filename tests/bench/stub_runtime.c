/*
 * TEST-ONLY stand-in runtime for the interception benchmark: each function
 * returns at once, so a loop over it measures call overhead alone. The same
 * code is exported twice, as the HIP name (interposed by libhipvis) and as a
 * bench_direct_* alias (never interposed), so both arms run in one process.
 */
#include <stddef.h>

typedef int hipError_t;
typedef void *hipStream_t;

__attribute__((visibility("default"), noinline)) hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n,
                                                                            int kind, hipStream_t s)
{
    __asm__ __volatile__("" : : "r"(dst), "r"(src), "r"(n), "r"(kind), "r"(s) : "memory");
    return 0;
}

__attribute__((visibility("default"))) hipError_t bench_direct_hipMemcpyAsync(void *dst, const void *src, size_t n,
                                                                               int kind, hipStream_t s)
    __attribute__((alias("hipMemcpyAsync")));

/* A stand-in whose body does about as much as a real runtime call's enqueue
 * path (a few thousand instructions), so the benchmark also shows the added
 * cost when calls are not back to back: then the stores of one record have
 * committed before the next call's atomic increment has to wait for them. */
__attribute__((visibility("default"), noinline)) hipError_t hipMemcpyDtoDAsync(void *dst, void *src, size_t n,
                                                                                hipStream_t s)
{
    unsigned long x = (unsigned long)n;
    for (int i = 0; i < 2000; i++)
        __asm__ __volatile__("" : "+r"(x));
    __asm__ __volatile__("" : : "r"(dst), "r"(src), "r"(x), "r"(s) : "memory");
    return 0;
}

__attribute__((visibility("default"))) hipError_t bench_direct_hipMemcpyDtoDAsync(void *dst, void *src, size_t n,
                                                                                   hipStream_t s)
    __attribute__((alias("hipMemcpyDtoDAsync")));

/*
 * The calls of a GPU serving step, for bench-intercept's "GPU-like" arms
 * (issue 12): a pinned H2D copy on the legacy stream and a legacy-stream
 * synchronize, each running for about a microsecond and reading 8 KiB of
 * its own state, as a real runtime call's enqueue or wait does: the time a
 * wrapper's prefetches have to complete, and the runtime's own working set
 * competing for the first-level cache. The allocators hand out ordinary
 * memory (the tracer records the first as pinned host memory, the second
 * as device memory).
 */
#include <stdlib.h>

static unsigned char rt_state[8192];

static __attribute__((noinline)) void runtime_work(void)
{
    unsigned long x = 0;
    for (unsigned i = 0; i < sizeof rt_state; i += 64)
        x += rt_state[i];
    for (int i = 0; i < 3000; i++)
        __asm__ __volatile__("" : "+r"(x));
    __asm__ __volatile__("" : : "r"(x) : "memory");
}

__attribute__((visibility("default"))) hipError_t hipHostMalloc(void **p, size_t n, unsigned flags)
{
    (void)flags;
    *p = calloc(1, n);
    return *p ? 0 : 2;
}

__attribute__((visibility("default"))) hipError_t hipMalloc(void **p, size_t n)
{
    *p = calloc(1, n);
    return *p ? 0 : 2;
}

__attribute__((visibility("default"), noinline)) hipError_t hipMemcpyHtoDAsync(void *dst, void *src, size_t n,
                                                                                hipStream_t s)
{
    runtime_work();
    __asm__ __volatile__("" : : "r"(dst), "r"(src), "r"(n), "r"(s) : "memory");
    return 0;
}

__attribute__((visibility("default"))) hipError_t bench_direct_hipMemcpyHtoDAsync(void *dst, void *src, size_t n,
                                                                                   hipStream_t s)
    __attribute__((alias("hipMemcpyHtoDAsync")));

__attribute__((visibility("default"), noinline)) hipError_t hipStreamSynchronize(hipStream_t s)
{
    runtime_work();
    __asm__ __volatile__("" : : "r"(s) : "memory");
    return 0;
}

__attribute__((visibility("default"))) hipError_t bench_direct_hipStreamSynchronize(hipStream_t s)
    __attribute__((alias("hipStreamSynchronize")));
