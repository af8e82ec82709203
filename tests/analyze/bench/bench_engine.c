/*
 * bench_engine — the engine alone on a trace file: CPU ns per record spent
 * in hv_engine_feed_batch, the reader's time left out.
 *
 *   bench_engine TRACE
 *
 * Records are read (untimed) into a buffer of BATCH records, then fed to
 * one engine (timed with this thread's CPU clock), batch after batch, so
 * the engine sees the whole trace in order exactly as hipvis-analyze feeds
 * it, without the reader's work in between. A batch (~0.5 MiB) stays in
 * the core's L2, as a record the reader has just decoded is in the
 * analyzer: a batch streamed from memory would charge the engine for it. Used by bench-format next to
 * `trace_tool read` (the reader alone): together they say where the
 * analyzer's per-record budget goes. Prints one line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/engine.h"
#include "hipvis/reader.h"

#define BATCH 4096u

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *string_cb(void *ctx, uint32_t id)
{
    return hv_reader_string(ctx, id);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_engine TRACE\n");
        return 2;
    }
    struct hv_reader *rd;
    struct hv_read_error err;
    if (hv_reader_open(argv[1], &rd, &err) != 0) {
        fprintf(stderr, "bench_engine: %s: %s\n", argv[1], err.what);
        return 2;
    }
    struct hv_findings out;
    hv_findings_init(&out);
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = rd};
    struct hv_engine *e = hv_engine_new(hv_reader_header(rd), argv[1], &out, NULL, &hooks, NULL);
    /* Decode-loop records are ~100 B; a longer run of big ones ends a batch early. */
    size_t cap = (size_t)BATCH * 256u, used = 0;
    unsigned char *buf = malloc(cap);
    const struct hv_rec_header **recs = malloc((BATCH + 1) * sizeof *recs);
    if (!e || !buf || !recs) {
        fprintf(stderr, "bench_engine: out of memory\n");
        return 2;
    }
    hv_engine_records_stable(e);  /* as hipvis-analyze: hv_engine_keep before buf is refilled */
    uint64_t records = 0;
    double engine_s = 0;
    int rc = 1;
    while (rc == 1) {
        uint32_t n = 0;
        used = 0;
        const struct hv_rec_header *rec;
        while (n < BATCH && (rc = hv_reader_next(rd, &rec)) == 1) {
            if (used + rec->size > cap)
                break;
            memcpy(buf + used, rec, rec->size);
            recs[n++] = (const struct hv_rec_header *)(const void *)(buf + used);
            used += (rec->size + 7u) & ~(size_t)7u;
        }
        if (rc == 1 && n < BATCH) {
            /* The buffer is full: feed what it holds, then this record. */
            recs[n] = rec;
            double t0 = thread_cpu_s();
            hv_engine_feed_batch(e, recs, n + 1);
            hv_engine_keep(e);  /* buf and rec are reused next */
            engine_s += thread_cpu_s() - t0;
            records += n + 1u;
            continue;
        }
        double t0 = thread_cpu_s();
        hv_engine_feed_batch(e, recs, n);
        hv_engine_keep(e);
        engine_s += thread_cpu_s() - t0;
        records += n;
    }
    if (rc < 0)
        fprintf(stderr, "bench_engine: %s: read error after %" PRIu64 " records: %s\n", argv[1], records,
                hv_reader_error(rd)->what);
    double t0 = thread_cpu_s();
    hv_engine_finish(e, NULL);
    engine_s += thread_cpu_s() - t0;
    printf("engine alone: %" PRIu64 " records, %.1f ns/record by CPU time (%.3f s, %.2f M records/s), "
           "%zu finding groups\n",
           records, records ? engine_s * 1e9 / (double)records : 0.0, engine_s,
           engine_s > 0 ? (double)records / engine_s / 1e6 : 0.0, out.ngroups);
    hv_engine_free(e);
    hv_findings_free(&out);
    hv_reader_close(rd);
    free(buf);
    free(recs);
    return rc < 0 ? 1 : 0;
}
