/* String table: id -> text through the hash map; see strtab.h. */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "format/strtab.h"

#define BLOCK_BYTES 65536u

struct hv_strblock {
    struct hv_strblock *next;
    size_t used, cap;
    char text[];
};

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
    const char *copy = store(t, text, len);
    if (!copy)
        return -1;
    uint32_t i = hv_u64map_get(&t->ids, id);
    if (i == HV_U64MAP_NONE) {
        if (!HV_GROW(t->texts, t->ntexts, t->captexts, 64) || hv_u64map_put(&t->ids, id, t->ntexts) < 0)
            return -1;
        i = t->ntexts++;
    }
    t->texts[i] = copy;
    return 0;
}

const char *hv_strtab_get(const struct hv_strtab *t, uint32_t id)
{
    uint32_t i = hv_u64map_get(&t->ids, id);
    return i == HV_U64MAP_NONE ? NULL : t->texts[i];
}

void hv_strtab_free(struct hv_strtab *t)
{
    while (t->blocks) {
        struct hv_strblock *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    hv_u64map_free(&t->ids);
    free(t->texts);
    memset(t, 0, sizeof *t);
}
