/*
 * hc_cases.c - TEST-ONLY program: host accesses around async copies of
 * pinned memory on the HIP runtime test double, for the host-access check
 * (HIPVIS_HOSTCHECK, docs/hostcheck.md). tests/hostcheck/check_hostcheck.py
 * runs each case with and without the check and compares.
 *
 * usage: hc_cases CASE
 *   d2h-read        D2H copy into pinned memory, the host reads it before any
 *                   synchronization (racy: the line marked RACE d2h-read)
 *   d2h-read-sync   the same after hipStreamSynchronize (no finding)
 *   h2d-write       H2D copy from pinned memory, the host rewrites the source
 *                   before the copy is known complete (RACE h2d-write)
 *   d2h2d-read      hipMemcpy2DAsync D2H into pinned memory, 4 rows of 256
 *                   bytes every 1024; the host reads a copied byte of row 2
 *                   before the sync (RACE d2h2d-read)
 *   d2h2d-gap       the same, the host reads between two rows: no byte of
 *                   the copy (no finding)
 *   d2h2d-read-sync the row read after hipStreamSynchronize (no finding)
 *   loop-write      600 H2D copies of one pinned buffer on one stream, more
 *                   than the check's table holds, then the host rewrites it
 *                   before synchronizing (RACE loop-write: each copy takes the
 *                   previous one's slot, none is left unprotected)
 *   h2d-write-sync  the same after hipEventSynchronize on an event recorded
 *                   after the copy (no finding)
 *   h2d-read        the host only reads the in-flight source (no finding:
 *                   reading what a copy reads is no race)
 *   shared-page     a D2H copy into the second half of a pinned page whose
 *                   first half the host keeps using, and the next page (no
 *                   finding: that page is given back, the copy's other
 *                   pages stay checked)
 *   shared-page-race the same, then the host reads the copy's bytes on the
 *                   next page (RACE shared-page-race)
 *   memset-read     hipMemsetAsync of pinned memory, read before the sync
 *                   (RACE memset-read)
 *   query-then-read a successful hipStreamQuery observes the copy: no finding
 *   threads         a second thread reads the D2H destination while the main
 *                   thread has not synchronized (RACE threads)
 *   fork            a fork child reads the in-flight D2H destination: its copy
 *                   of the memory is no copy's, so no fault and no finding
 *   managed-read    a kernel writes a managed buffer (queued behind a memset,
 *                   so in flight), the host reads it before synchronizing
 *                   (RACE managed-read, with HIPVIS_HOSTCHECK=managed)
 *   managed-read-sync  the same after hipStreamSynchronize (no finding)
 *   managed-write   a kernel reads a managed buffer, the host writes it
 *                   before synchronizing (RACE managed-write)
 *   managed-write-sync the same after hipStreamSynchronize (no finding)
 *   registered      a D2H copy into pinned memory, then one into memory
 *                   registered with hipHostRegister, read before the sync: the
 *                   check does not protect registered memory on HIP, so no
 *                   finding, and the analyzer's coverage counts it
 *   registered-only a D2H copy into registered memory only, read before the
 *                   sync: the race is there, but the check protects nothing
 *                   (for hipvis experiment: a run that cannot show "no host
 *                   access")
 *   fork-counts     one protected copy in the parent, one in a fork child that
 *                   makes runtime calls (its own trace, its own counts)
 *   callback-read   a host function enqueued on the copy's stream after a D2H
 *                   copy reads the destination (no finding: the stream
 *                   orders it after the copy)
 *   callback-other  the same host function on another stream (RACE
 *                   callback-other, in the host function)
 *   callback-add    hipStreamAddCallback: refused calls (flags 1, no
 *                   function), then the callback reads the destination;
 *                   prints the stream and status it was given (no finding)
 *   callback-null   a D2H copy on a blocking stream, a host function on the
 *                   legacy (NULL) stream, which waits for it (no finding)
 *   callback-spt    hipMemcpyAsync_spt and hipLaunchHostFunc_spt on the
 *                   per-thread stream (no finding)
 *   callback-capture the copy and the host function captured into a graph
 *                   replayed twice: the graph's host node holds the
 *                   program's function and data (no finding)
 *   callback-fn     whether the runtime was given the program's own host
 *                   function and data (hipdouble_last_host_fn)
 *   graph-h2d-write a graph whose memcpy node (captured hipMemcpyAsync)
 *                   reads pinned memory, launched; the host rewrites the
 *                   source before synchronizing (RACE graph-h2d-write)
 *   graph-h2d-write-sync the same after hipStreamSynchronize (no finding)
 *   graph-d2h-read  a graph whose memcpy node (hipGraphAddMemcpyNode1D)
 *                   writes pinned memory, launched; the host reads it before
 *                   synchronizing (RACE graph-d2h-read)
 *   graph-d2h-read-sync the same after hipStreamSynchronize (no finding)
 *   graph-loop-write the graph-h2d-write graph launched 600 times without a
 *                   synchronization, more than the check's table holds, then
 *                   the rewrite (RACE graph-loop-write: each replay takes the
 *                   previous one's slot)
 *   graph-memset-read a graph whose memset node writes pinned memory, read
 *                   before the sync (RACE graph-memset-read)
 *   graph-pageable  a graph whose memcpy node reads pageable memory,
 *                   launched twice and synchronized: the check cannot protect
 *                   it and counts each replay's (no finding)
 *   graph-set-write the graph-h2d-write exec's node set to read another
 *                   pinned buffer (hipGraphExecMemcpyNodeSetParams1D), launched;
 *                   the host rewrites the old source (no longer the node's)
 *                   and the new one (RACE graph-set-write)
 *   graph-managed-read a graph of a memset and a kernel writing a managed
 *                   buffer (captured), launched; the host reads the buffer
 *                   before the sync (RACE graph-managed-read, with
 *                   HIPVIS_HOSTCHECK=managed or a protection key)
 *   graph-disabled  the graph-d2h-read exec with its node disabled
 *                   (hipGraphNodeSetEnabled), launched; the host reads the
 *                   buffer before the sync (no finding: the replay does not
 *                   write it)
 * Each case prints the values it read, so that runs with and without the
 * check can be compared byte for byte. Exit status 0, 2 on bad arguments, 1
 * when a runtime call failed.
 */
