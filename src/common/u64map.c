/* u64map: see u64map.h for why it is shaped this way. */
#include "common/u64map.h"

#include <stdlib.h>

void hv_u64map_init(struct hv_u64map *m)
{
    m->slots = NULL;
    m->cap = 0;
    m->count = 0;
}

void hv_u64map_free(struct hv_u64map *m)
{
    free(m->slots);
    hv_u64map_init(m);
}

void hv_u64map_clear(struct hv_u64map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        m->slots[i].val = HV_U64MAP_NONE;
    m->count = 0;
}

static size_t home(const struct hv_u64map *m, uint64_t key)
{
    return (size_t)hv_mix64(key) & (m->cap - 1);
}

uint32_t hv_u64map_probe(const struct hv_u64map *m, uint64_t key)
{
    if (m->cap == 0)
        return HV_U64MAP_NONE;
    for (size_t i = home(m, key);; i = (i + 1) & (m->cap - 1)) {
        const struct hv_u64map_slot *s = &m->slots[i];
        if (s->val == HV_U64MAP_NONE)
            return HV_U64MAP_NONE;
        if (s->key == key)
            return s->val;
    }
}

static void insert_fresh(struct hv_u64map *m, uint64_t key, uint32_t val)
{
    size_t i = home(m, key);
    while (m->slots[i].val != HV_U64MAP_NONE)
        i = (i + 1) & (m->cap - 1);
    m->slots[i].key = key;
    m->slots[i].val = val;
}

static int grow(struct hv_u64map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    struct hv_u64map_slot *old = m->slots;
    size_t ocap = m->cap;
    struct hv_u64map_slot *ns = malloc(ncap * sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < ncap; i++)
        ns[i].val = HV_U64MAP_NONE;
    m->slots = ns;
    m->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].val != HV_U64MAP_NONE)
            insert_fresh(m, old[i].key, old[i].val);
    free(old);
    return 0;
}

/* Room for one more entry: load factor <= 1/2 keeps linear-probe chains short. */
static int reserve(struct hv_u64map *m)
{
    return (m->count + 1) * 2 > m->cap ? grow(m) : 0;
}

int hv_u64map_put(struct hv_u64map *m, uint64_t key, uint32_t val)
{
    if (reserve(m) != 0)
        return -1;
    for (size_t i = home(m, key);; i = (i + 1) & (m->cap - 1)) {
        struct hv_u64map_slot *s = &m->slots[i];
        if (s->val == HV_U64MAP_NONE) {
            s->key = key;
            s->val = val;
            m->count++;
            return 0;
        }
        if (s->key == key) {
            s->val = val;
            return 0;
        }
    }
}

uint32_t hv_u64map_del(struct hv_u64map *m, uint64_t key)
{
    if (m->cap == 0)
        return HV_U64MAP_NONE;
    size_t mask = m->cap - 1, i = home(m, key);
    while (m->slots[i].val != HV_U64MAP_NONE && m->slots[i].key != key)
        i = (i + 1) & mask;
    uint32_t was = m->slots[i].val;
    if (was == HV_U64MAP_NONE)
        return was;
    /* Backward-shift deletion: pull later members of the probe chain into
     * the hole when their home position allows it, so no tombstones. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->slots[j].val != HV_U64MAP_NONE; j = (j + 1) & mask) {
        size_t h = home(m, m->slots[j].key);
        /* j may move to hole iff h is not cyclically in (hole, j]. */
        int in_range = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
        if (!in_range) {
            m->slots[hole] = m->slots[j];
            hole = j;
        }
    }
    m->slots[hole].val = HV_U64MAP_NONE;
    m->count--;
    return was;
}

int hv_u64map_add(struct hv_u64map *m, uint64_t key, uint32_t val)
{
    if (reserve(m) != 0)
        return -1;
    insert_fresh(m, key, val);
    m->count++;
    return 0;
}

uint32_t hv_u64map_next(const struct hv_u64map *m, uint64_t key, size_t *pos)
{
    /* *pos counts the slots looked at past the key's home: a key's entries
     * all lie in the run of full slots that starts there. */
    size_t h = m->cap ? home(m, key) : 0;
    for (size_t n = *pos; n < m->cap; n++) {
        const struct hv_u64map_slot *s = &m->slots[(h + n) & (m->cap - 1)];
        if (s->val == HV_U64MAP_NONE)
            break;
        if (s->key == key) {
            *pos = n + 1;
            return s->val;
        }
    }
    *pos = m->cap;
    return HV_U64MAP_NONE;
}
