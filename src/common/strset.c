/* strset: see strset.h. */
#include "common/strset.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

static uint32_t find(const struct hv_strset *set, const char *s, uint64_t h)
{
    size_t pos = 0;
    uint32_t i;
    while ((i = hv_u64map_next(&set->ix, h, &pos)) != HV_U64MAP_NONE && strcmp(set->v[i], s) != 0)
        ;
    return i;
}

uint32_t hv_strset_find(const struct hv_strset *set, const char *s)
{
    return find(set, s, hv_str_hash(s));
}

uint32_t hv_strset_intern(struct hv_strset *set, const char *s)
{
    uint64_t h = hv_str_hash(s);
    uint32_t i = find(set, s, h);
    if (i != HV_U64MAP_NONE)
        return i;
    char *copy = HV_GROW(set->v, set->n, set->cap, 64) ? strdup(s) : NULL;
    if (!copy || hv_u64map_add(&set->ix, h, set->n) != 0) {
        free(copy);
        return HV_U64MAP_NONE;
    }
    set->v[set->n] = copy;
    return set->n++;
}

void hv_strset_free(struct hv_strset *set)
{
    for (uint32_t i = 0; i < set->n; i++)
        free(set->v[i]);
    free(set->v);
    hv_u64map_free(&set->ix);
    memset(set, 0, sizeof *set);
}