#define OK_PROG "hc_cases"
#include "../observe/hip_ok.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#define N 1024   /* ints: one 4 KiB page */

static int *dev, *pinned, *pinned2;
static hipStream_t s;

static void fill_device(int base)
{
    int tmp[N];
    for (int i = 0; i < N; i++)
        tmp[i] = base + i;
    OK(hipMemcpy(dev, tmp, sizeof tmp, hipMemcpyHostToDevice));
}

static bool is_managed_case(const char *c);
static void managed_case(const char *c);
static bool is_graph_case(const char *c);
static void graph_case(const char *c);
/* What the host functions read, and what they were given. */
static int cb_value = -1, cb_runs, cb_status = -1;
static hipStream_t cb_stream;

static void read_cb(void *arg)
{
    cb_value = ((int *)arg)[3]; /* RACE callback-other */
    cb_runs++;
}

static void read_stream_cb(hipStream_t st, hipError_t status, void *arg)
{
    cb_stream = st;
    cb_status = (int)status;
    cb_value = ((int *)arg)[3];
    cb_runs++;
}

/* The graph's host node: 1 when it holds fn and user, 0 when another
 * function or data, -1 when there is none. */
static int host_node_is(hipGraph_t g, hipHostFn_t fn, void *user)
{
    hipGraphNode_t nodes[8];
    size_t n = 8;
    OK(hipGraphGetNodes(g, nodes, &n));
    for (size_t i = 0; i < n && i < 8; i++) {
        hipGraphNodeType type;
        OK(hipGraphNodeGetType(nodes[i], &type));
        if (type != hipGraphNodeTypeHost)
            continue;
        hipHostNodeParams p;
        OK(hipGraphHostNodeGetParams(nodes[i], &p));
        return p.fn == fn && p.userData == user;
    }
    return -1;
}

static void *reader(void *arg)
{
    (void)arg;
    printf("thread read %d\n", pinned[7]); /* RACE threads */
    return NULL;
}

