/*
 * strset — interned strings: each distinct text is copied once and named by
 * its index, found again through the hash map by a hash of the text.
 *
 * Zeroed is empty. Indexes and the copies stay valid until the set is freed.
 */
#ifndef HV_COMMON_STRSET_H
#define HV_COMMON_STRSET_H

#include <stdint.h>

#include "common/u64map.h"

struct hv_strset {
    char **v;               /* owned copies, by index */
    uint32_t n, cap;
    struct hv_u64map ix;    /* hv_str_hash(text) -> index */
};

/* FNV-1a over the bytes of s, NUL excluded. */
static inline uint64_t hv_str_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The index of s's copy; HV_U64MAP_NONE when s is not in the set. */
uint32_t hv_strset_find(const struct hv_strset *set, const char *s);
/* The index of s's copy, added when s is new; HV_U64MAP_NONE out of memory. */
uint32_t hv_strset_intern(struct hv_strset *set, const char *s);
void hv_strset_free(struct hv_strset *set);

#endif
