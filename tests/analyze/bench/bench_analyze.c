/*
 * bench_analyze — analyzer throughput and memory vs trace length.
 *
 *   bench_analyze PATH/TO/hipvis-analyze [BIG_RECORDS [SMALL_RECORDS]]
 *
 * Generates a decode-loop-like trace (copies H2D/D2D/D2H, eager launches
 * with kernel args, replays of 4 graph execs of 32 kernel nodes, event
 * record/wait/sync, periodic stream syncs, temp alloc/free) of BIG (default
 * 50 M) and SMALL (default 5 M) records straight to /tmp with the trace
 * writer, runs `hipvis-analyze --stats` on each (a child process, so its
 * peak RSS is its own), deletes the files, and prints records/s and peak
 * RSS side by side. It also feeds the same generator straight into an
 * engine (no zstd, no reader) to show the engine's own rate.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../scenarios.h"
#include "hipvis/reader.h"

#define NEXEC 4
#define NODES 32
#define W_BUF(i) (SC_POOL + 0x40000 + (uint64_t)(i) * 0x1000)  /* weights / kv, read by nodes */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this process: the engine-only figure is a difference of two
 * runs, which wall time on a shared 2-core machine makes too noisy. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void setup(struct tb *t)
{
    sc_setup(t);
    for (int x = 0; x < NEXEC; x++) {
        static struct tb_arg args[NODES][4];
        struct tb_node nodes[NODES];
        for (int n = 0; n < NODES; n++) {
            args[n][0] = (struct tb_arg){.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ};
            args[n][1] = (struct tb_arg){.value = SC_TOKENS, .index = 1, .access = HV_ACCESS_READ};
            args[n][2] = (struct tb_arg){.value = W_BUF(n), .index = 2, .access = HV_ACCESS_READ};
            args[n][3] = (struct tb_arg){.value = SC_OUT + (uint64_t)n * 64, .index = 3,
                                         .access = HV_ACCESS_WRITE};
            nodes[n] = (struct tb_node){.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = args[n],
                                        .nargs = 4};
        }
        tb_instantiate(t, 0x8000 + (uint64_t)x, nodes, NODES, NULL, 0);
    }
}

/* One decode step: ~14 records. */
static void step(struct tb *t, uint64_t i)
{
    sc_busy_step(t, i, 0x8000, NEXEC);
}

static void generate(struct tb *t, uint64_t records)
{
    setup(t);
    for (uint64_t i = 0; t->records < records; i++)
        step(t, i);
}

/* Engine only (`bench_analyze --engine-only N`, run as a fresh process so
 * its peak RSS is its own): generator alone, then generator + engine; the
 * difference in CPU time is the engine's. Prints "rate rss_kb". */
static int engine_only_main(uint64_t records)
{
    struct tb t;
    struct hv_findings out;
    memset(&t, 0, sizeof t);
    t.seq = 1;
    double t0 = cpu_s();
    generate(&t, records);
    double gen = cpu_s() - t0;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 1, NULL);
    t0 = cpu_s();
    generate(&t, records);
    double both = cpu_s() - t0;
    tb_engine_close(&t);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%f %ld\n", both > gen ? (double)t.records / (both - gen) : 0.0, ru.ru_maxrss);
    hv_findings_free(&out);
    return 0;
}

static void engine_only(uint64_t records, double *rate, long *rss_kb)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "/proc/%d/exe --engine-only %" PRIu64, (int)getpid(), records);
    *rate = 0;
    *rss_kb = 0;
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (fscanf(p, "%lf %ld", rate, rss_kb) != 2)
        *rate = 0;
    pclose(p);
}

