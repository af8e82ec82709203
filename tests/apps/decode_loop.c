/*
 * decode_loop.c - TEST-ONLY application: the LLM decode pattern of the seed
 * report (ROCm/hip#3902), written against the HIP runtime API.
 *
 * Part of hipvis tests (tests/apps); runs on the HIP runtime test double
 * (tests/runtime-double) or, to compare API behaviour, on a real runtime.
 * Never installed.
 *
 * A pinned host buffer cu_seqlens_q_cpu (257 x int32) is copied every step
 * into the persistent device buffer cu_seqlens_q on the current stream, then
 * a captured graph (one per batch size, all sharing the buffers) is replayed
 * on the same stream. Its kernel _convert_req_index_to_global_index_kernel
 * reads cu_seqlens_q; every --prefill-every steps an eager "prefill" step
 * writes cumulative values instead and launches the kernel directly. Each
 * step ends with a blocking read-back of the sampled tokens.
 *
 * The kernel (a host function on the double) checks what it read against
 * what the step wrote and counts stale reads; one summary line is printed
 * (--print-buffers adds one line per thread with the buffers' addresses).
 * The kernels' device code (decode_kernels.hip, gfx950) is embedded and
 * registered as hipcc does, so a tracer learns their argument layouts.
 * Exit status 0 unless the arguments are wrong (2).
 */
#include "../runtime-double/hipdouble.h"
#include "hipvis/hipvis.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NREQ 256          /* largest batch */
#define NSEQ (NREQ + 1)   /* cu_seqlens_q entries */
#define NSIZES 3
#define MAX_THREADS 64
static const int g_sizes[NSIZES] = {64, 128, 256};
static const char *const KERNEL_NAME = "_convert_req_index_to_global_index_kernel";

struct opts {
    long steps;
    int prefill_every, threads;
    int graph_nodes; /* --graph-nodes: no-op layer kernels captured ahead of the reader */
    bool sync_before_replay, side_copy, event_wait, host_rewrite, event_sync_before_rewrite;
    bool fork_join, spt, print_buffers, name_buffers, pageable;
    int free_realloc; /* 0 no, 1 new address, 2 same address */
    int rewrite_every; /* --host-rewrite-every K: the host rewrites only in steps K-1, 2K-1, ... (1: every step) */
};

/* Counters written by the kernel, whatever thread runs it. */
static struct {
    atomic_long reads, stale_reads, stale_elems, proxy_runs, dropped_reads;
    pthread_mutex_t lock;
    char first[96];
} g_stats = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Host stubs: their addresses identify the kernels, as clang's stubs do. */
static const char k_convert_stub, k_sample_stub;

/* Value the step wrote at cu_seqlens_q[b]: arange for decode (seed 0), a
 * cumulative layout with per-request lengths 2..6 for prefill (seed > 0). */
static int32_t expected_at(int seed, int b)
{
    if (seed == 0)
        return b;
    int32_t v = 0;
    for (int j = 0; j < b; j++)
        v += 2 + (seed * 7 + j * 3) % 5;
    return v;
}

/* _convert_req_index_to_global_index_kernel(const int32_t *cu_seqlens_q,
 *     int32_t *tokens_per_req, int32_t bs, int32_t seed) */
static void convert_kernel(void **args, dim3 grid, dim3 block, void *user)
{
    (void)grid;
    (void)block;
    (void)user;
    const int32_t *cu = *(const int32_t *const *)args[0];
    int32_t *out = *(int32_t **)args[1];
    int32_t bs = *(const int32_t *)args[2], seed = *(const int32_t *)args[3];
    long bad = 0;
    int32_t want = 0;
    for (int b = 0; b <= bs; b++) {
        if (b > 0)
            want += seed ? 2 + (seed * 7 + (b - 1) * 3) % 5 : 1;
        int32_t got = cu[b];
        if (got != want && bad++ == 0) {
            pthread_mutex_lock(&g_stats.lock);
            if (!g_stats.first[0])
                snprintf(g_stats.first, sizeof g_stats.first, "bs:%d,idx:%d,read:%d,expected:%d",
                         bs, b, got, want);
            pthread_mutex_unlock(&g_stats.lock);
        }
        if (b < bs)
            out[b] = cu[b + 1] - cu[b];
    }
    atomic_fetch_add(&g_stats.reads, 1);
    if (bad) {
        atomic_fetch_add(&g_stats.stale_reads, 1);
        atomic_fetch_add(&g_stats.stale_elems, bad);
    }
}

