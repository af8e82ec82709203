/* Round trips: writer -> file -> reader, byte for byte; the reorder window. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/codec_int.h"
#include "format/reorder.h"
#include "format/trace_writer.h"
#include "harness.h"
#include "tutil.h"

static int same_record(const struct hv_rec_header *a, const struct hv_rec_header *b)
{
    return a->size == b->size && memcmp(a, b, a->size) == 0;
}

/* Every record type, random field values, tens of thousands of records over
 * many chunks: what comes back is exactly what went in, in both modes. */
static void test_roundtrip_every_type(void)
{
    struct hv_reclist in = { 0 }, out = { 0 }, raw = { 0 };
    const size_t n = 40000;
    hv_reclist_generate(&in, 7, n);
    const char *path = tu_path("rt.zst");
    CHECK(tu_write_trace(path, &in, n, 64 << 10, 1) == 0);

    struct hv_reader *r;
    struct hv_read_error err;
    CHECK(hv_reader_open(path, &r, &err) == 0);
    const struct hv_file_header *h = hv_reader_header(r);
    CHECK(h->format_version == HV_FORMAT_VERSION && h->pid == 4242 && !strcmp(h->host, "testhost"));
    /* Written up to the end of its command line, read back whole. */
    static const char argv[] = "gen\0--name=it's \"x\"\0";   /* hv_gen_header's */
    CHECK(h->header_size == hv_rec_padded(offsetof(struct hv_file_header, argv) + sizeof argv - 1) &&
          h->header_size < sizeof *h && !memcmp(h->magic, HV_FILE_MAGIC, 8));
    CHECK(h->argc == 2 && h->argv_bytes == sizeof argv - 1 && !memcmp(h->argv, argv, sizeof argv));
    CHECK(hv_reader_footer(r) == NULL);   /* not reached yet */
    int nerr;
    size_t got = tu_read_all(r, 0, &out, NULL, &nerr);
    CHECKF(got == n && nerr == 0, "got %zu of %zu, %d errors", got, n, nerr);
    unsigned seen_types[256] = { 0 };
    for (size_t i = 0; i < n; i++) {
        CHECKF(same_record(hv_reclist_get(&in, i), hv_reclist_get(&out, i)), "record %zu differs", i);
        seen_types[hv_reclist_get(&out, i)->type & 0xff]++;
    }
    for (unsigned i = 0; i < HV_REC__MAX; i++)
        CHECKF(seen_types[hv_gen_type(i)] > 0, "no record of type %u", hv_gen_type(i));
    /* Strings resolve, every one. */
    for (size_t i = 0; i < n; i++) {
        const struct hv_string *s = (const void *)hv_reclist_get(&in, i);
        if (s->h.type != HV_REC_STRING)
            continue;
        const char *t = hv_reader_string(r, s->id);
        CHECKF(t && strlen(t) == s->len && !memcmp(t, s + 1, s->len), "string %u", s->id);
    }
    CHECK(hv_reader_string(r, 0xfffffff0u) == NULL);
    const struct hv_file_footer *f = hv_reader_footer(r);
    CHECK(f != NULL);
    struct hv_reader_stats st;
    hv_reader_stats(r, &st);
    CHECKF(st.chunks > 20, "only %llu chunks", (unsigned long long)st.chunks);
    CHECK(f->records_written == n && f->chunks == st.chunks && f->calls == 7 && f->dropped[0] == 1 &&
          f->dropped[HV_DROP_FORK_DISCARD] == 2 && f->end_ns == 99);
    CHECK(st.records == n && st.late_records == 0 && st.chunk_gaps == 0 && st.corrupt_frames == 0);
    uint64_t chunks = st.chunks, file_bytes = st.bytes_read;
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (uint64_t)sb.st_size == file_bytes);
    hv_reader_close(r);

    /* File order (--raw) is the write order here, too; with and without
     * decode workers. */
    for (unsigned threads = 0; threads <= 4; threads += 4) {
        CHECK(hv_reader_open(path, &r, &err) == 0);
        CHECK(hv_reader_set_decode_threads(r, threads) == threads);
        CHECK(tu_read_all(r, threads ? 0 : 1, &raw, NULL, &nerr) == n && nerr == 0);
        for (size_t i = 0; i < n; i++)
            CHECKF(same_record(hv_reclist_get(&in, i), hv_reclist_get(&raw, i)), "record %zu differs (%u threads)",
                   i, threads);
        hv_reader_stats(r, &st);
        CHECK(st.chunks == chunks && st.bytes_read == file_bytes);
        hv_reader_close(r);
        hv_reclist_free(&raw);
    }
    hv_reclist_free(&in);
    hv_reclist_free(&out);
    hv_reclist_free(&raw);
}

