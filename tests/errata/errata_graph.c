/*
 * errata_graph — TEST-ONLY: a decode-style loop whose graph has the shape
 * of one published runtime erratum (docs/errata.md), for the runtime double
 * (tests/runtime-double; its fault models rs11501, rs11357, rs11403
 * reproduce the errata). Every step copies the step's value into the
 * device, replays the graph and reads the result back after a host
 * synchronize: a result that is not the step's value is a stale read.
 *
 *   errata_graph --shape fanout [--children N]   rocm-systems#11501: one
 *       producer node fans out to N readers (default 8): with
 *       DEBUG_HIP_FORCE_GRAPH_QUEUES=4 readers 5, 6, 7 have the trigger
 *   errata_graph --shape disabled [--keep-enabled]   rocm-systems#11357:
 *       S -> R, W -> D -> R (created S, W, D, R), D disabled after
 *       instantiate: W writes what R reads
 *   errata_graph --shape sdma [--bytes N]   rocm-systems#11403: a kernel
 *       fills N bytes (default 64 KiB) that a memcpy node added with
 *       hipGraphAddMemcpyNode1D copies to pinned host memory
 *   --steps N (default 16)
 *
 * Prints "errata_graph shape=S steps=M stale_reads=N error=none" (the
 * decode loop's form). Exit 0 unless the arguments or
 * a runtime call are wrong.
 */
#include "../runtime-double/hipdouble.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "errata_graph: %s failed: %d (line %d)\n", #call, (int)e_, __LINE__); \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static const dim3 ONE = {1, 1, 1};

/* copy(int *dst, const int *src): dst[0] = src[0] */
static const char k_copy;
static void copy_kernel(void **a, dim3 g, dim3 b, void *user)
{
    (void)g, (void)b, (void)user;
    **(int32_t **)a[0] = **(int32_t **)a[1];
}

/* fill(int *dst, const int *src, int n): dst[0..n) = src[0] */
static const char k_fill;
static void fill_kernel(void **a, dim3 g, dim3 b, void *user)
{
    (void)g, (void)b, (void)user;
    int32_t *dst = *(int32_t **)a[0], v = **(int32_t **)a[1], n = *(int32_t *)a[2];
    for (int32_t i = 0; i < n; i++)
        dst[i] = v;
}

/* One kernel node; its argument block must outlive the call only (the
 * runtime copies it). */
static hipGraphNode_t kernel_node(hipGraph_t g, const void *k, const hipGraphNode_t *deps, size_t nd, void **args)
{
    hipGraphNode_t n;
    hipKernelNodeParams p = {.blockDim = ONE, .func = (void *)k, .gridDim = ONE, .kernelParams = args};
    CHECK(hipGraphAddKernelNode(&n, g, deps, nd, &p));
    return n;
}

static hipGraphNode_t copy_node(hipGraph_t g, const hipGraphNode_t *deps, size_t nd, int32_t *dst, int32_t *src)
{
    void *args[] = {&dst, &src};
    return kernel_node(g, &k_copy, deps, nd, args);
}

