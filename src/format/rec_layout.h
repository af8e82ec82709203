/*
 * What the reader may assume about a record of a known type (internal).
 *
 * Fixed-layout types may be shorter than their struct (an older writer, per
 * the append-only rule): the reader zero-fills them up to hv_rec_fixed_size()
 * before delivery. Types with a variable tail (strings, edges, kargs, code
 * object bytes, payloads) must hold their whole fixed part and the tail its
 * count/len announces; otherwise consumers would read past the record, so
 * the chunk is corrupt.
 */
#ifndef HV_FORMAT_REC_LAYOUT_H
#define HV_FORMAT_REC_LAYOUT_H

#include <stddef.h>
#include <string.h>

#include "hipvis/trace.h"

/* sizeof the record's struct, 0 for a type this reader does not know.
 * Inline because the reader asks once per delivered record. */
extern const unsigned short hv_rec_fixed_sizes[HV_REC__MAX];
static inline size_t hv_rec_fixed_size(unsigned type)
{
    return type < HV_REC__MAX ? hv_rec_fixed_sizes[type] : 0;
}

/* `rec` as a `type` of the current layout: itself when it holds the whole
 * struct, else a copy in the zeroed `local` of what an older writer wrote
 * (records that did not come through the reader's zero-fill). */
#define HV_REC_WIDEN(type, rec, local)                                      \
    ((rec)->size >= sizeof(type) ? (const type *)(const void *)(rec)        \
                                 : (memset(&(local), 0, sizeof(local)),     \
                                    memcpy(&(local), (rec), (rec)->size), &(local)))

/* Types with a variable tail: the only ones hv_rec_check() has anything to
 * check in (the others are NULL by definition), so a reader may skip the
 * call for the rest. */
#define HV_REC_TAIL_TYPES                                                                                    \
    (1ull << HV_REC_STRING | 1ull << HV_REC_GRAPH_EDGES | 1ull << HV_REC_KARGS | 1ull << HV_REC_CODEOBJ |   \
     1ull << HV_REC_PAYLOAD | 1ull << HV_REC_STACK | 1ull << HV_REC_MAPS | 1ull << HV_REC_PROBE |            \
     1ull << HV_REC_PYSTACK | 1ull << HV_REC_KARG_NAMES | 1ull << HV_REC_HOST_ACCESS)
static inline int hv_rec_has_tail(unsigned type) { return type < 64 && (HV_REC_TAIL_TYPES >> type) & 1; }

/* NULL when the record's size is consistent with its type, else why not.
 * The caller has checked size >= sizeof(struct hv_rec_header), size % 8 == 0
 * and that `size` bytes are readable. */
const char *hv_rec_check(const struct hv_rec_header *rec);

/* Bytes of the variable tail that follow the fixed part (0 for fixed types);
 * only meaningful after hv_rec_check() passed. */
size_t hv_rec_tail_bytes(const struct hv_rec_header *rec);

/* Makes a header's command line self-consistent, whatever wrote it (a file,
 * another process's segment): argv_bytes within argv[] and ending just after
 * an argument's NUL, argc the number of arguments in it. */
void hv_header_argv_sanitize(struct hv_file_header *h);

#endif
