/* Helpers shared by the format tests; see tutil.h. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "format/trace_writer.h"
#include "harness.h"
#include "tutil.h"

static char dir[64];

static int rm_one(const char *p, const struct stat *s, int flag, struct FTW *f)
{
    (void)s, (void)flag, (void)f;
    return remove(p);
}

static void rm_dir(void) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

const char *tu_dir(void)
{
    if (!dir[0]) {
        strcpy(dir, "/tmp/hvformat.XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(rm_dir);
    }
    return dir;
}

const char *tu_path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", tu_dir(), name);
    return p;
}

int tu_write_trace(const char *path, const struct hv_reclist *l, size_t n, size_t chunk_bytes, int footer)
{
    struct hv_file_header h;
    struct hv_trace_writer *w;
    hv_gen_header(&h, 4242);
    unlink(path);
    int rc = hv_trace_writer_open(path, &h, 1, &w);
    if (rc < 0)
        return rc;
    hv_trace_writer_set_chunk_bytes(w, chunk_bytes);
    for (size_t i = 0; i < n; i++)
        if ((rc = hv_trace_writer_add(w, hv_reclist_get(l, i))) < 0)
            return rc;
    struct hv_file_footer f = { .calls = 7, .records_made = n + 3, .dropped = { 1, 0, 0, 0, 2 }, .end_ns = 99 };
    return hv_trace_writer_close(w, footer ? &f : NULL);
}

const char *tu_tool(const char *name)
{
    static char buf[1024];
    const char *slash = strrchr(hv_t_dump_path, '/');
    int dir = slash ? (int)(slash - hv_t_dump_path + 1) : 0;
    snprintf(buf, sizeof buf, "%.*s%s", dir, hv_t_dump_path, name);
    return buf;
}

uint8_t *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

int tu_spit(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t k = fwrite(buf, 1, len, f);
    return fclose(f) == 0 && k == len ? 0 : -1;
}

/* The reader does not own a FILE it was given: remember which FILE goes
 * with which reader (tests are single-threaded, with few readers open). */
static struct { struct hv_reader *r; FILE *f; } open_mem[16];

/* fmemopen cannot open a zero-length buffer everywhere: use /dev/null. */
int tu_open_mem(const void *buf, size_t len, struct hv_reader **r, struct hv_read_error *err)
{
    FILE *f = len ? fmemopen((void *)buf, len, "rb") : fopen("/dev/null", "rb");
    if (!f)
        abort();
    if (hv_reader_open_file(f, "mem", r, err) < 0) {
        fclose(f);
        return -1;
    }
    for (size_t i = 0; i < sizeof open_mem / sizeof open_mem[0]; i++) {
        if (!open_mem[i].r) {
            open_mem[i].r = *r;
            open_mem[i].f = f;
            return 0;
        }
    }
    abort();
}

void tu_close(struct hv_reader *r)
{
    hv_reader_close(r);
    for (size_t i = 0; i < sizeof open_mem / sizeof open_mem[0]; i++) {
        if (open_mem[i].r == r) {
            fclose(open_mem[i].f);
            open_mem[i].r = NULL;
        }
    }
}

size_t tu_read_all(struct hv_reader *r, int raw, struct hv_reclist *out, struct hv_read_error *first_err,
                   int *nerr)
{
    size_t n = 0;
    int errs = 0;
    const struct hv_rec_header *rec;
    if (first_err)
        memset(first_err, 0, sizeof *first_err);
    /* Merged order comes one record at a time and in batches of several
     * sizes, by turns: every test then checks that both give the same. */
    static const size_t batch[] = { 0, 1, 5, HV_READER_BATCH_MAX };
    const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
    unsigned turn = 0;
    for (int guard = 0; guard < 1000;) {
        size_t b = batch[turn++ % (sizeof batch / sizeof batch[0])];
        long rc = raw ? hv_reader_next_raw(r, &rec) : b ? hv_reader_next_batch(r, recs, b) : hv_reader_next(r, &rec);
        if (rc > 0) {
            if (raw || !b) {
                rc = 1;
                recs[0] = rec;
            }
            n += (size_t)rc;
            for (long i = 0; out && i < rc; i++)
                hv_reclist_add(out, recs[i]);
            continue;
        }
        if (rc == 0)
            break;
        if (!errs++ && first_err)
            *first_err = *hv_reader_error(r);
        if (hv_reader_error(r)->status != HV_READ_CORRUPT)
            break;
        guard++;
    }
    if (nerr)
        *nerr = errs;
    return n;
}

