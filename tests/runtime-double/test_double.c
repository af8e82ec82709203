/*
 * test_double.c - unit tests of the HIP runtime test double.
 *
 * TEST-ONLY: exercises tests/runtime-double (a host-memory stand-in for
 * libamdhip64.so.5 used by hipvis tests) through the HIP API. Runs in both
 * HIPDOUBLE_EXEC=lazy and =thread; checks that only hold in one mode say so.
 * Prints "double-unit: N passed, M failed" and exits non-zero on failure.
 */
#include "hipdouble.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static int g_pass, g_fail;
static bool g_lazy;

#define EXPECT(cond)                                                                 \
    do {                                                                             \
        if (cond) {                                                                  \
            g_pass++;                                                                \
        } else {                                                                     \
            g_fail++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                            \
    } while (0)

#define EXPECT_EQ(a, b)                                                              \
    do {                                                                             \
        long long a_ = (long long)(a), b_ = (long long)(b);                          \
        if (a_ == b_) {                                                              \
            g_pass++;                                                                \
        } else {                                                                     \
            g_fail++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, \
                    #a, #b, a_, b_);                                                 \
        }                                                                            \
    } while (0)

#define OK(call) EXPECT_EQ((call), hipSuccess)

/* ---- a log written by host functions and kernels ------------------------ */

static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_log[256];

static void log_put(char c)
{
    pthread_mutex_lock(&g_log_lock);
    size_t n = strlen(g_log);
    if (n + 1 < sizeof g_log) {
        g_log[n] = c;
        g_log[n + 1] = 0;
    }
    pthread_mutex_unlock(&g_log_lock);
}

static void log_reset(void)
{
    pthread_mutex_lock(&g_log_lock);
    g_log[0] = 0;
    pthread_mutex_unlock(&g_log_lock);
}

static bool log_is(const char *want)
{
    pthread_mutex_lock(&g_log_lock);
    bool ok = !strcmp(g_log, want);
    if (!ok)
        fprintf(stderr, "  log is \"%s\", want \"%s\"\n", g_log, want);
    pthread_mutex_unlock(&g_log_lock);
    return ok;
}

static void host_log(void *ud) { log_put((char)(uintptr_t)ud); }

static void host_log_slow(void *ud)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    log_put((char)(uintptr_t)ud);
}

#define TAG(c) ((void *)(uintptr_t)(c))

/* ---- kernels -------------------------------------------------------------- */

/* add(int32_t *p, int32_t n, int32_t v): p[i] += v */
static const char k_add;
static void add_kernel(void **args, dim3 g, dim3 b, void *user)
{
    (void)g;
    (void)b;
    (void)user;
    int32_t *p = *(int32_t **)args[0];
    int32_t n = *(int32_t *)args[1], v = *(int32_t *)args[2];
    for (int i = 0; i < n; i++)
        p[i] += v;
}

/* tag(int32_t id): appends 'a' + id to the log */
static const char k_tag;
static void tag_kernel(void **args, dim3 g, dim3 b, void *user)
{
    (void)g;
    (void)b;
    (void)user;
    log_put((char)('a' + *(int32_t *)args[0]));
}

/* probe(int64_t a, void *p, int32_t c): records its arguments and grid */
static struct {
    int64_t a;
    void *p;
    int32_t c;
    dim3 grid;
    int runs;
} g_probe;
static void probe_kernel(void **args, dim3 g, dim3 b, void *user)
{
    (void)b;
    (void)user;
    g_probe.a = *(int64_t *)args[0];
    g_probe.p = *(void **)args[1];
    g_probe.c = *(int32_t *)args[2];
    g_probe.grid = g;
    g_probe.runs++;
}

static const dim3 ONE = {1, 1, 1};

static hipError_t launch_add(hipStream_t s, int32_t *p, int32_t n, int32_t v)
{
    void *args[] = {&p, &n, &v};
    return hipLaunchKernel(&k_add, ONE, ONE, args, 0, s);
}

static hipError_t launch_tag(hipStream_t s, int32_t id)
{
    void *args[] = {&id};
    return hipLaunchKernel(&k_tag, ONE, ONE, args, 0, s);
}

