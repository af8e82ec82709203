/*
 * Format v2 chunk codec (codec_int.h).
 *
 * Per record:   varint  v = 2 * k + literal
 *   k = 0            no context (more than HV_CODEC_CTX_MAX keys in the chunk)
 *   k = 1..nctx      context k - 1
 *   k = nctx + 1     a new context, numbered nctx
 *   literal = 1      the record follows verbatim (its header says its size);
 *                    it becomes context k - 1's record when k > 0
 *   literal = 0      (k > 0 only) varint mask, bit i = word i missed the
 *                    prediction context.w[i] + context.d[i]; for each set bit
 *                    in increasing order a zigzag varint of (word - prediction);
 *                    word 0 (type, size, tid) comes first and gives the size:
 *                    W = min(size / 8, 16) words are coded, bits >= W must be
 *                    clear, and size - 8 W tail bytes follow verbatim.
 * After a predicted record, for its W coded words d[i] = word[i] - w[i] and
 * w[i] = word[i]; words from W on keep their stride (w[i] += d[i]). After a
 * verbatim record, for all 16 words d[i] = word[i] - w[i], w[i] = word[i],
 * words past the record being 0.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "format/codec_int.h"
#include "format/rec_layout.h"

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t zigzag(uint64_t d) { return (d << 1) ^ (uint64_t)((int64_t)d >> 63); }
static inline uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1); }

static inline void load_words(uint64_t *v, const uint8_t *rec, size_t size)
{
    size_t n = size < HV_CODEC_WORDS * 8 ? size : HV_CODEC_WORDS * 8;
    memcpy(v, rec, n);
    memset((uint8_t *)v + n, 0, HV_CODEC_WORDS * 8 - n);
}

static inline void ctx_update(struct hv_codec_ctx *c, const uint64_t *v)
{
    for (unsigned i = 0; i < HV_CODEC_WORDS; i++) {
        c->d[i] = v[i] - c->w[i];
        c->w[i] = v[i];
    }
}

static uint64_t key_of(const struct hv_rec_header *h)
{
    uint64_t api = h->type == HV_REC_CALL ? ((const struct hv_call *)h)->api : 0;
    return ((uint64_t)h->tid << 32) | ((uint64_t)h->type << 16) | api;
}

size_t hv_encode_chunk(struct hv_encoder *e, const uint8_t *recs, size_t raw, uint8_t *out)
{
    /* Contexts are per chunk: forget the previous chunk's. */
    hv_u64map_free(&e->keys);
    hv_u64map_init(&e->keys);
    e->nctx = 0;
    uint8_t *o = out;
    uint64_t v[HV_CODEC_WORDS];
    for (const uint8_t *p = recs, *end = recs + raw; p < end;) {
        const struct hv_rec_header *h = (const void *)p;
        size_t size = h->size;
        uint64_t key = key_of(h);
        /* Runs of one key (a thread's loop of one call) skip the map. */
        uint32_t k = e->nctx && key == e->last_key ? e->last_k : hv_u64map_get(&e->keys, key);
        int fresh = 0;
        if (k == HV_U64MAP_NONE && e->nctx < HV_CODEC_CTX_MAX) {
            if (!HV_GROW(e->ctx, e->nctx, e->cap, 64))
                return 0;
            if (hv_u64map_put(&e->keys, key, e->nctx) < 0)
                return 0;
            k = e->nctx++;
            memset(&e->ctx[k], 0, sizeof e->ctx[k]);
            fresh = 1;
        }
        e->last_key = key;
        e->last_k = k;
        load_words(v, p, size);
        if (k == HV_U64MAP_NONE) {
            o = put_varint(o, 1);
            memcpy(o, p, size);
            o += size;
            p += size;
            continue;
        }
        struct hv_codec_ctx *c = &e->ctx[k];
        uint8_t *start = o;
        if (!fresh) {
            /* Predicted form; if it comes out longer than the record, the
             * record goes verbatim instead. */
            unsigned nw = (unsigned)(size / 8 < HV_CODEC_WORDS ? size / 8 : HV_CODEC_WORDS);
            uint64_t mask = 0, diff[HV_CODEC_WORDS], pred[HV_CODEC_WORDS];
            for (unsigned i = 0; i < HV_CODEC_WORDS; i++)
                pred[i] = c->w[i] + c->d[i];
            for (unsigned i = 0; i < nw; i++) {
                diff[i] = v[i] - pred[i];
                mask |= (uint64_t)(diff[i] != 0) << i;
            }
            o = put_varint(o, 2 * ((uint64_t)k + 1));
            o = put_varint(o, mask);
            for (uint64_t m = mask; m; m &= m - 1)
                o = put_varint(o, zigzag(diff[__builtin_ctzll(m)]));
            size_t tail = size - nw * 8;
            if ((size_t)(o - start) + tail <= size + 1) {
                memcpy(o, p + nw * 8, tail);
                o += tail;
                /* Coded words take the record's values; the others keep
                 * advancing by their stride (the decoder does the same). */
                for (unsigned i = 0; i < HV_CODEC_WORDS; i++) {
                    uint64_t x = i < nw ? v[i] : pred[i];
                    c->d[i] = i < nw ? v[i] - c->w[i] : c->d[i];
                    c->w[i] = x;
                }
                p += size;
                continue;
            }
            o = start;
        }
        o = put_varint(o, 2 * ((uint64_t)k + 1) + 1);
        memcpy(o, p, size);
        o += size;
        ctx_update(c, v);
        p += size;
    }
    return (size_t)(o - out);
}

