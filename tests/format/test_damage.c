/* Damaged input: truncation at every offset, flipped bytes, malformed
 * chunks and records, foreign files, newer versions. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/frame_int.h"
#include "harness.h"
#include "tutil.h"

#define MAXF 4096

/* What a reader must do with the first `cut` bytes of a trace whose frames
 * are f[0..nf): deliver exactly the records of the complete frames (in file
 * order here: the traces are written sorted), then report a truncation at
 * the start of the cut frame, or end cleanly when the cut is on a boundary. */
static void check_cut(const uint8_t *buf, size_t cut, const struct tu_frame *f, int nf,
                      const struct hv_reclist *l, int raw)
{
    struct hv_reader *r;
    struct hv_read_error err;
    if (cut < f[0].end) {
        CHECKF(tu_open_mem(buf, cut, &r, &err) < 0, "cut %zu: header cut but opened", cut);
        CHECKF(err.status == HV_READ_TRUNCATED && err.offset == 0, "cut %zu: %s at %llu", cut,
               hv_read_status_name(err.status), (unsigned long long)err.offset);
        return;
    }
    uint64_t want = 0;
    size_t frame_start = 0;
    int boundary = 0, footer = 0;
    for (int i = 0; i < nf; i++) {
        if (f[i].end <= cut) {
            want += f[i].nrecords;
            boundary |= f[i].end == cut;
            footer |= f[i].kind == TU_FOOTER;
        } else if (f[i].off < cut) {
            frame_start = f[i].off;
        }
    }
    CHECKF(tu_open_mem(buf, cut, &r, &err) == 0, "cut %zu: %s", cut, err.what);
    hv_reader_set_decode_threads(r, (unsigned)(cut / 2 % 3));   /* 0, 1, 2 workers in turn */
    struct hv_reclist out = { 0 };
    int nerr;
    size_t got = tu_read_all(r, raw, &out, &err, &nerr);
    int ok = got == want;
    for (size_t i = 0; ok && i < got; i++)
        ok = !memcmp(hv_reclist_get(&out, i), hv_reclist_get(l, i), hv_reclist_get(l, i)->size);
    hv_reclist_free(&out);
    int footer_seen = hv_reader_footer(r) != NULL;
    const struct hv_rec_header *rec;
    int again = boundary ? 0 : hv_reader_next(r, &rec);   /* a truncation stays reported */
    tu_close(r);
    CHECKF(ok, "cut %zu: got %zu records, want %llu (or contents differ)", cut, got, (unsigned long long)want);
    CHECKF(footer_seen == footer, "cut %zu: footer %d", cut, footer_seen);
    if (boundary) {
        CHECKF(nerr == 0, "cut %zu on a frame boundary: %s", cut, err.what);
        return;
    }
    CHECKF(nerr == 1 && err.status == HV_READ_TRUNCATED, "cut %zu: %d errors, first %s (%s)", cut, nerr,
           hv_read_status_name(err.status), err.what);
    CHECKF(err.offset == frame_start && err.records_salvaged == want, "cut %zu: offset %llu want %zu, salvaged %llu",
           cut, (unsigned long long)err.offset, frame_start, (unsigned long long)err.records_salvaged);
    CHECK(again == -1 && hv_read_status_name(err.status));
}

/* A small trace of many frames, cut at every single byte offset. */
static void test_truncate_every_offset(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 31, 150);
    const char *path = tu_path("small.zst");
    CHECK(tu_write_trace(path, &l, l.n, 1024, 1) == 0);
    size_t len;
    uint8_t *buf = tu_slurp(path, &len);
    struct tu_frame *f = malloc(MAXF * sizeof *f);
    int nf = tu_frames(buf, len, f, MAXF);
    CHECKF(nf > 10 && f[0].kind == TU_HEADER && f[nf - 1].kind == TU_FOOTER, "%d frames", nf);
    for (size_t cut = 0; cut <= len && !hv_t_failed_now; cut++)
        check_cut(buf, cut, f, nf, &l, cut % 2);
    free(f);
    free(buf);
    hv_reclist_free(&l);
}