static void register_kernels(void)
{
    static const size_t add_sizes[] = {8, 4, 4}, tag_sizes[] = {4}, probe_sizes[] = {8, 8, 4};
    EXPECT_EQ(hipdouble_register_kernel(&k_add, "add", add_kernel, 3, add_sizes, NULL), 0);
    EXPECT_EQ(hipdouble_register_kernel(&k_tag, "tag", tag_kernel, 1, tag_sizes, NULL), 0);
    EXPECT_EQ(hipdouble_register_module_kernel("probe", probe_kernel, 3, probe_sizes, NULL), 0);
    EXPECT_EQ(hipdouble_register_kernel(NULL, "x", add_kernel, 1, add_sizes, NULL), -1);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_identity(void)
{
    int n = 0, v = 0;
    EXPECT_EQ(hipdouble_is_test_double(), 1);
    OK(hipGetDeviceCount(&n));
    EXPECT_EQ(n, 1);
    OK(hipRuntimeGetVersion(&v));
    EXPECT(v > 0);
    OK(hipDriverGetVersion(&v));
    EXPECT(!strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue"));
    EXPECT(!strcmp(hipGetErrorString(hipSuccess), "no error"));
    EXPECT(!strcmp(hipdouble_faults(), "none"));
    EXPECT_EQ(hipdouble_set_faults("bogus"), -1);
    EXPECT_EQ(hipdouble_set_faults("h4,rs11501,rs11357,rs11403"), 0);
    EXPECT(!strcmp(hipdouble_faults(), "h4,rs11501,rs11357,rs11403"));
    EXPECT_EQ(hipdouble_set_faults("none"), 0);
    OK(hipSetDevice(0));
    EXPECT_EQ(hipSetDevice(3), hipErrorInvalidDevice);
    (void)hipGetLastError();
}

static void test_fifo_and_query(void)
{
    hipStream_t s;
    int32_t *dev, *pin;
    OK(hipStreamCreate(&s));
    OK(hipMalloc((void **)&dev, 16 * 4));
    OK(hipHostMalloc((void **)&pin, 16 * 4, 0));
    log_reset();
    OK(hipMemsetD32Async(dev, 7, 16, s));
    OK(hipLaunchHostFunc(s, host_log, TAG('1')));
    void (*last_fn)(void) = NULL;
    void *last_ud = NULL;
    hipdouble_last_host_fn(&last_fn, &last_ud);
    EXPECT(last_fn == (void (*)(void))host_log && last_ud == TAG('1'));
    OK(launch_add(s, dev, 16, 1));
    OK(launch_tag(s, 1));
    OK(hipMemcpyAsync(pin, dev, 16 * 4, hipMemcpyDeviceToHost, s));
    OK(hipLaunchHostFunc(s, host_log, TAG('3')));
    if (g_lazy) {
        EXPECT(log_is(""));
        EXPECT_EQ(pin[0], 0);
        EXPECT_EQ(hipStreamQuery(s), hipErrorNotReady); /* runs the work */
        EXPECT_EQ(hipStreamQuery(s), hipSuccess);
    }
    OK(hipStreamSynchronize(s));
    EXPECT(log_is("1b3"));
    EXPECT_EQ(pin[0], 8);
    EXPECT_EQ(pin[15], 8);
    EXPECT_EQ(hipStreamQuery(s), hipSuccess);
    OK(hipStreamDestroy(s));
    OK(hipFree(dev));
    OK(hipHostFree(pin));
}

static void test_events(void)
{
    hipStream_t s1, s2;
    hipEvent_t e, t0, t1, never;
    OK(hipStreamCreateWithFlags(&s1, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    OK(hipEventCreateWithFlags(&e, hipEventDisableTiming));
    OK(hipEventCreate(&t0));
    OK(hipEventCreate(&t1));
    OK(hipEventCreate(&never));
    log_reset();
    OK(hipEventRecord(t0, s1));
    OK(hipLaunchHostFunc(s1, host_log_slow, TAG('A')));
    OK(hipEventRecord(e, s1));
    OK(hipStreamWaitEvent(s2, e, 0));
    OK(hipLaunchHostFunc(s2, host_log, TAG('B')));
    OK(hipEventRecord(t1, s1));
    OK(hipStreamSynchronize(s2));
    EXPECT(log_is("AB"));
    OK(hipEventSynchronize(t1));
    float ms = -1;
    OK(hipEventElapsedTime(&ms, t0, t1));
    EXPECT(ms >= 0);
    EXPECT_EQ(hipEventElapsedTime(&ms, t0, e), hipErrorInvalidHandle); /* no timing */
    EXPECT_EQ(hipEventElapsedTime(&ms, t0, never), hipErrorInvalidHandle);
    EXPECT_EQ(hipEventQuery(never), hipSuccess);
    OK(hipEventSynchronize(never));
    /* query on pending work */
    OK(hipLaunchHostFunc(s1, host_log, TAG('C')));
    OK(hipEventRecord(e, s1));
    if (g_lazy) {
        EXPECT_EQ(hipEventQuery(e), hipErrorNotReady);
        EXPECT(log_is("ABC"));
    }
    OK(hipEventSynchronize(e));
    EXPECT_EQ(hipEventQuery(e), hipSuccess);
    /* a wait on an event of the same stream is a no-op */
    OK(hipStreamWaitEvent(s1, e, 0));
    OK(hipEventDestroy(e));
    EXPECT_EQ(hipEventDestroy(e), hipErrorInvalidHandle);
    OK(hipEventDestroy(t0));
    OK(hipEventDestroy(t1));
    OK(hipEventDestroy(never));
    OK(hipStreamDestroy(s1));
    OK(hipStreamDestroy(s2));
    (void)hipGetLastError();
}

static void test_null_stream(void)
{
    hipStream_t b, nb;
    OK(hipStreamCreate(&b));
    OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
    log_reset();
    OK(hipLaunchHostFunc(b, host_log_slow, TAG('A')));
    OK(hipLaunchHostFunc(nb, host_log_slow, TAG('X')));
    OK(hipLaunchHostFunc(NULL, host_log, TAG('N')));
    OK(hipStreamSynchronize(NULL));
    if (g_lazy)
        EXPECT(log_is("AN")); /* the non-blocking stream is not waited for */
    OK(hipStreamSynchronize(nb));
    log_reset();
    OK(hipLaunchHostFunc(NULL, host_log_slow, TAG('M')));
    OK(hipLaunchHostFunc(b, host_log, TAG('C')));
    OK(hipStreamSynchronize(b));
    EXPECT(log_is("MC"));
    /* hipStreamLegacy: the null stream alone (CLR finish()), not the
     * blocking streams a NULL-handle synchronize waits for. */
    log_reset();
    OK(hipLaunchHostFunc(NULL, host_log, TAG('L')));
    OK(hipLaunchHostFunc(b, host_log, TAG('B')));
    OK(hipStreamSynchronize(hipStreamLegacy));
    if (g_lazy)
        EXPECT(log_is("L"));
    OK(hipStreamSynchronize(b));
    EXPECT(log_is("LB"));
    /* per-thread default stream: _spt with a null handle means it */
    log_reset();
    OK(hipLaunchHostFunc(hipStreamPerThread, host_log_slow, TAG('P')));
    int32_t *dev;
    int32_t val = 5, back = 0;
    OK(hipMalloc((void **)&dev, 4));
    OK(hipMemcpyAsync_spt(dev, &val, 4, hipMemcpyHostToDevice, NULL));
    OK(hipLaunchHostFunc_spt(NULL, host_log, TAG('Q')));
    OK(hipStreamSynchronize(hipStreamPerThread));
    EXPECT(log_is("PQ"));
    OK(hipMemcpy_spt(&back, dev, 4, hipMemcpyDeviceToHost));
    EXPECT_EQ(back, 5);
    OK(hipFree(dev));
    OK(hipDeviceSynchronize());
    OK(hipStreamDestroy(b));
    OK(hipStreamDestroy(nb));
}

/* Identifies a captured kernel node by its first (int32) argument. */
static int node_tag(hipGraphNode_t n)
{
    hipKernelNodeParams p;
    if (hipGraphKernelNodeGetParams(n, &p) != hipSuccess || !p.kernelParams)
        return -1;
    return *(int32_t *)p.kernelParams[0];
}

static bool has_edge(hipGraphNode_t *from, hipGraphNode_t *to, size_t n, int a, int b)
{
    for (size_t i = 0; i < n; i++)
        if (node_tag(from[i]) == a && node_tag(to[i]) == b)
            return true;
    return false;
}

static void test_capture_topology(void)
{
    hipStream_t cs, s2;
    hipEvent_t e1, e2;
    hipGraph_t g;
    hipStreamCaptureStatus st;
    unsigned long long id = 0;
    OK(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    OK(hipEventCreate(&e1));
    OK(hipEventCreate(&e2));
    log_reset();
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipStreamIsCapturing(cs, &st));
    EXPECT_EQ(st, hipStreamCaptureStatusActive);
    OK(hipStreamGetCaptureInfo(cs, &st, &id));
    EXPECT(id != 0);
    OK(launch_tag(cs, 1));
    const hipGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    hipGraph_t during = NULL;
    OK(hipStreamGetCaptureInfo_v2(cs, &st, NULL, &during, &deps, &ndeps));
    EXPECT_EQ(ndeps, 1);
    EXPECT(during != NULL);
    EXPECT_EQ(hipGraphDestroy(during), hipErrorIllegalState);
    size_t nd = 0;
    OK(hipGraphGetNodes(during, NULL, &nd));
    EXPECT_EQ(nd, 1);
    OK(hipEventRecord(e1, cs));
    OK(hipStreamWaitEvent(s2, e1, 0)); /* fork */
    OK(hipStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, hipStreamCaptureStatusActive);
    OK(launch_tag(s2, 2));
    OK(launch_tag(cs, 3));
    OK(hipEventRecord(e2, s2));
    OK(hipStreamWaitEvent(cs, e2, 0)); /* join */
    OK(launch_tag(cs, 4));
    OK(hipStreamEndCapture(cs, &g));
    EXPECT(log_is("")); /* nothing ran */
    OK(hipStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, hipStreamCaptureStatusNone);

    size_t n = 0;
    OK(hipGraphGetNodes(g, NULL, &n));
    EXPECT_EQ(n, 4);
    hipGraphNode_t nodes[8];
    n = 8;
    OK(hipGraphGetNodes(g, nodes, &n));
    EXPECT_EQ(n, 4);
    for (size_t i = 0; i < 4; i++) {
        hipGraphNodeType t;
        OK(hipGraphNodeGetType(nodes[i], &t));
        EXPECT_EQ(t, hipGraphNodeTypeKernel);
    }
    hipGraphNode_t roots[4];
    size_t nr = 4;
    OK(hipGraphGetRootNodes(g, roots, &nr));
    EXPECT_EQ(nr, 1);
    EXPECT_EQ(node_tag(roots[0]), 1);
    hipGraphNode_t from[8], to[8];
    size_t ne = 0;
    OK(hipGraphGetEdges(g, NULL, NULL, &ne));
    EXPECT_EQ(ne, 4);
    ne = 8;
    OK(hipGraphGetEdges(g, from, to, &ne));
    EXPECT_EQ(ne, 4);
    EXPECT(has_edge(from, to, ne, 1, 2));
    EXPECT(has_edge(from, to, ne, 1, 3));
    EXPECT(has_edge(from, to, ne, 2, 4));
    EXPECT(has_edge(from, to, ne, 3, 4));

    hipGraphExec_t x;
    OK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    OK(hipGraphDestroy(g)); /* the exec keeps its own copy */
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT(log_is("bcde") || log_is("bdce"));
    OK(hipGraphExecDestroy(x));
    OK(hipEventDestroy(e1));
    OK(hipEventDestroy(e2));
    OK(hipStreamDestroy(cs));
    OK(hipStreamDestroy(s2));
}

static void test_capture_errors(void)
{
    hipStream_t cs, s2, blk;
    hipEvent_t e;
    hipGraph_t g = (hipGraph_t)1;
    OK(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    OK(hipStreamCreate(&blk));
    OK(hipEventCreate(&e));
    /* unjoined fork */
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipEventRecord(e, cs));
    OK(hipStreamWaitEvent(s2, e, 0));
    OK(launch_tag(s2, 1));
    EXPECT_EQ(hipStreamEndCapture(cs, &g), hipErrorStreamCaptureUnjoined);
    EXPECT(g == NULL);
    hipStreamCaptureStatus st;
    OK(hipStreamIsCapturing(s2, &st));
    EXPECT_EQ(st, hipStreamCaptureStatusNone);
    /* synchronizing a capturing stream */
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeRelaxed));
    EXPECT_EQ(hipStreamSynchronize(cs), hipErrorStreamCaptureUnsupported);
    OK(hipStreamIsCapturing(cs, &st));
    EXPECT_EQ(st, hipStreamCaptureStatusInvalidated);
    EXPECT_EQ(hipStreamEndCapture(cs, &g), hipErrorStreamCaptureInvalidated);
    /* device sync during a global capture */
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    EXPECT_EQ(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
    EXPECT_EQ(hipStreamEndCapture(cs, &g), hipErrorStreamCaptureInvalidated);
    /* legacy-stream work while a blocking stream captures */
    OK(hipStreamBeginCapture(blk, hipStreamCaptureModeRelaxed));
    EXPECT_EQ(launch_tag(NULL, 1), hipErrorStreamCaptureImplicit);
    EXPECT_EQ(hipStreamEndCapture(blk, &g), hipErrorStreamCaptureInvalidated);
    /* captured events */
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipEventRecord(e, cs));
    EXPECT_EQ(hipEventQuery(e), hipErrorCapturedEvent);
    EXPECT_EQ(hipStreamEndCapture(s2, &g), hipErrorIllegalState);
    OK(hipStreamEndCapture(cs, &g));
    OK(hipGraphDestroy(g));
    OK(hipEventQuery(e));
    /* misc */
    EXPECT_EQ(hipStreamBeginCapture(NULL, hipStreamCaptureModeGlobal),
              hipErrorStreamCaptureUnsupported);
    EXPECT_EQ(hipStreamEndCapture(cs, &g), hipErrorIllegalState);
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    EXPECT_EQ(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal), hipErrorIllegalState);
    OK(hipStreamEndCapture(cs, &g));
    size_t n = 9;
    OK(hipGraphGetNodes(g, NULL, &n));
    EXPECT_EQ(n, 0);
    OK(hipGraphDestroy(g));
    OK(hipEventDestroy(e));
    OK(hipStreamDestroy(cs));
    OK(hipStreamDestroy(s2));
    OK(hipStreamDestroy(blk));
    (void)hipGetLastError();
}

/* Captures: H2D copy pinned->dev, add(dev, n, v), D2H dev->out. */
static hipGraph_t capture_pipeline(hipStream_t cs, int32_t *pin_in, int32_t *dev, int32_t *pin_out,
                                   int n, int v, bool extra_node)
{
    hipGraph_t g = NULL;
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipMemcpyAsync(dev, pin_in, (size_t)n * 4, hipMemcpyHostToDevice, cs));
    OK(launch_add(cs, dev, n, v));
    if (extra_node)
        OK(hipMemsetAsync(pin_out, 0, 4, cs));
    OK(hipMemcpyAsync(pin_out, dev, (size_t)n * 4, hipMemcpyDeviceToHost, cs));
    OK(hipStreamEndCapture(cs, &g));
    return g;
}

