/* imap: treap of disjoint ranges keyed by their start. See imap.h. */
#include "analyze/model/imap.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#define NIL 0u

void hv_imap_init(struct hv_imap *m, size_t val_size)
{
    memset(m, 0, sizeof *m);
    m->val_size = val_size;
    m->rng = 0x9e3779b9u;
}

void hv_imap_free(struct hv_imap *m)
{
    free(m->nodes);
    free(m->vals);
    hv_imap_init(m, m->val_size);
}

void hv_imap_clear(struct hv_imap *m)
{
    /* Keep the pool; just forget every node. */
    m->used = m->cap ? 1 : 0;
    m->free_list = NIL;
    m->root = NIL;
    m->count = 0;
}

static inline void *val_of(const struct hv_imap *m, uint32_t i)
{
    return m->vals + (size_t)i * m->val_size;
}

static uint32_t next_prio(struct hv_imap *m)
{
    /* xorshift32: priorities only need to be unpredictable w.r.t. keys. */
    uint32_t x = m->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    m->rng = x;
    return x;
}

/* The pool is full: double it (nodes[0] stays the nil sentinel). Returns -1
 * out of memory. Out of line: node_new's common case takes no frame. */
static __attribute__((noinline)) int pool_grow(struct hv_imap *m)
{
    if (m->used == 0)
        m->used = 1;  /* slot 0 is the nil sentinel */
    if (m->used < m->cap)
        return 0;
    /* Values first, so that every node has one. Values never written read
     * as zeros (callers may look at the old value of a slot they are
     * handed: hv_writer_same_site). */
    int first = m->cap == 0;
    if (!HV_GROW_ZERO(m->vals, ((size_t)m->used + 1) * m->val_size, m->vals_cap, 64 * m->val_size) ||
        !HV_GROW(m->nodes, m->used, m->cap, 64)) {
        m->oom = 1;
        return -1;
    }
    if (first)
        memset(&m->nodes[0], 0, sizeof m->nodes[0]);
    return 0;
}

static inline uint32_t node_new(struct hv_imap *m, uint64_t lo, uint64_t hi)
{
    uint32_t i;
    if (m->free_list != NIL) {
        i = m->free_list;
        m->free_list = m->nodes[i].left;
    } else {
        if ((m->used == 0 || m->used >= m->cap) && pool_grow(m) != 0)
            return NIL;
        i = m->used++;
    }
    struct hv_imap_node *n = &m->nodes[i];
    n->lo = lo;
    n->hi = hi;
    n->left = n->right = NIL;
    n->prio = next_prio(m);
    m->count++;
    return i;
}

static void node_release(struct hv_imap *m, uint32_t i)
{
    m->nodes[i].left = m->free_list;
    m->free_list = i;
    m->count--;
}

/* Releases a whole subtree (the part carved out of the map). */
static void release_tree(struct hv_imap *m, uint32_t t)
{
    while (t != NIL) {
        release_tree(m, m->nodes[t].right);
        uint32_t l = m->nodes[t].left;
        node_release(m, t);
        t = l;
    }
}

/* Splits t into nodes with lo < key (*a) and lo >= key (*b), top down: each
 * node taken hangs where the last one taken into the same side left room. */
static void split(struct hv_imap *m, uint32_t t, uint64_t key, uint32_t *a, uint32_t *b)
{
    uint32_t *l = a, *r = b;
    while (t != NIL) {
        struct hv_imap_node *n = &m->nodes[t];
        if (n->lo < key) {
            *l = t;
            l = &n->right;
            t = n->right;
        } else {
            *r = t;
            r = &n->left;
            t = n->left;
        }
    }
    *l = *r = NIL;
}

/* Joins a and b where every key of a is below every key of b, top down:
 * the root of higher priority goes first, its inner side is merged on. */
static uint32_t merge(struct hv_imap *m, uint32_t a, uint32_t b)
{
    uint32_t root = NIL, *link = &root;
    while (a != NIL && b != NIL) {
        if (m->nodes[a].prio > m->nodes[b].prio) {
            *link = a;
            link = &m->nodes[a].right;
            a = m->nodes[a].right;
        } else {
            *link = b;
            link = &m->nodes[b].left;
            b = m->nodes[b].left;
        }
    }
    *link = a != NIL ? a : b;
    return root;
}


/*
 * Removes [lo, hi) and leaves the map split in two: *left holds every segment
 * ending at or below lo, *right every segment starting at or above hi. A
 * segment straddling lo is trimmed to end at lo; one straddling hi is
 * re-inserted as its part from hi on; one covering both is cut in two.
 * Returns -1 (map intact) when the one allocation that can be needed fails.
 */
static int carve(struct hv_imap *m, uint64_t lo, uint64_t hi, uint32_t *left, uint32_t *right)
{
    uint32_t le, gt, tail = NIL;
    /* The segment that contains hi-1 may extend past hi: its remainder
     * [hi, old_hi) survives with the same value. */
    hv_imap_bracket(m, hi - 1, &le, &gt);
    if (le != NIL && m->nodes[le].hi > hi) {
        uint64_t old_hi = m->nodes[le].hi;
        tail = node_new(m, hi, old_hi);
        if (tail == NIL)
            return -1;
        memcpy(val_of(m, tail), val_of(m, le), m->val_size);
        /* node_new may have moved the pool; le is an index, still valid. */
        m->nodes[le].hi = hi;
    }
    uint32_t a, mid, b;
    split(m, m->root, lo, &a, &mid);
    split(m, mid, hi, &mid, &b);
    /* The segment just below lo (the max of a) may extend into [lo, hi). */
    if (a != NIL) {
        uint32_t t = a;
        while (m->nodes[t].right != NIL)
            t = m->nodes[t].right;
        if (m->nodes[t].hi > lo)
            m->nodes[t].hi = lo;
    }
    release_tree(m, mid);
    *left = a;
    *right = tail != NIL ? merge(m, tail, b) : b;
    m->root = NIL;
    return 0;
}

