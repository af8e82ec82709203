/*
 * bench-evidence: the added cost per call of each evidence option, side by
 * side in one run. The program re-runs itself once per configuration with
 * LD_PRELOAD=libhipvis.so; each child measures, interleaved in one process,
 * blocks of calls through the direct aliases and through the interposed
 * names of a stub runtime (bench_stub.c), and reports the median block of
 * each arm. The parent prints one row per configuration.
 *
 * The workload is the decode loop's copy: a 1028-byte H2D hipMemcpyAsync
 * from hipHostMalloc'ed memory, made 8 frames below main (so stacks have
 * something to unwind), with a hipStreamSynchronize every 16 copies (the
 * rewrite check's observation point).
 *
 *   bench_evidence LIBHIPVIS.so OUTDIR        parent
 *   bench_evidence --child NAME               child (env set by the parent)
 */
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int hipError_t;
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
hipError_t hipStreamSynchronize(void *s);
hipError_t hipHostMalloc(void **p, size_t n, unsigned flags);
hipError_t bench_direct_hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s);
hipError_t bench_direct_hipStreamSynchronize(void *s);

extern char **environ;

#define BLOCK 1000
#define ROUNDS 61
#define DEPTH 8
#define BYTES 1028

struct arm {
    hipError_t (*copy)(void *, const void *, size_t, int, void *);
    hipError_t (*sync)(void *);
};

static unsigned char dst[BYTES];
static void *src;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A few real frames between main and the runtime call. */
__attribute__((noinline)) static void op(const struct arm *a, int depth, int i)
{
    if (depth) {
        op(a, depth - 1, i);
        __asm__ __volatile__("" ::: "memory");   /* keep the frame: no tail call */
        return;
    }
    a->copy(dst, src, BYTES, 1, (void *)0x1000);
    if (i % 16 == 15)
        a->sync((void *)0x1000);
}

static double block(const struct arm *a)
{
    uint64_t t0 = now_ns();
    for (int i = 0; i < BLOCK; i++)
        op(a, DEPTH, i);
    return (double)(now_ns() - t0) / BLOCK;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static int child(const char *name)
{
    struct arm direct = {bench_direct_hipMemcpyAsync, bench_direct_hipStreamSynchronize};
    struct arm traced = {hipMemcpyAsync, hipStreamSynchronize};
    double d[ROUNDS], t[ROUNDS];
    struct timespec pause = {0, 4 * 1000000L};   /* the writer drains between blocks */
    if (hipHostMalloc(&src, BYTES, 0) != 0)
        return 1;
    memset(src, 7, BYTES);
    block(&direct);
    /* Past the thread's rewrite-check warm-up (HIPVIS_REWRITE_FIRST: its
     * first 4096 eligible copies all checked) before anything is timed: the
     * figures are a long-running loop's. */
    for (int k = 0; k < 5; k++)
        block(&traced);
    for (int r = 0; r < ROUNDS; r++) {
        d[r] = block(&direct);
        nanosleep(&pause, NULL);
        t[r] = block(&traced);
        nanosleep(&pause, NULL);
    }
    qsort(d, ROUNDS, sizeof d[0], cmp);
    qsort(t, ROUNDS, sizeof t[0], cmp);
    printf("%s %.2f %.2f\n", name, d[ROUNDS / 2], t[ROUNDS / 2]);
    return 0;
}

struct config {
    const char *name, *label, *env;
};

static const struct config configs[] = {
    {"off", "evidence off", "HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0"},
    {"stacks", "HIPVIS_STACKS=1", "HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0 HIPVIS_STACKS=1"},
    {"rewrite", "rewrite check only", "HIPVIS_PAYLOAD_BYTES=0"},
    {"default", "defaults (rewrite check sampled)", ""},
    {"all", "defaults + stacks", "HIPVIS_STACKS=1"},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

/* Runs one configuration; *d / *t get its medians. */
static int run(const char *self, const char *lib, const char *outdir, const struct config *c, double *d, double *t)
{
    char *env[64], buf[2048], *save = NULL;
    int n = 0;
    for (char **e = environ; *e && n < 40; e++)
        if (strncmp(*e, "HIPVIS_", 7) != 0 && strncmp(*e, "LD_PRELOAD=", 11) != 0)
            env[n++] = *e;
    char preload[1024], output[1024];
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", lib);
    snprintf(output, sizeof output, "HIPVIS_OUTPUT=%s/bench-evidence.%%p.zst", outdir);
    env[n++] = preload;
    env[n++] = output;
    env[n++] = "HIPVIS_QUIET=1";
    env[n++] = "HIPVIS_FLUSH_MS=1";
    env[n++] = "HIPVIS_RING_KB=4096";   /* big enough for a block, small enough to stay resident */
    snprintf(buf, sizeof buf, "%s", c->env);
    for (char *tok = strtok_r(buf, " ", &save); tok && n < 62; tok = strtok_r(NULL, " ", &save))
        env[n++] = tok;
    env[n] = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = {(char *)self, "--child", (char *)c->name, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    FILE *f = fdopen(fds[0], "r");
    char name[32];
    int got = f && fscanf(f, "%31s %lf %lf", name, d, t) == 3;
    if (f)
        fclose(f);
    int status;
    waitpid(pid, &status, 0);
    return got && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    if (argc != 3) {
        fprintf(stderr, "usage: %s LIBHIPVIS.so OUTDIR\n", argv[0]);
        return 2;
    }
    double d[NCONFIGS], t[NCONFIGS];
    printf("bench-evidence: ns per hipMemcpyAsync (%d B H2D from hipHostMalloc memory, %d frames below main,\n"
           "  a hipStreamSynchronize every 16 copies); direct and traced measured interleaved in each process,\n"
           "  median of %d blocks of %d calls\n",
           BYTES, DEPTH + 2, ROUNDS, BLOCK);
    printf("  %-32s %9s %9s %9s %7s\n", "configuration", "direct", "traced", "added", "ratio");
    for (size_t i = 0; i < NCONFIGS; i++) {
        if (run(argv[0], argv[1], argv[2], &configs[i], &d[i], &t[i]) != 0) {
            fprintf(stderr, "bench-evidence: configuration %s failed\n", configs[i].name);
            return 1;
        }
        printf("  %-32s %9.1f %9.1f %+9.1f %6.2fx\n", configs[i].label, d[i], t[i], t[i] - d[i],
               d[i] > 0 ? t[i] / d[i] : 0.0);
    }
    printf("  stacks: +%.1f ns per call over evidence off (%.2fx the traced cost)\n", (t[1] - d[1]) - (t[0] - d[0]),
           t[0] > 0 ? t[1] / t[0] : 0.0);
    return 0;
}
