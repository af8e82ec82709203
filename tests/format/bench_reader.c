/*
 * Reader throughput (make bench-reader): writes a 20M-record trace shaped
 * like a real one (4 threads' calls drained in ring-sized batches, so the
 * file is only nearly sorted; an epoch record after some calls; few
 * streams and buffers, so it compresses like real traces), then times
 * hv_reader_next (seq order) and hv_reader_next_raw on one core.
 * The analyzer's budget is >= 20 M records/s for everything, reading included.
 *   bench_reader [records]   (the file goes to /tmp and is deleted after)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/trace_writer.h"
#include "gen.h"
#include "hipvis/reader.h"

/* What hv_reader_open picks: one fewer than the CPUs, at least 1 here. */
static unsigned hv_reader_default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
    return n < 1 ? 1 : n > 3 ? 3 : (unsigned)n;
}

#define THREADS 4
#define BATCH 256

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct thread_buf {
    _Alignas(8) uint8_t bytes[BATCH * 2 * sizeof(struct hv_call)];
    size_t len, n;
};

static void drain(struct hv_trace_writer *w, struct thread_buf *t)
{
    for (size_t off = 0; off < t->len; off += ((struct hv_rec_header *)(t->bytes + off))->size)
        hv_trace_writer_add(w, (struct hv_rec_header *)(t->bytes + off));
    t->len = t->n = 0;
}

static const uint16_t apis[] = { HV_API_hipMemcpyAsync, HV_API_hipLaunchKernel, HV_API_hipLaunchKernel,
                                 HV_API_hipMemsetAsync, HV_API_hipGraphLaunch, HV_API_hipStreamSynchronize,
                                 HV_API_hipEventRecord, HV_API_hipStreamWaitEvent };

static uint64_t write_trace(const char *path, uint64_t n, unsigned threads)
{
    struct hv_file_header h;
    struct hv_trace_writer *w;
    hv_gen_header(&h, 1);
    if (hv_trace_writer_open(path, &h, 1, &w) < 0) {
        perror("bench_reader: open");
        exit(1);
    }
    static struct thread_buf tb[THREADS];
    struct hv_gen g;
    hv_gen_init(&g, 1);
    uint64_t made = 0, ts = 1000000;
    for (uint64_t seq = 1; made < n; seq++) {
        unsigned t = (unsigned)(hv_gen_rand(&g) % threads);
        uint64_t r = hv_gen_rand(&g);
        struct hv_call *c = (struct hv_call *)(tb[t].bytes + tb[t].len);
        memset(c, 0, sizeof *c);
        ts += 50 + r % 64;
        c->h = (struct hv_rec_header){ HV_REC_CALL, sizeof *c, 5000 + t, seq, ts };
        c->api = apis[(r >> 8) % (sizeof apis / sizeof apis[0])];
        c->stream_form = HV_STREAM_FORM_EXPLICIT;
        c->device = 0;
        c->stream = 0x5555aaaa0000ull + 0x100 * t;
        c->epoch = seq / 97;
        c->a.copy.dst = 0x7f0000000000ull + ((r >> 16) % 64) * 0x100000;
        c->a.copy.src = 0x7e0000000000ull + ((r >> 24) % 64) * 0x100000;
        c->a.copy.bytes = 4096u << ((r >> 32) % 8);
        c->a.copy.kind = 1;
        c->a.copy.dir = HV_DIR_H2D;
        tb[t].len += sizeof *c;
        tb[t].n++;
        made++;
        if (r % 16 == 0 && made < n) {   /* a sync advanced an epoch */
            struct hv_epoch *e = (struct hv_epoch *)(tb[t].bytes + tb[t].len);
            *e = (struct hv_epoch){ { HV_REC_EPOCH, sizeof *e, 5000 + t, seq, ts }, c->stream, seq / 97 + 1, seq };
            tb[t].len += sizeof *e;
            tb[t].n++;
            made++;
        }
        if (tb[t].n >= BATCH)
            drain(w, &tb[t]);
    }
    for (unsigned t = 0; t < THREADS; t++)
        drain(w, &tb[t]);
    struct hv_file_footer f = { .calls = n, .records_made = made };
    hv_trace_writer_close(w, &f);
    return made;
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads the whole trace; returns records/s of wall time, and in *own the
 * records/s of the calling thread's CPU time (what the analyzer's core
 * spends when decoding runs on workers). */
static double read_trace(const char *path, int raw, unsigned threads, uint64_t want, double *own)
{
    struct hv_reader *r;
    struct hv_read_error err;
    if (hv_reader_open(path, &r, &err) < 0) {
        fprintf(stderr, "bench_reader: %s\n", err.what);
        exit(1);
    }
    hv_reader_set_decode_threads(r, threads);
    const struct hv_rec_header *rec;
    uint64_t n = 0, sum = 0;
    double t0 = now(), c0 = thread_cpu();
    while ((raw ? hv_reader_next_raw(r, &rec) : hv_reader_next(r, &rec)) == 1) {
        sum += rec->seq;   /* touch every record, as a consumer would */
        n++;
    }
    double dt = now() - t0, dc = thread_cpu() - c0;
    struct hv_reader_stats st;
    hv_reader_stats(r, &st);
    hv_reader_close(r);
    if (n != want || st.late_records) {
        fprintf(stderr, "bench_reader: read %llu of %llu records, %llu late\n", (unsigned long long)n,
                (unsigned long long)want, (unsigned long long)st.late_records);
        exit(1);
    }
    (void)sum;
    if (own)
        *own = (double)n / dc;
    return (double)n / dt;
}

/* One shape: write it, then read it in seq order without and with decode
 * workers, and in file order. */
static void run(const char *shape, uint64_t n, unsigned threads)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/hipvis-bench-reader.%d.zst", (int)getpid());
    double t0 = now();
    uint64_t made = write_trace(path, n, threads);
    double wt = now() - t0;
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    unsigned workers = getenv("HV_BENCH_WORKERS") ? (unsigned)atoi(getenv("HV_BENCH_WORKERS"))
                                                  : hv_reader_default_workers();
    double own, seq0 = read_trace(path, 0, 0, made, NULL), raw0 = read_trace(path, 1, 0, made, NULL);
    double seqw = read_trace(path, 0, workers, made, &own);
    if (!getenv("HV_BENCH_KEEP"))
        unlink(path);
    printf("bench-reader: %s: %llu records, %.1f MB file (%.1fx), written at %.1f M records/s\n", shape,
           (unsigned long long)made, (double)size / 1e6, (double)made * 113 / (double)size, (double)made / wt / 1e6);
    printf("  one thread:  hv_reader_next %.1f M records/s, hv_reader_next_raw %.1f M records/s\n",
           seq0 / 1e6, raw0 / 1e6);
    printf("  %u decode worker(s): hv_reader_next %.1f M records/s; the calling thread's own CPU: %.1f M records/s"
           " (%.0f ns/record)\n", workers, seqw / 1e6, own / 1e6, 1e9 / own);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
    run("4 threads, drained in batches of 256", n, THREADS);
    run("1 thread, in order", n, 1);
    printf("bench-reader: budget: >= 20 M records/s for the whole analyzer on one core; one-thread reading is"
           " bound by zstd decompression (about 2 GB/s of records per core)\n");
    return 0;
}
