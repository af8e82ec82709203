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

/* Gives back what the last call handed out. */
static inline void release_all(struct hv_reader *r)
{
    for (uint32_t i = 0; i < r->nrel; i++) {
        const struct hv_rel *e = &r->rel[i];
        /* Inline: the records' chunk usually keeps others held. */
        if (e->slot != HV_RD_SLOT_EVAC && r->slots[e->slot].live > e->n)
            r->slots[e->slot].live -= e->n;
        else
            hv_rd_release(r, e);
    }
    r->nrel = 0;
}

static inline void hand_out(struct hv_reader *r, uint32_t slot, uint32_t n, const struct hv_rec_header *rec)
{
    r->rel[r->nrel++] = (struct hv_rel){ slot, n, rec };
}

/* Key and ord of record h of the sorted suffix, arrival index idx; *run is
 * its thread's running call key before it (per-thread sequences: the
 * recurrence of hv_merge_key, so the keys are the ones the record got when
 * it arrived). */
static inline void sorted_key(const struct hv_reader *r, const struct hv_rec_header *h, uint64_t idx, uint64_t *run,
                              uint64_t *key, uint64_t *ord)
{
    if (!r->merge.on) {
        *key = h->seq;
        *ord = idx;
        return;
    }
    if (h->type == HV_REC_CALL) {
        *run = h->ts_ns > *run ? h->ts_ns : *run;
        *key = *run;
    } else {
        *key = *run ? *run : h->ts_ns;
    }
    *ord = hv_merge_ord(h->tid, idx);
}

/* The sorted suffix's head moves on by one record of `size` bytes. */
static inline void sorted_advance(struct hv_reader *r, uint16_t size)
{
    r->rp += size;
    if (--r->rn && r->rp >= r->rend) {
        const struct hv_slot *s = &r->slots[r->slots[r->rslot].rnext];
        r->rslot = r->slots[r->rslot].rnext;
        r->rp = s->rbeg;
        r->rend = s->rend;
    }
}

static inline int key_less(uint64_t seq, uint64_t ord, uint64_t seq2, uint64_t ord2)
{
    return seq < seq2 || (seq == seq2 && ord < ord2);
}

static inline int win_push(struct hv_reader *r, uint64_t seq, uint64_t ord, const struct hv_rec_header *h,
                           uint32_t slot, uint16_t size)
{
    if (!r->win.count || key_less(r->wmax_seq, r->wmax_ord, seq, ord)) {
        r->wmax_seq = seq;
        r->wmax_ord = ord;
    }
    return hv_reorder_push4(&r->win, seq, ord, h, slot, size, size < hv_rec_fixed_size(h->type));
}

int hv_rd_flush_sorted(struct hv_reader *r)
{
    /* In order, each no smaller than the window's largest: they extend one
     * of its runs, O(1) each. The state stays consistent at every step, so
     * a failure leaves the rest in the suffix. */
    while (r->rn) {
        const struct hv_rec_header *h = (const void *)r->rp;
        uint64_t key, ord, run = r->rrun;
        sorted_key(r, h, r->rhead_idx, &run, &key, &ord);
        if (win_push(r, key, ord, h, r->rslot, h->size) < 0)
            return -1;
        r->rrun = run;
        r->rhead_idx++;
        sorted_advance(r, h->size);
    }
    return 0;
}

