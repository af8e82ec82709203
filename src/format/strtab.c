/* String table: id -> text, open addressing with linear probing. */
#include <stdlib.h>
#include <string.h>

#include "format/strtab.h"

#define BLOCK_BYTES 65536u

struct hv_strblock {
    struct hv_strblock *next;
    size_t used, cap;
    char text[];
};

/* Fibonacci hashing spreads the dense ids the tracer assigns. */
static size_t slot_of(uint32_t id, size_t nslots)
{
    return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) & (nslots - 1);
}

static struct hv_strslot *find(const struct hv_strtab *t, uint32_t id)
{
    size_t i = slot_of(id, t->nslots);
    while (t->slots[i].text && t->slots[i].id != id)
        i = (i + 1) & (t->nslots - 1);
    return &t->slots[i];
}

/* Keeps the load factor at most 1/2 so probes stay short. */
static int grow_slots(struct hv_strtab *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 64;
    struct hv_strslot *old = t->slots;
    size_t oldn = t->nslots;
    struct hv_strslot *fresh = calloc(n, sizeof *fresh);
    if (!fresh)
        return -1;
    t->slots = fresh;
    t->nslots = n;
    for (size_t i = 0; i < oldn; i++)
        if (old[i].text)
            *find(t, old[i].id) = old[i];
    free(old);
    return 0;
}

/* Copies text into the newest block, or a new one (sized for long texts). */
static const char *store(struct hv_strtab *t, const char *text, size_t len)
{
    struct hv_strblock *b = t->blocks;
    if (!b || b->cap - b->used < len + 1) {
        size_t cap = len + 1 > BLOCK_BYTES ? len + 1 : BLOCK_BYTES;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = t->blocks;
        t->blocks = b;
    }
    char *dst = b->text + b->used;
    memcpy(dst, text, len);
    dst[len] = '\0';
    b->used += len + 1;
    return dst;
}

int hv_strtab_put(struct hv_strtab *t, uint32_t id, const char *text, size_t len)
{
    if ((t->used + 1) * 2 > t->nslots && grow_slots(t) < 0)
        return -1;
    const char *copy = store(t, text, len);
    if (!copy)
        return -1;
    struct hv_strslot *s = find(t, id);
    if (!s->text)
        t->used++;
    s->id = id;
    s->text = copy;
    return 0;
}

const char *hv_strtab_get(const struct hv_strtab *t, uint32_t id)
{
    return t->nslots ? find(t, id)->text : NULL;
}

void hv_strtab_free(struct hv_strtab *t)
{
    while (t->blocks) {
        struct hv_strblock *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    free(t->slots);
    memset(t, 0, sizeof *t);
}