/* A large trace cut at random offsets, through files on disk. */
static void test_truncate_random_offsets(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 32, 40000);
    const char *path = tu_path("large.zst");
    CHECK(tu_write_trace(path, &l, l.n, 64 << 10, 1) == 0);
    size_t len;
    uint8_t *buf = tu_slurp(path, &len);
    struct tu_frame *f = malloc(MAXF * sizeof *f);
    int nf = tu_frames(buf, len, f, MAXF);
    CHECK(nf > 20);
    struct hv_gen g;
    hv_gen_init(&g, 5);
    for (int i = 0; i < 120 && !hv_t_failed_now; i++) {
        size_t cut = i < 3 ? f[i].end + 1 : (size_t)(hv_gen_rand(&g) % (len + 1));
        check_cut(buf, cut, f, nf, &l, 0);
    }
    free(f);
    free(buf);
    hv_reclist_free(&l);
}

/* One flipped byte anywhere in a data frame: reported at that frame (or
 * inside it, when the damage made an earlier end look right), never a
 * crash; everything before it is delivered and reading resumes after it. */
static void test_flipped_bytes(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 33, 20000);
    const char *path = tu_path("flip.zst");
    CHECK(tu_write_trace(path, &l, l.n, 32 << 10, 1) == 0);
    size_t len;
    uint8_t *orig = tu_slurp(path, &len), *buf = malloc(len);
    struct tu_frame *f = malloc(MAXF * sizeof *f);
    int nf = tu_frames(orig, len, f, MAXF);
    CHECK(nf > 10);
    struct hv_gen g;
    hv_gen_init(&g, 6);
    for (int i = 0; i < 300 && !hv_t_failed_now; i++) {
        int k = 1 + (int)(hv_gen_rand(&g) % (uint64_t)(nf - 2));   /* a data frame */
        /* The first 20 flips hit frame headers, where damage is subtle. */
        size_t span = i < 20 ? 14 : f[k].end - f[k].off;
        size_t at = f[k].off + hv_gen_rand(&g) % span;
        memcpy(buf, orig, len);
        buf[at] ^= (uint8_t)(1 + hv_gen_rand(&g) % 255);
        uint64_t before = 0;
        for (int j = 0; j < k; j++)
            before += f[j].nrecords;
        struct hv_reader *r;
        struct hv_read_error err;
        int nerr;
        CHECK(tu_open_mem(buf, len, &r, &err) == 0);
        hv_reader_set_decode_threads(r, (unsigned)i % 3);
        size_t got = tu_read_all(r, 0, NULL, &err, &nerr);
        struct hv_reader_stats st;
        hv_reader_stats(r, &st);
        tu_close(r);
        CHECKF(nerr >= 1, "flip at %zu (frame %d) went unnoticed", at, k);
        CHECKF(err.status == HV_READ_CORRUPT || err.status == HV_READ_TRUNCATED, "flip at %zu: %s", at,
               hv_read_status_name(err.status));
        CHECKF(err.offset >= f[k].off && err.offset <= f[k].end, "flip at %zu in frame [%zu,%zu): offset %llu", at,
               f[k].off, f[k].end, (unsigned long long)err.offset);
        CHECKF(err.records_salvaged == before || err.records_salvaged == before + f[k].nrecords,
               "flip at %zu: salvaged %llu, frames before hold %llu", at,
               (unsigned long long)err.records_salvaged, (unsigned long long)before);
        if (err.status == HV_READ_CORRUPT) {
            /* Resynchronised: at most the damaged frame and, on a false
             * magic inside it, the next one are lost. */
            uint64_t floor = l.n - f[k].nrecords - f[k + 1].nrecords;
            CHECKF(got >= floor && got <= l.n, "flip at %zu: %zu records after resync", at, got);
            CHECK(st.corrupt_frames >= 1);
        }
    }
    free(f);
    free(orig);
    free(buf);
    hv_reclist_free(&l);
}

/* ---- malformed chunks, built by hand ---- */

struct bad_case {
    const char *name;
    const char *what;            /* expected in the error text */
    void (*make)(struct tu_buf *t, const struct hv_reclist *l);
    int resync;                  /* the frame's end was unknown: bytes were skipped */
};