/* registered: a D2H copy into pinned memory (protected), then one into
 * memory registered with hipHostRegister, which the check leaves
 * unprotected on HIP (counted as skipped_other): the host's read of it
 * before the sync is a race it does not see, which the analyzer's
 * coverage says. */
static void registered(void)
{
    static int host[N] __attribute__((aligned(4096)));
    OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
    OK(hipStreamSynchronize(s));
    OK(hipHostRegister(host, sizeof host, 0));
    OK(hipMemcpyAsync(host, dev, sizeof host, hipMemcpyDeviceToHost, s));
    volatile int unseen = host[3];
    (void)unseen;
    OK(hipStreamSynchronize(s));
    printf("pinned %d, registered %d\n", pinned[3], host[3]);
    OK(hipHostUnregister(host));
}

/* registered-only: the only in-flight host memory is registered, which
 * the check does not protect on HIP: its read before the sync is a race
 * it cannot see, and no operation at all is protected. */
static void registered_only(void)
{
    static int host[N] __attribute__((aligned(4096)));
    OK(hipHostRegister(host, sizeof host, 0));
    OK(hipMemcpyAsync(host, dev, sizeof host, hipMemcpyDeviceToHost, s));
    int v = host[3];
    OK(hipStreamSynchronize(s));
    printf("registered read %d, then %d\n", v, host[3]);
    OK(hipHostUnregister(host));
}

/* fork-counts: the parent protects one copy, a fork child another of its
 * own: each trace counts its own process's operations, so that the
 * analyzer's sum over traces counts each once. */
