/* index.c - u64 key -> u32 values, open addressing with linear probing.
 *
 * Lookups by kernel name happen on every hipModuleGetFunction /
 * __hipRegisterFunction and a large framework registers ~10^5 kernels, so a
 * linear scan per lookup is not an option. Keys are hashes: collisions are
 * legal and callers compare the real identity. Nothing is ever removed. */
#include "codeobj/codeobj_int.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
    /* cap is a power of two; fold the high bits in for weak keys. */
    return (size_t)(key ^ (key >> 29)) & (cap - 1);
}

/* Store key -> stored value v (value + 1) in the first free slot of its
 * probe run; the table has room (load <= 3/4). */
static void put(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key, uint32_t v)
{
    size_t s = slot_of(key, cap);
    while (vals[s])
        s = (s + 1) & (cap - 1);
    keys[s] = key;
    vals[s] = v;
}

/* Free the arrays and take these instead (NULL, NULL, 0: none). */
static void take(struct co_index *ix, uint64_t *keys, uint32_t *vals, size_t cap)
{
    free(ix->keys);
    free(ix->vals);
    ix->keys = keys;
    ix->vals = vals;
    ix->cap = cap;
}

static bool grow(struct co_index *ix)
{
    size_t cap = ix->cap ? ix->cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof(uint64_t))
        return false;
    uint64_t *keys = malloc(cap * sizeof(*keys));
    uint32_t *vals = calloc(cap, sizeof(*vals));
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    for (size_t i = 0; i < ix->cap; i++)
        if (ix->vals[i])
            put(keys, vals, cap, ix->keys[i], ix->vals[i]);
    take(ix, keys, vals, cap);
    return true;
}

bool co_index_add(struct co_index *ix, uint64_t key, uint32_t val)
{
    if (val == UINT32_MAX)
        return false;
    if ((ix->n + 1) * 4 > ix->cap * 3 && !grow(ix)) /* load <= 3/4 */
        return false;
    put(ix->keys, ix->vals, ix->cap, key, val + 1);
    ix->n++;
    return true;
}

bool co_index_next(const struct co_index *ix, uint64_t key, size_t *pos, uint32_t *val)
{
    if (!ix->cap)
        return false;
    /* *pos counts probes made so far from the home slot. */
    for (size_t i = *pos; i < ix->cap; i++) {
        size_t s = (slot_of(key, ix->cap) + i) & (ix->cap - 1);
        if (!ix->vals[s])
            return false;
        if (ix->keys[s] == key) {
            *pos = i + 1;
            *val = ix->vals[s] - 1;
            return true;
        }
    }
    return false;
}

void co_index_free(struct co_index *ix)
{
    take(ix, NULL, NULL, 0);
    ix->n = 0;
}
