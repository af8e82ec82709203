/* Reorder window: sorted runs plus a fallback heap; see reorder.h. */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "format/reorder.h"
#include "common/grow.h"

static inline int ent_less(const struct hv_ent *a, const struct hv_ent *b)
{
    return a->seq < b->seq || (a->seq == b->seq && a->ord < b->ord);
}

static struct hv_ent *run_tail(struct hv_run *r) { return &r->v[(r->head + r->n - 1) & (r->cap - 1)]; }

/* Doubles a run's ring, unwrapping it so head is 0 again. */
static int run_grow(struct hv_run *r)
{
    uint32_t cap = r->cap ? r->cap * 2 : 1024;
    if (cap == 0)
        return -1;
    struct hv_ent *v = malloc((size_t)cap * sizeof *v);
    if (!v)
        return -1;
    for (uint32_t i = 0; i < r->n; i++)
        v[i] = r->v[(r->head + i) & (r->cap - 1)];
    free(r->v);
    r->v = v;
    r->cap = cap;
    r->head = 0;
    return 0;
}

static int run_append(struct hv_reorder *q, unsigned i, const struct hv_ent *e)
{
    struct hv_run *r = &q->run[i];
    if (r->n == r->cap && run_grow(r) < 0)
        return -1;
    r->v[(r->head + r->n) & (r->cap - 1)] = *e;
    if (r->n++ == 0)
        q->head_key[i] = hv_ent_ikey(e);
    q->nonempty |= 1u << i;
    q->hint = i;
    q->count++;
    return 0;
}

static int heap_push(struct hv_reorder *q, const struct hv_ent *e)
{
    if (!HV_GROW(q->heap, q->heap_n, q->heap_cap, 1024))
        return -1;
    size_t i = q->heap_n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ent_less(e, &q->heap[p]))
            break;
        q->heap[i] = q->heap[p];
        i = p;
    }
    q->heap[i] = *e;
    q->count++;
    return 0;
}

static void heap_pop(struct hv_reorder *q, struct hv_ent *out)
{
    *out = q->heap[0];
    struct hv_ent last = q->heap[--q->heap_n];
    size_t n = q->heap_n, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ent_less(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!ent_less(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n)
        q->heap[i] = last;
    q->count--;
}

int hv_reorder_push_slow(struct hv_reorder *q, const struct hv_ent *e)
{
    /* Best fit: the run whose last key is the largest one <= e's, so runs
     * stay tight and a later, smaller record still finds a home. */
    int best = -1, empty = -1;
    hv_ikey best_key = 0, ek = hv_ent_ikey(e);
    for (unsigned i = 0; i < HV_REORDER_RUNS; i++) {
        struct hv_run *r = &q->run[i];
        if (!r->n) {
            if (empty < 0)
                empty = (int)i;
            continue;
        }
        /* Inverted keys: the tail must not exceed e, i.e. its key is >= e's;
         * the best fit is the smallest such key. */
        hv_ikey t = hv_ent_ikey(run_tail(r));
        if (t >= ek && (best < 0 || t < best_key)) {
            best = (int)i;
            best_key = t;
        }
    }
    if (best < 0)
        best = empty;
    if (best >= 0)
        return run_append(q, (unsigned)best, e);
    return heap_push(q, e);
}

void hv_reorder_pop_slow(struct hv_reorder *q, struct hv_ent *out)
{
    /* Largest inverted key = smallest (seq, ord); empty runs hold 0. */
    unsigned best = 0;
    hv_ikey k = q->head_key[0];
    for (unsigned i = 1; i < HV_REORDER_RUNS; i++) {
        int more = q->head_key[i] > k;
        k = more ? q->head_key[i] : k;
        best = more ? i : best;
    }
    if (q->heap_n && hv_ent_ikey(&q->heap[0]) > k)
        heap_pop(q, out);
    else
        hv_run_pop(q, best, out);
}

void hv_reorder_foreach(struct hv_reorder *q, void (*fn)(struct hv_ent *, void *), void *ctx)
{
    for (unsigned i = 0; i < HV_REORDER_RUNS; i++) {
        struct hv_run *r = &q->run[i];
        for (uint32_t k = 0; k < r->n; k++)
            fn(&r->v[(r->head + k) & (r->cap - 1)], ctx);
    }
    for (size_t k = 0; k < q->heap_n; k++)
        fn(&q->heap[k], ctx);
}

void hv_reorder_free(struct hv_reorder *q)
{
    for (unsigned i = 0; i < HV_REORDER_RUNS; i++)
        free(q->run[i].v);
    free(q->heap);
    memset(q, 0, sizeof *q);
}
