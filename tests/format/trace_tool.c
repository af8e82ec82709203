/*
 * TEST-ONLY trace rewriting for the format benchmark (bench_format.sh):
 *
 *   trace_tool rewrite IN OUT VERSION
 *       the same records (file order), written as format VERSION (1 or 2),
 *       footer kept: bytes per record of each encoding on the same trace.
 *   trace_tool tile IN OUT RECORDS
 *       a long decode-loop trace from a real one: the records of IN after its
 *       first 10% (the steady loop) repeated, seq and timestamps shifted so
 *       that each copy follows the previous one, until RECORDS records; the
 *       first 10% (setup: allocations, captures, instantiates) once, first.
 *       Format 2. What `hipvis-analyze` throughput is measured on.
 *   trace_tool read IN
 *       the reader alone: every record through hv_reader_next (merged
 *       order, as the analyzer reads), records/s by thread CPU time and by
 *       wall time; so the benchmark can say how the analyzer's time splits
 *       between reading and analysis.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/trace_writer.h"
#include "hipvis/reader.h"

struct buf {
    uint8_t *b;
    size_t len, cap;
    uint64_t n;
};

static void put(struct buf *b, const struct hv_rec_header *h)
{
    if (b->len + h->size > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1 << 20;
        while (b->cap < b->len + h->size)
            b->cap *= 2;
        b->b = realloc(b->b, b->cap);
        if (!b->b)
            exit(1);
    }
    memcpy(b->b + b->len, h, h->size);
    b->len += h->size;
    b->n++;
}

static int open_out(const char *path, const struct hv_file_header *hdr, unsigned version,
                    struct hv_trace_writer **w)
{
    unlink(path);
    int rc = hv_trace_writer_open_version(path, hdr, 3, version, w);
    if (rc < 0)
        fprintf(stderr, "trace_tool: cannot create %s: %s\n", path, strerror(-rc));
    return rc;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int read_only(const char *path)
{
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    struct hv_reader *r;
    struct hv_read_error err;
    if (hv_reader_open(path, &r, &err) < 0) {
        fprintf(stderr, "trace_tool: %s: %s\n", path, err.what);
        return 1;
    }
    const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
    uint64_t n = 0, sum = 0;
    long rc;
    while ((rc = hv_reader_next_batch(r, recs, HV_READER_BATCH_MAX)) > 0) {
        for (long i = 0; i < rc; i++)
            sum += recs[i]->seq;   /* touch each record, as a consumer would */
        n += (uint64_t)rc;
    }
    hv_reader_close(r);
    double w = clock_s(CLOCK_MONOTONIC) - w0, c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    printf("reader alone: %" PRIu64 " records, %.2f M records/s by CPU time (%.3f s), %.2f M/s by wall time "
           "(%.3f s)%s\n", n, n / c / 1e6, c, n / w / 1e6, w, sum ? "" : " ");
    return rc < 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "read"))
        return read_only(argv[2]);
    if (argc != 5 || (strcmp(argv[1], "rewrite") && strcmp(argv[1], "tile"))) {
        fprintf(stderr, "usage: trace_tool rewrite IN OUT VERSION | tile IN OUT RECORDS | read IN\n");
        return 2;
    }
    struct hv_reader *r;
    struct hv_read_error err;
    if (hv_reader_open(argv[2], &r, &err) < 0) {
        fprintf(stderr, "trace_tool: %s: %s\n", argv[2], err.what);
        return 1;
    }
    struct hv_file_header hdr = *hv_reader_header(r);
    struct buf all = {0};
    const struct hv_rec_header *h;
    int rc;
    int tile = !strcmp(argv[1], "tile");
    while ((rc = tile ? hv_reader_next(r, &h) : hv_reader_next_raw(r, &h)) == 1)
        put(&all, h);
    if (rc < 0) {
        fprintf(stderr, "trace_tool: %s: %s\n", argv[2], hv_reader_error(r)->what);
        return 1;
    }
    struct hv_file_footer foot = {0};
    int have_footer = hv_reader_footer(r) != NULL;
    if (have_footer)
        foot = *hv_reader_footer(r);
    hv_reader_close(r);
    struct hv_trace_writer *w;
    if (!tile) {
        if (open_out(argv[3], &hdr, (unsigned)atoi(argv[4]), &w) < 0)
            return 1;
        for (size_t off = 0; off < all.len; off += ((const struct hv_rec_header *)(all.b + off))->size)
            hv_trace_writer_add(w, (const void *)(all.b + off));
        return hv_trace_writer_close(w, have_footer ? &foot : NULL) < 0;
    }
    uint64_t want = strtoull(argv[4], NULL, 10), made = 0;
    if (open_out(argv[3], &hdr, HV_FORMAT_VERSION, &w) < 0)
        return 1;
    hv_trace_writer_set_async(w);
    /* Setup = the first 10% of records; the loop = the rest. */
    size_t cut = 0;
    for (uint64_t i = 0; i < all.n / 10; i++)
        cut += ((const struct hv_rec_header *)(all.b + cut))->size;
    for (size_t off = 0; off < cut && made < want; made++) {
        const struct hv_rec_header *x = (const void *)(all.b + off);
        hv_trace_writer_add(w, x);
        off += x->size;
    }
    const struct hv_rec_header *first = (const void *)(all.b + cut), *last = NULL;
    for (size_t off = cut; off < all.len; off += ((const struct hv_rec_header *)(all.b + off))->size)
        last = (const void *)(all.b + off);
    if (!last)
        return 1;
    uint64_t dseq = last->seq - first->seq + 1, dts = last->ts_ns - first->ts_ns + 1000;
    _Alignas(8) uint8_t rec[HV_REC_MAX_BYTES];
    for (uint64_t k = 0; made < want; k++) {
        for (size_t off = cut; off < all.len && made < want; made++) {
            const struct hv_rec_header *x = (const void *)(all.b + off);
            memcpy(rec, x, x->size);
            struct hv_rec_header *y = (struct hv_rec_header *)rec;
            if (y->seq)
                y->seq += k * dseq;
            y->ts_ns += k * dts;
            hv_trace_writer_add(w, y);
            off += x->size;
        }
    }
    foot.records_made = foot.records_written = made;
    memset(foot.dropped, 0, sizeof foot.dropped);
    printf("trace_tool: %" PRIu64 " records (setup %" PRIu64 ", loop of %" PRIu64 " repeated)\n", made,
           all.n / 10, all.n - all.n / 10);
    return hv_trace_writer_close(w, &foot) < 0;
}