/* Writes l in the order perm[], reads back and checks the output is the
 * stable sort of that file order by seq (ts_ns holds each record's
 * generation index, so records can be told apart). */
static void check_sorted_back(const struct hv_reclist *l, const size_t *perm, size_t n, uint64_t want_late)
{
    struct hv_reclist file = { 0 }, out = { 0 };
    for (size_t i = 0; i < n; i++)
        hv_reclist_add(&file, hv_reclist_get(l, perm[i]));
    const char *path = tu_path("shuffled.zst");
    CHECK(tu_write_trace(path, &file, n, 16 << 10, 1) == 0);
    struct hv_reader *r;
    CHECK(hv_reader_open(path, &r, NULL) == 0);
    int nerr;
    CHECK(tu_read_all(r, 0, &out, NULL, &nerr) == n && nerr == 0);
    struct hv_reader_stats st;
    hv_reader_stats(r, &st);
    hv_reader_close(r);
    CHECKF(st.late_records == want_late, "late %llu", (unsigned long long)st.late_records);
    if (want_late)
        goto done;
    /* Expected: file positions sorted by (seq, position), via counting on
     * the generated seqs (dense and increasing in generation order). */
    for (size_t i = 1; i < n; i++) {
        const struct hv_rec_header *a = hv_reclist_get(&out, i - 1), *b = hv_reclist_get(&out, i);
        CHECKF(a->seq <= b->seq, "out of order at %zu: %llu > %llu", i, (unsigned long long)a->seq,
               (unsigned long long)b->seq);
    }
    /* Stability: among equal seqs, file order. Map generation index -> file
     * position, then check positions ascend within each seq. */
    size_t *pos = malloc(n * sizeof *pos);
    for (size_t i = 0; i < n; i++)
        pos[hv_reclist_get(&file, i)->ts_ns] = i;
    for (size_t i = 1; i < n; i++) {
        const struct hv_rec_header *a = hv_reclist_get(&out, i - 1), *b = hv_reclist_get(&out, i);
        if (a->seq == b->seq && pos[a->ts_ns] > pos[b->ts_ns]) {
            free(pos);
            CHECKF(0, "equal seq %llu not in file order at %zu", (unsigned long long)a->seq, i);
        }
    }
    free(pos);
    /* And nothing lost or altered: every generated record exactly once. */
    char *seen = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        const struct hv_rec_header *o = hv_reclist_get(&out, i);
        if (o->ts_ns >= n || seen[o->ts_ns] || !same_record(o, hv_reclist_get(l, o->ts_ns))) {
            free(seen);
            CHECKF(0, "record %zu wrong or repeated", i);
        }
        seen[o->ts_ns] = 1;
    }
    free(seen);
done:
    hv_reclist_free(&file);
    hv_reclist_free(&out);
}

/* Records numbered by generation index in ts_ns; about a third share the
 * seq of the call before them. */
static void make_numbered(struct hv_reclist *l, size_t n, uint64_t seed)
{
    struct hv_gen g;
    _Alignas(8) uint8_t buf[HV_GEN_BUF];
    hv_gen_init(&g, seed);
    for (size_t i = 0; i < n; i++) {
        hv_gen_record(&g, hv_gen_rand(&g) % 3 ? HV_REC_CALL : HV_REC_EPOCH, buf);
        ((struct hv_rec_header *)buf)->ts_ns = i;
        hv_reclist_add(l, buf);
    }
}

