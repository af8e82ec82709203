/*
 * imap — a map of disjoint address ranges [lo, hi) to fixed-size values.
 *
 * Used for the allocation map, the per-byte "last writer" history and
 * anything else keyed by address range. Assigning a range overwrites what was
 * there: segments it covers are dropped and segments it cuts are trimmed (or
 * split in two), so after any sequence of writes each byte has exactly the
 * value of its last writer. That is the question the rules ask.
 *
 * A treap over a node pool: O(log n) expected per operation, nodes and values
 * live in two flat arrays indexed by uint32, freed nodes go to a free list,
 * so a long trace that rewrites the same buffers allocates nothing after
 * warm-up. Values are opaque bytes (`val_size` chosen at init) so one
 * implementation serves every user.
 *
 * Pointers returned into values are valid until the next mutation.
 */
#ifndef HV_ANALYZE_MODEL_IMAP_H
#define HV_ANALYZE_MODEL_IMAP_H

#include <stddef.h>
#include <stdint.h>

struct hv_imap_node {
    uint64_t lo, hi;
    uint32_t left, right;     /* node indexes, 0 = none */
    uint32_t prio;
    uint32_t pad;
};

struct hv_imap {
    struct hv_imap_node *nodes;  /* nodes[0] is the nil sentinel */
    unsigned char *vals;         /* val_size bytes per node, same index */
    size_t val_size;
    size_t vals_cap;             /* bytes allocated at vals */
    uint32_t cap, used;          /* slots allocated / ever handed out */
    uint32_t free_list;          /* chained through .left */
    uint32_t root;
    uint32_t rng;
    size_t count;                /* live segments */
    int oom;                     /* an allocation failed; the map is still consistent */
};

/* A segment as seen by callers. `next` is for hv_imap_next: the node that
 * follows this segment when the lookup that found it learnt it on the way
 * (0 none, HV_IMAP_NEXT_UNKNOWN not known). */
struct hv_imap_seg {
    uint64_t lo, hi;
    void *val;
    uint32_t next;
};
#define HV_IMAP_NEXT_UNKNOWN UINT32_MAX

void hv_imap_init(struct hv_imap *m, size_t val_size);
void hv_imap_free(struct hv_imap *m);
void hv_imap_clear(struct hv_imap *m);

/* Lookups are inline (the engine asks several per record); changes are
 * in imap.c. */

/* Walks once from the root: the node with the largest lo <= addr (*le) and
 * the node with the smallest lo > addr (*gt), 0 for none. */
static inline void hv_imap_bracket(const struct hv_imap *m, uint64_t addr, uint32_t *le, uint32_t *gt)
{
    uint32_t t = m->root, l = 0, g = 0;
    while (t != 0) {
        const struct hv_imap_node *n = &m->nodes[t];
        if (n->lo <= addr) {
            l = t;
            t = n->right;
        } else {
            g = t;
            t = n->left;
        }
    }
    *le = l;
    *gt = g;
}

static inline int hv_imap_fill(const struct hv_imap *m, uint32_t i, uint32_t next, struct hv_imap_seg *seg)
{
    seg->lo = m->nodes[i].lo;
    seg->hi = m->nodes[i].hi;
    seg->val = m->vals + (size_t)i * m->val_size;
    seg->next = next;
    return 1;
}

/* First segment with hi > addr (the one containing addr, else the next one
 * above it). Returns 1 and fills *seg, or 0. Iterate a range [lo, hi) with
 *   for (int ok = hv_imap_seek(m, lo, &s); ok && s.lo < hi; ok = hv_imap_seek(m, s.hi, &s))
 * The bracket's gt is the smallest start above addr: when addr lies in le,
 * that is le's successor (no start lies in (le.lo, addr]). */
static inline int hv_imap_seek(const struct hv_imap *m, uint64_t addr, struct hv_imap_seg *seg)
{
    uint32_t le, gt;
    hv_imap_bracket(m, addr, &le, &gt);
    if (le != 0 && m->nodes[le].hi > addr)
        return hv_imap_fill(m, le, gt, seg);
    if (gt != 0)
        return hv_imap_fill(m, gt, HV_IMAP_NEXT_UNKNOWN, seg);
    return 0;
}

/* Segment containing addr. Returns 1 and fills *seg, or 0 (*seg untouched). */
static inline int hv_imap_find(const struct hv_imap *m, uint64_t addr, struct hv_imap_seg *seg)
{
    struct hv_imap_seg s;
    if (!hv_imap_seek(m, addr, &s) || s.lo > addr)
        return 0;
    *seg = s;
    return 1;
}

/* The segment after *seg (hv_imap_seek(m, seg->hi, seg)), for a walk that
 * has not changed the map since *seg was found: a seek that landed inside
 * a segment met its successor on the way down, so every other step of a
 * walk costs no search. Returns 1 and refills *seg, or 0. */
static inline int hv_imap_next(const struct hv_imap *m, struct hv_imap_seg *seg)
{
    if (seg->next == HV_IMAP_NEXT_UNKNOWN)
        return hv_imap_seek(m, seg->hi, seg);
    if (seg->next == 0)
        return 0;
    return hv_imap_fill(m, seg->next, HV_IMAP_NEXT_UNKNOWN, seg);
}

/* Makes [lo, hi) one segment and returns its value bytes for the caller to
 * fill (old contents unspecified), or NULL when out of memory (the map is then
 * unchanged except that [lo, hi) may have been cleared). lo < hi. */
void *hv_imap_assign(struct hv_imap *m, uint64_t lo, uint64_t hi);
/* Removes every byte of [lo, hi) from the map, trimming segments it cuts. */
void hv_imap_erase(struct hv_imap *m, uint64_t lo, uint64_t hi);

static inline size_t hv_imap_count(const struct hv_imap *m) { return m->count; }

#endif
