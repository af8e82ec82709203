/*
 * number — the one parser for numeric settings: HIPVIS_* environment
 * variables (src/tracer/core/config.c) and the tools' numeric options
 * (src/cli/cli.c). Strict, so that a typo is an error, not a different
 * value: digits only (hex after "0x" where allowed), no leading blank, no
 * '+', no empty string, no overflow. strtoull alone accepts " 1", "+1" and
 * "-1" (as 2^64-1).
 */
#ifndef HV_COMMON_NUMBER_H
#define HV_COMMON_NUMBER_H

#include <stdint.h>

#define HV_NUM_HEX    1u   /* "0x..." is accepted too */
#define HV_NUM_SUFFIX 2u   /* stop at the first non-digit (*end says where); else all of s must be digits */
#define HV_NUM_SIGNED 4u   /* hv_num_range only: one leading '-' is accepted */

/* 0 and *out, or -1 (nothing changed). With HV_NUM_SUFFIX, end is set. */
int hv_num_u64(const char *s, unsigned flags, uint64_t *out, const char **end);

/* An integer in [lo, hi]. 0 and *out, or -1. */
int hv_num_range(const char *s, unsigned flags, long long lo, long long hi, long long *out);

#endif