/* hv_reader_next without giving back the previous record. */
static int next_one(struct hv_reader *r, const struct hv_rec_header **rec)
{
    for (;;) {
        /* At most HV_READER_WINDOW records held: a run's ring (a power of
         * two) then never doubles past the window for one more entry. */
        if (r->win.count + r->rn >= HV_READER_WINDOW || r->win_bytes > HV_RD_WINDOW_BYTES)
            break;
        if (r->cur_p < r->cur_end) {
            const struct hv_rec_header *h = (const void *)r->cur_p;
            uint16_t size = h->size;
            uint64_t idx = r->ord++, seq = h->seq, ord = idx;
            if (r->merge.on && hv_merge_key(&r->merge, h, idx, &seq, &ord) < 0)
                goto nomem;
            r->cur_p += size;
            r->win_bytes += size;
            r->slots[r->cur].live++;
            if (r->rn) {
                /* Extends the sorted suffix (per-thread sequences: one
                 * thread's, whose keys follow from the records). */
                if (seq >= r->rtail_key && (!r->merge.on || h->tid == r->rtid)) {
                    if (r->cur != r->rtail_slot) {
                        /* The suffix runs on into this chunk from its first record. */
                        r->slots[r->rtail_slot].rnext = r->cur;
                        r->slots[r->cur].rbeg = (const uint8_t *)h;
                        r->slots[r->cur].rend = r->cur_end;
                        r->rtail_slot = r->cur;
                    }
                    r->rn++;
                    r->rtail_key = seq;
                    continue;
                }
                if (hv_rd_flush_sorted(r) < 0)
                    goto nomem;
            } else if (!(r->win.count && key_less(seq, ord, r->wmax_seq, r->wmax_ord)) &&
                       !(r->emitted && key_less(seq, ord, r->last_seq, r->last_ord))) {
                /* No smaller than anything held or delivered: starts a suffix. */
                r->rn = 1;
                r->rslot = r->rtail_slot = r->cur;
                r->rp = (const uint8_t *)h;
                r->rend = r->cur_end;
                r->rtail_key = seq;
                r->rtid = h->tid;
                r->rhead_idx = idx;
                /* After hv_merge_key the thread's call key is the one before
                 * h as sorted_key's recurrence needs it: unchanged by an
                 * auxiliary record, and no smaller than a call's stamp. */
                r->rrun = r->merge.on ? r->merge.thr[r->merge.push_idx].call_key : 0;
                continue;
            }
            if (r->emitted && key_less(seq, ord, r->last_seq, r->last_ord))
                r->st.late_records++;
            if (win_push(r, seq, ord, h, r->cur, size) < 0) {
            nomem:
                hv_rd_error(r, HV_READ_NOMEM, hv_rd_offset(r), "out of memory in the reorder window");
                r->src = HV_SRC_DEAD;
                r->err.records_salvaged = r->st.records;
                return -1;
            }
            continue;
        }
        if (r->src == HV_SRC_MORE) {
            hv_rd_next_chunk(r);
            continue;
        }
        if (r->win.count || r->rn)
            break;
        return finish(r);
    }
    /* Everything in the window is smaller than the sorted suffix. */
    struct hv_ent e;
    if (r->win.count) {
        hv_reorder_pop(&r->win, &e);
    } else {
        const struct hv_rec_header *h = (const void *)r->rp;
        uint16_t size = h->size;
        uint64_t key, ord;
        sorted_key(r, h, r->rhead_idx++, &r->rrun, &key, &ord);
        e = (struct hv_ent){ key, ord, h, r->rslot, size, size < hv_rec_fixed_size(h->type) };
        sorted_advance(r, size);
    }
    hand_out(r, e.slot, 1, e.rec);
    r->win_bytes -= e.bytes;
    r->last_seq = e.seq;
    r->last_ord = e.ord;
    r->emitted = 1;
    r->st.records++;
    *rec = e.flags ? deliverable(r, e.rec) : e.rec;
    /* The record is the reader's own (a decoded chunk or the scratch copy),
     * and delivered once: renumbering it in place costs no copy. */
    if (r->merge.on)
        hv_merge_deliver(&r->merge, (struct hv_rec_header *)(uintptr_t)*rec);
    return 1;
}

/* The derive stage ran out of memory: the records from here on cannot be
 * given as their writer meant them, so reading stops, as for the window. */
static int derive_failed(struct hv_reader *r)
{
    hv_rd_error(r, HV_READ_NOMEM, hv_rd_offset(r), "out of memory deriving argument records");
    r->src = HV_SRC_DEAD;
    r->err.records_salvaged = r->st.records - 1;   /* the record being derived is not delivered */
    return -1;
}

