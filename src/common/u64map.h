/*
 * u64map — the one hash map: open addressing from a 64-bit key to a 32-bit
 * value (an index into the caller's own array, where the entries live).
 *
 * The analyzer looks up a stream, event, exec or allocation by its runtime
 * handle on almost every record, so this is on the hot path: linear probing
 * over one flat array (one cache line usually answers), no per-insert
 * allocation, backward-shift deletion so no tombstones accumulate in a long
 * trace where handles are created and destroyed forever.
 *
 * Any 64-bit key is allowed (0 included: the canonical "no stream" id); an
 * empty slot is marked by its value being HV_U64MAP_NONE.
 *
 * A key that is a hash of something larger (a string, a composite key) may
 * stand for several entries: hv_u64map_add stores one more value under it
 * and hv_u64map_next walks them, for the caller to confirm against the
 * entry itself. get, put and del are for maps whose keys are the identity.
 */
#ifndef HV_COMMON_U64MAP_H
#define HV_COMMON_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#define HV_U64MAP_NONE UINT32_MAX

struct hv_u64map_slot {
    uint64_t key;
    uint32_t val;        /* HV_U64MAP_NONE: empty */
    uint32_t pad;
};

struct hv_u64map {
    struct hv_u64map_slot *slots;
    size_t cap;          /* power of two, or 0 before the first insert */
    size_t count;
};

/* The finalizer of splitmix64: a cheap, well-mixed hash for handles, which
 * are aligned pointers (low bits zero) and would cluster under identity. */
static inline uint64_t hv_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

void hv_u64map_init(struct hv_u64map *m);
void hv_u64map_free(struct hv_u64map *m);
/* Empties the map and keeps its memory: no allocation, no lock, so a fork
 * child may start over with it. */
void hv_u64map_clear(struct hv_u64map *m);
/* The probe past a key's home slot (u64map.c). */
uint32_t hv_u64map_probe(const struct hv_u64map *m, uint64_t key);
/* Value of key, or HV_U64MAP_NONE. The home slot is looked at inline: at a
 * load factor <= 1/2 it usually answers, and the analyzer asks on nearly
 * every record. */
static inline uint32_t hv_u64map_get(const struct hv_u64map *m, uint64_t key)
{
    if (m->cap == 0)
        return HV_U64MAP_NONE;
    const struct hv_u64map_slot *s = &m->slots[hv_mix64(key) & (m->cap - 1)];
    if (s->val == HV_U64MAP_NONE || s->key == key)
        return s->val;
    return hv_u64map_probe(m, key);
}
/* Sets key -> val (val != HV_U64MAP_NONE). Returns 0, or -1 out of memory. */
int hv_u64map_put(struct hv_u64map *m, uint64_t key, uint32_t val);
/* Removes key if present; returns the value it had or HV_U64MAP_NONE. */
uint32_t hv_u64map_del(struct hv_u64map *m, uint64_t key);
/* Stores val (!= HV_U64MAP_NONE) under key beside any value already there.
 * Returns 0, or -1 out of memory. */
int hv_u64map_add(struct hv_u64map *m, uint64_t key, uint32_t val);
/* The next value stored under key, HV_U64MAP_NONE when there is none left;
 * *pos starts at 0 and keeps the place between calls (no change to the map
 * in between). */
uint32_t hv_u64map_next(const struct hv_u64map *m, uint64_t key, size_t *pos);

#endif