/* Inserts node n whose range overlaps no segment: down to where its
 * priority belongs, then the subtree there is split around it. */
static void insert_free(struct hv_imap *m, uint32_t n)
{
    uint64_t key = m->nodes[n].lo;
    uint32_t prio = m->nodes[n].prio;
    uint32_t *link = &m->root;
    while (*link != NIL && m->nodes[*link].prio > prio)
        link = key < m->nodes[*link].lo ? &m->nodes[*link].left : &m->nodes[*link].right;
    split(m, *link, key, &m->nodes[n].left, &m->nodes[n].right);
    *link = n;
}

/* Removes the segment that starts at key (keys are unique starts): its
 * children take its place. */
static void remove_at(struct hv_imap *m, uint64_t key)
{
    uint32_t *link = &m->root;
    while (*link != NIL && m->nodes[*link].lo != key)
        link = key < m->nodes[*link].lo ? &m->nodes[*link].left : &m->nodes[*link].right;
    uint32_t t = *link;
    if (t == NIL)
        return;
    *link = merge(m, m->nodes[t].left, m->nodes[t].right);
    node_release(m, t);
}

void *hv_imap_assign(struct hv_imap *m, uint64_t lo, uint64_t hi)
{
    if (lo >= hi)
        return NULL;
    /* Fast paths for a write that starts where a segment starts: the same
     * buffers written every step, now whole, now a prefix (a shorter copy
     * into the same buffer), now longer again. Each moves no key past
     * another, or adds or removes one node without a split of the tree. */
    uint32_t le, gt;
    hv_imap_bracket(m, lo, &le, &gt);
    if (le != NIL && m->nodes[le].lo == lo) {
        uint64_t shi = m->nodes[le].hi;
        /* Exactly an existing segment: no structure changes at all. */
        if (shi == hi)
            return val_of(m, le);
        /* A prefix of one segment: it keeps [lo, hi), its old value goes on
         * in a new segment [hi, shi), which overlaps nothing. */
        if (hi < shi) {
            uint32_t t = node_new(m, hi, shi);
            if (t != NIL) {
                memcpy(val_of(m, t), val_of(m, le), m->val_size);
                m->nodes[le].hi = hi;
                insert_free(m, t);
                return val_of(m, le);
            }
        }
        /* Longer, into unmapped bytes only: the segment grows. */
        else if (gt == NIL || hi <= m->nodes[gt].lo) {
            m->nodes[le].hi = hi;
            return val_of(m, le);
        }
        /* Longer, over the front of the adjacent next segment: that one
         * keeps its tail [hi, its hi), its start moved up (the segment
         * after it starts at or above its hi, so keys stay in order). */
        else if (m->nodes[gt].lo == shi && hi < m->nodes[gt].hi) {
            m->nodes[gt].lo = hi;
            m->nodes[le].hi = hi;
            return val_of(m, le);
        }
        /* Exactly this segment and the adjacent next one: the first grows
         * over the second, which goes. */
        else if (m->nodes[gt].lo == shi && m->nodes[gt].hi == hi) {
            remove_at(m, shi);
            m->nodes[le].hi = hi;
            return val_of(m, le);
        }
    }
    /* Into unmapped bytes only (a buffer written again after its last
     * writer was pruned): one node goes in where its priority belongs,
     * nothing is cut. The treap's shape depends only on its keys and
     * priorities, so this is the tree carve-and-merge would build. */
    else if ((le == NIL || m->nodes[le].hi <= lo) && (gt == NIL || hi <= m->nodes[gt].lo)) {
        uint32_t n = node_new(m, lo, hi);
        if (n == NIL)
            return NULL;
        insert_free(m, n);
        return val_of(m, n);
    }
    uint32_t l, r;
    if (carve(m, lo, hi, &l, &r) != 0)
        return NULL;
    uint32_t n = node_new(m, lo, hi);
    if (n == NIL) {
        m->root = merge(m, l, r);
        return NULL;
    }
    m->root = merge(m, merge(m, l, n), r);
    return val_of(m, n);
}

void hv_imap_erase(struct hv_imap *m, uint64_t lo, uint64_t hi)
{
    if (lo >= hi || m->root == NIL)
        return;
    /* Exactly one segment (a completed writer pruned where the walk met it):
     * it goes, its children take its place. */
    uint32_t le, gt;
    hv_imap_bracket(m, lo, &le, &gt);
    if (le != NIL && m->nodes[le].lo == lo && m->nodes[le].hi == hi) {
        remove_at(m, lo);
        return;
    }
    uint32_t l, r;
    if (carve(m, lo, hi, &l, &r) != 0)
        return;
    m->root = merge(m, l, r);
}