/* The reader alone (decompress + reorder + deliver), for comparison. */
static double reader_rate(const char *path)
{
    struct hv_reader *rd;
    struct hv_read_error err;
    if (hv_reader_open(path, &rd, &err) != 0)
        return 0;
    const struct hv_rec_header *rec;
    uint64_t n = 0;
    double t0 = now_s();
    while (hv_reader_next(rd, &rec) == 1)
        n++;
    double dt = now_s() - t0;
    hv_reader_close(rd);
    return dt > 0 ? (double)n / dt : 0;
}

struct result {
    double reader_rate;
    uint64_t records;
    double gen_s, file_mb;
    char tool_line[512];
    double engine_rate;
    long engine_rss_kb;
};

static int run_one(const char *tool, uint64_t records, struct result *r)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/hv-bench-analyze.%d.%" PRIu64 ".zst", (int)getpid(), records);
    unlink(path);
    struct tb t;
    double t0 = now_s();
    if (tb_file_open(&t, path, 1, NULL) != 0) {
        fprintf(stderr, "bench_analyze: cannot create %s\n", path);
        return -1;
    }
    generate(&t, records);
    r->records = t.records;
    tb_file_close(&t, 1);
    r->gen_s = now_s() - t0;
    FILE *f = fopen(path, "rb");
    if (f) {
        fseek(f, 0, SEEK_END);
        r->file_mb = (double)ftell(f) / 1e6;
        fclose(f);
    }
    r->reader_rate = reader_rate(path);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --stats --fail-on none '%s' 2>&1 >/dev/null | grep records/s", tool, path);
    FILE *p = popen(cmd, "r");
    r->tool_line[0] = 0;
    if (p) {
        if (!fgets(r->tool_line, sizeof r->tool_line, p))
            r->tool_line[0] = 0;
        pclose(p);
    }
    r->tool_line[strcspn(r->tool_line, "\n")] = 0;
    if (getenv("HV_BENCH_KEEP"))  /* for profiling the analyzer on the same input */
        fprintf(stderr, "bench_analyze: kept %s\n", path);
    else
        unlink(path);
    engine_only(records, &r->engine_rate, &r->engine_rss_kb);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--engine-only") == 0)
        return engine_only_main(strtoull(argv[2], NULL, 0));
    if (argc < 2) {
        fprintf(stderr, "usage: bench_analyze HIPVIS_ANALYZE [BIG [SMALL]]\n");
        return 2;
    }
    uint64_t big = argc > 2 ? strtoull(argv[2], NULL, 0) : 50000000ull;
    uint64_t small = argc > 3 ? strtoull(argv[3], NULL, 0) : 5000000ull;
    struct result rs[2];
    uint64_t sizes[2] = {small, big};
    for (int i = 0; i < 2; i++)
        if (run_one(argv[1], sizes[i], &rs[i]) != 0)
            return 1;
    printf("bench-analyze: decode-loop-like synthetic traces (copies, launches+kargs, replays of 4 execs x 32 "
           "nodes, events, syncs, alloc/free)\n");
    for (int i = 0; i < 2; i++)
        printf("  %10" PRIu64 " records (%.0f MB on disk, generated in %.1f s)\n    %s\n"
               "    reader alone (hv_reader_next loop): %.1f M records/s\n"
               "    engine alone (no zstd/reader, CPU time): %.1f M records/s, peak RSS %.1f MiB\n",
               rs[i].records, rs[i].file_mb, rs[i].gen_s, rs[i].tool_line, rs[i].reader_rate / 1e6,
               rs[i].engine_rate / 1e6, rs[i].engine_rss_kb / 1024.0);
    printf("  memory vs length (peak RSS, small -> big): hipvis-analyze %s -> %s; engine alone %.1f -> %.1f MiB\n",
           strstr(rs[0].tool_line, "RSS") ? strstr(rs[0].tool_line, "RSS") + 4 : "?",
           strstr(rs[1].tool_line, "RSS") ? strstr(rs[1].tool_line, "RSS") + 4 : "?", rs[0].engine_rss_kb / 1024.0,
           rs[1].engine_rss_kb / 1024.0);
    return 0;
}
