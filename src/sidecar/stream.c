/* Streaming analysis of one process; see sidecar/stream.h. */
#include "sidecar/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/reorder.h"
#include "format/strtab.h"

/* One drain cycle's records, copied out of the rings. */
struct block {
    uint8_t *p;
    size_t used, cap;
};

struct sc_stream {
    struct hv_engine *e;
    struct hv_findings f;
    struct hv_strtab strings;
    struct hv_reorder q;
    struct block blk[2];
    int cur;                  /* block being filled this cycle */
    uint64_t ord;
    uint64_t seen_max;        /* highest seq staged so far */
    uint64_t watermark;       /* highest seq staged by the end of the previous cycle */
    uint64_t last_fed;
    int fed_any;
    sc_new_group_fn on_new;
    void *ctx;
    char label[300];
    struct sc_stream_stats st;
};

static const char *string_cb(void *ctx, uint32_t id) { return hv_strtab_get(ctx, id); }

static void on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new)
{
    struct sc_stream *s = ctx;
    (void)f;
    if (is_new && s->on_new)
        s->on_new(s->ctx, g);
}

struct sc_stream *sc_stream_new(const struct hv_file_header *hdr, const char *label, uint32_t rules_disabled,
                                sc_new_group_fn on_new, void *ctx)
{
    struct sc_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    snprintf(s->label, sizeof s->label, "%s", label);
    hv_findings_init(&s->f);
    s->f.observer = on_finding;
    s->f.observer_ctx = s;
    s->on_new = on_new;
    s->ctx = ctx;
    struct hv_engine_options eo = {.rules_disabled = rules_disabled};
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = &s->strings};
    s->e = hv_engine_new(hdr, s->label, &s->f, &eo, &hooks, NULL);
    if (!s->e) {
        hv_findings_free(&s->f);
        free(s);
        return NULL;
    }
    return s;
}

struct hv_rec_header *sc_stream_stage(struct sc_stream *s, const struct hv_rec_header *rec)
{
    struct block *b = &s->blk[s->cur];
    size_t size = rec->size;
    if (b->used + size > b->cap) {
        /* Nothing points into this block before the cycle ends, so it may move. */
        size_t cap = b->cap ? b->cap * 2 : 256u << 10;
        while (cap < b->used + size)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            s->st.unanalyzed++;
            return NULL;
        }
        b->p = p;
        b->cap = cap;
    }
    struct hv_rec_header *copy = (struct hv_rec_header *)(b->p + b->used);
    memcpy(copy, rec, size);
    b->used += size;
    if (copy->seq > s->seen_max)
        s->seen_max = copy->seq;
    return copy;
}

static void feed(struct sc_stream *s, const struct hv_rec_header *rec)
{
    if (rec->type == HV_REC_STRING && rec->size >= sizeof(struct hv_string)) {
        const struct hv_string *str = (const struct hv_string *)rec;
        if (str->len <= rec->size - sizeof *str)
            hv_strtab_put(&s->strings, str->id, (const char *)(str + 1), str->len);
    }
    if (s->fed_any && rec->seq < s->last_fed)
        s->st.late++;
    else
        s->last_fed = rec->seq;
    s->fed_any = 1;
    hv_engine_feed(s->e, rec);
    s->st.fed++;
}

/* Moves the current block's records into the window; returns how many of
 * them are at or below the watermark (they are fed this cycle). */
static size_t push_block(struct sc_stream *s, uint64_t watermark)
{
    struct block *b = &s->blk[s->cur];
    size_t low = 0;
    for (size_t at = 0; at < b->used;) {
        const struct hv_rec_header *r = (const struct hv_rec_header *)(b->p + at);
        struct hv_ent e = {.seq = r->seq, .ord = s->ord++, .rec = r, .bytes = r->size};
        at += r->size;
        if (hv_reorder_push(&s->q, &e) != 0) {
            s->st.unanalyzed++;
            continue;
        }
        low += r->seq <= watermark;
    }
    return low;
}

void sc_stream_cycle(struct sc_stream *s)
{
    /* Everything still held is from the previous cycle, hence at or below
     * the watermark; popping that many plus the new ones below it yields
     * exactly the records <= watermark, in order. */
    size_t n = s->q.count + push_block(s, s->watermark);
    for (size_t i = 0; i < n && s->q.count; i++) {
        struct hv_ent e;
        hv_reorder_pop(&s->q, &e);
        feed(s, e.rec);
    }
    hv_engine_sync_findings(s->e);
    s->watermark = s->seen_max;
    /* The previous cycle's block is empty of held records now: refill it. */
    s->cur ^= 1;
    s->blk[s->cur].used = 0;
}

void sc_stream_finish(struct sc_stream *s, const struct hv_input_health *in)
{
    push_block(s, 0);
    while (s->q.count) {
        struct hv_ent e;
        hv_reorder_pop(&s->q, &e);
        feed(s, e.rec);
    }
    s->blk[0].used = s->blk[1].used = 0;
    hv_engine_finish(s->e, in);
}

const struct hv_findings *sc_stream_findings(const struct sc_stream *s) { return &s->f; }

void sc_stream_stats(const struct sc_stream *s, struct sc_stream_stats *out) { *out = s->st; }

void sc_stream_free(struct sc_stream *s)
{
    if (!s)
        return;
    hv_engine_free(s->e);
    hv_findings_free(&s->f);
    hv_strtab_free(&s->strings);
    hv_reorder_free(&s->q);
    free(s->blk[0].p);
    free(s->blk[1].p);
    free(s);
}
