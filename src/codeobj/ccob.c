/* ccob.c - compressed offload bundles ("CCOB"), as written by clang's
 * CompressedOffloadBundle:
 *   v1: magic u16 version u16 method  u32 uncompressed          u64 hash  (20 B)
 *   v2: magic u16 version u16 method  u32 total  u32 uncompressed u64 hash (24 B)
 *   v3: magic u16 version u16 method  u64 total  u64 uncompressed u64 hash (32 B)
 * total includes the header; method 0 = zlib, 1 = zstd; hash = low half of
 * the MD5 of the uncompressed bytes (not checked: zstd verifies its own
 * content size, and our own XXH64 keys the code objects). The payload is a
 * plain bundle. */
#include "codeobj/codeobj_int.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define METHOD_ZLIB 0
#define METHOD_ZSTD 1
#define DEFAULT_CAP ((size_t)1 << 30)

struct hdr {
    unsigned version, method;
    size_t hdr_len;
    uint64_t total;        /* 0 for v1: not recorded */
    uint64_t uncompressed;
};

static enum hv_co_err read_hdr(const unsigned char *p, size_t max, struct hdr *h)
{
    if (max < 8)
        return HV_CO_ERR_CCOB_TRUNCATED;
    h->version = co_le16(p + 4);
    h->method = co_le16(p + 6);
    static const size_t lens[] = {0, 20, 24, 32};
    if (h->version < 1 || h->version > 3)
        return HV_CO_ERR_CCOB_BAD_VERSION;
    h->hdr_len = lens[h->version];
    if (max < h->hdr_len)
        return HV_CO_ERR_CCOB_TRUNCATED;
    switch (h->version) {
    case 1:
        h->total = 0;
        h->uncompressed = co_le32(p + 8);
        break;
    case 2:
        h->total = co_le32(p + 8);
        h->uncompressed = co_le32(p + 12);
        break;
    default:
        h->total = co_le64(p + 8);
        h->uncompressed = co_le64(p + 16);
        break;
    }
    return HV_CO_OK;
}

size_t co_ccob_extent(const unsigned char *p, size_t max, enum hv_co_err *err)
{
    struct hdr h;
    *err = read_hdr(p, max, &h);
    if (*err != HV_CO_OK)
        return 0;
    if (h.version >= 2) {
        if (h.total <= h.hdr_len || h.total > max) {
            *err = h.total > max ? HV_CO_ERR_CCOB_TRUNCATED : HV_CO_ERR_CCOB_BAD_SIZE;
            return 0;
        }
        return (size_t)h.total;
    }
    /* v1 has no total: only a zstd frame can tell where it ends. */
    if (h.method != METHOD_ZSTD) {
        *err = HV_CO_ERR_CCOB_UNSUPPORTED_METHOD;
        return 0;
    }
    size_t fs = ZSTD_findFrameCompressedSize(p + h.hdr_len, max - h.hdr_len);
    if (ZSTD_isError(fs)) {
        *err = HV_CO_ERR_CCOB_DECOMPRESS;
        return 0;
    }
    return h.hdr_len + fs;
}

void co_parse_ccob(struct co_ctx *c, const unsigned char *p, size_t len, size_t base)
{
    struct hdr h;
    enum hv_co_err err = read_hdr(p, len, &h);
    if (err != HV_CO_OK) {
        co_issue(c, err);
        return;
    }
    if (h.method != METHOD_ZSTD) {
        co_issue(c, HV_CO_ERR_CCOB_UNSUPPORTED_METHOD);
        return;
    }
    const unsigned char *src = p + h.hdr_len;
    size_t srclen = len - h.hdr_len;
    size_t cap = c->max_decompressed ? c->max_decompressed : DEFAULT_CAP;
    unsigned long long fcs = ZSTD_getFrameContentSize(src, srclen);
    /* The header's size must agree with the frame's own (when recorded), so
     * a forged header cannot make us allocate more than the frame yields. */
    if (h.uncompressed < CO_BUNDLE_MAGIC_LEN || h.uncompressed > cap ||
        (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != ZSTD_CONTENTSIZE_ERROR &&
         fcs != h.uncompressed)) {
        co_issue(c, HV_CO_ERR_CCOB_BAD_SIZE);
        return;
    }
    if (fcs == ZSTD_CONTENTSIZE_ERROR) {
        co_issue(c, HV_CO_ERR_CCOB_DECOMPRESS);
        return;
    }
    /* Scratch, freed below: objects worth keeping are copied out by
     * co_parse_elf, so filtered and duplicate entries cost nothing after. */
    unsigned char *out = malloc((size_t)h.uncompressed);
    if (!out) {
        co_issue(c, HV_CO_ERR_NOMEM);
        return;
    }
    size_t got = ZSTD_decompress(out, (size_t)h.uncompressed, src, srclen);
    if (ZSTD_isError(got) || got != h.uncompressed) {
        co_issue(c, ZSTD_isError(got) ? HV_CO_ERR_CCOB_DECOMPRESS : HV_CO_ERR_CCOB_BAD_SIZE);
        free(out);
        return;
    }
    bool was = c->compressed;
    size_t outer = c->unit_offset;
    c->compressed = true;
    c->unit_offset = base;
    /* Only a plain bundle may sit inside: a CCOB in a CCOB would be a
     * decompression bomb for no legitimate reason. */
    enum hv_co_err berr;
    size_t ext = co_bundle_extent(out, got, &berr);
    if (ext)
        co_parse_bundle(c, out, ext, base);
    else
        co_issue(c, berr);
    c->compressed = was;
    c->unit_offset = outer;
    free(out);
}