int hv_reader_next(struct hv_reader *r, const struct hv_rec_header **rec)
{
    release_all(r);
    if (r->batch_rc) {
        int rc = r->batch_rc;
        r->batch_rc = 0;
        return rc;
    }
    int rc = next_one(r, rec);
    if (rc == 1 && r->derive.on && hv_derive_record(&r->derive, (struct hv_rec_header *)(uintptr_t)*rec) != 0)
        return derive_failed(r);
    return rc;
}

/* How far ahead of the delivery cursor deliver_run asks for a record. A
 * record is delivered a window after it was decoded (up to HV_READER_WINDOW
 * records, ~7 MiB back): it has left the caches, and the first load of each
 * record was ~40% of the delivery loop's time (perf, the 20 M-record
 * decode-loop trace). A hint 1 KiB ahead measured no gain
 * (docs/trace-format.md, "Throughput"); a page or more ahead read 2-3% less
 * time end to end (4, 8 and 16 KiB alike), so the page's translation (a
 * window is ~1,900 4 KiB pages) is probably part of the miss: a hint that
 * far ahead also starts its page walk early. */
#define HV_RD_DELIVER_AHEAD 8192u

/*
 * Delivers up to cnt records of the sorted suffix from *rp, all in its chunk
 * (before re), into o[]; stops early at a record needing a zero-filled copy.
 * Returns how many. Per-thread sequences: renumbered through *ren, and *run
 * (the thread's running call key) kept up. Functions of their own, so that
 * the loop's state stays in registers.
 */
static inline __attribute__((always_inline)) size_t
deliver_run(struct hv_merge_run *ren, const uint8_t **rp, const uint8_t *re, const struct hv_rec_header **o,
            size_t cnt, uint64_t *run, const int merge)
{
    const uint8_t *p = *rp;
    uint64_t rk = merge ? *run : 0;
    struct hv_merge_run u;
    if (merge)
        u = *ren;
    size_t k = 0;
    for (; k < cnt && p < re; k++) {
        struct hv_rec_header *h = (struct hv_rec_header *)(uintptr_t)p;
        if (p + HV_RD_DELIVER_AHEAD < re)   /* for writing: merging renumbers records in place */
            __builtin_prefetch(p + HV_RD_DELIVER_AHEAD, 1, 3);
        unsigned type = h->type, size = h->size;
        if (size < hv_rec_fixed_size(type))
            break;
        if (merge) {
            if (type == HV_REC_CALL && h->ts_ns > rk)
                rk = h->ts_ns;
            hv_merge_run_deliver(&u, h);
        }
        o[k] = h;
        p += size;
    }
    *rp = p;
    if (merge) {
        *ren = u;
        *run = rk;
    }
    return k;
}

static __attribute__((noinline)) size_t deliver_run_merge(struct hv_merge_run *ren, const uint8_t **rp,
                                                          const uint8_t *re, const struct hv_rec_header **o,
                                                          size_t cnt, uint64_t *run)
{
    return deliver_run(ren, rp, re, o, cnt, run, 1);
}

static __attribute__((noinline)) size_t deliver_run_plain(const uint8_t **rp, const uint8_t *re,
                                                          const struct hv_rec_header **o, size_t cnt)
{
    return deliver_run(NULL, rp, re, o, cnt, NULL, 0);
}

/*
 * The steady state of an in-order trace, in one loop: the window empty, the
 * sorted suffix holding the records, every arrival extending it (per-thread
 * sequences: the suffix's thread), the cursor in the chunk of the suffix's
 * newest record, no record needing a zero-filled copy. It interleaves
 * arrivals and deliveries exactly as next_one does; at anything else it
 * stops, before touching the record, and next_one takes over.
 */
