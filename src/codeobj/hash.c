/* hash.c - XXH64 (seed 0), written from the public xxHash specification.
 *
 * Why XXH64: code objects are keyed by content so each distinct one is
 * stored once in the trace. Fat binaries of large frameworks run to hundreds
 * of MB and are hashed inside the traced process at load time, so a
 * byte-at-a-time hash (FNV-1a) is too slow; zstd keeps its XXH64 private, so
 * we carry the ~50 lines here. Its low 32 bits equal a zstd frame checksum,
 * which the tests use as an independent check. */
#include "codeobj/internal.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t round1(uint64_t acc, uint64_t in)
{
    return rotl(acc + in * P2, 31) * P1;
}

static uint64_t merge(uint64_t acc, uint64_t v)
{
    return (acc ^ round1(0, v)) * P1 + P4;
}

uint64_t hv_co_hash64(const void *data, size_t len)
{
    const unsigned char *p = data, *end = p + len;
    uint64_t h;

    if (len >= 32) {
        uint64_t v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1;
        do {
            v1 = round1(v1, co_le64(p));
            v2 = round1(v2, co_le64(p + 8));
            v3 = round1(v3, co_le64(p + 16));
            v4 = round1(v4, co_le64(p + 24));
            p += 32;
        } while ((size_t)(end - p) >= 32);
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge(merge(merge(merge(h, v1), v2), v3), v4);
    } else {
        h = P5;
    }
    h += (uint64_t)len;
    for (; end - p >= 8; p += 8)
        h = rotl(h ^ round1(0, co_le64(p)), 27) * P1 + P4;
    if (end - p >= 4) {
        h = rotl(h ^ ((uint64_t)co_le32(p) * P1), 23) * P2 + P3;
        p += 4;
    }
    for (; p < end; p++)
        h = rotl(h ^ (*p * P5), 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}
