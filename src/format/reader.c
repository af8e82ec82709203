/*
 * The trace reader's public API (include/hipvis/reader.h): open, the seq-
 * ordered record stream through the reorder window, the raw stream, close.
 *
 * hv_reader_next()'s steady state is one push and one pop per record, both
 * O(1) when the file is in order; nothing is allocated per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/reader_int.h"
#include "format/rec_layout.h"

/* zstd frames we read never need a larger window than the largest chunk. */
#define WINDOW_LOG_MAX 26
_Static_assert((1u << WINDOW_LOG_MAX) >= HV_CHUNK_MAX_BYTES, "window covers a whole chunk");

int hv_reader_open_file(FILE *f, const char *name, struct hv_reader **out, struct hv_read_error *err)
{
    struct hv_read_error spare;
    (void)name;   /* errors carry offsets; the caller names the file */
    if (!err)
        err = &spare;
    memset(err, 0, sizeof *err);
    *out = NULL;
    struct hv_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->in = malloc(HV_RD_IN_INITIAL)) || !(r->dctx = ZSTD_createDCtx())) {
        err->status = HV_READ_NOMEM;
        snprintf(err->what, sizeof err->what, "out of memory opening the reader");
        if (r) {
            free(r->in);
            free(r);
        }
        return -1;
    }
    ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
    r->f = f;
    r->in_cap = HV_RD_IN_INITIAL;
    r->keep_off = HV_RD_KEEP_NONE;
    r->cur = HV_RD_SLOT_NONE;
    r->src = HV_SRC_MORE;
    r->threads = hv_rd_default_threads();
    if (hv_rd_read_header(r) < 0) {
        *err = r->err;
        hv_reader_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

int hv_reader_open(const char *path, struct hv_reader **out, struct hv_read_error *err)
{
    struct hv_read_error spare;
    if (!err)
        err = &spare;
    FILE *f = fopen(path, "rb");
    if (!f) {
        memset(err, 0, sizeof *err);
        *out = NULL;
        err->status = HV_READ_IO;
        snprintf(err->what, sizeof err->what, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* The reader buffers itself; stdio's buffer would only add a copy. */
    setvbuf(f, NULL, _IONBF, 0);
    if (hv_reader_open_file(f, path, out, err) < 0) {
        fclose(f);
        return -1;
    }
    (*out)->own_f = 1;
    return 0;
}

const struct hv_file_header *hv_reader_header(const struct hv_reader *r) { return &r->hdr; }

/* A record of a known fixed layout shorter than its struct (older writer)
 * is delivered as a zero-filled copy, so consumers may read every field. */
static const struct hv_rec_header *deliverable(struct hv_reader *r, const struct hv_rec_header *h)
{
    size_t fixed = hv_rec_fixed_size(h->type);
    if (h->size >= fixed)
        return h;
    _Static_assert(sizeof(struct hv_call) <= sizeof r->scratch, "scratch holds any fixed record");
    memset(r->scratch, 0, fixed);
    memcpy(r->scratch, h, h->size);
    struct hv_rec_header *c = (struct hv_rec_header *)r->scratch;
    c->size = (uint16_t)fixed;
    return c;
}

/* No more records will come: report the end, or the pending problem once
 * (then resume after a corrupt frame, or stay failed). */
static int finish(struct hv_reader *r)
{
    switch (r->src) {
    case HV_SRC_END:
        return 0;
    case HV_SRC_FAILED:
        r->err.records_salvaged = r->st.records;
        r->src = r->err_resumable ? HV_SRC_MORE : HV_SRC_DEAD;
        return -1;
    default:
        return -1;
    }
}

static inline void release_prev(struct hv_reader *r)
{
    if (r->have_prev) {
        uint32_t s = r->prev.slot;
        /* Inline: the record's chunk usually keeps others in the window. */
        if (s == HV_RD_SLOT_EVAC || r->slots[s].live == 1)
            hv_rd_release(r, &r->prev);
        else
            r->slots[s].live--;
        r->have_prev = 0;
    }
}

int hv_reader_next(struct hv_reader *r, const struct hv_rec_header **rec)
{
    release_prev(r);
    for (;;) {
        /* At most HV_READER_WINDOW records held: a run's ring (a power of
         * two) then never doubles past the window for one more entry. */
        if (r->win.count >= HV_READER_WINDOW || r->win_bytes > HV_RD_WINDOW_BYTES)
            break;
        if (r->cur_p < r->cur_end) {
            const struct hv_rec_header *h = (const void *)r->cur_p;
            /* Decided now, while the record is in cache, so delivery need
             * not touch it. */
            uint16_t size = h->size, short_rec = size < hv_rec_fixed_size(h->type);
            uint64_t seq = h->seq, ord = r->ord++;
            r->cur_p += size;
            if (r->merge.on && hv_merge_key(&r->merge, h, &seq, &ord) < 0)
                goto nomem;
            if (r->emitted && (seq < r->last_seq || (seq == r->last_seq && ord < r->last_ord)))
                r->st.late_records++;
            if (hv_reorder_push4(&r->win, seq, ord, h, r->cur, size, short_rec) < 0) {
            nomem:
                hv_rd_error(r, HV_READ_NOMEM, hv_rd_offset(r), "out of memory in the reorder window");
                r->src = HV_SRC_DEAD;
                r->err.records_salvaged = r->st.records;
                return -1;
            }
            r->slots[r->cur].live++;
            r->win_bytes += size;
            continue;
        }
        if (r->src == HV_SRC_MORE) {
            hv_rd_next_chunk(r);
            continue;
        }
        if (r->win.count)
            break;
        return finish(r);
    }
    hv_reorder_pop(&r->win, &r->prev);
    r->have_prev = 1;
    r->win_bytes -= r->prev.bytes;
    r->last_seq = r->prev.seq;
    r->last_ord = r->prev.ord;
    r->emitted = 1;
    r->st.records++;
    *rec = r->prev.flags ? deliverable(r, r->prev.rec) : r->prev.rec;
    /* The record is the reader's own (a decoded chunk or the scratch copy),
     * and delivered once: renumbering it in place costs no copy. */
    if (r->merge.on)
        hv_merge_deliver(&r->merge, (struct hv_rec_header *)(uintptr_t)*rec);
    return 1;
}

int hv_reader_next_raw(struct hv_reader *r, const struct hv_rec_header **rec)
{
    release_prev(r);
    while (r->cur_p >= r->cur_end) {
        if (r->src != HV_SRC_MORE)
            return finish(r);
        hv_rd_next_chunk(r);
    }
    const struct hv_rec_header *h = (const void *)r->cur_p;
    r->cur_p += h->size;
    r->slots[r->cur].live++;
    r->prev = (struct hv_ent){ h->seq, r->ord++, h, r->cur, h->size, 0 };
    r->have_prev = 1;
    r->st.records++;
    *rec = deliverable(r, h);
    return 1;
}

unsigned hv_reader_set_decode_threads(struct hv_reader *r, unsigned n)
{
    /* A running pipeline is not resized. */
    if (!r->pipe) {
        r->threads = n < HV_RD_MAX_THREADS ? n : HV_RD_MAX_THREADS;
        r->pipe_failed = 0;
    }
    return r->threads;
}

const struct hv_read_error *hv_reader_error(const struct hv_reader *r) { return &r->err; }

const struct hv_file_footer *hv_reader_footer(const struct hv_reader *r)
{
    return r->have_footer ? &r->footer : NULL;
}

const char *hv_reader_string(const struct hv_reader *r, uint32_t id) { return hv_strtab_get(&r->strings, id); }

void hv_reader_stats(const struct hv_reader *r, struct hv_reader_stats *out)
{
    *out = r->st;
    out->bytes_read = hv_rd_consumed(r);
    out->seq_gaps = r->merge.gaps;
    out->seq_missing = r->merge.missing;
    out->seq_unresolved = r->merge.unresolved;
}

uint32_t hv_reader_seq_gaps(const struct hv_reader *r, const struct hv_seq_gap **gaps)
{
    *gaps = r->merge.listed;
    return r->merge.nlisted;
}

void hv_reader_close(struct hv_reader *r)
{
    if (!r)
        return;
    release_prev(r);
    hv_rd_pipe_free(r);
    hv_rd_slots_free(r);
    hv_reorder_free(&r->win);
    hv_merge_free(&r->merge);
    free(r->codec_ctx);
    hv_strtab_free(&r->strings);
    ZSTD_freeDCtx(r->dctx);
    free(r->in);
    if (r->own_f)
        fclose(r->f);
    free(r);
}