void hv_encoder_free(struct hv_encoder *e)
{
    hv_u64map_free(&e->keys);
    free(e->ctx);
    memset(e, 0, sizeof *e);
}

/* Reads a varint of at most 10 bytes; NULL past the end or when overlong. */
static const uint8_t *get_varint_slow(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return p;
        }
    }
    return NULL;
}

/* get_varint_slow, for a varint that is usually one byte (record tags). */
static inline const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    if (p < end && *p < 0x80) {
        *out = *p;
        return p + 1;
    }
    return get_varint_slow(p, end, out);
}

/* get_varint_slow for varints of mixed lengths (masks, corrections,
 * timestamps) when at least 8 bytes are readable (the caller checked): one
 * load serves every form up to 8 bytes, with no bounds test. */
static inline __attribute__((always_inline)) const uint8_t *get_varint_in(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    uint64_t x;
    memcpy(&x, p, 8);
    if (!(x & 0x80)) {
        *out = x & 0x7f;
        return p + 1;
    }
    if (!(x & 0x8000)) {
        *out = (x & 0x7f) | (x >> 1 & 0x3f80);
        return p + 2;
    }
    if (!(x & 0x800000)) {
        *out = (x & 0x7f) | (x >> 1 & 0x3f80) | (x >> 2 & 0x1fc000);
        return p + 3;
    }
    /* Four to eight bytes (timestamps): the first clear stop bit gives the
     * length, then the 7-bit groups are packed with fixed shifts. */
    uint64_t stop = ~x & 0x8080808080808080ull;
    if (stop) {
        unsigned nb = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
        uint64_t v = nb == 8 ? x : x & ((1ull << (8 * nb)) - 1);
        *out = (v & 0x7f) | (v >> 1 & 0x3f80) | (v >> 2 & 0x1fc000) | (v >> 3 & 0xfe00000) |
               (v >> 4 & 0x7f0000000ull) | (v >> 5 & 0x3f800000000ull) | (v >> 6 & 0x1fc0000000000ull) |
               (v >> 7 & 0xfe000000000000ull);
        return p + nb;
    }
    return get_varint_slow(p, end, out);
}

/* A predicted record's mask and corrections are at most this many bytes
 * (17 varints of at most 10), so with that much code left none of them
 * needs a bounds test before its first 8 bytes. */
/* get_varint_in wherever 8 bytes may not be readable. */
static inline const uint8_t *get_varint_mixed(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    return end - p >= 8 ? get_varint_in(p, end, out) : get_varint_slow(p, end, out);
}

#define PRED_MAX_CODE (17u * 10u + 8u)

/* The context's words in pairs or fours: GCC's vector extension, so the
 * whole-record add and copy are eight SSE2 operations (decode_base) or four
 * AVX2 ones (decode_avx2) whatever -O level or -march. (Fours split by the
 * compiler for SSE2 spill to the stack: each build uses its own width.) */
