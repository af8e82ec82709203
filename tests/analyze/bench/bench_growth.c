/*
 * bench_growth — the analyzer on adversarial shapes (issue 18 item 12):
 * time per record and peak RSS must stay O(n log n) / O(live state).
 *
 *   bench_growth [SCALE_PERCENT [SHAPE]]     (100 = the sizes below)
 *
 * Shapes, each fed straight into one engine (records built in memory by
 * tbuild, no file) in a child process so that its peak RSS is its own:
 *   chain-10k / chain-100k  live streams, each waiting on an event recorded
 *                           on the previous one after a copy (every clock
 *                           names every earlier stream), one device sync;
 *   execs-100k              100k graph execs of one kernel node writing a
 *                           shared buffer, launched on 4 streams, no sync;
 *   graph-1M                one graph of 1M kernel nodes (a chain), launched;
 *   allocs-1M               1M live allocations, one copy into each.
 * Loop timed: generating + feeding every record and hv_engine_finish (wall
 * time; the generator's own cost is included and is a few ns per record),
 * and the child's CPU time (user + system, from wait4). The budget is judged
 * on CPU time: the shapes are single-threaded, so on an idle machine wall ==
 * CPU, while on a shared one the wall time mostly measures the other load.
 * Budget (issue 18): each of chain-100k, execs-100k, graph-1M < 10 s and
 * < 1 GiB on the 2-core development machine. A shape still running after
 * LIMIT_S is killed and reported OVER. execs-100k stays linear because a
 * pending replay is dropped once a newer replay on its stream covers its
 * ranges (model/graphs.c, subsume_pending): each launch is checked against
 * the newest replay of each other stream, not against all 100k; its memory
 * is mostly the finding groups (one per racing pair of execs).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tbuild.h"

#define BUF 0x7f0000000000ull
#define HOST 0x5500000000ull
#define STREAM0 0x10000ull
#define EVENT 0xe0e0ull
#define LIMIT_S 60   /* per shape, wall */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void chain(struct tb *t, uint64_t n)
{
    tb_alloc(t, BUF, n * 256, HV_MEM_DEVICE);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = STREAM0 + i;
        tb_stream_create(t, s, 0);
        if (i)
            tb_stream_wait(t, s, EVENT);
        tb_copy(t, s, BUF + i * 256, HOST, 256, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        tb_event_record(t, EVENT, s);
    }
    tb_device_sync(t);
}

static void execs(struct tb *t, uint64_t n)
{
    static const struct tb_arg args[2] = {
        {.value = BUF, .index = 0, .access = HV_ACCESS_READ},
        {.value = BUF + 4096, .index = 1, .access = HV_ACCESS_WRITE},
    };
    const struct tb_node node = {.type = HV_NODE_KERNEL, .name_id = 1, .args = args, .nargs = 2};
    tb_string(t, 1, "decode_kernel");
    tb_alloc(t, BUF, 1 << 20, HV_MEM_DEVICE);
    for (int s = 0; s < 4; s++)
        tb_stream_create(t, STREAM0 + (uint64_t)s, 0);
    for (uint64_t i = 0; i < n; i++) {
        tb_instantiate(t, 0x9000000 + i, &node, 1, NULL, 0);
        tb_graph_launch(t, 0x9000000 + i, STREAM0 + (i & 3));
    }
}

static void graph(struct tb *t, uint64_t n)
{
    struct tb_node *nodes = calloc(n, sizeof *nodes);
    struct tb_arg *args = calloc(n, sizeof *args);
    if (!nodes || !args)
        exit(1);
    tb_string(t, 1, "layer_kernel");
    tb_alloc(t, BUF, n * 64, HV_MEM_DEVICE);
    for (uint64_t i = 0; i < n; i++) {
        args[i] = (struct tb_arg){.value = BUF + i * 64, .index = 0, .access = HV_ACCESS_WRITE};
        nodes[i] = (struct tb_node){.type = HV_NODE_KERNEL, .name_id = 1, .args = &args[i], .nargs = 1};
    }
    tb_stream_create(t, STREAM0, 0);
    tb_instantiate(t, 0x9000000, nodes, (uint32_t)n, NULL, 0);
    tb_graph_launch(t, 0x9000000, STREAM0);
    tb_stream_sync(t, STREAM0);
    free(nodes);
    free(args);
}

