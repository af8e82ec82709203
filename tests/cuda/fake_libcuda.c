/*
 * TEST-ONLY: a stand-in for the CUDA driver (installed as libcuda.so.1 in a
 * test directory, never on a library path) with just what the driver
 * pass-through test needs: allocations that hand out addresses without
 * memory, one module with one kernel whose parameter layout cuFuncGetParamInfo
 * reports, stream capture that turns the captured copy and launch into a
 * two-node graph, the graph query API hipvis walks at instantiate, and
 * cuGetProcAddress_v2 choosing the `_ptsz` variant by flag like the real
 * driver. Nothing runs: every call records what it needs and succeeds.
 */
#include <cuda.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

struct fake_kernel {
    const char *name;
    size_t n, off[3], size[3];
};
static struct fake_kernel k_triton = {"triton_k", 3, {0, 8, 16}, {8, 4, 16}};
/* The shape of PyTorch's eager reduce kernels (tests/cuda/bench_launch.c):
 * one by-value parameter of 1048 bytes (the TensorIterator config: sizes,
 * strides, offsets and two data pointers). */
static struct fake_kernel k_iter = {"iter_k", 1, {0}, {1048}};

static int known(const struct fake_kernel *k) { return k == &k_triton || k == &k_iter; }
static char module_obj, stream_graph, exec_obj;
static char node_copy, node_kernel;
static uint64_t next_dev = 0x7f1000000000ull;
static int capturing;

/* What capture recorded: the kernel node's arguments (a copy of the values
 * launched) and the copy node's operands. */
static unsigned char kargs_store[32];
static void *kparams[3] = {kargs_store + 0, kargs_store + 8, kargs_store + 16};
static CUDA_MEMCPY3D copy_node;

EXPORT CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    *p = next_dev;
    next_dev += (n + 0xffff) & ~(uint64_t)0xffff;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr p) { return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

static CUresult htod(CUdeviceptr dst, const void *src, size_t n)
{
    if (capturing) {
        memset(&copy_node, 0, sizeof copy_node);
        copy_node.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        copy_node.dstDevice = dst;
        copy_node.srcMemoryType = CU_MEMORYTYPE_HOST;
        copy_node.srcHost = src;
        copy_node.WidthInBytes = n;
        copy_node.Height = copy_node.Depth = 1;
    }
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    (void)s;
    return htod(dst, src, n);
}
EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    (void)s;
    return htod(dst, src, n);
}

static CUresult launch(CUfunction f, void **params)
{
    struct fake_kernel *k = (struct fake_kernel *)f;
    if (!known(k) || !params)
        return CUDA_ERROR_INVALID_HANDLE;
    if (k == &k_iter)
        return CUDA_SUCCESS;
    if (capturing)
        for (size_t i = 0; i < k->n; i++)
            memcpy(kargs_store + k->off[i], params[i], k->size[i]);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shm, CUstream s, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shm, (void)s, (void)extra;
    return launch(f, params);
}
EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned shm, CUstream s, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shm, (void)s, (void)extra;
    return launch(f, params);
}
EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
    (void)c, (void)extra;
    return launch(f, params);
}

EXPORT CUresult cuStreamSynchronize(CUstream s) { (void)s; return CUDA_SUCCESS; }
/* Stream memory operations: accepted, nothing runs (the stand-in has no
 * device); a zero address is refused as the real driver does. */