static void fork_counts(void)
{
    OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
    OK(hipStreamSynchronize(s));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        int rc = hipMemcpyAsync(pinned2, dev, N * sizeof(int), hipMemcpyDeviceToHost, s) != hipSuccess ||
                 hipStreamSynchronize(s) != hipSuccess;
        _exit(rc);
    }
    int st = 0;
    waitpid(child, &st, 0);
    printf("child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hc_cases CASE\n");
        return 2;
    }
    const char *c = argv[1];
    OK(hipMalloc((void **)&dev, N * sizeof(int)));
    OK(hipHostMalloc((void **)&pinned, N * sizeof(int), 0));
    OK(hipHostMalloc((void **)&pinned2, N * sizeof(int), 0));
    OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    fill_device(100);
    memset(pinned, 0, N * sizeof(int));
    for (int i = 0; i < N; i++)
        pinned2[i] = 5000 + i;

    if (!strcmp(c, "registered")) {
        registered();
    } else if (!strcmp(c, "registered-only")) {
        registered_only();
    } else if (!strcmp(c, "fork-counts")) {
        fork_counts();
    } else if (!strcmp(c, "d2h-read") || !strcmp(c, "d2h-read-sync")) {
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        if (!strcmp(c, "d2h-read-sync"))
            OK(hipStreamSynchronize(s));
        int v = pinned[3]; /* RACE d2h-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", v, pinned[3]);
    } else if (!strcmp(c, "h2d-write") || !strcmp(c, "h2d-write-sync") || !strcmp(c, "h2d-read")) {
        hipEvent_t ev;
        OK(hipEventCreate(&ev));
        OK(hipMemcpyAsync(dev, pinned2, N * sizeof(int), hipMemcpyHostToDevice, s));
        OK(hipEventRecord(ev, s));
        if (!strcmp(c, "h2d-write-sync"))
            OK(hipEventSynchronize(ev));
        if (!strcmp(c, "h2d-read"))
            printf("source %d\n", pinned2[9]);
        else
            pinned2[9] = -1; /* RACE h2d-write */
        OK(hipStreamSynchronize(s));
        int back[N];
        OK(hipMemcpy(back, dev, sizeof back, hipMemcpyDeviceToHost));
        printf("device[9] %d\n", back[9]);
        OK(hipEventDestroy(ev));
    } else if (!strncmp(c, "d2h2d-", 6)) {
        unsigned char *row = (unsigned char *)pinned;
        OK(hipMemcpy2DAsync(pinned, 1024, dev, 256, 256, 4, hipMemcpyDeviceToHost, s));
        if (!strcmp(c, "d2h2d-read-sync"))
            OK(hipStreamSynchronize(s));
        int v;
        if (!strcmp(c, "d2h2d-gap"))
            v = row[1024 + 600];
        else
            v = row[2 * 1024 + 8]; /* RACE d2h2d-read */
        OK(hipStreamSynchronize(s));
        printf("read %s, then %d\n", strcmp(c, "d2h2d-read") ? (v ? "set" : "zero") : "racy", row[2 * 1024 + 8]);
    } else if (!strcmp(c, "loop-write")) {
        for (int i = 0; i < 600; i++)
            OK(hipMemcpyAsync(dev, pinned2, N * sizeof(int), hipMemcpyHostToDevice, s));
        pinned2[9] = -1; /* RACE loop-write */
        OK(hipStreamSynchronize(s));
        printf("source %d\n", pinned2[9]);
    } else if (!strcmp(c, "shared-page") || !strcmp(c, "shared-page-race")) {
        /* The copy writes ints [512, 1536) of two pages: the second half
         * of the first page, whose first half [0, 512) is the host's own
         * data, and the whole second page. */
        int *two = NULL;
        OK(hipHostMalloc((void **)&two, 2 * N * sizeof(int), 0));
        for (int i = 0; i < 512; i++)
            two[i] = i;
        OK(hipMemcpyAsync(two + 512, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        long sum = 0;
        for (int i = 0; i < 512; i++)
            sum += two[i];
        two[1] = 77;
        int v = 0;
        if (!strcmp(c, "shared-page-race"))
            v = two[1500]; /* RACE shared-page-race */
        OK(hipStreamSynchronize(s));
        printf("sum %ld, own %d, copied %d (read %d)\n", sum, two[1], two[1500], v);
        OK(hipHostFree(two));
    } else if (!strcmp(c, "memset-read")) {
        OK(hipMemsetAsync(pinned, 0x11, N * sizeof(int), s));
        int v = pinned[5]; /* RACE memset-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", v, pinned[5]);
    } else if (!strcmp(c, "query-then-read")) {
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        hipError_t q;
        while ((q = hipStreamQuery(s)) == hipErrorNotReady)
            ;
        OK(q);
        printf("read %d\n", pinned[3]);
    } else if (!strcmp(c, "threads")) {
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        pthread_t th;
        pthread_create(&th, NULL, reader, NULL);
        pthread_join(th, NULL);
        OK(hipStreamSynchronize(s));
        printf("then %d\n", pinned[7]);
    } else if (!strcmp(c, "fork")) {
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            /* The child's own copy of the page: no fault. Its value is not
             * read: in the double's thread mode the copy may have landed
             * before the fork or not. */
            pinned[4] = 7;
            _exit(pinned[4] == 7 ? 0 : 3);
        }
        int st = 0;
        waitpid(child, &st, 0);
        OK(hipStreamSynchronize(s));
        printf("child exit %d, then %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, pinned[3]);
    } else if (is_managed_case(c)) {
        managed_case(c);
    } else if (is_graph_case(c)) {
        graph_case(c);
    } else if (!strcmp(c, "callback-read") || !strcmp(c, "callback-other")) {
        hipStream_t other;
        OK(hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        OK(hipLaunchHostFunc(!strcmp(c, "callback-read") ? s : other, read_cb, pinned));
        /* The host function runs first, whichever stream it is on. */
        OK(hipStreamSynchronize(other));
        OK(hipStreamSynchronize(s));
        printf("callback read %d (%d run), then %d\n", cb_value, cb_runs, pinned[3]);
        OK(hipStreamDestroy(other));
    } else if (!strcmp(c, "callback-add")) {
        hipError_t refused = hipStreamAddCallback(s, read_stream_cb, pinned, 1);
        hipError_t no_fn = hipStreamAddCallback(s, NULL, pinned, 0);
        (void)hipGetLastError();
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        OK(hipStreamAddCallback(s, read_stream_cb, pinned, 0));
        OK(hipStreamSynchronize(s));
        printf("refused %d, %d; callback read %d (%d run), stream %s, status %d\n", (int)refused, (int)no_fn, cb_value,
               cb_runs,
               cb_stream == s ? "its own" : "another", cb_status);
    } else if (!strcmp(c, "callback-null")) {
        hipStream_t blocking;
        OK(hipStreamCreate(&blocking));
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, blocking));
        OK(hipLaunchHostFunc(NULL, read_cb, pinned));
        OK(hipStreamSynchronize(NULL));
        printf("callback read %d (%d run)\n", cb_value, cb_runs);
        OK(hipStreamDestroy(blocking));
    } else if (!strcmp(c, "callback-spt")) {
        OK(hipMemcpyAsync_spt(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, NULL));
        OK(hipLaunchHostFunc_spt(NULL, read_cb, pinned));
        OK(hipStreamSynchronize(hipStreamPerThread));
        printf("callback read %d (%d run)\n", cb_value, cb_runs);
    } else if (!strcmp(c, "callback-capture")) {
        hipGraph_t g = NULL;
        hipGraphExec_t ge = NULL;
        OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        OK(hipLaunchHostFunc(s, read_cb, pinned));
        OK(hipStreamEndCapture(s, &g));
        int own = host_node_is(g, read_cb, pinned);
        OK(hipGraphInstantiate(&ge, g, NULL, NULL, 0));
        OK(hipGraphLaunch(ge, s));
        OK(hipGraphLaunch(ge, s));
        OK(hipStreamSynchronize(s));
        printf("host node the program's: %d; callback read %d (%d runs)\n", own, cb_value, cb_runs);
        OK(hipGraphExecDestroy(ge));
        OK(hipGraphDestroy(g));
    } else if (!strcmp(c, "callback-fn")) {
        OK(hipMemcpyAsync(pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost, s));
        OK(hipLaunchHostFunc(s, read_cb, pinned));
        void (*fn)(void) = NULL;
        void *user = NULL;
        hipdouble_last_host_fn(&fn, &user);
        OK(hipStreamSynchronize(s));
        printf("runtime given the program's function: %s, data: %s; callback read %d (%d run)\n",
               fn == (void (*)(void))read_cb ? "yes" : "no", user == pinned ? "yes" : "no", cb_value, cb_runs);
    } else {
        fprintf(stderr, "hc_cases: unknown case '%s'\n", c);
        return 2;
    }
    OK(hipStreamDestroy(s));
    OK(hipHostFree(pinned));
    OK(hipHostFree(pinned2));
    OK(hipFree(dev));
    return ok_failed;
}