static void records_with_type(struct tu_buf *t, const struct hv_reclist *l, size_t at, uint16_t size, uint32_t count,
                              uint16_t type)
{
    /* Records 10..19 with record `at` altered. */
    size_t a = l->off[10], b = l->off[20];
    uint8_t *p = malloc(b - a);
    memcpy(p, l->bytes + a, b - a);
    struct hv_rec_header *h = (void *)(p + (l->off[10 + at] - a));
    if (size != UINT16_MAX)
        h->size = size;
    if (count != UINT32_MAX) {
        h->type = type;
        if (type == HV_REC_KARG_NAMES)
            ((struct hv_karg_names *)h)->count = count;
        else
            ((struct hv_kargs *)h)->count = count;
    }
    tu_put_chunk(t, HV_CHUNK_MAGIC, 1, 10, p, b - a);
    free(p);
}

static void records_with(struct tu_buf *t, const struct hv_reclist *l, size_t at, uint16_t size, uint32_t count)
{
    records_with_type(t, l, at, size, count, HV_REC_KARGS);
}

static void mk_magic(struct tu_buf *t, const struct hv_reclist *l)
{
    size_t a = l->off[10], b = l->off[20];
    tu_put_chunk(t, 0xdeadbeef, 1, 10, l->bytes + a, b - a);
}
static void mk_count(struct tu_buf *t, const struct hv_reclist *l)
{
    size_t a = l->off[10], b = l->off[20];
    tu_put_chunk(t, HV_CHUNK_MAGIC, 1, 11, l->bytes + a, b - a);
}
static void mk_payload(struct tu_buf *t, const struct hv_reclist *l)
{
    size_t a = l->off[10], b = l->off[20];
    struct hv_chunk_header ch = { HV_CHUNK_MAGIC, 1, 10, 0, b - a + 8 };
    uint8_t *raw = malloc(sizeof ch + b - a);
    memcpy(raw, &ch, sizeof ch);
    memcpy(raw + sizeof ch, l->bytes + a, b - a);
    tu_put_frame(t, raw, sizeof ch + b - a);
    free(raw);
}
static void mk_short(struct tu_buf *t, const struct hv_reclist *l)
{
    (void)l;
    uint8_t raw[16] = { 0 };
    tu_put_frame(t, raw, sizeof raw);
}
static void mk_size0(struct tu_buf *t, const struct hv_reclist *l) { records_with(t, l, 3, 0, UINT32_MAX); }
static void mk_size12(struct tu_buf *t, const struct hv_reclist *l) { records_with(t, l, 4, 12, UINT32_MAX); }
static void mk_unaligned(struct tu_buf *t, const struct hv_reclist *l) { records_with(t, l, 5, 36, UINT32_MAX); }
static void mk_overrun(struct tu_buf *t, const struct hv_reclist *l) { records_with(t, l, 9, 65528, UINT32_MAX); }
/* A call record (big enough for a kargs fixed part) made a kargs record
 * whose count runs far past its size. */
/* A call record turned into a `type` record whose count runs past it. */
static void count_past(struct tu_buf *t, const struct hv_reclist *l, uint16_t type)
{
    size_t at = 0;
    while (at < 9 && hv_reclist_get(l, 10 + at)->type != HV_REC_CALL)
        at++;
    records_with_type(t, l, at, UINT16_MAX, 1000, type);
}
static void mk_kargs(struct tu_buf *t, const struct hv_reclist *l) { count_past(t, l, HV_REC_KARGS); }
static void mk_karg_names(struct tu_buf *t, const struct hv_reclist *l) { count_past(t, l, HV_REC_KARG_NAMES); }
static void mk_checksum(struct tu_buf *t, const struct hv_reclist *l)
{
    tu_put_records(t, 1, l, 10, 20);
    t->b[t->len - 1] ^= 0x40;   /* the last byte is the content checksum's */
}
static void mk_garbage(struct tu_buf *t, const struct hv_reclist *l)
{
    (void)l;
    uint8_t junk[100];
    for (int i = 0; i < 100; i++)
        junk[i] = (uint8_t)(i * 7 + 1);
    tu_put(t, junk, sizeof junk);
}
static void mk_zstd_junk(struct tu_buf *t, const struct hv_reclist *l)
{
    (void)l;
    uint8_t junk[64];
    uint32_t m = 0xFD2FB528u;
    memset(junk, 0x11, sizeof junk);
    memcpy(junk, &m, 4);
    tu_put(t, junk, sizeof junk);
}
static void mk_footer_magic(struct tu_buf *t, const struct hv_reclist *l)
{
    (void)l;
    struct hv_file_footer f = { .calls = 1 };
    memcpy(f.magic, "NOTEND\0", 8);
    tu_put_skippable(t, HV_FRAME_MAGIC_FOOTER, &f, sizeof f);
}