static hipGraphNode_t find_kernel_node(hipGraph_t g)
{
    hipGraphNode_t nodes[8];
    size_t n = 8;
    if (hipGraphGetNodes(g, nodes, &n) != hipSuccess)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        hipGraphNodeType t;
        if (hipGraphNodeGetType(nodes[i], &t) == hipSuccess && t == hipGraphNodeTypeKernel)
            return nodes[i];
    }
    return NULL;
}

static void test_replay_and_update(void)
{
    enum { N = 32 };
    hipStream_t cs;
    int32_t *in, *out, *dev;
    OK(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking));
    OK(hipHostMalloc((void **)&in, N * 4, 0));
    OK(hipHostMalloc((void **)&out, N * 4, 0));
    OK(hipMalloc((void **)&dev, N * 4));
    hipGraph_t g = capture_pipeline(cs, in, dev, out, N, 10, false);
    size_t n = 0;
    OK(hipGraphGetNodes(g, NULL, &n));
    EXPECT_EQ(n, 3);
    hipGraphNode_t nodes[3];
    n = 3;
    OK(hipGraphGetNodes(g, nodes, &n));
    hipGraphNodeType t;
    OK(hipGraphNodeGetType(nodes[0], &t));
    EXPECT_EQ(t, hipGraphNodeTypeMemcpy);
    hipMemcpy3DParms mp;
    OK(hipGraphMemcpyNodeGetParams(nodes[0], &mp));
    EXPECT(mp.dstPtr.ptr == dev && mp.srcPtr.ptr == in && mp.extent.width == N * 4);
    hipKernelNodeParams kp;
    OK(hipGraphKernelNodeGetParams(nodes[1], &kp));
    EXPECT(kp.func == &k_add && kp.kernelParams && *(int32_t **)kp.kernelParams[0] == dev);
    EXPECT_EQ(*(int32_t *)kp.kernelParams[2], 10);

    hipGraphExec_t x;
    OK(hipGraphInstantiateWithFlags(&x, g, hipGraphInstantiateFlagAutoFreeOnLaunch));
    for (int i = 0; i < N; i++)
        in[i] = i;
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[5], 15);
    for (int i = 0; i < N; i++)
        in[i] = 100 + i;
    OK(hipGraphLaunch(x, cs));
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[5], 115);

    /* exec kernel-node update (the source graph keeps its parameters) */
    hipKernelNodeParams np = kp;
    int32_t *pdev = dev, nn = N, v = 1000;
    void *args[] = {&pdev, &nn, &v};
    np.kernelParams = args;
    OK(hipGraphExecKernelNodeSetParams(x, nodes[1], &np));
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[5], 1105);
    OK(hipGraphKernelNodeGetParams(nodes[1], &kp));
    EXPECT_EQ(*(int32_t *)kp.kernelParams[2], 10);

    /* whole-graph update with the same topology */
    hipGraph_t g2 = capture_pipeline(cs, in, dev, out, N, 7, false);
    hipGraphNode_t err = (hipGraphNode_t)1;
    hipGraphExecUpdateResult r = hipGraphExecUpdateError;
    OK(hipGraphExecUpdate(x, g2, &err, &r));
    EXPECT_EQ(r, hipGraphExecUpdateSuccess);
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[5], 112);
    hipGraphNode_t k2 = find_kernel_node(g2);
    np.kernelParams = args;
    v = 2000;
    OK(hipGraphExecKernelNodeSetParams(x, k2, &np)); /* node of the update source */
    OK(hipGraphLaunch(x, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[5], 2105);

    /* topology change */
    hipGraph_t g3 = capture_pipeline(cs, in, dev, out, N, 7, true);
    EXPECT_EQ(hipGraphExecUpdate(x, g3, &err, &r), hipErrorGraphExecUpdateFailure);
    EXPECT_EQ(r, hipGraphExecUpdateErrorTopologyChanged);

    /* pinned sources are read when the copy executes (lazy mode only: in
     * thread mode the rewrite is a genuine race with the worker) */
    if (g_lazy) {
        for (int i = 0; i < N; i++)
            in[i] = 1;
        OK(hipMemcpyAsync(dev, in, N * 4, hipMemcpyHostToDevice, cs));
        in[0] = 42;
        OK(hipMemcpyAsync(out, dev, N * 4, hipMemcpyDeviceToHost, cs));
        OK(hipStreamSynchronize(cs));
        EXPECT_EQ(out[0], 42);
    }
    /* pageable sources are staged at enqueue */
    int32_t page[4] = {9, 9, 9, 9};
    OK(hipMemcpyAsync(dev, page, sizeof page, hipMemcpyHostToDevice, cs));
    page[0] = 3;
    OK(hipMemcpyAsync(out, dev, sizeof page, hipMemcpyDeviceToHost, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT_EQ(out[0], 9);

    OK(hipGraphExecDestroy(x));
    OK(hipGraphDestroy(g));
    OK(hipGraphDestroy(g2));
    OK(hipGraphDestroy(g3));
    OK(hipFree(dev));
    OK(hipHostFree(in));
    OK(hipHostFree(out));
    OK(hipStreamDestroy(cs));
    (void)hipGetLastError();
}

static int g_host_runs;
static void count_host(void *ud)
{
    (void)ud;
    __atomic_fetch_add(&g_host_runs, 1, __ATOMIC_SEQ_CST);
}

static void test_manual_graph(void)
{
    enum { N = 8 };
    int32_t *dev, *out;
    hipStream_t s;
    hipEvent_t ev;
    OK(hipStreamCreate(&s));
    OK(hipEventCreate(&ev));
    OK(hipMalloc((void **)&dev, N * 4));
    OK(hipHostMalloc((void **)&out, N * 4, 0));
    hipGraph_t g, child;
    OK(hipGraphCreate(&g, 0));
    OK(hipGraphCreate(&child, 0));
    hipGraphNode_t ms, k, cp, h, em, er, ch, ch_host;
    hipMemsetParams msp = {.dst = dev, .elementSize = 4, .height = 1, .value = 5, .width = N};
    OK(hipGraphAddMemsetNode(&ms, g, NULL, 0, &msp));
    int32_t *pdev = dev, n = N, v = 1;
    void *args[] = {&pdev, &n, &v};
    hipKernelNodeParams kp = {.blockDim = ONE, .func = (void *)&k_add, .gridDim = ONE,
                              .kernelParams = args};
    OK(hipGraphAddKernelNode(&k, g, &ms, 1, &kp));
    v = 99; /* values were copied when the node was added */
    OK(hipGraphAddMemcpyNode1D(&cp, g, &k, 1, out, dev, N * 4, hipMemcpyDeviceToHost));
    hipHostNodeParams hp = {count_host, NULL};
    OK(hipGraphAddHostNode(&h, g, NULL, 0, &hp));
    OK(hipGraphAddEmptyNode(&em, g, NULL, 0));
    hipGraphNode_t from[] = {cp, h}, to[] = {em, em};
    OK(hipGraphAddDependencies(g, from, to, 2));
    EXPECT_EQ(hipGraphAddDependencies(g, from, to, 1), hipErrorInvalidValue); /* duplicate */
    OK(hipGraphAddEventRecordNode(&er, g, &em, 1, ev));
    OK(hipGraphAddHostNode(&ch_host, child, NULL, 0, &hp));
    OK(hipGraphAddChildGraphNode(&ch, g, &er, 1, child));

    hipGraphNodeType t;
    OK(hipGraphNodeGetType(ms, &t));
    EXPECT_EQ(t, hipGraphNodeTypeMemset);
    OK(hipGraphNodeGetType(h, &t));
    EXPECT_EQ(t, hipGraphNodeTypeHost);
    OK(hipGraphNodeGetType(em, &t));
    EXPECT_EQ(t, hipGraphNodeTypeEmpty);
    OK(hipGraphNodeGetType(er, &t));
    EXPECT_EQ(t, hipGraphNodeTypeEventRecord);
    OK(hipGraphNodeGetType(ch, &t));
    EXPECT_EQ(t, hipGraphNodeTypeGraph);
    hipMemsetParams msp2;
    OK(hipGraphMemsetNodeGetParams(ms, &msp2));
    EXPECT(msp2.dst == dev && msp2.value == 5 && msp2.width == N);
    hipHostNodeParams hp2;
    OK(hipGraphHostNodeGetParams(h, &hp2));
    EXPECT(hp2.fn == count_host);
    hipEvent_t got;
    OK(hipGraphEventRecordNodeGetEvent(er, &got));
    EXPECT(got == ev);
    EXPECT_EQ(hipGraphEventWaitNodeGetEvent(er, &got), hipErrorInvalidValue);
    hipGraph_t emb;
    OK(hipGraphChildGraphNodeGetGraph(ch, &emb));
    size_t cn = 0;
    OK(hipGraphGetNodes(emb, NULL, &cn));
    EXPECT_EQ(cn, 1);
    hipGraphNode_t roots[8];
    size_t nr = 8;
    OK(hipGraphGetRootNodes(g, roots, &nr));
    EXPECT_EQ(nr, 2);
    EXPECT_EQ(hipGraphMemcpyNodeGetParams(k, &(hipMemcpy3DParms){0}), hipErrorInvalidValue);

    hipGraphExec_t x;
    hipGraphInstantiateParams ip = {.flags = 0};
    OK(hipGraphInstantiateWithParams(&x, g, &ip));
    EXPECT_EQ(ip.result_out, hipGraphInstantiateSuccess);
    OK(hipGraphUpload(x, s));
    g_host_runs = 0;
    OK(hipGraphLaunch(x, s));
    OK(hipEventSynchronize(ev));
    OK(hipStreamSynchronize(s));
    EXPECT_EQ(out[0], 6);
    EXPECT_EQ(out[N - 1], 6);
    EXPECT_EQ(g_host_runs, 2);

    /* event wait node: waits for a record made on another stream */
    hipStream_t other;
    hipEvent_t ev2;
    OK(hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
    OK(hipEventCreate(&ev2));
    hipGraph_t gw;
    hipGraphNode_t wn, hn;
    OK(hipGraphCreate(&gw, 0));
    OK(hipGraphAddEventWaitNode(&wn, gw, NULL, 0, ev2));
    hipHostNodeParams lp = {host_log, TAG('W')};
    OK(hipGraphAddHostNode(&hn, gw, &wn, 1, &lp));
    hipGraphExec_t xw;
    OK(hipGraphInstantiate(&xw, gw, NULL, NULL, 0));
    log_reset();
    OK(hipLaunchHostFunc(other, host_log_slow, TAG('V')));
    OK(hipEventRecord(ev2, other));
    OK(hipGraphLaunch(xw, s));
    OK(hipStreamSynchronize(s));
    EXPECT(log_is("VW"));

    /* cycles are rejected at instantiate */
    hipGraphNode_t back_from[] = {ch}, back_to[] = {ms};
    OK(hipGraphAddDependencies(g, back_from, back_to, 1));
    hipGraphExec_t bad;
    EXPECT_EQ(hipGraphInstantiate(&bad, g, NULL, NULL, 0), hipErrorInvalidValue);

    OK(hipGraphExecDestroy(x));
    OK(hipGraphExecDestroy(xw));
    OK(hipGraphDestroy(g));
    OK(hipGraphDestroy(gw));
    OK(hipGraphDestroy(child));
    EXPECT_EQ(hipGraphNodeGetType(ms, &t), hipErrorInvalidValue); /* destroyed with g */
    OK(hipEventDestroy(ev));
    OK(hipEventDestroy(ev2));
    OK(hipStreamDestroy(s));
    OK(hipStreamDestroy(other));
    OK(hipFree(dev));
    OK(hipHostFree(out));
    (void)hipGetLastError();
}

static void test_capture_extras(void)
{
    hipStream_t cs;
    hipEvent_t e;
    int32_t *dev;
    OK(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking));
    OK(hipEventCreate(&e));
    OK(hipMalloc((void **)&dev, 64));
    /* a graph launched while capturing becomes a child graph node */
    hipGraph_t inner, outer;
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeThreadLocal));
    OK(launch_tag(cs, 7));
    OK(hipStreamEndCapture(cs, &inner));
    hipGraphExec_t xi;
    OK(hipGraphInstantiate(&xi, inner, NULL, NULL, 0));
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipMemsetAsync(dev, 1, 64, cs));
    OK(hipGraphLaunch(xi, cs));
    OK(hipEventRecordWithFlags(e, cs, hipEventRecordExternal));
    OK(hipStreamWaitEvent(cs, e, hipEventWaitExternal));
    hipGraphNode_t none[1];
    OK(hipStreamUpdateCaptureDependencies(cs, none, 0, hipStreamSetCaptureDependencies));
    OK(hipLaunchHostFunc(cs, host_log, TAG('R')));
    OK(hipStreamEndCapture(cs, &outer));
    hipGraphNode_t nodes[8];
    size_t n = 8;
    OK(hipGraphGetNodes(outer, nodes, &n));
    EXPECT_EQ(n, 5);
    hipGraphNodeType want[] = {hipGraphNodeTypeMemset, hipGraphNodeTypeGraph,
                               hipGraphNodeTypeEventRecord, hipGraphNodeTypeWaitEvent,
                               hipGraphNodeTypeHost};
    for (size_t i = 0; i < n && i < 5; i++) {
        hipGraphNodeType t;
        OK(hipGraphNodeGetType(nodes[i], &t));
        EXPECT_EQ(t, want[i]);
    }
    size_t nr = 8;
    hipGraphNode_t roots[8];
    OK(hipGraphGetRootNodes(outer, roots, &nr));
    EXPECT_EQ(nr, 2); /* the memset and the host node after the dependency reset */
    hipGraph_t emb;
    OK(hipGraphChildGraphNodeGetGraph(nodes[1], &emb));
    size_t en = 0;
    OK(hipGraphGetNodes(emb, NULL, &en));
    EXPECT_EQ(en, 1);
    hipGraphExec_t xo;
    OK(hipGraphInstantiate(&xo, outer, NULL, NULL, 0));
    log_reset();
    OK(hipGraphLaunch_spt(xo, cs));
    OK(hipStreamSynchronize(cs));
    EXPECT(log_is("hR"));
    OK(hipGraphExecDestroy(xi));
    OK(hipGraphExecDestroy(xo));
    OK(hipGraphDestroy(inner));
    OK(hipGraphDestroy(outer));
    OK(hipFree(dev));
    OK(hipEventDestroy(e));
    OK(hipStreamDestroy(cs));
}