static void shuffle(struct hv_gen *g, size_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = hv_gen_rand(g) % i, t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* Shuffled within blocks smaller than the window: comes back sorted, equal
 * seqs in file order, nothing late. */
static void test_reorder_shuffled_blocks(void)
{
    const size_t n = 150000, block = HV_READER_WINDOW - 100;
    struct hv_reclist l = { 0 };
    struct hv_gen g;
    hv_gen_init(&g, 11);
    make_numbered(&l, n, 3);
    size_t *perm = malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t b = 0; b < n; b += block)
        shuffle(&g, perm + b, n - b < block ? n - b : block);
    check_sorted_back(&l, perm, n, 0);
    free(perm);
    hv_reclist_free(&l);
}

/* The writer thread's real pattern: per-thread sorted streams drained in
 * batches, round robin. */
static void test_reorder_thread_drains(void)
{
    const size_t n = 120000, nthreads = 5;
    struct hv_reclist l = { 0 };
    struct hv_gen g;
    hv_gen_init(&g, 12);
    make_numbered(&l, n, 4);
    /* Thread of record i: the thread of the call it belongs to. */
    size_t *perm = malloc(n * sizeof *perm), *thr[5], cnt[5] = { 0 }, at[5] = { 0 }, k = 0;
    for (size_t t = 0; t < nthreads; t++)
        thr[t] = malloc(n * sizeof *thr[t]);
    size_t cur = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || hv_reclist_get(&l, i)->seq != hv_reclist_get(&l, i - 1)->seq)
            cur = hv_gen_rand(&g) % nthreads;
        thr[cur][cnt[cur]++] = i;
    }
    while (k < n) {
        for (size_t t = 0; t < nthreads; t++) {
            size_t batch = 1 + hv_gen_rand(&g) % 4000;
            for (; batch && at[t] < cnt[t]; batch--)
                perm[k++] = thr[t][at[t]++];
        }
    }
    check_sorted_back(&l, perm, n, 0);
    for (size_t t = 0; t < nthreads; t++)
        free(thr[t]);
    free(perm);
    hv_reclist_free(&l);
}

/* A record arriving more than a window after its place is still delivered
 * (out of order) and counted late. */
static void test_reorder_late(void)
{
    const size_t n = HV_READER_WINDOW + 5000;
    struct hv_reclist l = { 0 };
    make_numbered(&l, n, 5);
    size_t *perm = malloc(n * sizeof *perm);
    /* Record 10 moves to the very end; its seq is below everything after it. */
    for (size_t i = 0, k = 0; i < n; i++)
        if (i != 10)
            perm[k++] = i;
    perm[n - 1] = 10;
    /* Only late if its seq is strictly below what was already delivered. */
    check_sorted_back(&l, perm, n, 1);
    free(perm);
    hv_reclist_free(&l);
}

/* The window structure itself against a brute-force model, with heavy ties
 * and interleaved pushes and pops (runs, best fit, heap fallback, reuse of
 * emptied runs): every pop must be the exact (seq, ord) minimum. */
static void test_reorder_window_model(void)
{
    struct hv_reorder q = { 0 };
    struct hv_gen g;
    hv_gen_init(&g, 99);
    enum { CAP = 4096 };
    static struct hv_ent model[CAP];
    size_t held = 0;
    uint64_t ord = 0;
    for (int round = 0; round < 300000; round++) {
        unsigned push_pct = held < 1500 ? 60 : 40;
        if (held == 0 || (held < CAP && hv_gen_rand(&g) % 100 < push_pct)) {
            /* Several ascending streams (like per-thread drains), resets and
             * duplicates, so every path of the structure is taken. */
            uint64_t stream = hv_gen_rand(&g) % 11;
            uint64_t seq = (uint64_t)round / 4 + stream * (hv_gen_rand(&g) % 3) * 50 +
                           (hv_gen_rand(&g) % 13 == 0 ? hv_gen_rand(&g) % 3000 : 0);
            struct hv_ent e = { seq, ord++, NULL, 0, 8, 0 };
            CHECK(hv_reorder_push(&q, &e) == 0);
            model[held++] = e;
        } else {
            size_t m = 0;
            for (size_t i = 1; i < held; i++)
                if (model[i].seq < model[m].seq || (model[i].seq == model[m].seq && model[i].ord < model[m].ord))
                    m = i;
            struct hv_ent e;
            hv_reorder_pop(&q, &e);
            CHECKF(e.seq == model[m].seq && e.ord == model[m].ord, "round %d: got (%llu,%llu) want (%llu,%llu)",
                   round, (unsigned long long)e.seq, (unsigned long long)e.ord,
                   (unsigned long long)model[m].seq, (unsigned long long)model[m].ord);
            model[m] = model[--held];
        }
        CHECK(q.count == held);
    }
    hv_reorder_free(&q);
}

