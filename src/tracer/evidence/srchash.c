/*
 * XXH3-64 (seed 0), the hash of copy sources in HV_REC_PAYLOAD (srchash_int.h).
 * It replaced XXH64: with AVX2, XXH3 hashes the 2 KiB pinned metadata copy
 * of a decode step in ~38 ns where XXH64 took ~113, and a checked copy is
 * hashed twice on the calling thread (docs/evidence.md "Why XXH3"). Hashes
 * are compared only with hashes of the same trace (rule
 * host-source-rewritten), so older traces, with XXH64's, read the same.
 * Checked against xxhsum -H3's values in tests/evidence/t_evidence_units.c.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdatomic.h>

#include "tracer/evidence/srchash_int.h"

uint64_t hv_srchash_base(const void *p, size_t n) { return XXH3_64bits(p, n); }

int hv_srchash_avx2_usable(void)
{
#if defined(__x86_64__)
    /* -1 until asked. A copy can be hashed before any constructor has run
     * (a call from another library's constructor): __builtin_cpu_init
     * makes the answer right then too. Racing threads store the same
     * value. */
    static _Atomic int usable = -1;
    int u = atomic_load_explicit(&usable, memory_order_relaxed);
    if (__builtin_expect(u < 0, 0)) {
        __builtin_cpu_init();
        /* GCC's test includes the kernel's consent (XCR0's AVX state). */
        u = __builtin_cpu_supports("avx2") ? 1 : 0;
        atomic_store_explicit(&usable, u, memory_order_relaxed);
    }
    return u;
#else
    return 0;
#endif
}

uint64_t hv_hash64(const void *data, size_t len)
{
    /* XXH3 takes its vector path only past 240 bytes; shorter inputs are
     * the same scalar code in both builds. */
#if defined(__x86_64__)
    if (len > 240 && hv_srchash_avx2_usable())
        return hv_srchash_avx2(data, len);
#endif
    return hv_srchash_base(data, len);
}
