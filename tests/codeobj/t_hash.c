/* t_hash.c - hv_co_hash64 is XXH64: published vectors, and zstd's frame
 * checksum (the low 32 bits of XXH64 of the content) as an independent
 * implementation over every length class of the algorithm. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint32_t zstd_checksum(const void *p, size_t n, bool *ok)
{
    size_t cap = ZSTD_compressBound(n);
    unsigned char *dst = malloc(cap);
    ZSTD_CCtx *cx = ZSTD_createCCtx();
    size_t r = 0;
    *ok = false;
    if (dst && cx && !ZSTD_isError(ZSTD_CCtx_setParameter(cx, ZSTD_c_checksumFlag, 1))) {
        r = ZSTD_compress2(cx, dst, cap, p, n);
        *ok = !ZSTD_isError(r) && r >= 4;
    }
    uint32_t sum = *ok ? (uint32_t)dst[r - 4] | (uint32_t)dst[r - 3] << 8 |
                             (uint32_t)dst[r - 2] << 16 | (uint32_t)dst[r - 1] << 24
                       : 0;
    ZSTD_freeCCtx(cx);
    free(dst);
    return sum;
}

void t_hash(void)
{
    CHECK(hv_co_hash64("", 0) == 0xEF46DB3751D8E999ull, "XXH64 of empty input");
    CHECK(hv_co_hash64("a", 1) == 0xD24EC4F1A98C6E5Bull, "XXH64 of \"a\"");
    CHECK(hv_co_hash64("abc", 3) == 0x44BC2CF5AD770999ull, "XXH64 of \"abc\"");

    /* Lengths 0..299 cover the <32 path, every tail combination and the
     * stripe loop; a real code object covers a long input. */
    unsigned char buf[300];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof(buf); i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
    bool all = true, ok;
    for (size_t n = 0; n < sizeof(buf); n++)
        all &= (uint32_t)hv_co_hash64(buf, n) == zstd_checksum(buf, n, &ok) && ok;
    CHECK(all, "XXH64 low half equals zstd frame checksum, lengths 0..299");
    const struct fixture *f = fx("hip.fatbin");
    CHECK((uint32_t)hv_co_hash64(f->data, f->len) == zstd_checksum(f->data, f->len, &ok) && ok,
          "XXH64 of a whole fat binary equals zstd's checksum");
}