/* header, good chunk 0 (records 0..9), BAD, good chunk 2 (20..29), footer:
 * 10 records, one CORRUPT at the bad frame's offset, then 10 more. */
static void test_malformed_chunks(void)
{
    static const struct bad_case cases[] = {
        { "chunk magic", "bad chunk magic", mk_magic, 0 },
        { "record count", "header says 11 records", mk_count, 0 },
        { "payload bytes", "payload bytes", mk_payload, 0 },
        { "short chunk", "shorter than a chunk header", mk_short, 0 },
        { "size 0", "smaller than a record header", mk_size0, 0 },
        { "size 12", "smaller than a record header", mk_size12, 0 },
        { "unaligned", "not a multiple of 8", mk_unaligned, 0 },
        { "overrun", "runs past the end of the chunk", mk_overrun, 0 },
        { "kargs count", "count/len", mk_kargs, 0 },
        { "karg names count", "count/len", mk_karg_names, 0 },
        { "checksum", "checksum", mk_checksum, 1 },
        { "garbage", "no frame starts here", mk_garbage, 1 },
        { "zstd junk", "damaged zstd frame", mk_zstd_junk, 1 },
        { "footer magic", "footer magic", mk_footer_magic, 0 },
    };
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 34, 40);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct tu_buf t = { 0 };
        tu_put_header(&t, HV_FORMAT_VERSION);
        tu_put_records(&t, 0, &l, 0, 10);
        size_t bad = t.len;
        cases[c].make(&t, &l);
        size_t bad_len = t.len - bad;
        tu_put_records(&t, 2, &l, 20, 30);
        tu_put_footer(&t);
        for (int mode = 0; mode < 4; mode++) {
            int raw = mode & 1;
            struct hv_reader *r;
            struct hv_read_error err;
            const struct hv_rec_header *rec;
            CHECK(tu_open_mem(t.b, t.len, &r, &err) == 0);
            hv_reader_set_decode_threads(r, mode < 2 ? 0 : 3);
            int n = 0, rc;
            while ((rc = raw ? hv_reader_next_raw(r, &rec) : hv_reader_next(r, &rec)) == 1)
                n++;
            err = *hv_reader_error(r);
            CHECKF(rc == -1 && n == 10 && err.status == HV_READ_CORRUPT, "%s: rc %d n %d %s", cases[c].name, rc,
                   n, hv_read_status_name(err.status));
            CHECKF(err.offset == bad && err.records_salvaged == 10, "%s: offset %llu want %zu", cases[c].name,
                   (unsigned long long)err.offset, bad);
            CHECKF(strstr(err.what, cases[c].what) != NULL, "%s: \"%s\"", cases[c].name, err.what);
            /* Resumes after the bad frame. */
            while ((rc = raw ? hv_reader_next_raw(r, &rec) : hv_reader_next(r, &rec)) == 1)
                CHECKF(rec->seq == hv_reclist_get(&l, 10 + (size_t)n++)->seq, "%s: after resync", cases[c].name);
            struct hv_reader_stats st;
            hv_reader_stats(r, &st);
            CHECKF(rc == 0 && n == 20, "%s: rc %d, %d records in all", cases[c].name, rc, n);
            CHECKF(hv_reader_footer(r) != NULL, "%s: footer", cases[c].name);
            CHECKF(st.corrupt_frames == 1, "%s", cases[c].name);
            CHECKF(st.skipped_bytes == (cases[c].resync ? bad_len : 0), "%s: skipped %llu of %zu", cases[c].name,
                   (unsigned long long)st.skipped_bytes, bad_len);
            /* Chunk 1 is never accepted: 0 -> 2 is one gap. */
            CHECKF(st.chunk_gaps == 1, "%s: gaps %llu", cases[c].name, (unsigned long long)st.chunk_gaps);
            tu_close(r);
        }
        free(t.b);
    }
    hv_reclist_free(&l);
}

