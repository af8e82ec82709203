/*
 * The content shadow of the value search: for each byte range, the last
 * write whose content the trace recorded (an H2D copy's payload, a memset's
 * value, a D2D copy of such content) or nothing. Like the model's writer
 * history it is an interval map, so only what is live costs memory;
 * payload bytes are shared blobs, swept (mark and sweep over the map) once
 * they have doubled since the last sweep.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/forensics/value_int.h"
#include "common/grow.h"

#define SWEEP_MIN_BYTES (64u << 20)

void hv_vshadow_init(struct hv_vshadow *s)
{
    memset(s, 0, sizeof *s);
    hv_imap_init(&s->map, sizeof(struct hv_vcontent));
}

void hv_vshadow_free(struct hv_vshadow *s)
{
    for (uint32_t i = 0; i < s->nblobs; i++)
        free(s->blobs[i]);
    free(s->blobs);
    free(s->blob_len);
    hv_imap_free(&s->map);
    memset(s, 0, sizeof *s);
}

/* Frees blobs no segment refers to any more. */
static void sweep(struct hv_vshadow *s)
{
    uint8_t *live = calloc(s->nblobs ? s->nblobs : 1, 1);
    if (!live)
        return;
    struct hv_imap_seg seg;
    for (int ok = hv_imap_seek(&s->map, 0, &seg); ok; ok = hv_imap_seek(&s->map, seg.hi, &seg)) {
        const struct hv_vcontent *c = seg.val;
        if (c->blob != UINT32_MAX && c->blob < s->nblobs)
            live[c->blob] = 1;
        if (seg.hi == UINT64_MAX)
            break;
    }
    for (uint32_t i = 0; i < s->nblobs; i++)
        if (!live[i] && s->blobs[i]) {
            s->bytes -= s->blob_len[i];
            free(s->blobs[i]);
            s->blobs[i] = NULL;
        }
    free(live);
    s->bytes_after_gc = s->bytes;
}

uint32_t hv_vshadow_blob(struct hv_vshadow *s, const uint8_t *b, size_t n)
{
    if (s->bytes > SWEEP_MIN_BYTES && s->bytes > 2 * s->bytes_after_gc)
        sweep(s);
    uint32_t i = 0;
    while (i < s->nblobs && s->blobs[i])   /* reuse a swept slot */
        i++;
    if (i == s->nblobs) {
        if (!HV_GROW2(s->blobs, s->blob_len, s->nblobs, s->capblobs, 64))
            return UINT32_MAX;
        s->nblobs++;
    }
    s->blobs[i] = malloc(n ? n : 1);
    if (!s->blobs[i])
        return UINT32_MAX;
    memcpy(s->blobs[i], b, n);
    s->blob_len[i] = n;
    s->bytes += n;
    return i;
}

const struct hv_vcontent *hv_vshadow_set(struct hv_vshadow *s, uint64_t lo, uint64_t hi, const struct hv_vcontent *c)
{
    if (lo >= hi)
        return NULL;
    if (!c) {
        hv_imap_erase(&s->map, lo, hi);
        return NULL;
    }
    struct hv_vcontent *v = hv_imap_assign(&s->map, lo, hi);
    if (v)
        *v = *c;
    return v;
}

uint8_t hv_vshadow_byte(const struct hv_vshadow *s, const struct hv_vcontent *c, uint64_t a)
{
    if (c->blob == UINT32_MAX) {
        uint32_t k = (uint32_t)((a - c->base) % (c->elem ? c->elem : 1));
        return (uint8_t)(c->pattern >> (8 * k));
    }
    if (c->blob >= s->nblobs || !s->blobs[c->blob] || a - c->base >= s->blob_len[c->blob])
        return 0;
    return s->blobs[c->blob][a - c->base];
}
