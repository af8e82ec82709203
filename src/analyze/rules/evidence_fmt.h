/*
 * Rendering recorded bytes for findings (host-source-rewritten,
 * three-point-probe): where two snapshots of a buffer first differ, and a
 * short view of them as int32 elements, the shape of the buffers behind
 * these bugs (cu_seqlens_q, token indices), or as bytes otherwise.
 */
#ifndef HV_ANALYZE_RULES_EVIDENCE_FMT_H
#define HV_ANALYZE_RULES_EVIDENCE_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Offset of the first byte where a and b differ, n when equal; *ndiff gets
 * the number of differing bytes. */
size_t hv_bytes_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *ndiff);

/* "[0,1,2,3,4,5,...]": up to `max` elements from element `from` (int32 when
 * n is a multiple of 4, else bytes in hex). Returns buf. */
const char *hv_bytes_view(char *buf, size_t len, const uint8_t *b, size_t n, size_t from, size_t max);

/* The element holding byte `off` as "int32 [k]" / "byte [k]", and its value
 * in a ("996"). */
const char *hv_elem_name(char *buf, size_t len, size_t n, size_t off);
const char *hv_elem_value(char *buf, size_t len, const uint8_t *a, size_t n, size_t off);

/* "after-copy", "pre-replay", "post-replay" for enum hv_probe_point;
 * "none" for 0 (the source: nothing differs). */
const char *hv_probe_point_name(unsigned point);

#endif
