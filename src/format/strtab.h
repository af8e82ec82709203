/*
 * The trace's string table as seen so far (internal): HV_REC_STRING records
 * map a per-process id to text.
 *
 * Ids are assigned densely by the tracer, but a damaged or foreign file may
 * hold any 32-bit id, so ids go through the hash map rather than index an
 * array. Texts are copied NUL-terminated into arena blocks that are never
 * moved, so a returned pointer stays valid until the table is freed (the
 * analyzer may keep kernel names) and there is no per-string malloc.
 * Zeroed is empty.
 */
#ifndef HV_FORMAT_STRTAB_H
#define HV_FORMAT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/u64map.h"

struct hv_strtab {
    struct hv_u64map ids;         /* id -> index in texts */
    const char **texts;
    uint32_t ntexts, captexts;
    struct hv_arena arena;        /* the texts themselves */
};

/* Adds or replaces (the last definition of an id wins). 0, or -1 out of memory. */
int hv_strtab_put(struct hv_strtab *t, uint32_t id, const char *text, size_t len);
/* The text of `id`, NULL when unknown. */
const char *hv_strtab_get(const struct hv_strtab *t, uint32_t id);
void hv_strtab_free(struct hv_strtab *t);

#endif