typedef uint64_t hv_u64x2 __attribute__((vector_size(16)));
typedef uint64_t hv_u64x4 __attribute__((vector_size(32)));

/* The sweep in vectors of type T, unrolled. */
#define SWEEP(T)                                                            \
    do {                                                                    \
        _Pragma("GCC unroll 8")                                             \
        for (unsigned i = 0; i < HV_CODEC_WORDS; i += sizeof(T) / 8) {      \
            T a, b;                                                         \
            memcpy(&a, &c->w[i], sizeof a);                                 \
            memcpy(&b, &c->d[i], sizeof b);                                 \
            a += b;                                                         \
            memcpy(&c->w[i], &a, sizeof a);                                 \
            memcpy(o + 8 * i, &a, sizeof a);                                \
        }                                                                   \
    } while (0)

/* hv_decode_chunk's body, compiled twice (below): for the baseline x86-64
 * (SSE2, wide = 0) and for AVX2 (wide = 1), chosen at run time. */
static inline __attribute__((always_inline)) long
decode_body(const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes, struct hv_codec_ctx *ctx,
            uint64_t *nstr, char *why, size_t why_cap, const int wide)
{
#define BAD(msg) do { if (why_cap) snprintf(why, why_cap, "v2 chunk, record %ld at code byte %zu: %s", \
                                            nrec, (size_t)(p - code), msg); return -1; } while (0)
    const uint8_t *p = code, *end = code + n;
    uint8_t *o = out, *oend = out + raw_bytes;
    uint32_t nctx = 0;
    long nrec = 0;
    uint64_t v[HV_CODEC_WORDS];
    *nstr = 0;
    while (p < end) {
        uint64_t tag;
        if (!(p = get_varint(p, end, &tag)))
            BAD("code ends inside a record tag");
        uint64_t k = tag >> 1;
        /* A predicted record needs an existing context (1 <= k <= nctx), a
         * verbatim one may also start the next (k == nctx + 1) or have none. */
        if (!(tag & 1) && k - 1 >= nctx)
            BAD(k ? "record names a context that does not exist" : "predicted record without a context");
        struct hv_codec_ctx *c;
        size_t size;
        if (tag & 1) {
            if (k > (uint64_t)nctx + 1 || k > HV_CODEC_CTX_MAX)
                BAD("record names a context that does not exist");
            c = k ? &ctx[k - 1] : NULL;
            if ((size_t)(end - p) < sizeof(struct hv_rec_header))
                BAD("code ends inside a verbatim record");
            uint16_t sz;   /* the code is not aligned */
            memcpy(&sz, p + offsetof(struct hv_rec_header, size), sizeof sz);
            size = sz;
            if (size < sizeof(struct hv_rec_header) || size % HV_REC_ALIGN)
                BAD("verbatim record with an impossible size");
            if (size > (size_t)(end - p) || size > (size_t)(oend - o))
                BAD("verbatim record runs past the end of the chunk");
            memcpy(o, p, size);
            p += size;
            if (c) {
                if (k == (uint64_t)nctx + 1) {
                    memset(c, 0, sizeof *c);
                    nctx++;
                }
                load_words(v, o, size);
                ctx_update(c, v);
            }
        } else {
            /* The context advances and the record is stored from it in one
             * sweep of vector adds (memcpy: no alignment assumed), then each
             * correction is added to the three as it is read. The output has
             * HV_CODEC_SLACK bytes past the end for the overshoot, which the
             * tail or the next record overwrites, so the record's size need
             * not be known yet; it is checked, with the mask, before
             * anything past the record is trusted. */
            uint64_t mask;
            c = &ctx[k - 1];
            const int room = (size_t)(end - p) >= PRED_MAX_CODE;
            if (!(p = room ? get_varint_in(p, end, &mask) : get_varint_mixed(p, end, &mask)))
                BAD("code ends inside a mask");
            if (mask >> HV_CODEC_WORDS)
                BAD("mask names words past the record");
            if (wide)
                SWEEP(hv_u64x4);
            else
                SWEEP(hv_u64x2);
            for (uint64_t m = mask; m; m &= m - 1) {
                uint64_t z, x;
                if (!(p = room ? get_varint_in(p, end, &z) : get_varint_mixed(p, end, &z)))
                    BAD("code ends inside a word");
                unsigned i = (unsigned)__builtin_ctzll(m);
                uint64_t cv = unzigzag(z);
                c->w[i] += cv;
                c->d[i] += cv;
                memcpy(&x, o + 8 * i, 8);
                memcpy(o + 8 * i, &(uint64_t){x + cv}, 8);
            }
            uint16_t sz;
            memcpy(&sz, o + offsetof(struct hv_rec_header, size), sizeof sz);
            size = sz;
            if (size > (size_t)(oend - o))
                BAD("record runs past the decoded size the chunk announces");
            if (size - sizeof(struct hv_rec_header) <= HV_CODEC_WORDS * 8 - sizeof(struct hv_rec_header) &&
                !(size % HV_REC_ALIGN)) {
                /* All of it coded (the usual case): no tail. */
                if (mask >> (size / 8))
                    BAD("mask names words past the record");
            } else {
                if (size < sizeof(struct hv_rec_header) || size % HV_REC_ALIGN)
                    BAD("record with an impossible size");
                if (mask >> HV_CODEC_WORDS)
                    BAD("mask names words past the record");   /* (HV_CODEC_WORDS words coded) */
                size_t tail = size - HV_CODEC_WORDS * 8;
                if (tail > (size_t)(end - p))
                    BAD("code ends inside a record's tail");
                memcpy(o + HV_CODEC_WORDS * 8, p, tail);
                p += tail;
            }
        }
        /* The layout check of a plain chunk (hv_rd_check_chunk), here
         * because the record is in cache now. */
        const struct hv_rec_header *rh = (const void *)o;
        if (hv_rec_has_tail(rh->type)) {
            const char *bad = hv_rec_check(rh);
            if (bad)
                BAD(bad);
            *nstr += rh->type == HV_REC_STRING;
        }
        o += size;
        nrec++;
    }
    if (o != oend)
        BAD("records decode to fewer bytes than the chunk announces");
    return nrec;
