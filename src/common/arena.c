/* arena: see arena.h. */
#include "common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN (64u * 1024u)

struct hv_arena_block {
    struct hv_arena_block *next;
    size_t used, cap;
    _Alignas(8) unsigned char data[];
};

static struct hv_arena_block *new_block(struct hv_arena *a, size_t cap)
{
    if (cap > SIZE_MAX - sizeof(struct hv_arena_block))
        return NULL;
    struct hv_arena_block *b = malloc(sizeof(*b) + cap);
    if (!b)
        return NULL;
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
    return b;
}

/* n bytes, 8-aligned, as they were left. */
static void *take(struct hv_arena *a, size_t n)
{
    if (n > SIZE_MAX - 7)
        return NULL;
    n = (n + 7) & ~(size_t)7;
    struct hv_arena_block *b = a->head;
    if (n >= BLOCK_MIN / 4) {
        /* A big one-off: its own block, placed behind the current head so the
         * head's spare room keeps serving small requests. */
        struct hv_arena_block *keep = a->head;
        b = new_block(a, n);
        if (!b)
            return NULL;
        if (keep) {
            a->head = keep;
            b->next = keep->next;
            keep->next = b;
        }
        b->used = n;
        return b->data;
    }
    if (!b || b->cap - b->used < n) {
        b = new_block(a, BLOCK_MIN);
        if (!b)
            return NULL;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

void *hv_arena_alloc(struct hv_arena *a, size_t n)
{
    void *p = take(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

const char *hv_arena_strndup(struct hv_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = take(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void hv_arena_free(struct hv_arena *a)
{
    struct hv_arena_block *b = a->head;
    while (b) {
        struct hv_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