static void test_errors(void)
{
    (void)hipGetLastError();
    EXPECT_EQ(hipStreamSynchronize((hipStream_t)0x1234), hipErrorInvalidHandle);
    EXPECT_EQ(hipPeekAtLastError(), hipErrorInvalidHandle);
    EXPECT_EQ(hipGetLastError(), hipErrorInvalidHandle);
    EXPECT_EQ(hipGetLastError(), hipSuccess);
    int32_t *d;
    OK(hipMalloc((void **)&d, 64));
    int32_t buf[32] = {0};
    EXPECT_EQ(hipMemcpy(d, buf, 128, hipMemcpyHostToDevice), hipErrorInvalidValue); /* overflow */
    OK(hipFree(d));
    EXPECT_EQ(hipFree(d), hipErrorInvalidValue);
    EXPECT_EQ(hipMemcpy(d, buf, 4, hipMemcpyHostToDevice), hipErrorInvalidValue);
    EXPECT_EQ(hipMemsetAsync(d, 0, 4, NULL), hipErrorInvalidValue);
    EXPECT_EQ(hipMemcpy(NULL, buf, 4, hipMemcpyHostToDevice), hipErrorInvalidValue);
    EXPECT_EQ(hipMemcpy(buf, buf + 1, 4, (hipMemcpyKind)9), hipErrorInvalidMemcpyDirection);
    OK(hipMemcpy(buf, buf + 1, 0, hipMemcpyHostToHost));
    EXPECT_EQ(hipEventDestroy((hipEvent_t)0x10), hipErrorInvalidHandle);
    EXPECT_EQ(hipStreamDestroy(NULL), hipErrorInvalidHandle);
    EXPECT_EQ(hipGraphLaunch(NULL, NULL), hipErrorInvalidValue);
    EXPECT_EQ(hipGraphDestroy(NULL), hipErrorInvalidValue);
    static const char unknown_stub;
    EXPECT_EQ(hipLaunchKernel(&unknown_stub, ONE, ONE, NULL, 0, NULL), hipErrorInvalidDeviceFunction);
    dim3 zero = {0, 1, 1};
    EXPECT_EQ(hipLaunchKernel(&k_tag, zero, ONE, NULL, 0, NULL), hipErrorInvalidConfiguration);
    EXPECT_EQ(hipStreamCreateWithFlags(NULL, 0), hipErrorInvalidValue);
    /* freed device memory is quarantined (poisoned) and reused for the same size */
    int32_t *a, *b;
    OK(hipMalloc((void **)&a, 4096));
    OK(hipFree(a));
    EXPECT_EQ(a[0], (int32_t)0xDBDBDBDB);
    OK(hipMalloc((void **)&b, 4096));
    EXPECT(a == b);
    OK(hipFreeAsync(b, NULL));
    OK(hipStreamSynchronize(NULL));
    hipPointerAttribute_t pa;
    EXPECT_EQ(hipPointerGetAttributes(&pa, b), hipErrorInvalidValue);
    (void)hipGetLastError();
}