EXPORT CUresult cuStreamWriteValue32_v2(CUstream s, CUdeviceptr a, cuuint32_t v, unsigned f)
{
    (void)s, (void)v, (void)f;
    return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuStreamWaitValue32_v2(CUstream s, CUdeviceptr a, cuuint32_t v, unsigned f)
{
    (void)s, (void)v, (void)f;
    return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuStreamBatchMemOp_v2(CUstream s, unsigned n, CUstreamBatchMemOpParams *p, unsigned f)
{
    (void)s, (void)f;
    return n && !p ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
    (void)flags;
    *s = (CUstream)(uintptr_t)0x5000;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    (void)image;
    *m = (CUmodule)&module_obj;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (m != (CUmodule)&module_obj || (strcmp(name, k_triton.name) != 0 && strcmp(name, k_iter.name) != 0))
        return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)(strcmp(name, k_iter.name) == 0 ? &k_iter : &k_triton);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size)
{
    struct fake_kernel *k = (struct fake_kernel *)f;
    if (!known(k))
        return CUDA_ERROR_INVALID_HANDLE;
    if (i >= k->n)
        return CUDA_ERROR_INVALID_VALUE;
    *off = k->off[i];
    *size = k->size[i];
    return CUDA_SUCCESS;
}
EXPORT CUresult cuFuncGetName(const char **name, CUfunction f)
{
    if (!known((struct fake_kernel *)f))
        return CUDA_ERROR_INVALID_HANDLE;
    *name = ((struct fake_kernel *)f)->name;
    return CUDA_SUCCESS;
}

/* ---- capture and the graph query API ---- */

EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode)
{
    (void)s, (void)mode;
    capturing = 1;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
    (void)s;
    capturing = 0;
    *g = (CUgraph)&stream_graph;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags)
{
    (void)flags;
    if (g != (CUgraph)&stream_graph)
        return CUDA_ERROR_INVALID_VALUE;
    *x = (CUgraphExec)&exec_obj;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphLaunch(CUgraphExec x, CUstream s)
{
    (void)s;
    return x == (CUgraphExec)&exec_obj ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n)
{
    (void)g;
    if (nodes && *n >= 2) {
        nodes[0] = (CUgraphNode)&node_copy;
        nodes[1] = (CUgraphNode)&node_kernel;
    }
    *n = 2;
    return CUDA_SUCCESS;
}
/* One edge, copy -> kernel. Like the real driver, refuses to drop edge data. */
EXPORT CUresult cuGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *data, size_t *n)
{
    (void)g;
    if (from && !data)
        return CUDA_ERROR_LOSSY_QUERY;
    if (from && *n >= 1) {
        from[0] = (CUgraphNode)&node_copy;
        to[0] = (CUgraphNode)&node_kernel;
        memset(&data[0], 0, sizeof data[0]);
    }
    *n = 1;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType *t)
{
    *t = node == (CUgraphNode)&node_kernel ? CU_GRAPH_NODE_TYPE_KERNEL : CU_GRAPH_NODE_TYPE_MEMCPY;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    if (node != (CUgraphNode)&node_kernel)
        return CUDA_ERROR_INVALID_VALUE;
    memset(p, 0, sizeof *p);
    p->func = (CUfunction)&k_triton;
    p->gridDimX = p->gridDimY = p->gridDimZ = 1;
    p->blockDimX = 256, p->blockDimY = p->blockDimZ = 1;
    p->kernelParams = kparams;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D *p)
{
    if (node != (CUgraphNode)&node_copy)
        return CUDA_ERROR_INVALID_VALUE;
    *p = copy_node;
    return CUDA_SUCCESS;
}

/* ---- batch copies and capture state (docs/semantics.md C11, C12, G2) ----
 * Each refuses a stream other than the one the test created, so a stream
 * passed in the wrong slot shows as a different result; the 12.8 forms
 * write failIdx. */
static CUstream batch_stream;
#undef cuMemcpyBatchAsync
#undef cuStreamGetCaptureInfo
EXPORT CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                                      size_t *ai, size_t na, CUstream st)
{
    (void)d, (void)s, (void)n, (void)a, (void)ai, (void)na;
    return count && st == batch_stream ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuMemcpyBatchAsync(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                                   size_t *ai, size_t na, size_t *fail, CUstream st)
{
    if (fail)
        *fail = 7;
    return cuMemcpyBatchAsync_v2(d, s, n, count, a, ai, na, st);
}
EXPORT CUresult cuMemcpy3DBatchAsync_v2(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long f, CUstream st)
{
    return n && ops && !f && st == batch_stream ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream st, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *g,
                                          const CUgraphNode **deps, const CUgraphEdgeData **ed, size_t *nd)
{
    (void)deps, (void)ed;
    *status = capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    if (id)
        *id = 42;
    if (g)
        *g = capturing ? (CUgraph)&stream_graph : NULL;
    if (nd)
        *nd = 0;
    batch_stream = st;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec x, CUgraphNode n, unsigned on)
{
    (void)on;
    return x == (CUgraphExec)&exec_obj && (n == (CUgraphNode)&node_copy || n == (CUgraphNode)&node_kernel)
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D *p, CUcontext c)
{
    (void)c;
    return x == (CUgraphExec)&exec_obj && n == (CUgraphNode)&node_copy && p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- lookups ---- */

struct entry {
    const char *base;
    void *legacy, *per_thread;
};

EXPORT CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int version, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status)
{
    const struct entry table[] = {
        {"cuLaunchKernel", (void *)cuLaunchKernel, (void *)cuLaunchKernel_ptsz},
        {"cuMemcpyHtoDAsync", (void *)cuMemcpyHtoDAsync_v2, (void *)cuMemcpyHtoDAsync_v2_ptsz},
        {"cuStreamSynchronize", (void *)cuStreamSynchronize, (void *)cuStreamSynchronize},
    };
    (void)version;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(sym, table[i].base) != 0)
            continue;
        *pfn = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM ? table[i].per_thread : table[i].legacy;
        if (status)
            *status = CU_GET_PROC_ADDRESS_SUCCESS;
        return CUDA_SUCCESS;
    }
    *pfn = NULL;
    if (status)
        *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
}
