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
