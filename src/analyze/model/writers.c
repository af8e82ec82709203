/* writers: the last-writer history, one hv_writer per disjoint byte range. */
#include "analyze/model/model.h"

void hv_writer_set(struct hv_model *m, uint64_t lo, uint64_t hi, const struct hv_writer *w)
{
    if (lo >= hi)
        return;
    struct hv_writer *v = hv_imap_assign(&m->writers, lo, hi);
    if (!v) {
        m->oom = 1;
        return;
    }
    *v = *w;
    /* Writer site: the fields findings are grouped by (findings.c). */
    uint64_t h = hv_mix64(w->stream_id ^ ((uint64_t)w->api << 48) ^ ((uint64_t)w->kind << 40) ^
                          ((uint64_t)(uint16_t)w->arg_index << 24));
    h = hv_mix64(h ^ w->src);
    v->site = hv_mix64(h ^ w->dst);
    if (m->sum && hv_imap_count(&m->writers) > m->sum->peak_writer_segments)
        m->sum->peak_writer_segments = hv_imap_count(&m->writers);
}