/* Reads everything through hv_reader_next, resuming after each problem, and
 * logs the records (seq) and the problems (offset, what) in order. */
static void read_log(const struct tu_buf *t, unsigned threads, struct tu_buf *log)
{
    struct hv_reader *r;
    CHECK(tu_open_mem(t->b, t->len, &r, NULL) == 0);
    hv_reader_set_decode_threads(r, threads);
    const struct hv_rec_header *rec;
    for (;;) {
        int rc = hv_reader_next(r, &rec);
        if (rc == 1) {
            tu_put(log, &rec->seq, sizeof rec->seq);
            continue;
        }
        if (rc == 0)
            break;
        const struct hv_read_error *e = hv_reader_error(r);
        tu_put(log, &e->offset, sizeof e->offset);
        tu_put(log, e->what, strlen(e->what));
        if (e->status != HV_READ_CORRUPT)
            break;
    }
    tu_close(r);
}

/* A frame that fails in a decode worker is re-read from its first byte, so
 * the input keeps the oldest job's bytes while the next jobs are framed,
 * however the input is compacted meanwhile. Here damaged frames (they
 * decode, but hold no chunk) come in pairs: the second is framed as the
 * first job after the first one's synchronous re-read, among frames large
 * enough to make the input compact often. Workers or not, the same records
 * and the same problems. */
static void test_workers_reread_after_failure(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 36, 400);
    struct tu_buf t = { 0 };
    tu_put_header(&t, HV_FORMAT_VERSION);
    uint64_t x = 88172645463325252ull;
    for (uint32_t i = 0; i < 40; i++) {
        tu_put_records(&t, i, &l, 10 * i, 10 * i + 10);
        for (uint32_t j = 0; j < 2; j++) {
            size_t len = (size_t)(8 + (i * 37 + j * 53) % 150) << 10;
            uint8_t *junk = malloc(len);
            CHECK(junk != NULL);
            for (size_t k = 0; k < len; k++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                junk[k] = (uint8_t)x;
            }
            tu_put_frame(&t, junk, len);
            free(junk);
        }
    }
    tu_put_footer(&t);
    struct tu_buf sync = { 0 }, workers = { 0 };
    read_log(&t, 0, &sync);
    read_log(&t, 3, &workers);
    CHECK(sync.len > 400 * sizeof(uint64_t));
    CHECKF(sync.len == workers.len && !memcmp(sync.b, workers.b, sync.len), "%zu vs %zu bytes of log", sync.len,
           workers.len);
    free(sync.b);
    free(workers.b);
    free(t.b);
    hv_reclist_free(&l);
}

/* Things that are not corruption: unknown skippable frames are skipped, a
 * second header (concatenated traces) is passed over. */
static void test_tolerated_frames(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 35, 30);
    struct tu_buf t = { 0 };
    tu_put_header(&t, HV_FORMAT_VERSION);
    tu_put_records(&t, 0, &l, 0, 10);
    tu_put_skippable(&t, 0x184D2A50u, "future metadata", 15);
    tu_put_header(&t, HV_FORMAT_VERSION);
    tu_put_records(&t, 1, &l, 10, 30);
    struct hv_reader *r;
    int nerr;
    CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
    CHECK(tu_read_all(r, 0, NULL, NULL, &nerr) == 30 && nerr == 0);
    CHECK(hv_reader_footer(r) == NULL);
    tu_close(r);
    /* A skippable frame cut short is a truncation. */
    tu_put_skippable(&t, 0x184D2A51u, "0123456789", 10);
    CHECK(tu_open_mem(t.b, t.len - 3, &r, NULL) == 0);
    struct hv_read_error err;
    CHECK(tu_read_all(r, 0, NULL, &err, &nerr) == 30 && nerr == 1 && err.status == HV_READ_TRUNCATED);
    CHECK(err.offset == t.len - 18);
    tu_close(r);
    free(t.b);
    hv_reclist_free(&l);
}

static void expect_open(const void *buf, size_t len, enum hv_read_status st, const char *what)
{
    struct hv_reader *r = (void *)1;
    struct hv_read_error err;
    CHECKF(tu_open_mem(buf, len, &r, &err) < 0 && r == NULL, "opened");
    CHECKF(err.status == st && err.offset == 0 && err.records_salvaged == 0, "%s (%s)",
           hv_read_status_name(err.status), err.what);
    CHECKF(strstr(err.what, what) != NULL, "\"%s\" lacks \"%s\"", err.what, what);
}