/* ---- managed memory: kernels are registered host functions of the double
 * (hipdouble.h), which run on the double's device side and reach managed
 * memory through its alias, not the program's mapping. */

/* fill(int *p, int n, int v): p[i] = v + i */
static const char k_fill;
static void fill_kernel(void **args, dim3 g, dim3 b, void *user)
{
    (void)g, (void)b, (void)user;
    int *p = *(int **)args[0];
    int n = *(int *)args[1], v = *(int *)args[2];
    for (int i = 0; i < n; i++)
        p[i] = v + i;
}

/* sum(const int *src, int *dst, int n): dst[0] = src[0] + ... + src[n-1] */
static const char k_sum;
static void sum_kernel(void **args, dim3 g, dim3 b, void *user)
{
    (void)g, (void)b, (void)user;
    const int *src = *(const int **)args[0];
    int *dst = *(int **)args[1];
    int n = *(int *)args[2], sum = 0;
    for (int i = 0; i < n; i++)
        sum += src[i];
    dst[0] = sum;
}

static bool is_managed_case(const char *c)
{
    static const char *const names[] = {"managed-read", "managed-read-sync", "managed-write", "managed-write-sync"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(c, names[i]))
            return true;
    return false;
}

static void managed_case(const char *c)
{
    static const size_t fill_sizes[] = {8, 4, 4}, sum_sizes[] = {8, 8, 4};
    static const dim3 one = {1, 1, 1};
    if (hipdouble_register_kernel(&k_fill, "hc_fill", fill_kernel, 3, fill_sizes, NULL) ||
        hipdouble_register_kernel(&k_sum, "hc_sum", sum_kernel, 3, sum_sizes, NULL)) {
        fprintf(stderr, "hc_cases: kernel registration failed\n");
        ok_failed = 1;
        return;
    }
    bool sync = strstr(c, "-sync") != NULL;
    int *mg = NULL, n = N;
    OK(hipMallocManaged((void **)&mg, N * sizeof(int), hipMemAttachGlobal));
    if (!mg)
        return;
    for (int i = 0; i < N; i++)
        mg[i] = i;
    /* Work ahead of the kernel on its stream: the kernel waits behind it. */
    OK(hipMemsetAsync(dev, 0, N * sizeof(int), s));
    if (!strncmp(c, "managed-read", 12)) {
        int v = 300;
        void *args[] = {&mg, &n, &v};
        OK(hipLaunchKernel(&k_fill, one, one, args, 0, s));
        if (sync)
            OK(hipStreamSynchronize(s));
        int got = mg[3]; /* RACE managed-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", got, mg[3]);
    } else {
        void *args[] = {&mg, &dev, &n};
        OK(hipLaunchKernel(&k_sum, one, one, args, 0, s));
        if (sync)
            OK(hipStreamSynchronize(s));
        mg[9] = -1; /* RACE managed-write */
        OK(hipStreamSynchronize(s));
        int sum = 0;
        OK(hipMemcpy(&sum, dev, sizeof sum, hipMemcpyDeviceToHost));
        printf("sum %d\n", sum);
    }
    OK(hipFree(mg));
}