/* A known fixed-layout record shorter than its struct (an older writer) is
 * zero-filled; unknown types pass through untouched. */
static void test_short_and_unknown_records(void)
{
    _Alignas(8) uint8_t recs[32 + 40 + 48];
    memset(recs, 0, sizeof recs);
    struct hv_rec_header *a = (void *)recs, *b = (void *)(recs + 32), *c = (void *)(recs + 72);
    *a = (struct hv_rec_header){ HV_REC_CALL, 32, 5, 1, 10 };
    memset(recs + 24, 0xAB, 8);   /* api, stream_form, flags, result */
    *b = (struct hv_rec_header){ 300, 40, 5, 2, 11 };
    memset(recs + 32 + 24, 0xCD, 16);
    *c = (struct hv_rec_header){ 0xfffe, 48, 5, 3, 12 };
    struct tu_buf t = { 0 };
    tu_put_header(&t, HV_FORMAT_VERSION);
    tu_put_chunk(&t, HV_CHUNK_MAGIC, 0, 3, recs, sizeof recs);
    struct hv_reader *r;
    CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
    const struct hv_rec_header *h;
    CHECK(hv_reader_next(r, &h) == 1);
    CHECK(h->type == HV_REC_CALL && h->size == sizeof(struct hv_call) && h->seq == 1);
    const struct hv_call *call = (const void *)h;
    CHECK(call->api == 0xABAB && call->result == (int32_t)0xABABABAB && call->stream == 0 && call->a.raw[7] == 0);
    CHECK(hv_reader_next(r, &h) == 1);
    CHECK(h->type == 300 && h->size == 40 && !memcmp(h, b, 40));
    CHECK(hv_reader_next(r, &h) == 1);
    CHECK(h->type == 0xfffe && h->size == 48 && !memcmp(h, c, 48));
    CHECK(hv_reader_next(r, &h) == 0);
    CHECK(hv_reader_footer(r) == NULL);
    tu_close(r);
    free(t.b);
}

/* A record with a far-future seq stays in the window to the end, pinning its
 * chunk; enough of them force the oldest chunk buffers to be evacuated.
 * Contents are checked after the fact (ASan watches the copies). */
static void test_window_pins_evacuated(void)
{
    const unsigned chunks = 150, per = 17, body = 60000;
    struct hv_file_header hd;
    struct hv_trace_writer *w;
    hv_gen_header(&hd, 1);
    const char *path = tu_path("pins.zst");
    CHECK(hv_trace_writer_open(path, &hd, 1, &w) == 0);
    hv_trace_writer_set_chunk_bytes(w, 1 << 20);
    struct hv_codeobj_chunk *rec = calloc(1, sizeof *rec + body);
    uint64_t seq = 1;
    for (unsigned c = 0; c < chunks; c++) {
        for (unsigned k = 0; k < per; k++) {
            int pinned = k == 0;
            rec->h = (struct hv_rec_header){ HV_REC_CODEOBJ, (uint16_t)(sizeof *rec + body), 1,
                                             pinned ? (1ull << 62) + c : seq++, c };
            rec->len = body;
            memset(rec + 1, (int)(rec->h.seq & 0xff), body);
            CHECK(hv_trace_writer_add(w, &rec->h) == 0);
        }
        hv_trace_writer_flush(w);
    }
    free(rec);
    CHECK(hv_trace_writer_close(w, NULL) == 0);

    struct hv_reader *r;
    CHECK(hv_reader_open(path, &r, NULL) == 0);
    const struct hv_rec_header *h;
    uint64_t n = 0, prev = 0;
    int rc;
    while ((rc = hv_reader_next(r, &h)) == 1) {
        const struct hv_codeobj_chunk *cc = (const void *)h;
        const uint8_t *bytes = (const uint8_t *)(cc + 1);
        CHECKF(h->seq > prev, "record %llu out of order", (unsigned long long)n);
        CHECKF(bytes[0] == (h->seq & 0xff) && bytes[body - 1] == (h->seq & 0xff), "record %llu damaged",
               (unsigned long long)n);
        prev = h->seq;
        n++;
    }
    CHECK(rc == 0 && n == (uint64_t)chunks * per);
    hv_reader_close(r);
    unlink(path);
}