static void test_foreign_and_version(void)
{
    expect_open("hello, world\n", 13, HV_READ_FOREIGN, "expected a hipvis trace");
    uint8_t z[64];
    size_t zn = ZSTD_compress(z, sizeof z, "hello", 5, 1);
    expect_open(z, zn, HV_READ_FOREIGN, "ordinary zstd stream");
    if (hv_t_failed_now)
        return;
    struct tu_buf t = { 0 };
    tu_put_skippable(&t, 0x184D2A50u, "HIPVIS\x01\x00 and more", 18);
    expect_open(t.b, t.len, HV_READ_FOREIGN, "0x184d2a5e");
    t.len = 0;
    tu_put_header(&t, HV_FORMAT_VERSION);
    t.b[8 + 3] = 'X';   /* "HIPXIS" */
    expect_open(t.b, t.len, HV_READ_FOREIGN, "HIPVIS");
    t.len = 0;
    tu_put_header(&t, HV_FORMAT_VERSION + 1);
    expect_open(t.b, t.len, HV_READ_VERSION, "version 3");
    t.len = 0;
    tu_put_header(&t, 0);
    expect_open(t.b, t.len, HV_READ_VERSION, "version 0");
    /* Empty, and a prefix of a valid header: a trace cut short, not foreign. */
    expect_open("", 0, HV_READ_TRUNCATED, "empty");
    t.len = 0;
    tu_put_header(&t, HV_FORMAT_VERSION);
    expect_open(t.b, 2, HV_READ_TRUNCATED, "into the header");
    expect_open(t.b, 100, HV_READ_TRUNCATED, "inside the header");
    /* Header frame size field out of range. */
    uint32_t huge = 1u << 30;
    memcpy(t.b + 4, &huge, 4);
    expect_open(t.b, t.len, HV_READ_CORRUPT, "header frame size");
    free(t.b);
    struct hv_reader *r;
    struct hv_read_error err;
    CHECK(hv_reader_open("/nonexistent/trace.zst", &r, &err) < 0 && err.status == HV_READ_IO);
}

/* A newer writer's header: bigger header_size, extra bytes after it. */
static void test_newer_header_and_header_only(void)
{
    struct hv_file_header h;
    hv_gen_header(&h, 31337);
    memcpy(h.magic, HV_FILE_MAGIC, 8);
    h.format_version = HV_FORMAT_VERSION;
    h.header_size = sizeof h + 16;
    uint8_t payload[sizeof h + 16 + 40];
    memset(payload, 0x5a, sizeof payload);
    memcpy(payload, &h, sizeof h);
    struct tu_buf t = { 0 };
    tu_put_skippable(&t, HV_FRAME_MAGIC_HEADER, payload, sizeof payload);
    struct hv_reader *r;
    const struct hv_rec_header *rec;
    CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
    CHECK(hv_reader_header(r)->pid == 31337 && !strcmp(hv_reader_header(r)->host, "testhost"));
    CHECK(hv_reader_next(r, &rec) == 0 && hv_reader_footer(r) == NULL);
    tu_close(r);
    /* An older writer's shorter header: missing fields read as zero, and
     * unterminated text never runs past its field. */
    t.len = 0;
    memset(h.exe, 'x', sizeof h.exe);
    h.header_size = offsetof(struct hv_file_header, knobs);
    tu_put_skippable(&t, HV_FRAME_MAGIC_HEADER, &h, offsetof(struct hv_file_header, knobs));
    CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
    CHECK(hv_reader_header(r)->knobs[0] == 0 && strlen(hv_reader_header(r)->exe) == sizeof h.exe - 1);
    tu_close(r);
    free(t.b);
}