static size_t sorted_batch(struct hv_reader *r, const struct hv_rec_header **recs, size_t max)
{
    if (r->win.count || !r->rn || r->cur != r->rtail_slot || r->nrel == HV_READER_BATCH_MAX)
        return 0;
    const int merge = r->merge.on;
    struct hv_merge_thread *t = NULL;
    if (merge) {
        if (r->merge.push_tid != r->rtid || !r->merge.n)
            return 0;
        t = &r->merge.thr[r->merge.push_idx];
    }
    const uint8_t *cp = r->cur_p, *ce = r->cur_end, *rp = r->rp, *re = r->rend;
    uint32_t rn = r->rn, rslot = r->rslot, tid = r->rtid, from = rslot, nfrom = 0;
    size_t wb = r->win_bytes, n = 0;
    uint64_t tail = r->rtail_key, ck = t ? t->call_key : 0, run = r->rrun, arrived = 0;
    const struct hv_rec_header *last = NULL;
    struct hv_merge_run ren;
    if (merge)
        hv_merge_run_load(&ren, &r->merge, t);
    while (n < max) {
        if (rn >= HV_READER_WINDOW || wb > HV_RD_WINDOW_BYTES) {
            /* No arrival is due until the suffix is back under the window
             * (records, then bytes): the deliveries up to then, in a loop
             * of their own. */
            size_t d = rn >= HV_READER_WINDOW ? rn - (HV_READER_WINDOW - 1) : 1, room = max - n;
            const uint8_t *r0 = rp;
            size_t k = merge ? deliver_run_merge(&ren, &rp, re, recs + n, d < room ? d : room, &run)
                             : deliver_run_plain(&rp, re, recs + n, d < room ? d : room);
            if (!k)
                break;   /* a record needing a zero-filled copy: next_one makes it */
            last = recs[n + k - 1];
            n += k;
            nfrom += (uint32_t)k;
            rn -= (uint32_t)k;
            wb -= (size_t)(rp - r0);
            if (!rn)
                break;   /* the suffix is empty: next_one starts the next one */
            if (rp >= re) {
                /* The suffix goes on in the next chunk; this one's records are handed out. */
                r->rel[r->nrel++] = (struct hv_rel){ from, nfrom, NULL };
                nfrom = 0;
                rslot = from = r->slots[rslot].rnext;
                rp = r->slots[rslot].rbeg;
                re = r->slots[rslot].rend;
                if (r->nrel == HV_READER_BATCH_MAX)
                    break;
            }
            continue;
        }
        if (cp >= ce)
            goto out;
        if (!merge || (ck && ck >= tail)) {
            /* The rest of the chunk in one go, as far as it extends the
             * suffix: with the thread's call key set (and no smaller than
             * the suffix's newest key), every record of the thread does,
             * its key being that running maximum; without per-thread
             * sequences, while seqs do not decrease. That takes the suffix
             * past HV_READER_WINDOW records, and the deliveries above bring
             * it back under: the same records, delivered in the same order
             * and held in the same state whenever a record arrives out of
             * order (arrivals resume, one at a time, only under the window),
             * as arriving one record per delivery. Only bytes are capped as
             * each arrival would be: arrivals stop past HV_RD_WINDOW_BYTES. */
            const uint8_t *c0 = cp, *lim = ce;
            if ((size_t)(ce - cp) > HV_RD_WINDOW_BYTES - wb)
                lim = cp + (HV_RD_WINDOW_BYTES - wb) + 1;
            uint64_t k = 0;
            if (merge) {
                while (cp < lim) {
                    const struct hv_rec_header *h = (const void *)cp;
                    if (h->tid != tid)
                        break;
                    if (h->type == HV_REC_CALL && h->ts_ns > ck)
                        ck = h->ts_ns;
                    cp += h->size;
                    k++;
                }
                if (k)
                    tail = ck;
            } else {
                while (cp < lim) {
                    const struct hv_rec_header *h = (const void *)cp;
                    if (h->seq < tail)
                        break;
                    tail = h->seq;
                    cp += h->size;
                    k++;
                }
            }
            if (!k)
                goto out;
            wb += (size_t)(cp - c0);
            rn += (uint32_t)k;
            arrived += k;
            continue;
        }
        /* One arrival (before the thread's first call). */
        const struct hv_rec_header *h = (const void *)cp;
        if (h->tid != tid)
            goto out;
        uint64_t ts = h->ts_ns, nk = ts > ck ? ts : ck;
        if (h->type == HV_REC_CALL)
            ck = nk;
        uint64_t key = ck ? ck : ts;   /* hv_merge_key's recurrence, for the suffix's one thread */
        if (key < tail)
            goto out;
        tail = key;
        cp += h->size;
        wb += h->size;
        rn++;
        arrived++;
    }
out:
    if (merge)
        hv_merge_run_end(&ren);
    if (nfrom)
        r->rel[r->nrel++] = (struct hv_rel){ from, nfrom, NULL };
    r->slots[r->cur].live += (uint32_t)arrived;
    r->ord += arrived;
    r->cur_p = cp;
    r->win_bytes = wb;
    r->rtail_key = tail;
    if (t)
        t->call_key = ck;
    if (n) {
        /* The last record delivered, for late_records. */
        uint64_t idx = r->rhead_idx + n - 1;
        r->last_seq = merge ? (last->type == HV_REC_CALL || run ? run : last->ts_ns) : last->seq;
        r->last_ord = merge ? hv_merge_ord(tid, idx) : idx;
        r->rhead_idx += n;
        r->emitted = 1;
        r->st.records += n;
    }
    r->rn = rn;
    r->rslot = rslot;
    r->rp = rp;
    r->rend = re;
    r->rrun = run;
    return n;
}