int tu_frames(const uint8_t *buf, size_t len, struct tu_frame *out, int max)
{
    int n = 0;
    for (size_t off = 0; off < len && n < max; n++) {
        if (len - off < 8)
            return -1;
        uint32_t magic;
        memcpy(&magic, buf + off, 4);
        struct tu_frame *f = &out[n];
        f->off = off;
        f->nrecords = 0;
        if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
            uint32_t size;
            memcpy(&size, buf + off + 4, 4);
            f->end = off + 8 + size;
            f->kind = magic == HV_FRAME_MAGIC_HEADER ? TU_HEADER : magic == HV_FRAME_MAGIC_FOOTER ? TU_FOOTER : TU_OTHER;
        } else {
            size_t c = ZSTD_findFrameCompressedSize(buf + off, len - off);
            if (ZSTD_isError(c))
                return -1;
            f->end = off + c;
            f->kind = TU_DATA;
            unsigned long long cs = ZSTD_getFrameContentSize(buf + off, c);
            if (cs == ZSTD_CONTENTSIZE_ERROR || cs == ZSTD_CONTENTSIZE_UNKNOWN || cs < sizeof(struct hv_chunk_header))
                return -1;
            uint8_t *chunk = malloc(cs);
            size_t d = ZSTD_decompress(chunk, cs, buf + off, c);
            struct hv_chunk_header ch;
            memcpy(&ch, chunk, sizeof ch);
            free(chunk);
            if (ZSTD_isError(d))
                return -1;
            f->nrecords = ch.nrecords;
        }
        if (f->end > len)
            return -1;
        off = f->end;
    }
    return n;
}

void tu_put(struct tu_buf *t, const void *p, size_t n)
{
    if (t->len + n > t->cap) {
        t->cap = t->cap ? t->cap * 2 : 4096;
        while (t->cap < t->len + n)
            t->cap *= 2;
        t->b = realloc(t->b, t->cap);
        if (!t->b)
            abort();
    }
    memcpy(t->b + t->len, p, n);
    t->len += n;
}

void tu_put_skippable(struct tu_buf *t, uint32_t magic, const void *p, uint32_t n)
{
    tu_put(t, &magic, 4);
    tu_put(t, &n, 4);
    tu_put(t, p, n);
}

void tu_put_header(struct tu_buf *t, uint32_t version)
{
    struct hv_file_header h;
    hv_gen_header(&h, 77);
    memcpy(h.magic, HV_FILE_MAGIC, 8);
    h.format_version = version;
    h.header_size = sizeof h;
    tu_put_skippable(t, HV_FRAME_MAGIC_HEADER, &h, sizeof h);
}

void tu_put_frame(struct tu_buf *t, const void *raw, size_t n)
{
    uint8_t *z = malloc(ZSTD_compressBound(n));
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t zn = ZSTD_compress2(c, z, ZSTD_compressBound(n), raw, n);
    if (ZSTD_isError(zn))
        abort();
    tu_put(t, z, zn);
    ZSTD_freeCCtx(c);
    free(z);
}

void tu_put_chunk(struct tu_buf *t, uint32_t magic, uint32_t index, uint64_t nrecords, const void *payload,
                  size_t len)
{
    struct hv_chunk_header ch = { magic, index, nrecords, 0, len };
    uint8_t *raw = malloc(sizeof ch + len);
    memcpy(raw, &ch, sizeof ch);
    memcpy(raw + sizeof ch, payload, len);
    tu_put_frame(t, raw, sizeof ch + len);
    free(raw);
}

void tu_put_records(struct tu_buf *t, uint32_t index, const struct hv_reclist *l, size_t from, size_t to)
{
    size_t a = l->off[from], b = to < l->n ? l->off[to] : l->len;
    tu_put_chunk(t, HV_CHUNK_MAGIC, index, to - from, l->bytes + a, b - a);
}

void tu_put_footer(struct tu_buf *t)
{
    struct hv_file_footer f = { .calls = 1 };
    memcpy(f.magic, HV_FOOTER_MAGIC, 8);
    tu_put_skippable(t, HV_FRAME_MAGIC_FOOTER, &f, sizeof f);
}