/* Junk after the footer: reported, but the footer stays available. */
static void test_junk_after_footer(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 36, 20);
    struct tu_buf t = { 0 };
    tu_put_header(&t, HV_FORMAT_VERSION);
    tu_put_records(&t, 0, &l, 0, 20);
    tu_put_footer(&t);
    size_t junk_at = t.len;
    tu_put(&t, "JUNKJUNKJUNK", 12);
    struct hv_reader *r;
    struct hv_read_error err;
    int nerr;
    CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
    CHECK(tu_read_all(r, 0, NULL, &err, &nerr) == 20 && nerr == 1);
    CHECK(err.status == HV_READ_CORRUPT && err.offset == junk_at);
    CHECK(hv_reader_footer(r) != NULL);
    struct hv_reader_stats st;
    hv_reader_stats(r, &st);
    CHECK(st.skipped_bytes == 12 && st.bytes_read == t.len);
    tu_close(r);
    free(t.b);
    hv_reclist_free(&l);
}

/* Issue 18 item 5: a skippable frame in mid-file whose size field claims
 * 4 GB (or more than the file holds) is damage, not the end of the trace:
 * the reader reports it with the byte range it skipped and reads the valid
 * frames after it, footer included. */
static void test_oversized_skippable_resync(void)
{
    static const uint32_t claims[] = { 0xFFFFFFFFu, 300000u };
    for (size_t k = 0; k < sizeof claims / sizeof claims[0]; k++) {
        struct hv_reclist l = { 0 };
        hv_reclist_generate(&l, 37, 3000);
        struct tu_buf t = { 0 };
        tu_put_header(&t, HV_FORMAT_VERSION);
        tu_put_records(&t, 0, &l, 0, 1000);
        size_t bad_at = t.len;
        uint8_t sk[8 + 24];
        hv_put_le32(sk, 0x184D2A50u);
        hv_put_le32(sk + 4, claims[k]);
        memset(sk + 8, 0xAB, 24);
        tu_put(&t, sk, sizeof sk);
        size_t resume_at = t.len;
        tu_put_records(&t, 1, &l, 1000, 2000);
        tu_put_records(&t, 2, &l, 2000, 3000);
        tu_put_footer(&t);
        struct hv_reader *r;
        struct hv_read_error err;
        int nerr;
        CHECK(tu_open_mem(t.b, t.len, &r, NULL) == 0);
        size_t got = tu_read_all(r, 0, NULL, &err, &nerr);
        CHECKF(got == 3000 && nerr == 1, "claim %u: %zu records, %d errors, first: %s at %llu: %s", claims[k], got,
               nerr, hv_read_status_name(err.status), (unsigned long long)err.offset, err.what);
        CHECKF(err.status == HV_READ_CORRUPT && err.offset == bad_at && err.records_salvaged == 1000, "%s at %llu",
               hv_read_status_name(err.status), (unsigned long long)err.offset);
        char range[96];
        snprintf(range, sizeof range, "bytes %zu..%zu skipped, reading resumes at byte %zu", bad_at, resume_at - 1,
                 resume_at);
        CHECKF(strstr(err.what, range) != NULL, "\"%s\" lacks \"%s\"", err.what, range);
        CHECK(hv_reader_footer(r) != NULL);
        struct hv_reader_stats st;
        hv_reader_stats(r, &st);
        CHECK(st.corrupt_frames == 1 && st.skipped_bytes == resume_at - bad_at && st.chunk_gaps == 0);
        tu_close(r);
        /* The analyzer reads on past the damage too. */
        const char *path = tu_path("oversized.zst");
        CHECK(tu_spit(path, t.b, t.len) == 0);
        char cmd[2048];
        const char *an = tu_tool("hipvis-analyze");
        snprintf(cmd, sizeof cmd, "%s --json --fail-on none %s 2>/dev/null | grep -c '\"records\":3000,'", an, path);
        FILE *p = popen(cmd, "r");
        CHECK(p);
        int hits = 0;
        CHECK(fscanf(p, "%d", &hits) == 1);
        pclose(p);
        CHECKF(hits == 1, "the analyzer did not analyze the 3000 records");
        free(t.b);
        hv_reclist_free(&l);
    }
}

void hv_tests_damage(void)
{
    RUN(test_oversized_skippable_resync);
    RUN(test_truncate_every_offset);
    RUN(test_truncate_random_offsets);
    RUN(test_flipped_bytes);
    RUN(test_malformed_chunks);
    RUN(test_tolerated_frames);
    RUN(test_workers_reread_after_failure);
    RUN(test_foreign_and_version);
    RUN(test_newer_header_and_header_only);
    RUN(test_junk_after_footer);
}
