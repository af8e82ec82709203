/*
 * The trace's string table as seen so far (internal): HV_REC_STRING records
 * map a per-process id to text.
 *
 * Ids are assigned densely by the tracer, but a damaged or foreign file may
 * hold any 32-bit id, so this is a hash map (open addressing) rather than an
 * array indexed by id. Texts are copied NUL-terminated into arena blocks that
 * are never moved, so a returned pointer stays valid until the table is freed
 * (the analyzer may keep kernel names) and there is no per-string malloc.
 */
#ifndef HV_FORMAT_STRTAB_H
#define HV_FORMAT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct hv_strtab {
    struct hv_strslot { const char *text; uint32_t id; } *slots;  /* text NULL: empty */
    size_t nslots, used;
    struct hv_strblock *blocks;   /* newest first */
};

/* Adds or replaces (the last definition of an id wins). 0, or -1 out of memory. */
int hv_strtab_put(struct hv_strtab *t, uint32_t id, const char *text, size_t len);
/* The text of `id`, NULL when unknown. */
const char *hv_strtab_get(const struct hv_strtab *t, uint32_t id);
void hv_strtab_free(struct hv_strtab *t);

#endif