static void test_memory_apis(void)
{
    int32_t *d, *p, host[64];
    OK(hipMalloc((void **)&d, 256));
    OK(hipHostMalloc((void **)&p, 256, hipHostMallocDefault));
    hipPointerAttribute_t pa;
    OK(hipPointerGetAttributes(&pa, (char *)d + 8));
    EXPECT_EQ(pa.memoryType, hipMemoryTypeDevice);
    OK(hipPointerGetAttributes(&pa, p));
    EXPECT_EQ(pa.memoryType, hipMemoryTypeHost);
    EXPECT(pa.hostPointer == p);
    EXPECT_EQ(hipPointerGetAttributes(&pa, host), hipErrorInvalidValue);
    OK(hipHostRegister(host, sizeof host, 0));
    EXPECT_EQ(hipHostRegister(host, sizeof host, 0), hipErrorHostMemoryAlreadyRegistered);
    OK(hipPointerGetAttributes(&pa, host));
    EXPECT_EQ(pa.memoryType, hipMemoryTypeHost);
    OK(hipHostUnregister(host));
    EXPECT_EQ(hipHostUnregister(host), hipErrorHostMemoryNotRegistered);
    void *base = NULL;
    OK(hipPointerGetAttribute(&base, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, (char *)d + 12));
    EXPECT(base == d);
    /* 2D copy / memset */
    OK(hipMemset2D(d, 64, 0x11, 16, 4));
    unsigned char rows[4][16];
    OK(hipMemcpy2D(rows, 16, d, 64, 16, 4, hipMemcpyDeviceToHost));
    EXPECT_EQ(rows[3][15], 0x11);
    OK(hipMemsetD16(d, 0x2222, 2));
    OK(hipMemsetD8((char *)d + 4, 0x33, 1));
    OK(hipMemcpyDtoH(host, d, 8));
    EXPECT_EQ(host[0], 0x22222222);
    EXPECT_EQ(host[1] & 0xFF, 0x33);
    host[0] = 77;
    OK(hipMemcpyHtoD(d, host, 4));
    OK(hipMemcpyDtoD((char *)d + 128, d, 4));
    OK(hipMemcpyPeer(p, 0, (char *)d + 128, 0, 4));
    EXPECT_EQ(p[0], 77);
    EXPECT_EQ(hipMemcpyPeer(p, 1, d, 0, 4), hipErrorInvalidDevice);
    hipMemcpy3DParms m3 = {0};
    m3.srcPtr = (hipPitchedPtr){d, 256, 256, 1};
    m3.dstPtr = (hipPitchedPtr){p, 256, 256, 1};
    m3.extent = (hipExtent){4, 1, 1};
    m3.kind = hipMemcpyDeviceToHost;
    p[0] = 0;
    OK(hipMemcpy3D(&m3));
    EXPECT_EQ(p[0], 77);
    void *ptr = NULL;
    OK(hipExtMallocWithFlags(&ptr, 64, hipDeviceMallocFinegrained));
    OK(hipFree(ptr));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    OK(hipMallocHost(&ptr, 64));
    OK(hipHostFree(ptr));
    OK(hipHostAlloc(&ptr, 64, 0));
    OK(hipHostFree(ptr));
#pragma GCC diagnostic pop
    OK(hipMallocAsync(&ptr, 64, NULL));
    OK(hipFreeAsync(ptr, NULL));
    OK(hipFree(d));
    OK(hipHostFree(p));
    (void)hipGetLastError();
}