#undef BAD
}

static long decode_base(const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes, struct hv_codec_ctx *ctx,
                        uint64_t *nstr, char *why, size_t why_cap)
{
    return decode_body(code, n, out, raw_bytes, ctx, nstr, why, why_cap, 0);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HV_CODEC_AVX2 1
/* The vector sweep is ~40 of the ~190 instructions a record costs with
 * SSE2; AVX2 halves it. Only this function is built for AVX2, and only
 * called where the CPU has it (no -march flag, no ifunc: the preload
 * library links the codec too and must not resolve anything early). */
__attribute__((target("avx2"))) static long decode_avx2(const uint8_t *code, size_t n, uint8_t *out,
                                                         size_t raw_bytes, struct hv_codec_ctx *ctx, uint64_t *nstr,
                                                         char *why, size_t why_cap)
{
    return decode_body(code, n, out, raw_bytes, ctx, nstr, why, why_cap, 1);
}
#endif

long hv_decode_chunk_isa(int isa, const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes,
                         struct hv_codec_ctx *ctx, uint64_t *nstr, char *why, size_t why_cap)
{
#ifdef HV_CODEC_AVX2
    if (isa == HV_CODEC_ISA_AVX2) {
        /* Reads the CPU model libgcc filled in (initialised here too, in
         * case this runs before constructors). */
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("avx2"))
            return -2;
        return decode_avx2(code, n, out, raw_bytes, ctx, nstr, why, why_cap);
    }
#endif
    if (isa != HV_CODEC_ISA_BASE)
        return -2;
    return decode_base(code, n, out, raw_bytes, ctx, nstr, why, why_cap);
}

long hv_decode_chunk(const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes, struct hv_codec_ctx *ctx,
                     uint64_t *nstr, char *why, size_t why_cap)
{
#ifdef HV_CODEC_AVX2
    /* Once a chunk: the CPU model libgcc filled in. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return decode_avx2(code, n, out, raw_bytes, ctx, nstr, why, why_cap);
#endif
    return decode_base(code, n, out, raw_bytes, ctx, nstr, why, why_cap);
}