/* ---- graph replays: the memcpy and memset nodes of a launched graph use
 * its host memory until the replay is observed complete, as the same eager
 * calls would. */

static bool is_graph_case(const char *c)
{
    static const char *const names[] = {"graph-h2d-write", "graph-h2d-write-sync", "graph-d2h-read",
                                        "graph-d2h-read-sync", "graph-loop-write", "graph-memset-read",
                                        "graph-pageable", "graph-set-write", "graph-disabled",
                                        "graph-managed-read"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(c, names[i]))
            return true;
    return false;
}

/* An exec of one memcpy node from `src` into the device buffer, captured. */
static hipGraphExec_t h2d_exec(hipGraph_t *g, const int *src)
{
    hipGraphExec_t ge = NULL;
    OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    OK(hipMemcpyAsync(dev, src, N * sizeof(int), hipMemcpyHostToDevice, s));
    OK(hipStreamEndCapture(s, g));
    OK(hipGraphInstantiate(&ge, *g, NULL, NULL, 0));
    return ge;
}

/* An exec of a fresh graph of one node into the pinned buffer: a memset
 * (memset_node) or a D2H memcpy. */
static hipGraphExec_t node_exec(hipGraph_t *g, int memset_node)
{
    hipGraphExec_t ge = NULL;
    hipGraphNode_t n = NULL;
    OK(hipGraphCreate(g, 0));
    if (memset_node) {
        hipMemsetParams p;
        memset(&p, 0, sizeof p);
        p.dst = pinned;
        p.value = 0x11;
        p.elementSize = 1;
        p.width = N * sizeof(int);
        p.height = 1;
        OK(hipGraphAddMemsetNode(&n, *g, NULL, 0, &p));
    } else {
        OK(hipGraphAddMemcpyNode1D(&n, *g, NULL, 0, pinned, dev, N * sizeof(int), hipMemcpyDeviceToHost));
    }
    OK(hipGraphInstantiate(&ge, *g, NULL, NULL, 0));
    return ge;
}