/* Decodes code both ways (baseline and AVX2 builds of the decoder) and says
 * whether they agree: result, reason and records. */
static int codec_isas_agree(const uint8_t *code, size_t n, size_t raw, long *got)
{
    static struct hv_codec_ctx ctx[HV_CODEC_CTX_MAX];
    uint8_t *a = calloc(1, raw + HV_CODEC_SLACK), *b = calloc(1, raw + HV_CODEC_SLACK);
    char wa[200] = "", wb[200] = "";
    uint64_t sa = 0, sb = 0;
    long ra = hv_decode_chunk_isa(HV_CODEC_ISA_BASE, code, n, a, raw, ctx, &sa, wa, sizeof wa);
    long rb = hv_decode_chunk_isa(HV_CODEC_ISA_AVX2, code, n, b, raw, ctx, &sb, wb, sizeof wb);
    int same = rb == -2 || (ra == rb && !strcmp(wa, wb) && (ra < 0 || (sa == sb && !memcmp(a, b, raw))));
    *got = ra;
    free(a);
    free(b);
    return same;
}

/* The two builds of the v2 decoder (SSE2 and AVX2, chosen by CPU) decode
 * the same records and reject damaged code with the same reason. */
static void test_codec_isas_agree(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 11, 3000);
    /* Every record, then (calls) three steady successors: predicted records. */
    size_t cap = 0;
    for (size_t i = 0; i < l.n; i++)
        cap += 4 * hv_reclist_get(&l, i)->size;
    uint8_t *recs = malloc(cap), *p = recs;
    for (size_t i = 0; i < l.n; i++) {
        const struct hv_rec_header *h = hv_reclist_get(&l, i);
        unsigned copies = h->type == HV_REC_CALL ? 4 : 1;
        for (unsigned j = 0; j < copies; j++) {
            memcpy(p, h, h->size);
            struct hv_rec_header *c = (void *)p;
            c->ts_ns += 1000 * j + (j == 3 ? 7 : 0);
            c->seq += j;
            p[h->size - 8] ^= (uint8_t)(j & 1);
            p += h->size;
        }
    }
    size_t raw = (size_t)(p - recs);
    struct hv_encoder e = { 0 };
    uint8_t *code = malloc(hv_codec_bound(raw)), *bad = malloc(hv_codec_bound(raw));
    size_t n = hv_encode_chunk(&e, recs, raw, code);
    CHECK(n > 0 && n < raw);
    long got;
    CHECK(codec_isas_agree(code, n, raw, &got));
    CHECKF(got > (long)l.n, "decoded %ld records", got);
    struct hv_gen g;
    hv_gen_init(&g, 99);
    for (int k = 0; k < 300; k++) {
        memcpy(bad, code, n);
        size_t at = hv_gen_rand(&g) % n;
        bad[at] ^= (uint8_t)(1 + hv_gen_rand(&g) % 255);
        size_t len = k % 5 ? n : at + 1;   /* some cut short as well */
        CHECKF(codec_isas_agree(bad, len, raw, &got), "damage %d at byte %zu", k, at);
    }
    hv_encoder_free(&e);
    free(recs);
    free(code);
    free(bad);
    hv_reclist_free(&l);
}

void hv_tests_roundtrip(void)
{
    RUN(test_roundtrip_every_type);
    RUN(test_codec_isas_agree);
    RUN(test_reorder_window_model);
    RUN(test_reorder_shuffled_blocks);
    RUN(test_reorder_thread_drains);
    RUN(test_reorder_late);
    RUN(test_short_and_unknown_records);
    RUN(test_window_pins_evacuated);
}
