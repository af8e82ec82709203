/* Streaming analysis of one process; see sidecar/stream.h. */
#include "sidecar/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "format/derive.h"
#include "format/reorder.h"
#include "format/strtab.h"

/* One drain cycle's records, copied out of the rings. The window refers to
 * them by (block, offset), not by pointer, so a block may grow (move) while
 * it is being filled and records enter the window as they are staged, while
 * still in cache. */
struct block {
    uint8_t *p;
    size_t used, cap;
};

#define HUGE_PAGE (2u << 20)

/* Block memory comes from mmap in 2 MiB units with MADV_HUGEPAGE: it is
 * written once per record at full drain rate, and a first drain of several
 * full rings would otherwise take a page fault every 4 KiB (the dominant
 * start-up cost on a virtual machine). Without THP it is plain pages. */
static int block_reserve(struct block *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : HUGE_PAGE;
    while (cap < need)
        cap *= 2;
    uint8_t *p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    madvise(p, cap, MADV_HUGEPAGE);
    if (b->used)
        memcpy(p, b->p, b->used);
    if (b->p)
        munmap(b->p, b->cap);
    b->p = p;
    b->cap = cap;
    return 0;
}

static void block_free(struct block *b)
{
    if (b->p)
        munmap(b->p, b->cap);
    memset(b, 0, sizeof *b);
}

struct sc_stream {
    struct hv_engine *e;
    /* HIPVIS_RECORD=args processes (HV_HDR_DERIVE): what the reader derives,
     * derived here, on the records in the order the engine gets them. */
    struct hv_derive derive;
    struct hv_findings f;
    struct hv_strtab strings;
    struct hv_reorder q;
    struct block blk[2];
    int cur;                  /* block being filled this cycle */
    uint64_t ord;
    uint64_t seen_max;        /* highest seq staged so far */
    uint64_t watermark;       /* highest seq staged by the end of the previous cycle */
    size_t low;               /* staged this cycle at or below the watermark */
    size_t held_before;       /* window entries left from the previous cycle */
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
                                size_t cycle_bytes, sc_new_group_fn on_new, void *ctx)
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
    s->derive.on = (hdr->flags & HV_HDR_DERIVE) != 0;
    /* Sized for a cycle's usual volume up front: growing while the rings
     * are full is when it hurts. */
    for (int i = 0; i < 2; i++)
        block_reserve(&s->blk[i], cycle_bytes);
    struct hv_engine_options eo = {.rules_disabled = rules_disabled};
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = &s->strings};
    s->e = hv_engine_new(hdr, s->label, &s->f, &eo, &hooks, NULL);
    if (!s->e) {
        sc_stream_free(s);
        return NULL;
    }
    return s;
}

struct hv_rec_header *sc_stream_stage(struct sc_stream *s, const struct hv_rec_header *rec)
{
    struct block *b = &s->blk[s->cur];
    size_t size = rec->size;
    if (block_reserve(b, b->used + size) != 0) {
        s->st.unanalyzed++;
        return NULL;
    }
    struct hv_rec_header *copy = (struct hv_rec_header *)(b->p + b->used);
    memcpy(copy, rec, size);
    struct hv_ent e = {.seq = copy->seq, .ord = s->ord++, .rec = (const void *)(uintptr_t)b->used,
                       .slot = (uint32_t)s->cur, .bytes = (uint32_t)size};
    b->used += size;
    if (hv_reorder_push(&s->q, &e) != 0) {
        s->st.unanalyzed++;
        return copy;
    }
    if (copy->seq > s->seen_max)
        s->seen_max = copy->seq;
    s->low += copy->seq <= s->watermark;
    return copy;
}

static const struct hv_rec_header *resolve(const struct sc_stream *s, const struct hv_ent *e)
{
    return (const struct hv_rec_header *)(s->blk[e->slot].p + (uintptr_t)e->rec);
}

static void feed(struct sc_stream *s, const struct hv_rec_header *rec)
{
    /* The stream's own copy (sc_stream_stage); one the derive stage could
     * not take (out of memory) goes unanalyzed, counted. */
    if (s->derive.on && hv_derive_record(&s->derive, (struct hv_rec_header *)(uintptr_t)rec) != 0) {
        s->st.unanalyzed++;
        return;
    }
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

void sc_stream_cycle(struct sc_stream *s)
{
    /* What the window held before this cycle is from the previous one, hence
     * at or below the watermark; popping that many plus this cycle's records
     * below it yields exactly the records <= watermark, in order. */
    size_t n = s->held_before + s->low;
    for (size_t i = 0; i < n && s->q.count; i++) {
        struct hv_ent e;
        hv_reorder_pop(&s->q, &e);
        feed(s, resolve(s, &e));
    }
    hv_engine_sync_findings(s->e);
    s->watermark = s->seen_max;
    s->low = 0;
    s->held_before = s->q.count;
    /* The previous cycle's block is empty of held records now: refill it. */
    s->cur ^= 1;
    s->blk[s->cur].used = 0;
}

void sc_stream_finish(struct sc_stream *s, const struct hv_input_health *in)
{
    while (s->q.count) {
        struct hv_ent e;
        hv_reorder_pop(&s->q, &e);
        feed(s, resolve(s, &e));
    }
    s->blk[0].used = s->blk[1].used = 0;
    hv_engine_finish(s->e, in);
}

const struct hv_findings *sc_stream_findings(const struct sc_stream *s) { return &s->f; }

void sc_stream_stats(const struct sc_stream *s, struct sc_stream_stats *out)
{
    *out = s->st;
    const struct hv_trace_summary *t = hv_engine_summary(s->e);
    out->launches_undrawn = t->launches_unsampled;
    out->replays = t->replays;
    out->replays_unchecked = t->replays - t->replays_checked;
    out->unknown_layout_nodes = t->unknown_layout_nodes;
    out->inferred_args = t->inferred_args;
}

void sc_stream_free(struct sc_stream *s)
{
    if (!s)
        return;
    if (s->e)
        hv_engine_free(s->e);
    hv_findings_free(&s->f);
    hv_strtab_free(&s->strings);
    hv_reorder_free(&s->q);
    hv_derive_free(&s->derive);
    block_free(&s->blk[0]);
    block_free(&s->blk[1]);
    free(s);
}
