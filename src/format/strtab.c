/* String table: id -> text through the hash map; see strtab.h. */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "format/strtab.h"

int hv_strtab_put(struct hv_strtab *t, uint32_t id, const char *text, size_t len)
{
    const char *copy = hv_arena_strndup(&t->arena, text, len);
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
    hv_arena_free(&t->arena);
    hv_u64map_free(&t->ids);
    free(t->texts);
    memset(t, 0, sizeof *t);
}