/* _sample_kernel(const int32_t *tokens_per_req, int32_t *tokens, int32_t bs) */
static void sample_kernel(void **args, dim3 grid, dim3 block, void *user)
{
    (void)grid;
    (void)block;
    (void)user;
    const int32_t *in = *(const int32_t *const *)args[0];
    int32_t *tok = *(int32_t **)args[1];
    int32_t bs = *(const int32_t *)args[2];
    for (int b = 0; b < bs; b++)
        tok[b] = in[b];
}

static void proxy_host_fn(void *ud)
{
    (void)ud;
    atomic_fetch_add(&g_stats.proxy_runs, 1);
}

/* What clang's generated host code does at startup: register the embedded
 * device code (decode_kernels.hip, built for gfx950 and embedded by
 * decode_fatbin.S) through the "HIPF" wrapper, then bind each kernel's host
 * stub to its device-side name. The double runs the host implementations
 * below instead; a tracer decodes the bundle into argument layouts. */
extern const unsigned char hv_decode_fatbin[];
static const struct {
    unsigned magic, version;
    const void *binary, *unused;
} g_fatbin_wrapper __attribute__((section(".hipFatBinSegment"), aligned(8))) = {
    0x48495046u /* "HIPF" */, 1, hv_decode_fatbin, NULL};

