/*
 * Format v2 chunk encoding (internal; docs/trace-format.md, "Version 2
 * chunks"). The ring and the hot path keep plain struct stores; this turns a
 * chunk of records into a compact byte stream before zstd sees it, on the
 * writer's compression thread (and the sidecar's, through the same
 * trace writer), and back in the reader.
 *
 * Each record is coded against a *context*: the previous record of the same
 * thread, type and api in the chunk. The first 16 words of a record are
 * predicted as context + the context's last stride (so counters such as seq,
 * epoch and a steady timestamp cost nothing), a mask says which words miss
 * the prediction, and each miss is a zigzag varint; the rest of a long record
 * follows verbatim. Contexts start empty in every chunk, so frames stay
 * independent (resynchronisation, parallel decoding).
 */
#ifndef HV_FORMAT_CODEC_INT_H
#define HV_FORMAT_CODEC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/u64map.h"
#include "hipvis/trace.h"

#define HV_CHUNK_MAGIC_V2 0x32435648u   /* "HVC2" */
#define HV_CODEC_WORDS    16u           /* words of a record that are predicted */
#define HV_CODEC_CTX_MAX  1024u         /* contexts per chunk; later keys are coded verbatim */

/* A v2 chunk (a decompressed data frame): this header, then the code. */
struct hv_chunk_header_v2 {
    struct hv_chunk_header h;  /* magic HV_CHUNK_MAGIC_V2; payload_bytes = bytes of code after this header */
    uint64_t raw_bytes;        /* bytes of the records the code decodes to */
};

struct hv_codec_ctx {
    uint64_t w[HV_CODEC_WORDS];     /* the context's latest record, zero-padded */
    uint64_t d[HV_CODEC_WORDS];     /* its last change per word (the stride) */
};

/* Encoder state, reused from chunk to chunk (one per encoding thread). */
struct hv_encoder {
    struct hv_u64map keys;          /* (tid, type, api) -> context */
    struct hv_codec_ctx *ctx;
    uint32_t nctx, cap;
    uint64_t last_key;              /* the previous record's key and context */
    uint32_t last_k;
};

/* Worst-case code bytes for `raw` bytes of records (what `out` must hold). */
static inline size_t hv_codec_bound(size_t raw) { return raw + raw / 8 + 64; }

/*
 * Encodes records [recs, recs + raw) (well-formed: the writer's own chunk)
 * into out (hv_codec_bound(raw) bytes). Returns the code bytes, or 0 out of
 * memory (the caller then writes the chunk as version 1).
 */
size_t hv_encode_chunk(struct hv_encoder *e, const uint8_t *recs, size_t raw, uint8_t *out);
void hv_encoder_free(struct hv_encoder *e);

/* Bytes the decoder may write past raw_bytes (whole predicted words). */
#define HV_CODEC_SLACK (HV_CODEC_WORDS * 8u)

/*
 * Decodes `n` bytes of code into exactly raw_bytes bytes of records at out,
 * which must hold raw_bytes + HV_CODEC_SLACK (decoding writes whole
 * words). `ctx` is scratch for HV_CODEC_CTX_MAX contexts. Every record is
 * checked as the reader checks a plain chunk's (size, alignment, and
 * hv_rec_check() for types with a tail) while it is still in cache, so the
 * result needs no second pass; *nstr counts its string records. Returns the
 * number of records, or -1 with the reason in why[why_cap] (why_cap may be 0).
 */
long hv_decode_chunk(const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes, struct hv_codec_ctx *ctx,
                     uint64_t *nstr, char *why, size_t why_cap);

/* hv_decode_chunk picks, per CPU, one of two builds of the same decoder:
 * baseline x86-64 (SSE2) or AVX2. hv_decode_chunk_isa runs the one named
 * (tests check that both agree); -2 when this CPU or build lacks it. */
enum { HV_CODEC_ISA_BASE, HV_CODEC_ISA_AVX2 };
long hv_decode_chunk_isa(int isa, const uint8_t *code, size_t n, uint8_t *out, size_t raw_bytes,
                         struct hv_codec_ctx *ctx, uint64_t *nstr, char *why, size_t why_cap);

#endif
