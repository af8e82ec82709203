/*
 * Deterministic record generator for the format tests, the fuzz seed corpus
 * and the reader benchmark: every record type, random field values from a
 * fixed seed, consistent sizes and tails, seq advancing like a real trace
 * (a call takes the next seq; auxiliary records share their call's seq).
 */
#ifndef HV_TESTS_FORMAT_GEN_H
#define HV_TESTS_FORMAT_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"

struct hv_gen {
    uint64_t rng;
    uint64_t seq, ts;
    uint32_t next_string;
};

/* Records are built into buffers of this size, 8-aligned. */
#define HV_GEN_BUF HV_REC_MAX_BYTES

void hv_gen_init(struct hv_gen *g, uint64_t seed);
uint64_t hv_gen_rand(struct hv_gen *g);
/* One record of `type` (0: a mix with every type, mostly calls) into buf;
 * returns its size. */
size_t hv_gen_record(struct hv_gen *g, unsigned type, void *buf);
/* The i-th of every record type: 1 .. HV_REC__MAX-1, then one unknown. */
unsigned hv_gen_type(unsigned i);
/* A plausible header for tests. */
void hv_gen_header(struct hv_file_header *h, uint64_t pid);

/* A flat list of records: concatenated bytes plus offsets. */
struct hv_reclist {
    uint8_t *bytes;
    size_t len, cap;
    size_t *off;
    size_t n, ncap;
};
void hv_reclist_add(struct hv_reclist *l, const void *rec);
const struct hv_rec_header *hv_reclist_get(const struct hv_reclist *l, size_t i);
void hv_reclist_free(struct hv_reclist *l);
/* n generated records (type 0 mix), starting a fresh generator at `seed`. */
void hv_reclist_generate(struct hv_reclist *l, uint64_t seed, size_t n);

#endif
