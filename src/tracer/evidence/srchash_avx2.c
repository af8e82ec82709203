/*
 * XXH3-64 compiled for AVX2 (this file alone is built with -mavx2:
 * src/tracer/evidence/module.mk). srchash.c calls it only where the CPU and the
 * kernel support AVX2; it returns what hv_srchash_base returns.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "tracer/evidence/srchash_int.h"

#if defined(__x86_64__) && !defined(__AVX2__)
#error "srchash_avx2.c must be compiled with -mavx2 (src/tracer/evidence/module.mk)"
#endif

uint64_t hv_srchash_avx2(const void *p, size_t n) { return XXH3_64bits(p, n); }
