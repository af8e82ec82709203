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