int main(int argc, char **argv)
{
    const char *shape = "fanout";
    int steps = 16, children = 8, keep = 0;
    size_t bytes = 64 * 1024;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shape") && i + 1 < argc)
            shape = argv[++i];
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--children") && i + 1 < argc)
            children = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
            bytes = (size_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--keep-enabled"))
            keep = 1;
        else {
            fprintf(stderr, "usage: errata_graph [--shape fanout|disabled|sdma] [--steps N] [--children N] "
                            "[--bytes N] [--keep-enabled]\n");
            return 2;
        }
    }
    int fan = !strcmp(shape, "fanout"), dis = !strcmp(shape, "disabled"), sdma = !strcmp(shape, "sdma");
    if ((!fan && !dis && !sdma) || steps < 1 || children < 1 || children > 64 || bytes < 4 || bytes % 4) {
        fprintf(stderr, "errata_graph: bad arguments\n");
        return 2;
    }
    static const size_t copy_sizes[] = {sizeof(void *), sizeof(void *)};
    static const size_t fill_sizes[] = {sizeof(void *), sizeof(void *), sizeof(int32_t)};
    if (hipdouble_register_kernel(&k_copy, "errata_copy", copy_kernel, 2, copy_sizes, NULL) ||
        hipdouble_register_kernel(&k_fill, "errata_fill", fill_kernel, 3, fill_sizes, NULL)) {
        fprintf(stderr, "errata_graph: the runtime double is needed\n");
        return 2;
    }

    hipStream_t s;
    CHECK(hipStreamCreate(&s));
    int32_t *in, *mid, *out, *scratch, *hin, *hout;
    size_t nout = fan ? (size_t)children : sdma ? bytes / 4 : 1;
    CHECK(hipMalloc((void **)&in, 4));
    CHECK(hipMalloc((void **)&mid, 4));
    CHECK(hipMalloc((void **)&scratch, 8));
    CHECK(hipMalloc((void **)&out, nout * 4));
    CHECK(hipHostMalloc((void **)&hin, 4, 0));
    CHECK(hipHostMalloc((void **)&hout, nout * 4, 0));

    hipGraph_t g;
    CHECK(hipGraphCreate(&g, 0));
    hipGraphNode_t dnode = NULL;
    if (fan) {
        /* P: mid = in; child i: out[i] = mid (out-edge i of P). */
        hipGraphNode_t p = copy_node(g, NULL, 0, mid, in);
        for (int i = 0; i < children; i++)
            copy_node(g, &p, 1, out + i, mid);
    } else if (dis) {
        /* Created S, W, D, R: R takes S's stream, D W's (rocm-systems#11357). */
        hipGraphNode_t sn = copy_node(g, NULL, 0, scratch, in);
        hipGraphNode_t w = copy_node(g, NULL, 0, mid, in);
        dnode = copy_node(g, &w, 1, scratch + 1, in);
        hipGraphNode_t deps[] = {sn, dnode};
        copy_node(g, deps, 2, out, mid);
    } else {
        /* K fills `out` with the step's value; the explicit memcpy node
         * copies it to pinned host memory. */
        int32_t n = (int32_t)nout;
        void *args[] = {&out, &in, &n};
        hipGraphNode_t k = kernel_node(g, &k_fill, NULL, 0, args), c;
        CHECK(hipGraphAddMemcpyNode1D(&c, g, &k, 1, hout, out, bytes, hipMemcpyDeviceToHost));
    }
    hipGraphExec_t x;
    CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    if (dis && !keep) {
        unsigned on = 1;
        CHECK(hipGraphNodeSetEnabled(x, dnode, 0));
        CHECK(hipGraphNodeGetEnabled(x, dnode, &on));
        if (on) {
            fprintf(stderr, "errata_graph: the node is still enabled\n");
            return 2;
        }
    }

    long stale = 0;
    for (int step = 0; step < steps; step++) {
        int32_t want = step + 1;
        *hin = want;
        CHECK(hipMemcpyAsync(in, hin, 4, hipMemcpyHostToDevice, s));
        CHECK(hipGraphLaunch(x, s));
        if (!sdma)
            CHECK(hipMemcpyAsync(hout, out, nout * 4, hipMemcpyDeviceToHost, s));
        CHECK(hipStreamSynchronize(s));
        for (size_t i = 0; i < nout; i++)
            if (hout[i] != want) {
                stale++;
                if (sdma)
                    break;   /* one stale read per copy */
            }
    }
    printf("errata_graph shape=%s steps=%d stale_reads=%ld error=none\n", shape, steps, stale);
    CHECK(hipGraphExecDestroy(x));
    CHECK(hipGraphDestroy(g));
    CHECK(hipStreamDestroy(s));
    return 0;
}
