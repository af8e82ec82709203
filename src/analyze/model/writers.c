/* writers: the last-writer history, one hv_writer per disjoint byte range. */
#include "analyze/model/model.h"

/* Writer site: the fields findings are grouped by (findings.c). */
uint64_t hv_writer_site(const struct hv_writer *w)
{
    uint64_t h = hv_mix64(w->stream_id ^ ((uint64_t)w->api << 48) ^ ((uint64_t)w->kind << 40) ^
                          ((uint64_t)(uint16_t)w->arg_index << 24));
    h = hv_mix64(h ^ w->src);
    return hv_mix64(h ^ w->dst);
}

void hv_writer_set(struct hv_model *m, uint64_t lo, uint64_t hi, const struct hv_writer *w)
{
    if (lo >= hi)
        return;
    struct hv_writer *v = hv_writer_slot(m, lo, hi);
    if (!v)
        return;
    uint64_t site = hv_writer_same_site(v, w->stream_id, w->api, w->kind, w->arg_index, w->src, w->dst) ? v->site : 0;
    *v = *w;
    hv_writer_done(m, v, site);
}
