/*
 * TEST-ONLY stand-in runtime for bench-evidence: returns at once, so a loop
 * measures hipvis's cost alone. Each function is exported under its HIP
 * name (interposed by libhipvis) and as bench_direct_* (never interposed),
 * so both arms run in one process. hipHostMalloc hands out ordinary memory
 * (libhipvis records it as pinned, which is what the payload and rewrite
 * paths look at).
 */
#include <stddef.h>
#include <stdlib.h>

typedef int hipError_t;
typedef void *hipStream_t;

#define EXPORT __attribute__((visibility("default"), noinline))

EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, hipStream_t s)
{
    __asm__ __volatile__("" : : "r"(dst), "r"(src), "r"(n), "r"(kind), "r"(s) : "memory");
    return 0;
}

EXPORT hipError_t hipStreamSynchronize(hipStream_t s)
{
    __asm__ __volatile__("" : : "r"(s) : "memory");
    return 0;
}

EXPORT hipError_t hipHostMalloc(void **p, size_t n, unsigned flags)
{
    (void)flags;
    *p = calloc(1, n);
    return *p ? 0 : 2;
}

EXPORT hipError_t bench_direct_hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, hipStream_t s)
    __attribute__((alias("hipMemcpyAsync")));
EXPORT hipError_t bench_direct_hipStreamSynchronize(hipStream_t s) __attribute__((alias("hipStreamSynchronize")));
