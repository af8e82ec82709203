/* Value search internals (value_*.c); see forensics.h. */
#ifndef HV_ANALYZE_FORENSICS_VALUE_INT_H
#define HV_ANALYZE_FORENSICS_VALUE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/engine.h"
#include "analyze/forensics/forensics.h"
#include "analyze/model/imap.h"

/* ---- the query (value_query.c) ---- */

struct hv_vq {
    uint8_t value[8];            /* little-endian bytes of V */
    int64_t v;
    unsigned width;              /* 1, 2, 4 or 8 */
    uint64_t lo, hi;             /* the range searched; 0/0 until a kernel target is resolved */
    const char *kernel;          /* kernel:NAME:ARG target, else NULL */
    size_t kernel_len;
    int arg;
    uint64_t replay_seq;         /* 0: the last replay reading the range */
};

/* Parses the options; -1 after a message on stderr. */
int hv_vq_parse(const struct hv_value_query *q, struct hv_vq *out);
/* kernel:NAME:ARG: the buffer of that argument, found in the first graph
 * inventory or eager launch of kernel NAME in the trace. 0, or -1. */
int hv_vq_resolve(struct hv_vq *vq, const char *path);

/* Runs one trace through a fresh engine, calling fn after each record is
 * applied. Returns 0, or 2 when the input could not be read. */
typedef void (*hv_vq_feed_fn)(void *ctx, struct hv_engine *e, const struct hv_rec_header *rec);
int hv_vq_run_trace(const char *path, hv_vq_feed_fn fn, void *ctx, struct hv_engine_observer *obs,
                    struct hv_file_header *hdr_out);

/* ---- what a write put where (value_shadow.c) ---- */

/* A write, as the report names it. */
struct hv_vorigin {
    uint64_t seq, epoch, stream, dst, src, bytes;
    uint16_t api;
    uint8_t kind;                /* enum hv_side_kind: COPY, MEMSET, KERNEL, REPLAY */
    uint8_t dir;
};

/* Known content of [lo, hi): bytes of a recorded payload (blob), or a
 * memset pattern, put there by `o` (and, for a D2D copy, originally by
 * `via`). Content at address a: blob[a - base], or byte (a - base) % elem
 * of the pattern. */
struct hv_vcontent {
    uint64_t base;
    uint32_t blob;               /* blob index, UINT32_MAX: memset pattern */
    uint32_t pattern;
    uint8_t elem;
    struct hv_vorigin o, via;    /* via.seq 0: none */
};

struct hv_vshadow {
    struct hv_imap map;          /* value struct hv_vcontent */
    uint8_t **blobs;
    size_t *blob_len;
    uint32_t nblobs, capblobs;
    size_t bytes, bytes_after_gc;
};

void hv_vshadow_init(struct hv_vshadow *s);
void hv_vshadow_free(struct hv_vshadow *s);
/* Adds payload bytes; returns the blob index or UINT32_MAX. */
uint32_t hv_vshadow_blob(struct hv_vshadow *s, const uint8_t *b, size_t n);
/* [lo, hi) now holds `c` (NULL: unknown content). Returns the stored value. */
const struct hv_vcontent *hv_vshadow_set(struct hv_vshadow *s, uint64_t lo, uint64_t hi, const struct hv_vcontent *c);
/* Byte at a under content c. */
uint8_t hv_vshadow_byte(const struct hv_vshadow *s, const struct hv_vcontent *c, uint64_t a);

#endif
