/*
 * arena — memory that never moves, freed all at once.
 *
 * For what is handed out as plain pointers that must outlive the growth of
 * the table that refers to them (a code-object table's strings and argument
 * arrays, a trace's string table): blocks are only ever freed together, so
 * a pointer stays valid until hv_arena_free, and there is no per-item
 * malloc. Large requests get a block of their own. Zeroed is empty.
 */
#ifndef HV_COMMON_ARENA_H
#define HV_COMMON_ARENA_H

#include <stddef.h>

struct hv_arena {
    struct hv_arena_block *head;   /* newest first */
};

/* n zeroed bytes, 8-aligned; NULL out of memory. */
void *hv_arena_alloc(struct hv_arena *a, size_t n);
/* The n bytes at s and a NUL after them; NULL out of memory. */
const char *hv_arena_strndup(struct hv_arena *a, const char *s, size_t n);
void hv_arena_free(struct hv_arena *a);

#endif
