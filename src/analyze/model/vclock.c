/* vclock: sorted sparse vector clocks. See vclock.h. */
#include "analyze/model/vclock.h"

#include <stdlib.h>
#include <string.h>

void hv_vc_init(struct hv_vclock *v)
{
    v->e = NULL;
    v->n = v->cap = 0;
}

void hv_vc_free(struct hv_vclock *v)
{
    free(v->e);
    hv_vc_init(v);
}

static int reserve(struct hv_vclock *v, uint32_t n)
{
    if (n <= v->cap)
        return 0;
    uint32_t ncap = v->cap ? v->cap : 4;
    while (ncap < n)
        ncap *= 2;
    struct hv_vc_entry *ne = realloc(v->e, (size_t)ncap * sizeof *ne);
    if (!ne)
        return -1;
    v->e = ne;
    v->cap = ncap;
    return 0;
}

/* Index of the first entry with stream >= s. */
static uint32_t lower(const struct hv_vclock *v, uint32_t s)
{
    uint32_t i = 0;
    while (i < v->n && v->e[i].stream < s)
        i++;
    return i;
}

uint64_t hv_vc_get(const struct hv_vclock *v, uint32_t stream)
{
    uint32_t i = lower(v, stream);
    return (i < v->n && v->e[i].stream == stream) ? v->e[i].seq : 0;
}

int hv_vc_raise(struct hv_vclock *v, uint32_t stream, uint64_t seq)
{
    uint32_t i = lower(v, stream);
    if (i < v->n && v->e[i].stream == stream) {
        if (seq > v->e[i].seq)
            v->e[i].seq = seq;
        return 0;
    }
    if (reserve(v, v->n + 1) != 0)
        return -1;
    memmove(&v->e[i + 1], &v->e[i], (size_t)(v->n - i) * sizeof v->e[0]);
    v->e[i].stream = stream;
    v->e[i].pad = 0;
    v->e[i].seq = seq;
    v->n++;
    return 0;
}

int hv_vc_join(struct hv_vclock *v, const struct hv_vclock *w)
{
    /* Clocks are tiny; raising entry by entry is simpler than a merge and
     * as fast in practice. */
    for (uint32_t i = 0; i < w->n; i++)
        if (hv_vc_raise(v, w->e[i].stream, w->e[i].seq) != 0)
            return -1;
    return 0;
}

int hv_vc_copy(struct hv_vclock *v, const struct hv_vclock *w)
{
    if (reserve(v, w->n) != 0)
        return -1;
    if (w->n)
        memcpy(v->e, w->e, (size_t)w->n * sizeof v->e[0]);
    v->n = w->n;
    return 0;
}