long hv_reader_next_batch(struct hv_reader *r, const struct hv_rec_header **recs, size_t max)
{
    release_all(r);
    if (r->batch_rc) {
        int rc = r->batch_rc;
        r->batch_rc = 0;
        return rc;
    }
    /* 0 would read as the end: at least one record is asked for. */
    max = max < 1 ? 1 : max > HV_READER_BATCH_MAX ? HV_READER_BATCH_MAX : max;
    size_t n = 0;
    while (n < max) {
        n += sorted_batch(r, recs + n, max - n);
        if (n == max || r->nrel == HV_READER_BATCH_MAX)
            break;
        int rc = next_one(r, &recs[n]);
        if (rc != 1) {
            if (!n)
                return rc;
            r->batch_rc = rc;   /* reported by the next call */
            break;
        }
        /* A zero-filled copy lives in the one scratch buffer until the next call. */
        if (recs[n++] == (const void *)r->scratch)
            break;
    }
    /* The derive stage sees the records in the order they are handed out,
     * each once (the reader's own copies, as the merge renumbered them). */
    if (r->derive.on)
        for (size_t i = 0; i < n; i++)
            if (hv_derive_record(&r->derive, (struct hv_rec_header *)(uintptr_t)recs[i]) != 0) {
                int rc = derive_failed(r);
                r->err.records_salvaged = r->st.records - (n - i);
                if (!i)
                    return rc;
                r->batch_rc = rc;   /* reported by the next call, after the i derived ones */
                return (long)i;
            }
    return (long)n;
}

int hv_reader_next_raw(struct hv_reader *r, const struct hv_rec_header **rec)
{
    release_all(r);
    while (r->cur_p >= r->cur_end) {
        if (r->src != HV_SRC_MORE)
            return finish(r);
        hv_rd_next_chunk(r);
    }
    const struct hv_rec_header *h = (const void *)r->cur_p;
    r->cur_p += h->size;
    r->slots[r->cur].live++;
    r->ord++;
    hand_out(r, r->cur, 1, h);
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
    release_all(r);
    hv_rd_pipe_free(r);
    hv_rd_slots_free(r);
    hv_reorder_free(&r->win);
    hv_merge_free(&r->merge);
    hv_derive_free(&r->derive);
    free(r->codec_ctx);
    hv_strtab_free(&r->strings);
    ZSTD_freeDCtx(r->dctx);
    free(r->in);
    if (r->own_f)
        fclose(r->f);
    free(r);
}