static void allocs(struct tb *t, uint64_t n)
{
    tb_stream_create(t, STREAM0, 0);
    for (uint64_t i = 0; i < n; i++) {
        tb_alloc(t, BUF + i * 4096, 4096, HV_MEM_DEVICE);
        tb_copy(t, STREAM0, BUF + i * 4096, HOST, 512, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    }
    tb_stream_sync(t, STREAM0);
}

struct shape {
    const char *name;
    void (*gen)(struct tb *, uint64_t);
    uint64_t n;
    int budgeted;   /* issue 18's < 10 s, < 1 GiB applies */
};

/* Child: runs one shape, writes records, seconds and findings to fd. */
static void run_child(const struct shape *sh, uint64_t n, int fd)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 1, NULL);
    double t0 = now_s();
    sh->gen(&t, n);
    tb_engine_close(&t);
    double dt = now_s() - t0;
    char line[256];
    int len = snprintf(line, sizeof line, "%" PRIu64 " %.6f %zu\n", t.records, dt, out.ngroups);
    if (write(fd, line, (size_t)len) != len)
        _exit(1);
    hv_findings_free(&out);
    _exit(0);
}

int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) / 100.0 : 1.0;
    const struct shape shapes[] = {
        {"chain-10k", chain, 10000, 0},   {"chain-100k", chain, 100000, 1}, {"execs-100k", execs, 100000, 1},
        {"graph-1M", graph, 1000000, 1}, {"allocs-1M", allocs, 1000000, 0},
    };
    double load[3] = {0};
    if (getloadavg(load, 3) < 0)
        load[0] = -1;
    printf("bench_growth: adversarial shapes, engine only (generate+feed+finish; wall and CPU), load average %.2f\n",
           load[0]);
    printf("%-12s %10s %10s %12s %10s %8s %8s  %s\n", "shape", "n", "records", "ns/record", "wall_s", "cpu_s",
           "peakMiB", "budget <10 s CPU, <1 GiB");
    int fail = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const struct shape *sh = &shapes[i];
        if (argc > 2 && strcmp(argv[2], sh->name) != 0)
            continue;
        uint64_t n = (uint64_t)((double)sh->n * scale);
        if (n < 1)
            n = 1;
        int p[2];
        if (pipe(p) != 0)
            return 2;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            alarm(LIMIT_S);   /* a shape that grows quadratically must not hang make bench */
            run_child(sh, n, p[1]);
        }
        close(p[1]);
        char buf[256] = {0};
        ssize_t got = read(p[0], buf, sizeof buf - 1);
        close(p[0]);
        int st = 0;
        struct rusage ru;
        wait4(pid, &st, 0, &ru);
        uint64_t records = 0;
        double secs = 0;
        size_t groups = 0;
        if (got <= 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
            sscanf(buf, "%" SCNu64 " %lf %zu", &records, &secs, &groups) != 3) {
            if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
                printf("%-12s %10" PRIu64 "  OVER: not done after %d s (peak %.1f MiB so far)\n", sh->name, n,
                       LIMIT_S, (double)ru.ru_maxrss / 1024.0);
            else
                printf("%-12s %10" PRIu64 "  FAILED (status %d)\n", sh->name, n, st);
            fail = 1;
            continue;
        }
        double mib = (double)ru.ru_maxrss / 1024.0;
        double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                     (double)ru.ru_stime.tv_usec * 1e-6;
        int over = cpu >= 10.0 || mib >= 1024.0;
        printf("%-12s %10" PRIu64 " %10" PRIu64 " %12.1f %10.3f %8.3f %8.1f  %s\n", sh->name, n, records,
               secs * 1e9 / (double)(records ? records : 1), secs, cpu, mib,
               !sh->budgeted ? "-" : over ? "OVER" : "ok");
        if (sh->budgeted && over && scale >= 1.0)
            fail = 1;
    }
    return fail;
}