static void test_kernels_and_modules(void)
{
    /* arguments are copied at enqueue */
    int64_t a = 11;
    int32_t c = 3;
    void *pp = &a;
    hipModule_t m;
    hipFunction_t f, noop;
    OK(hipModuleLoad(&m, "/proc/self/exe")); /* an ELF: names are checked */
    OK(hipModuleGetFunction(&f, m, "probe")); /* registered by name */
    OK(hipModuleGetFunction(&noop, m, "main")); /* a symbol of the image */
    EXPECT_EQ(hipModuleGetFunction(&noop, m, "no_such_kernel_here"), hipErrorNotFound);
    void *params[] = {&a, &pp, &c};
    memset(&g_probe, 0, sizeof g_probe);
    OK(hipModuleLaunchKernel(f, 2, 3, 4, 1, 1, 1, 0, NULL, params, NULL));
    a = 99;
    c = 99;
    OK(hipDeviceSynchronize());
    EXPECT_EQ(g_probe.a, 11);
    EXPECT_EQ(g_probe.c, 3);
    EXPECT(g_probe.p == &a);
    EXPECT_EQ(g_probe.grid.z, 4);
    /* the packed `extra` form */
    struct {
        int64_t a;
        void *p;
        int32_t c;
    } packed = {21, &c, 5};
    size_t sz = sizeof packed;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                     HIP_LAUNCH_PARAM_END};
    OK(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, extra));
    OK(hipStreamSynchronize(NULL));
    EXPECT_EQ(g_probe.a, 21);
    EXPECT_EQ(g_probe.c, 5);
    EXPECT(g_probe.p == &c);
    OK(hipExtModuleLaunchKernel(f, 256, 1, 1, 64, 1, 1, 0, NULL, params, NULL, NULL, NULL, 0));
    OK(hipModuleLaunchKernel(noop, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    OK(hipDeviceSynchronize());
    EXPECT_EQ(g_probe.grid.x, 4);
    /* extra-form launches keep `extra` in the captured node */
    hipStream_t cs;
    hipGraph_t g;
    OK(hipStreamCreateWithFlags(&cs, hipStreamNonBlocking));
    OK(hipStreamBeginCapture(cs, hipStreamCaptureModeGlobal));
    OK(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, cs, NULL, extra));
    OK(hipStreamEndCapture(cs, &g));
    hipGraphNode_t node;
    size_t n = 1;
    OK(hipGraphGetNodes(g, &node, &n));
    hipKernelNodeParams kp;
    OK(hipGraphKernelNodeGetParams(node, &kp));
    EXPECT(kp.func == (void *)f && kp.kernelParams == NULL && kp.extra != NULL);
    EXPECT(kp.extra && kp.extra[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER &&
           ((int64_t *)kp.extra[1])[0] == 21 && *(size_t *)kp.extra[3] == sizeof packed);
    OK(hipGraphDestroy(g));
    OK(hipStreamDestroy(cs));
    /* non-ELF images load; every name resolves (no-op unless registered) */
    static const char bundle[] = "__CLANG_OFFLOAD_BUNDLE__\0\0\0\0";
    hipModule_t mb;
    OK(hipModuleLoadData(&mb, bundle));
    OK(hipModuleGetFunction(&noop, mb, "triton_kernel_anything"));
    OK(hipModuleLoadDataEx(&mb, bundle, 0, NULL, NULL));
    OK(hipModuleUnload(mb));
    EXPECT_EQ(hipModuleGetFunction(&noop, mb, "x"), hipErrorInvalidHandle);
    OK(hipModuleUnload(m));
    EXPECT_EQ(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL),
              hipErrorInvalidHandle);
    EXPECT_EQ(hipModuleLoad(&m, "/nonexistent/code.hsaco"), hipErrorFileNotFound);
    /* compiler registration path: stub -> name -> by-name kernel */
    static const char stub, stub_unknown;
    void **mods = __hipRegisterFatBinary("fatbin");
    __hipRegisterFunction(mods, &stub, (char *)"probe", "probe", 0, NULL, NULL, NULL, NULL, NULL);
    __hipRegisterFunction(mods, &stub_unknown, (char *)"nokernel", "nokernel", 0, NULL, NULL, NULL,
                          NULL, NULL);
    a = 33;
    OK(hipLaunchKernel(&stub, ONE, ONE, params, 0, NULL));
    OK(hipLaunchKernel(&stub_unknown, ONE, ONE, NULL, 0, NULL));
    OK(hipDeviceSynchronize());
    EXPECT_EQ(g_probe.a, 33);
    __hipUnregisterFatBinary(mods);
    dim3 gd = {5, 1, 1}, bd, gr;
    size_t shm = 0;
    hipStream_t st = NULL;
    OK(__hipPushCallConfiguration(gd, ONE, 16, NULL));
    OK(__hipPopCallConfiguration(&gr, &bd, &shm, &st));
    EXPECT(gr.x == 5 && shm == 16);
    EXPECT_EQ(__hipPopCallConfiguration(&gr, &bd, &shm, &st), hipErrorMissingConfiguration);
    /* hipExtLaunchKernel records its timing events around the kernel */
    hipEvent_t t0, t1;
    OK(hipEventCreate(&t0));
    OK(hipEventCreate(&t1));
    log_reset();
    int32_t id = 4;
    void *targs[] = {&id};
    OK(hipExtLaunchKernel(&k_tag, ONE, ONE, targs, 0, NULL, t0, t1, 0));
    OK(hipEventSynchronize(t1));
    float ms = -1;
    OK(hipEventElapsedTime(&ms, t0, t1));
    EXPECT(ms >= 0 && log_is("e"));
    OK(hipEventDestroy(t0));
    OK(hipEventDestroy(t1));
    (void)hipGetLastError();
}