static void **register_stubs(void)
{
    void **mods = __hipRegisterFatBinary(&g_fatbin_wrapper);
    __hipRegisterFunction(mods, &k_convert_stub, (char *)KERNEL_NAME, KERNEL_NAME, (unsigned)-1,
                          NULL, NULL, NULL, NULL, NULL);
    __hipRegisterFunction(mods, &k_sample_stub, (char *)"_sample_kernel", "_sample_kernel",
                          (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
    return mods;
}

/* The kernels' host implementations, given to the test double by name
 * through dlsym so the binary also starts on a real runtime. */
static void register_kernels(void)
{
    int (*reg)(const char *, hipdouble_kernel_fn, int, const size_t *, void *) =
        (int (*)(const char *, hipdouble_kernel_fn, int, const size_t *, void *))dlsym(
            RTLD_DEFAULT, "hipdouble_register_module_kernel");
    int (*scalar)(const char *, int) =
        (int (*)(const char *, int))dlsym(RTLD_DEFAULT, "hipdouble_set_scalar_read");
    if (!reg)
        return;
    static const size_t conv_sizes[] = {8, 8, 4, 4}, samp_sizes[] = {8, 8, 4};
    reg(KERNEL_NAME, convert_kernel, 4, conv_sizes, NULL);
    reg("_sample_kernel", sample_kernel, 3, samp_sizes, NULL);
    /* Like the Triton kernel compiled to s_load: qo_indptr is read through
     * scalar loads (only matters to the double's h3 model). */
    if (scalar)
        scalar(KERNEL_NAME, 0);
}

struct ctx {
    const struct opts *o;
    hipStream_t main, side, cap, cap_side;
    hipEvent_t ev_copy, ev_cap, ev_fork, ev_join;
    int32_t *pinned, *cu, *out, *tokens;
    int32_t tokens_host[NREQ];
    hipGraphExec_t exec[NSIZES];
    long replays, prefills;
    bool moved;
    char error[96];
    char buffers[160]; /* --print-buffers: addresses after setup */
};

/* Calls the _spt variant when running on the per-thread default stream. */
#define SPT(c, fn, ...) ((c)->o->spt ? fn##_spt(__VA_ARGS__) : fn(__VA_ARGS__))

static int fail(struct ctx *c, const char *call, hipError_t e)
{
    if (!c->error[0])
        snprintf(c->error, sizeof c->error, "%.*s:%d", (int)strcspn(call, "("), call, (int)e);
    return -1;
}
#define CHECK(c, call)                           \
    do {                                         \
        hipError_t e_ = (call);                  \
        if (e_ != hipSuccess)                    \
            return fail((c), #call, e_);         \
    } while (0)

static bool is_prefill(const struct opts *o, long step)
{
    return o->prefill_every > 0 && step % o->prefill_every == o->prefill_every - 1;
}

static int seed_of(long step) { return (int)(step % 1000) + 1; }

static void prepare(struct ctx *c, long step)
{
    int seed = is_prefill(c->o, step) ? seed_of(step) : 0;
    for (int b = 0; b < NSEQ; b++)
        c->pinned[b] = expected_at(seed, b);
}

static int launch_convert(struct ctx *c, hipStream_t s, int bs, int seed)
{
    const int32_t *cu = c->cu;
    int32_t *out = c->out, n = bs, sd = seed;
    void *args[] = {&cu, &out, &n, &sd};
    dim3 grid = {(unsigned)bs, 1, 1}, block = {64, 1, 1};
    CHECK(c, SPT(c, hipLaunchKernel, &k_convert_stub, grid, block, args, 0, s));
    return 0;
}

static int launch_sample(struct ctx *c, hipStream_t s, int bs)
{
    int32_t *in = c->out, *tok = c->tokens, n = bs;
    void *args[] = {&in, &tok, &n};
    dim3 grid = {1, 1, 1}, block = {256, 1, 1};
    CHECK(c, SPT(c, hipLaunchKernel, &k_sample_stub, grid, block, args, 0, s));
    return 0;
}

static int read_back(struct ctx *c, int bs)
{
    CHECK(c, hipMemcpyWithStream(c->tokens_host, c->tokens, (size_t)bs * 4, hipMemcpyDeviceToHost,
                                 c->main));
    return 0;
}

/* Captures one decode graph on a side stream that first waits for the main
 * stream (vLLM style). --fork-join adds a second capturing stream with a
 * host node (RCCL-proxy style), which gives the graph two roots. */
static int capture(struct ctx *c, int bs, hipGraphExec_t *exec)
{
    hipStreamCaptureMode mode =
        c->o->threads > 1 ? hipStreamCaptureModeThreadLocal : hipStreamCaptureModeGlobal;
    hipGraph_t g;
    size_t nodes = 0;
    CHECK(c, SPT(c, hipEventRecord, c->ev_cap, c->main));
    CHECK(c, hipStreamWaitEvent(c->cap, c->ev_cap, 0));
    CHECK(c, hipStreamBeginCapture(c->cap, mode));
    if (c->o->fork_join) {
        CHECK(c, hipEventRecord(c->ev_fork, c->cap));
        CHECK(c, hipStreamWaitEvent(c->cap_side, c->ev_fork, 0));
        CHECK(c, hipLaunchHostFunc(c->cap_side, proxy_host_fn, NULL));
    }
    /* --graph-nodes: a deep model's layers ahead of the reader (ROCm/hip#3887:
     * ~200 kernel nodes); each is the sample kernel with no work. */
    for (int k = 0; k < c->o->graph_nodes; k++)
        if (launch_sample(c, c->cap, 0))
            return -1;
    if (launch_convert(c, c->cap, bs, 0))
        return -1;
    if (c->o->fork_join) {
        CHECK(c, hipEventRecord(c->ev_join, c->cap_side));
        CHECK(c, hipStreamWaitEvent(c->cap, c->ev_join, 0));
    }
    if (launch_sample(c, c->cap, bs))
        return -1;
    CHECK(c, hipStreamEndCapture(c->cap, &g));
    CHECK(c, hipGraphGetNodes(g, NULL, &nodes));
    CHECK(c, hipGraphInstantiateWithFlags(exec, g, hipGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(c, hipGraphDestroy(g));
    return 0;
}

static int setup(struct ctx *c)
{
    c->main = c->o->spt ? hipStreamPerThread : NULL;
    /* --pageable: the metadata from ordinary heap memory (the runtime stages
     * it before the call returns: no copy is eligible for a rewrite check). */
    if (c->o->pageable)
        c->pinned = calloc(NSEQ, sizeof(int32_t));
    else
        CHECK(c, hipHostMalloc((void **)&c->pinned, NSEQ * sizeof(int32_t), 0));
    if (!c->pinned)
        return -1;
    CHECK(c, hipMalloc((void **)&c->cu, NSEQ * sizeof(int32_t)));
    CHECK(c, hipMalloc((void **)&c->out, NREQ * sizeof(int32_t)));
    CHECK(c, hipMalloc((void **)&c->tokens, NREQ * sizeof(int32_t)));
    if (c->o->name_buffers) {
        /* --name-buffers: what a user adds so reports say "cu_seqlens_q", not
         * an address (hipvis_name; nothing happens without libhipvis). */
        HIPVIS_CALL(hipvis_name, c->cu, NSEQ * sizeof(int32_t), "cu_seqlens_q");
        HIPVIS_CALL(hipvis_name, c->pinned, NSEQ * sizeof(int32_t), "cu_seqlens_q_cpu");
        HIPVIS_CALL(hipvis_name, c->out, NREQ * sizeof(int32_t), "tokens_per_req");
        HIPVIS_CALL(hipvis_name, c->tokens, NREQ * sizeof(int32_t), "tokens");
    }
    CHECK(c, hipStreamCreateWithFlags(&c->side, hipStreamNonBlocking));
    CHECK(c, hipStreamCreateWithFlags(&c->cap, hipStreamNonBlocking));
    CHECK(c, hipStreamCreateWithFlags(&c->cap_side, hipStreamNonBlocking));
    hipEvent_t *evs[] = {&c->ev_copy, &c->ev_cap, &c->ev_fork, &c->ev_join};
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        CHECK(c, hipEventCreateWithFlags(evs[i], hipEventDisableTiming));
    /* warm-up: one eager decode step per batch size */
    prepare(c, 0);
    CHECK(c, SPT(c, hipMemcpyAsync, c->cu, c->pinned, NSEQ * 4, hipMemcpyHostToDevice, c->main));
    for (int i = 0; i < NSIZES; i++)
        if (launch_convert(c, c->main, g_sizes[i], 0) || launch_sample(c, c->main, g_sizes[i]))
            return -1;
    if (read_back(c, NREQ))
        return -1;
    for (int i = 0; i < NSIZES; i++)
        if (capture(c, g_sizes[i], &c->exec[i]))
            return -1;
    snprintf(c->buffers, sizeof c->buffers, "cu_seqlens_q=%p cu_seqlens_q_cpu=%p tokens_per_req=%p tokens=%p",
             (void *)c->cu, (void *)c->pinned, (void *)c->out, (void *)c->tokens);
    return 0;
}

/* Frees the captured cu_seqlens_q and allocates it again: at a new address
 * (allocate first) or at the same one (free first; the allocator reuses it). */
static int reallocate(struct ctx *c)
{
    int32_t *fresh = NULL, *old = c->cu;
    if (c->o->free_realloc == 1) {
        CHECK(c, hipMalloc((void **)&fresh, NSEQ * sizeof(int32_t)));
        CHECK(c, hipFree(old));
    } else {
        CHECK(c, hipFree(old));
        CHECK(c, hipMalloc((void **)&fresh, NSEQ * sizeof(int32_t)));
    }
    c->cu = fresh;
    c->moved = fresh != old;
    if (c->o->name_buffers)
        HIPVIS_CALL(hipvis_name, c->cu, NSEQ * sizeof(int32_t), "cu_seqlens_q");
    return 0;
}

static int step(struct ctx *c, long i, bool *prepared)
{
    const struct opts *o = c->o;
    bool prefill = is_prefill(o, i);
    int si = (int)(i % NSIZES), bs = prefill ? NREQ : g_sizes[si];
    hipStream_t cs = o->side_copy || o->event_wait ? c->side : c->main;
    long reads_before = atomic_load(&g_stats.reads);
    if (o->free_realloc && i == o->steps / 2 && reallocate(c))
        return -1;
    if (!*prepared)
        prepare(c, i);
    *prepared = false;
    CHECK(c, SPT(c, hipMemcpyAsync, c->cu, c->pinned, NSEQ * 4, hipMemcpyHostToDevice, cs));
    CHECK(c, SPT(c, hipEventRecord, c->ev_copy, cs));
    if (o->event_wait)
        CHECK(c, SPT(c, hipStreamWaitEvent, c->main, c->ev_copy, 0));
    if (prefill) {
        if (launch_convert(c, c->main, NREQ, seed_of(i)) || launch_sample(c, c->main, NREQ))
            return -1;
        c->prefills++;
    } else {
        if (o->sync_before_replay)
            CHECK(c, SPT(c, hipStreamSynchronize, cs));
        CHECK(c, SPT(c, hipGraphLaunch, c->exec[si], c->main));
        c->replays++;
    }
    if (o->host_rewrite && i + 1 < o->steps && (i + 1) % o->rewrite_every == 0) {
        /* the host prepares the next step while this one is still queued */
        if (o->event_sync_before_rewrite)
            CHECK(c, hipEventSynchronize(c->ev_copy));
        prepare(c, i + 1);
        *prepared = true;
    }
    if (read_back(c, bs))
        return -1;
    /* The replay's reader never ran (a runtime dropped its node): the host
     * got an earlier step's tokens. Decidable with one thread only (the
     * read counter is shared). The kernel ran by the blocking read-back. */
    if (!prefill && o->threads == 1 && atomic_load(&g_stats.reads) == reads_before) {
        atomic_fetch_add(&g_stats.dropped_reads, 1);
        atomic_fetch_add(&g_stats.stale_reads, 1);
    }
    return 0;
}

static void teardown(struct ctx *c)
{
    for (int i = 0; i < NSIZES; i++)
        if (c->exec[i])
            (void)hipGraphExecDestroy(c->exec[i]);
    hipEvent_t evs[] = {c->ev_copy, c->ev_cap, c->ev_fork, c->ev_join};
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        if (evs[i])
            (void)hipEventDestroy(evs[i]);
    hipStream_t ss[] = {c->side, c->cap, c->cap_side};
    for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++)
        if (ss[i])
            (void)hipStreamDestroy(ss[i]);
    (void)hipFree(c->cu);
    (void)hipFree(c->out);
    (void)hipFree(c->tokens);
    if (c->o->pageable)
        free(c->pinned);
    else
        (void)hipHostFree(c->pinned);
}

static void *run(void *arg)
{
    struct ctx *c = arg;
    bool prepared = false;
    if (setup(c) == 0)
        for (long i = 0; i < c->o->steps; i++)
            if (step(c, i, &prepared))
                break;
    teardown(c);
    return NULL;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--steps N] [--prefill-every K] [--threads T] [--sync-before-replay]\n"
            "  [--side-stream-copy] [--event-wait] [--host-rewrite] [--host-rewrite-every K]\n"
            "  [--event-sync-before-rewrite] [--pageable]\n"
            "  [--free-realloc[=new|same]] [--fork-join] [--spt] [--print-buffers] [--name-buffers] [--graph-nodes N]\n",
            argv0);
    return 2;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.steps = 200, .prefill_every = 8, .threads = 1, .rewrite_every = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--steps") && has_val && parse_long(argv[++i], 1, 100000000, &v))
            o->steps = v;
        else if (!strcmp(a, "--prefill-every") && has_val && parse_long(argv[++i], 0, 1000000, &v))
            o->prefill_every = (int)v;
        else if (!strcmp(a, "--threads") && has_val && parse_long(argv[++i], 1, MAX_THREADS, &v))
            o->threads = (int)v;
        else if (!strcmp(a, "--graph-nodes") && has_val && parse_long(argv[++i], 0, 4096, &v))
            o->graph_nodes = (int)v;
        else if (!strcmp(a, "--sync-before-replay"))
            o->sync_before_replay = true;
        else if (!strcmp(a, "--side-stream-copy"))
            o->side_copy = true;
        else if (!strcmp(a, "--event-wait"))
            o->event_wait = true;
        else if (!strcmp(a, "--host-rewrite"))
            o->host_rewrite = true;
        else if (!strcmp(a, "--host-rewrite-every") && has_val && parse_long(argv[++i], 1, 1000000, &v))
            o->host_rewrite = true, o->rewrite_every = (int)v;
        else if (!strcmp(a, "--event-sync-before-rewrite"))
            o->host_rewrite = o->event_sync_before_rewrite = true;
        else if (!strcmp(a, "--free-realloc") || !strcmp(a, "--free-realloc=new"))
            o->free_realloc = 1;
        else if (!strcmp(a, "--free-realloc=same"))
            o->free_realloc = 2;
        else if (!strcmp(a, "--pageable"))
            o->pageable = true;
        else if (!strcmp(a, "--fork-join"))
            o->fork_join = true;
        else if (!strcmp(a, "--spt"))
            o->spt = true;
        else if (!strcmp(a, "--name-buffers"))
            o->name_buffers = true;
        else if (!strcmp(a, "--print-buffers"))
            o->print_buffers = true;
        else
            return usage(argv[0]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (parse(argc, argv, &o))
        return 2;
    void **mods = register_stubs();
    register_kernels();
    struct ctx *cs = calloc((size_t)o.threads, sizeof *cs);
    pthread_t th[MAX_THREADS];
    if (!cs)
        return 1;
    for (int t = 0; t < o.threads; t++) {
        cs[t].o = &o;
        if (o.threads == 1)
            run(&cs[t]);
        else if (pthread_create(&th[t], NULL, run, &cs[t]) != 0)
            return 1;
    }
    long replays = 0, prefills = 0;
    const char *error = "none";
    bool moved = false;
    for (int t = 0; t < o.threads; t++) {
        if (o.threads > 1)
            pthread_join(th[t], NULL);
        replays += cs[t].replays;
        prefills += cs[t].prefills;
        moved |= cs[t].moved;
        if (cs[t].error[0] && !strcmp(error, "none"))
            error = cs[t].error;
    }
    printf("decode_loop: steps=%ld threads=%d replays=%ld prefills=%ld kernel_reads=%ld "
           "stale_reads=%ld stale_elems=%ld dropped_reads=%ld first_stale=%s%s error=%s\n",
           o.steps, o.threads, replays, prefills, atomic_load(&g_stats.reads),
           atomic_load(&g_stats.stale_reads), atomic_load(&g_stats.stale_elems), atomic_load(&g_stats.dropped_reads),
           g_stats.first[0] ? g_stats.first : "none",
           o.free_realloc ? (moved ? " realloc=moved" : " realloc=same-address") : "", error);
    /* one line per thread: the captured buffers' addresses, to name the
     * ranges a trace analysis reports */
    for (int t = 0; o.print_buffers && t < o.threads; t++)
        printf("decode_loop: thread=%d %s\n", t, cs[t].buffers[0] ? cs[t].buffers : "setup-failed");
    free(cs);
    __hipUnregisterFatBinary(mods);
    return 0;
}