static void graph_case(const char *c)
{
    bool sync = strstr(c, "-sync") != NULL;
    static int pageable[N];
    hipGraph_t g = NULL;
    hipGraphExec_t ge = NULL;
    /* The device buffer's fill (a blocking copy from pageable memory, which
     * may return before the device has it) is done before a replay uses it. */
    OK(hipDeviceSynchronize());
    if (!strncmp(c, "graph-h2d-write", 15)) {
        ge = h2d_exec(&g, pinned2);
        OK(hipGraphLaunch(ge, s));
        if (sync)
            OK(hipStreamSynchronize(s));
        pinned2[9] = -1; /* RACE graph-h2d-write */
        OK(hipStreamSynchronize(s));
        int back[N];
        OK(hipMemcpy(back, dev, sizeof back, hipMemcpyDeviceToHost));
        printf("device[9] %d\n", back[9]);
    } else if (!strcmp(c, "graph-loop-write")) {
        ge = h2d_exec(&g, pinned2);
        for (int i = 0; i < 600; i++)
            OK(hipGraphLaunch(ge, s));
        pinned2[9] = -2; /* RACE graph-loop-write */
        OK(hipStreamSynchronize(s));
        printf("source %d\n", pinned2[9]);
    } else if (!strncmp(c, "graph-d2h-read", 14)) {
        ge = node_exec(&g, 0);
        OK(hipGraphLaunch(ge, s));
        if (sync)
            OK(hipStreamSynchronize(s));
        int v = pinned[3]; /* RACE graph-d2h-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", v, pinned[3]);
    } else if (!strcmp(c, "graph-set-write")) {
        ge = h2d_exec(&g, pinned2);
        hipGraphNode_t n = NULL;
        size_t nn = 1;
        OK(hipGraphGetNodes(g, &n, &nn));
        OK(hipGraphExecMemcpyNodeSetParams1D(ge, n, dev, pinned, N * sizeof(int), hipMemcpyHostToDevice));
        OK(hipGraphLaunch(ge, s));
        pinned2[9] = -1;
        pinned[9] = -3; /* RACE graph-set-write */
        OK(hipStreamSynchronize(s));
        int back[N];
        OK(hipMemcpy(back, dev, sizeof back, hipMemcpyDeviceToHost));
        printf("device[9] %d\n", back[9]);
    } else if (!strcmp(c, "graph-managed-read")) {
        static const size_t fill_sizes[] = {8, 4, 4};
        static const dim3 one = {1, 1, 1};
        int *mg = NULL, n = N, base = 300;
        OK(hipdouble_register_kernel(&k_fill, "hc_fill", fill_kernel, 3, fill_sizes, NULL));
        OK(hipMallocManaged((void **)&mg, N * sizeof(int), hipMemAttachGlobal));
        for (int i = 0; i < N && mg; i++)
            mg[i] = i;
        void *args[] = {&mg, &n, &base};
        OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
        OK(hipMemsetAsync(dev, 0, N * sizeof(int), s));   /* work ahead of the kernel in the replay */
        OK(hipLaunchKernel(&k_fill, one, one, args, 0, s));
        OK(hipStreamEndCapture(s, &g));
        OK(hipGraphInstantiate(&ge, g, NULL, NULL, 0));
        OK(hipGraphLaunch(ge, s));
        int got = mg ? mg[3] : 0; /* RACE graph-managed-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", got, mg ? mg[3] : 0);
        OK(hipFree(mg));
    } else if (!strcmp(c, "graph-disabled")) {
        ge = node_exec(&g, 0);
        hipGraphNode_t n = NULL;
        size_t nn = 1;
        OK(hipGraphGetNodes(g, &n, &nn));
        OK(hipGraphNodeSetEnabled(ge, n, 0));
        OK(hipGraphLaunch(ge, s));
        int v = pinned[3];
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", v, pinned[3]);
    } else if (!strcmp(c, "graph-memset-read")) {
        ge = node_exec(&g, 1);
        OK(hipGraphLaunch(ge, s));
        int v = pinned[5]; /* RACE graph-memset-read */
        OK(hipStreamSynchronize(s));
        printf("read %d, then %d\n", v, pinned[5]);
    } else {
        for (int i = 0; i < N; i++)
            pageable[i] = 7000 + i;
        ge = h2d_exec(&g, pageable);
        OK(hipGraphLaunch(ge, s));
        OK(hipGraphLaunch(ge, s));
        OK(hipStreamSynchronize(s));
        int back[N];
        OK(hipMemcpy(back, dev, sizeof back, hipMemcpyDeviceToHost));
        printf("device[9] %d\n", back[9]);
    }
    OK(hipGraphExecDestroy(ge));
    OK(hipGraphDestroy(g));
}
