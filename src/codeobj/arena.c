/* arena.c - bump allocator whose memory never moves.
 *
 * Table strings and argument arrays are handed out as plain pointers that
 * must survive the table growing (kernels[] is realloc'ed), so they live in
 * blocks that are only ever freed together. Large requests (a decompressed
 * bundle, a copied ELF) get a block of their own. */
#include "codeobj/codeobj_int.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN (64u * 1024u)

struct co_arena_block {
    struct co_arena_block *next;
    size_t used, cap;
    _Alignas(8) unsigned char data[];
};

static struct co_arena_block *new_block(struct co_arena *a, size_t cap)
{
    if (cap > SIZE_MAX - sizeof(struct co_arena_block))
        return NULL;
    struct co_arena_block *b = malloc(sizeof(*b) + cap);
    if (!b)
        return NULL;
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
    return b;
}

void *co_arena_alloc(struct co_arena *a, size_t n)
{
    if (n > SIZE_MAX - 7)
        return NULL;
    n = (n + 7) & ~(size_t)7;
    struct co_arena_block *b = a->head;
    if (n >= BLOCK_MIN / 4) {
        /* A big one-off: its own block, placed behind the current head so the
         * head's spare room keeps serving small requests. */
        struct co_arena_block *keep = a->head;
        b = new_block(a, n);
        if (!b)
            return NULL;
        if (keep) {
            a->head = keep;
            b->next = keep->next;
            keep->next = b;
        }
        b->used = n;
        memset(b->data, 0, n);
        return b->data;
    }
    if (!b || b->cap - b->used < n) {
        b = new_block(a, BLOCK_MIN);
        if (!b)
            return NULL;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

const char *co_arena_strndup(struct co_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = co_arena_alloc(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void co_arena_free(struct co_arena *a)
{
    struct co_arena_block *b = a->head;
    while (b) {
        struct co_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