static void stream_cb(hipStream_t s, hipError_t st, void *ud)
{
    (void)s;
    if (st == hipSuccess)
        log_put((char)(uintptr_t)ud);
}

static void *thread_body(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50; i++) {
        hipStream_t s;
        int32_t *d, v = 0;
        if (hipStreamCreate(&s) != hipSuccess || hipMalloc((void **)&d, 4) != hipSuccess)
            return (void *)1;
        (void)hipMemsetD32Async(d, i, 1, s);
        (void)launch_add(s, d, 1, 1);
        (void)hipMemcpyAsync(&v, d, 4, hipMemcpyDeviceToHost, s);
        (void)hipStreamSynchronize(s);
        (void)hipStreamDestroy(s);
        (void)hipFree(d);
        if (v != i + 1)
            return (void *)1;
    }
    return NULL;
}

static void test_callbacks_and_threads(void)
{
    hipStream_t s;
    OK(hipStreamCreate(&s));
    log_reset();
    OK(hipLaunchHostFunc(s, host_log, TAG('x')));
    OK(hipStreamAddCallback(s, stream_cb, TAG('y'), 0));
    void (*last_fn)(void) = NULL;
    void *last_ud = NULL;
    hipdouble_last_host_fn(&last_fn, &last_ud);
    EXPECT(last_fn == (void (*)(void))stream_cb && last_ud == TAG('y'));
    EXPECT_EQ(hipStreamAddCallback(s, stream_cb, TAG('z'), 1), hipErrorInvalidValue);
    hipdouble_last_host_fn(&last_fn, &last_ud);
    EXPECT(last_ud == TAG('y')); /* a refused call is not noted */
    (void)hipGetLastError();
    OK(hipStreamSynchronize(s));
    EXPECT(log_is("xy"));
    unsigned flags = 9;
    int prio = 9;
    OK(hipStreamGetFlags(s, &flags));
    EXPECT_EQ(flags, 0);
    OK(hipStreamGetPriority(s, &prio));
    EXPECT_EQ(prio, 0);
    OK(hipStreamDestroy(s));
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        EXPECT_EQ(pthread_create(&th[i], NULL, thread_body, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *r = (void *)1;
        pthread_join(th[i], &r);
        EXPECT(r == NULL);
    }
}

/* h1 (lazy mode): roots of a branchy graph and children at out-edge index
 * >= DEBUG_HIP_FORCE_GRAPH_QUEUES (4) run on parallel queues that do not
 * wait for the launch stream; the rest is joined back in order. */
static void test_h1_parallel_queues(void)
{
    if (!g_lazy)
        return;
    hipGraph_t g;
    hipGraphNode_t root, kids[5];
    OK(hipGraphCreate(&g, 0));
    int32_t id = 0;
    void *args[] = {&id};
    hipKernelNodeParams kp = {.blockDim = ONE, .func = (void *)&k_tag, .gridDim = ONE,
                              .kernelParams = args};
    OK(hipGraphAddKernelNode(&root, g, NULL, 0, &kp));
    for (int i = 0; i < 5; i++) {
        id = i + 1;
        OK(hipGraphAddKernelNode(&kids[i], g, &root, 1, &kp));
    }
    hipGraphExec_t x;
    OK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    hipStream_t s;
    OK(hipStreamCreate(&s));
    const char *want[] = {"Pabcdef", "afPbcde"};
    for (int fault = 0; fault < 2; fault++) {
        EXPECT_EQ(hipdouble_set_faults(fault ? "h1" : "none"), 0);
        log_reset();
        OK(hipLaunchHostFunc(s, host_log, TAG('P')));
        OK(hipGraphLaunch(x, s));
        OK(hipStreamSynchronize(s));
        EXPECT(log_is(want[fault]));
    }
    EXPECT_EQ(hipdouble_set_faults("none"), 0);
    OK(hipGraphExecDestroy(x));
    OK(hipGraphDestroy(g));
    OK(hipStreamDestroy(s));
}

/* Managed memory: the double's kernels, memsets and copies reach it through
 * their own alias, so they complete while the program's mapping is
 * PROT_NONE (a tracer protecting it during a launch), and the host sees
 * their values once it has access again. Both launch forms: the params
 * array (hipLaunchKernel) and the packed `extra` buffer. */
static void test_managed_alias(void)
{
    enum { N = 16 };
    static const size_t add_sizes[] = {8, 4, 4};
    EXPECT_EQ(hipdouble_register_module_kernel("managed_add", add_kernel, 3, add_sizes, NULL), 0);
    static const char bundle[] = "__CLANG_OFFLOAD_BUNDLE__\0\0\0\0";
    hipModule_t mod;
    hipFunction_t f;
    OK(hipModuleLoadData(&mod, bundle));
    OK(hipModuleGetFunction(&f, mod, "managed_add"));
    int32_t *m = NULL, *d = NULL, host[N];
    OK(hipMallocManaged((void **)&m, 4096, hipMemAttachGlobal));
    OK(hipMalloc((void **)&d, N * sizeof(int32_t)));
    EXPECT(m && ((uintptr_t)m & 4095) == 0);
    for (int i = 0; i < N; i++)
        m[i] = i;
    hipStream_t s;
    OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    EXPECT_EQ(mprotect(m, 4096, PROT_NONE), 0);
    OK(launch_add(s, m, N, 100));
    struct {
        int32_t *p;
        int32_t n, v;
    } packed = {m, N, 1000};
    size_t sz = sizeof packed;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                     HIP_LAUNCH_PARAM_END};
    OK(hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, extra));
    OK(hipMemsetD32Async(m + N, 7, 4, s));
    OK(hipMemcpyAsync(d, m, N * sizeof(int32_t), hipMemcpyDeviceToDevice, s));
    OK(hipStreamSynchronize(s));
    OK(hipMemcpy(host, d, sizeof host, hipMemcpyDeviceToHost));
    EXPECT_EQ(host[3], 1103);
    EXPECT_EQ(host[N - 1], 1100 + N - 1);
    EXPECT_EQ(mprotect(m, 4096, PROT_READ | PROT_WRITE), 0);
    EXPECT_EQ(m[0], 1100);
    EXPECT_EQ(m[N - 1], 1100 + N - 1);
    EXPECT_EQ(m[N], 7);
    EXPECT_EQ(m[N + 3], 7);
    EXPECT_EQ(m[N + 4], 0);
    /* hipFree unmaps the program's mapping (and the alias). */
    OK(hipFree(m));
    EXPECT(msync(m, 4096, MS_ASYNC) == -1);
    OK(hipFree(d));
    OK(hipStreamDestroy(s));
    OK(hipModuleUnload(mod));
}

int main(void)
{
    g_lazy = !strcmp(hipdouble_exec_mode(), "lazy");
    register_kernels();
    test_identity();
    test_fifo_and_query();
    test_events();
    test_null_stream();
    test_capture_topology();
    test_capture_errors();
    test_replay_and_update();
    test_manual_graph();
    test_capture_extras();
    test_errors();
    test_memory_apis();
    test_kernels_and_modules();
    test_callbacks_and_threads();
    test_h1_parallel_queues();
    test_managed_alias();
    printf("double-unit: %d passed, %d failed (exec=%s)\n", g_pass, g_fail, hipdouble_exec_mode());
    return g_fail ? 1 : 0;
}
