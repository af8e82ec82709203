/*
 * The hash of copy sources (HV_REC_PAYLOAD.hash, the rewrite check's
 * enqueue and observed hashes): XXH3-64, seed 0, from Debian's xxhash
 * header, compiled into the library (no shared-library dependency).
 *
 * Two builds of the one function, which return the same value for every
 * input (the algorithm is fixed; only the instructions differ): the
 * baseline x86-64 one (SSE2) and one compiled for AVX2, which hashes a
 * 2 KiB source about three times faster on the machines measured
 * (docs/evidence.md "Why XXH3"). hv_hash64 picks one per call. The two
 * are named here for the test that compares them.
 *
 * Code objects keep XXH64 (src/codeobj/hash.c): their hash is a content
 * key that traces and tools share across runs, where a source hash is only
 * ever compared with others of its own trace.
 */
#ifndef HV_TRACER_EVIDENCE_SRCHASH_INT_H
#define HV_TRACER_EVIDENCE_SRCHASH_INT_H

#include <stddef.h>
#include <stdint.h>

/* XXH3-64, seed 0, of n bytes: the hash in HV_REC_PAYLOAD. */
uint64_t hv_hash64(const void *p, size_t n);

uint64_t hv_srchash_base(const void *p, size_t n);
/* Only where the CPU and the kernel support AVX2 (hv_srchash_avx2_usable). */
uint64_t hv_srchash_avx2(const void *p, size_t n);
int hv_srchash_avx2_usable(void);

#endif
