/* vclock: vector clocks as persistent, reference-counted treaps. See vclock.h.
 *
 * Every function that returns a node returns a reference the caller owns
 * (NULL is the empty tree and needs none); arguments are borrowed. */
#include "analyze/model/vclock.h"

#include <stdlib.h>

#include "common/u64map.h"

struct hv_vc_node {
    uint32_t stream;
    uint32_t refs;
    uint64_t seq;
    struct hv_vc_node *l, *r;
};

/* splitmix64's finaliser is a bijection on 64 bits: distinct streams never
 * tie, and consecutive indexes get unrelated priorities. */
static uint64_t prio(uint32_t s) { return hv_mix64(s); }

static struct hv_vc_node *ref(struct hv_vc_node *n)
{
    if (n)
        n->refs++;
    return n;
}

static void unref(struct hv_vc_node *n)
{
    while (n && --n->refs == 0) {
        struct hv_vc_node *r = n->r;
        unref(n->l);
        free(n);
        n = r;   /* the right spine iteratively */
    }
}

/* Takes ownership of l and r; on failure releases them. */
static struct hv_vc_node *node(uint32_t stream, uint64_t seq, struct hv_vc_node *l, struct hv_vc_node *r, int *oom)
{
    struct hv_vc_node *n = malloc(sizeof *n);
    if (!n) {
        *oom = 1;
        unref(l);
        unref(r);
        return NULL;
    }
    n->stream = stream;
    n->refs = 1;
    n->seq = seq;
    n->l = l;
    n->r = r;
    return n;
}

void hv_vc_init(struct hv_vclock *v) { v->root = NULL; }

void hv_vc_free(struct hv_vclock *v)
{
    unref(v->root);
    v->root = NULL;
}

uint64_t hv_vc_get(const struct hv_vclock *v, uint32_t stream)
{
    const struct hv_vc_node *n = v->root;
    while (n && n->stream != stream)
        n = stream < n->stream ? n->l : n->r;
    return n ? n->seq : 0;
}

/* Splits t into keys < k (*lo) and > k (*hi); *mid: t's node for k, or
 * NULL (borrowed: valid while t lives). */
static void split(struct hv_vc_node *t, uint32_t k, struct hv_vc_node **lo, const struct hv_vc_node **mid,
                  struct hv_vc_node **hi, int *oom)
{
    if (!t) {
        *lo = *hi = NULL;
        *mid = NULL;
        return;
    }
    if (t->stream == k) {
        *lo = ref(t->l);
        *hi = ref(t->r);
        *mid = t;
        return;
    }
    if (k < t->stream) {
        struct hv_vc_node *h;
        split(t->l, k, lo, mid, &h, oom);
        if (h == t->l) {           /* nothing of t->l went left: t is kept whole */
            unref(h);
            *hi = ref(t);
        } else {
            *hi = node(t->stream, t->seq, h, ref(t->r), oom);
        }
    } else {
        struct hv_vc_node *l;
        split(t->r, k, &l, mid, hi, oom);
        if (l == t->r) {
            unref(l);
            *lo = ref(t);
        } else {
            *lo = node(t->stream, t->seq, ref(t->l), l, oom);
        }
    }
}

/* max(a, b) entrywise; a subtree both sides share is returned as it is. */
static struct hv_vc_node *unite(struct hv_vc_node *a, struct hv_vc_node *b, int *oom)
{
    if (a == b || !b)
        return ref(a);
    if (!a)
        return ref(b);
    if (prio(b->stream) > prio(a->stream)) {
        struct hv_vc_node *t = a;
        a = b;
        b = t;
    }
    struct hv_vc_node *lo, *hi;
    const struct hv_vc_node *mid;
    split(b, a->stream, &lo, &mid, &hi, oom);
    struct hv_vc_node *l = unite(a->l, lo, oom), *r = unite(a->r, hi, oom);
    uint64_t seq = mid && mid->seq > a->seq ? mid->seq : a->seq;
    unref(lo);
    unref(hi);
    if (l == a->l && r == a->r && seq == a->seq) {
        unref(l);
        unref(r);
        return ref(a);
    }
    return node(a->stream, seq, l, r, oom);
}

/* v := v united with the clock rooted at `w` (v unchanged out of memory). */
static int unite_into(struct hv_vclock *v, struct hv_vc_node *w)
{
    int oom = 0;
    struct hv_vc_node *n = unite(v->root, w, &oom);
    if (oom) {
        unref(n);
        return -1;
    }
    unref(v->root);
    v->root = n;
    return 0;
}

int hv_vc_raise(struct hv_vclock *v, uint32_t stream, uint64_t seq)
{
    if (hv_vc_get(v, stream) >= seq)
        return 0;
    int oom = 0;
    struct hv_vc_node *one = node(stream, seq, NULL, NULL, &oom);
    if (!one)
        return -1;
    int rc = unite_into(v, one);
    unref(one);
    return rc;
}

int hv_vc_join(struct hv_vclock *v, const struct hv_vclock *w) { return unite_into(v, w->root); }

int hv_vc_copy(struct hv_vclock *v, const struct hv_vclock *w)
{
    struct hv_vc_node *n = ref(w->root);
    unref(v->root);
    v->root = n;
    return 0;
}

static uint32_t count(const struct hv_vc_node *n) { return n ? 1 + count(n->l) + count(n->r) : 0; }

uint32_t hv_vc_count(const struct hv_vclock *v) { return count(v->root); }

static void each(const struct hv_vc_node *n, void (*fn)(void *, uint32_t, uint64_t), void *ctx)
{
    for (; n; n = n->r) {
        each(n->l, fn, ctx);
        fn(ctx, n->stream, n->seq);
    }
}

void hv_vc_each(const struct hv_vclock *v, void (*fn)(void *ctx, uint32_t stream, uint64_t seq), void *ctx)
{
    each(v->root, fn, ctx);
}
