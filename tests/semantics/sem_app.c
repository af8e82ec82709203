/*
 * TEST-ONLY. One program per docs/semantics.md rule, in a positive variant
 * (the hazard the rule must find) and a negative one (the correctly ordered
 * or non-overlapping twin the analyzer must stay silent on). Runs on the
 * runtime double (tests/runtime-double); semantics.py traces each case and
 * checks the trace and the analyzer's findings.
 *
 *   sem_app CODE_OBJECT CASE pos|neg
 *
 * Kernels come from tests/kernels' gfx950 code object (exact argument
 * metadata) with host implementations from khost.h. Prints "sem: done" on
 * success; any runtime error is printed and exits 1.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hipCtxSynchronize is deprecated in the headers and still exported. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "../kernels/khost.h"
#include "r6_memcpy3d.h"

static int failed;

#define R(call)                                                                       \
    do {                                                                              \
        hipError_t e_ = (call);                                                       \
        if (e_ != hipSuccess) {                                                       \
            printf("sem: %s -> %d (line %d)\n", #call, (int)e_, __LINE__);           \
            failed = 1;                                                               \
        }                                                                             \
    } while (0)

static hipModule_t mod;
static hipFunction_t producer;
static hipStream_t s_main, s_side;
static float *in, *mid, *out, *big, *pinned;
static uint64_t *flag;
static int pos;

/* The side stream's work ordered before the main stream's next op (neg). */
static void order_side_before_main(void)
{
    hipEvent_t e;
    R(hipEventCreate(&e));
    R(hipEventRecord(e, s_side));
    R(hipStreamWaitEvent(s_main, e, 0));
}

/* An exec on s_main whose one memcpy node reads [src, src+n). */
static hipGraphExec_t reader_exec(const void *src, size_t n)
{
    hipGraph_t g = NULL;
    hipGraphExec_t x = NULL;
    R(hipStreamBeginCapture(s_main, hipStreamCaptureModeGlobal));
    R(hipMemcpyAsync(out, src, n, hipMemcpyDeviceToDevice, s_main));
    R(hipStreamEndCapture(s_main, &g));
    R(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    return x;
}

/* An exec on s_main whose one memcpy node copies [src, src+256) to out;
 * *node is that node. */
static hipGraphExec_t copy_exec(const void *src, hipGraphNode_t *node)
{
    hipGraph_t g = NULL;
    hipGraphExec_t x = NULL;
    size_t nn = 1;
    R(hipStreamBeginCapture(s_main, hipStreamCaptureModeGlobal));
    R(hipMemcpyAsync(out, src, 256, hipMemcpyDeviceToDevice, s_main));
    R(hipStreamEndCapture(s_main, &g));
    R(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    R(hipGraphGetNodes(g, node, &nn));
    return x;
}

/* A side-stream write into [dst, dst+256) the replay of x reads: unordered
 * (pos) it races the replay, ordered by an event (neg) it does not. */
static void side_write_then_replay(hipGraphExec_t x, void *dst)
{
    R(hipMemsetAsync(dst, 2, 256, s_side));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* Item 3: kernel node captured from hipModuleLaunchKernel(kernelParams =
 * NULL, extra = packed block), then its arguments replaced through
 * hipGraphExecKernelNodeSetParams(extra). A side-stream copy into what the
 * node reads races the replay (pos) unless ordered (neg). */
static void case_extra_capture(void)
{
    int n = KN;
    struct {
        float *in, *out;
        int n, pad;
    } blob = {in, mid, n, 0};
    size_t blob_bytes = 20;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &blob, HIP_LAUNCH_PARAM_BUFFER_SIZE, &blob_bytes,
                     HIP_LAUNCH_PARAM_END};
    hipGraph_t g = NULL;
    hipGraphExec_t x = NULL;
    R(hipStreamBeginCapture(s_main, hipStreamCaptureModeGlobal));
    R(hipModuleLaunchKernel(producer, 1, 1, 1, KN, 1, 1, 0, s_main, NULL, extra));
    R(hipStreamEndCapture(s_main, &g));
    R(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    R(hipMemcpyAsync(in, pinned, KN * sizeof(float), hipMemcpyHostToDevice, s_side));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());

    /* New arguments through the extra form: the node now reads `big`. */
    hipGraphNode_t node = NULL;
    size_t nn = 1;
    R(hipGraphGetNodes(g, &node, &nn));
    struct {
        float *in, *out;
        int n, pad;
    } blob2 = {big, mid, n, 0};
    void *extra2[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &blob2, HIP_LAUNCH_PARAM_BUFFER_SIZE, &blob_bytes,
                      HIP_LAUNCH_PARAM_END};
    hipKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = producer;
    kp.gridDim = (dim3){1, 1, 1};
    kp.blockDim = (dim3){KN, 1, 1};
    kp.extra = extra2;
    R(hipGraphExecKernelNodeSetParams(x, node, &kp));
    R(hipMemcpyAsync(big, pinned, KN * sizeof(float), hipMemcpyHostToDevice, s_side));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* Item 7: a function fetched with dlvsym(handle, "hipMemsetAsync",
 * "hip_4.2") is traced: its write on the side stream races the replay
 * (pos) unless ordered (neg). */
static void case_dlvsym(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    const char *shim = getenv("SEM_VSYM_SHIM");
    void *h = shim ? dlopen(shim, RTLD_NOW | RTLD_LOCAL) : NULL;
    hipError_t (*set)(void *, int, size_t, hipStream_t) =
        h ? (hipError_t(*)(void *, int, size_t, hipStream_t))dlvsym(h, "hipMemsetAsync", "hip_4.2") : NULL;
    if (!set) {
        printf("sem: dlvsym found no hipMemsetAsync@hip_4.2 in %s\n", shim ? shim : "(SEM_VSYM_SHIM unset)");
        failed = 1;
        return;
    }
    R(set(in, 1, KN * sizeof(float), s_side));
    int *calls = dlsym(h, "vsym_shim_calls");
    printf("sem: versioned function called %d time(s)\n", calls ? *calls : -1);
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* Item 5: rows of 64 B at pitch 1024 written by a 2D copy / memset on the
 * main stream; the replay reads row 1 (pos: same-epoch-write) or the bytes
 * between rows 0 and 1 (neg: no byte written there). */
static void rows2d(int how)
{
    hipGraphExec_t x = reader_exec(pos ? (char *)big + 1024 : (char *)big + 128, 64);
    hip_Memcpy2D c = {.srcMemoryType = hipMemoryTypeDevice, .srcDevice = (hipDeviceptr_t)in, .srcPitch = 64,
                      .dstMemoryType = hipMemoryTypeDevice, .dstDevice = (hipDeviceptr_t)big, .dstPitch = 1024,
                      .WidthInBytes = 64, .Height = 4};
    if (how == 1)
        R(hipMemset2DAsync(big, 1024, 7, 64, 4, s_main));
    else if (how == 2) /* C4: hipMemcpyParam2DAsync, the same rows */
        R(hipMemcpyParam2DAsync(&c, s_main));
    else
        R(hipMemcpy2DAsync(big, 1024, in, 64, 64, 4, hipMemcpyDeviceToDevice, s_main));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}
static void case_copy2d(void) { rows2d(0); }
static void case_memset2d(void) { rows2d(1); }
static void case_param2d(void) { rows2d(2); }

/* V1/V2: a write-value on the side stream after its memset, a wait-value on
 * the main stream before the replay. Satisfied (neg: waits for >= 1, the
 * value written) it orders the memset before the replay; unsatisfied (pos:
 * waits for >= 2) it orders nothing. */
static void case_write_wait_value(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    R(hipMemsetAsync(in, 1, KN * sizeof(float), s_side));
    R(hipStreamWriteValue32(s_side, flag, 1, 0));
    R(hipStreamWaitValue32(s_main, flag, pos ? 2 : 1, hipStreamWaitValueGte, 0xffffffffu));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* V3: the same through hipStreamBatchMemOp (64-bit entries). */
static void case_batch_memop(void)
{
    struct {
        uint32_t operation, pad;
        uint64_t address, value;
        uint32_t flags, pad2;
        uint64_t alias, pad3;
    } wr = {5, 0, (uintptr_t)flag, 7, 0, 0, 0, 0}, wt = {4, 0, (uintptr_t)flag, pos ? 8 : 7, 1, 0, 0, 0};
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    R(hipMemsetAsync(in, 1, KN * sizeof(float), s_side));
    R(hipStreamBatchMemOp(s_side, 1, &wr, 0));
    R(hipStreamBatchMemOp(s_main, 1, &wt, 0)); /* EQ: 7 satisfies, 8 does not */
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* H1: a host function is stream-ordered but no host observation: after it
 * the replay still reads a same-epoch write (pos); a stream synchronize
 * makes it silent (neg). */
static int host_runs;
static void host_fn(void *p) { ++*(int *)p; }
static void case_host_func(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    R(hipMemsetAsync(in, 1, KN * sizeof(float), s_main));
    R(hipLaunchHostFunc(s_main, host_fn, &host_runs));
    if (!pos)
        R(hipStreamSynchronize(s_main));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* C10: an async copy to a symbol (the double: a symbol is its own device
 * address) on the side stream races the replay reading it (pos) unless
 * ordered (neg). */
static void case_symbol(void)
{
    hipGraphExec_t x = reader_exec((char *)in + 64, 64);
    R(hipMemcpyToSymbolAsync(in, pinned, 64, 64, hipMemcpyHostToDevice, s_side));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* C6, M6: 3D writes are their rows: 3 slices of 4 rows of 64 B at pitch 1024
 * (contiguous slices). The replay reads row 5 (pos) or a gap (neg). */
static void rows3d(int memset_)
{
    hipPitchedPtr p = {big, 1024, 64, 4};
    hipExtent e = {64, 4, 3};
    hipGraphExec_t x = reader_exec(pos ? (char *)big + 5 * 1024 : (char *)big + 5 * 1024 + 512, 64);
    if (memset_) {
        R(hipMemset3DAsync(p, 3, e, s_main));
    } else {
        hipMemcpy3DParms c;
        memset(&c, 0, sizeof c);
        c.srcPtr = (hipPitchedPtr){(char *)big + 32768, 64, 64, 4};
        c.dstPtr = p;
        c.extent = e;
        c.kind = hipMemcpyDeviceToDevice;
        R(hipMemcpy3DAsync(&c, s_main));
    }
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}
static void case_memset3d(void) { rows3d(1); }
static void case_copy3d(void) { rows3d(0); }

/* L2: a cooperative launch writes what its metadata says (producer's arg 1)
 * on the side stream; the replay reading it races (pos) unless ordered. */
static void case_coop(void)
{
    int n = KN;
    void *args[] = {&in, &mid, &n};
    hipGraphExec_t x = reader_exec(mid, KN * sizeof(float));
    R(hipModuleLaunchCooperativeKernel(producer, 1, 1, 1, KN, 1, 1, 0, s_side, args));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* G7: an exec's memcpy node re-pointed with hipGraphExecMemcpyNodeSetParams1D
 * now reads `big`: a side-stream write there races the replay (pos) unless
 * ordered (neg). */
static void case_exec_memcpy(void)
{
    hipGraphNode_t node = NULL;
    hipGraphExec_t x = copy_exec(in, &node);
    R(hipGraphExecMemcpyNodeSetParams1D(x, node, out, big, 256, hipMemcpyDeviceToDevice));
    side_write_then_replay(x, big);
}

/* O2: hipCtxSynchronize observes the device complete: a same-epoch write
 * before it is silent (neg); without it, reported (pos). */
static void case_ctx_sync(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    R(hipMemsetAsync(in, 1, KN * sizeof(float), s_main));
    if (!pos)
        R(hipCtxSynchronize());
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* C11: a batch of two copies on the main stream; the second writes what
 * the replay reads (in), the first a range it does not (mid). Without a
 * host synchronize the replay reads a same-epoch write (pos); after one,
 * nothing (neg). */
static void case_batch(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    void *dsts[2] = {mid, in}, *srcs[2] = {pinned, pinned};
    size_t sizes[2] = {64, KN * sizeof(float)}, fail = 0;
    struct {
        int order, src_loc[2], dst_loc[2];
        unsigned flags;
    } attr = {1, {0, 0}, {0, 0}, 0}; /* hipMemcpySrcAccessOrderStream */
    size_t idx = 0;
    R(hipMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx, 1, &fail, s_main));
    if (!pos)
        R(hipStreamSynchronize(s_main));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* C11 across streams, the shape of rocm-systems#11662 (batch copies on an
 * offload stream while a graph replays on the compute stream): the batch
 * on the side stream writes what the replay reads; unordered (pos) it
 * races, after an event wait (neg) it does not. */
static void case_batch_side(void)
{
    hipGraphExec_t x = reader_exec(in, KN * sizeof(float));
    void *dsts[2] = {pinned, in}, *srcs[2] = {mid, big};
    size_t sizes[2] = {64, KN * sizeof(float)};
    R(hipMemcpyBatchAsync(dsts, srcs, sizes, 2, NULL, NULL, 0, NULL, s_side));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* The batch operand layout (hipMemcpy3DOperand / hipMemcpy3DBatchOp). */
struct sem_operand {
    int type;
    void *ptr;
    size_t row_length, layer_height;
    int loc[2];
};
struct sem_op3d {
    struct sem_operand src, dst;
    hipExtent extent;
    int order;
    unsigned flags;
};

/* C12, C6: 3D rows as in rows3d (3 slices of 4 rows of 64 B at pitch 1024)
 * through hipMemcpy3DBatchAsync or hipDrvMemcpy3DAsync: the replay reads
 * row 5 (pos: same-epoch-write) or a gap between rows (neg: silent). */
static void rows3d_batch(int drv)
{
    hipGraphExec_t x = reader_exec(pos ? (char *)big + 5 * 1024 : (char *)big + 5 * 1024 + 512, 64);
    if (drv) {
        HIP_MEMCPY3D c = {.srcMemoryType = hipMemoryTypeDevice, .srcDevice = (hipDeviceptr_t)((char *)big + 32768),
                          .srcPitch = 64, .srcHeight = 4, .dstMemoryType = hipMemoryTypeDevice,
                          .dstDevice = (hipDeviceptr_t)big, .dstPitch = 1024, .dstHeight = 4, .WidthInBytes = 64,
                          .Height = 4, .Depth = 3};
        R(hipDrvMemcpy3DAsync(&c, s_main));
    } else {
        struct sem_op3d op = {{1, (char *)big + 32768, 64, 4, {0, 0}}, {1, big, 1024, 4, {0, 0}}, {64, 4, 3}, 1, 0};
        size_t fail = 0;
        R(hipMemcpy3DBatchAsync(1, &op, &fail, 0, s_main));
    }
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}
static void case_batch3d(void) { rows3d_batch(0); }
static void case_drv3d(void) { rows3d_batch(1); }

/* G7: a disabled node reads nothing: a side-stream write into what it
 * would read is silent (neg); enabled again, the node reads it and the
 * unordered write races the replay (pos). */
static void case_node_enabled(void)
{
    hipGraphNode_t node = NULL;
    hipGraphExec_t x = copy_exec(in, &node);
    R(hipGraphNodeSetEnabled(x, node, 0));
    if (pos)
        R(hipGraphNodeSetEnabled(x, node, 1));
    R(hipMemsetAsync(in, 2, 256, s_side));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* G7: hipGraphExecMemcpyNodeSetParams re-points the node (3D parameters)
 * at `big`: a side-stream write there races the replay (pos) unless
 * ordered (neg). */
static void case_exec_memcpy3d(void)
{
    hipGraphNode_t node = NULL;
    hipGraphExec_t x = copy_exec(in, &node);
    hipMemcpy3DParms c;
    memset(&c, 0, sizeof c);
    c.srcPtr = (hipPitchedPtr){big, 256, 256, 1};
    c.dstPtr = (hipPitchedPtr){out, 256, 256, 1};
    c.extent = (hipExtent){256, 1, 1};
    c.kind = hipMemcpyDeviceToDevice;
    R(hipGraphExecMemcpyNodeSetParams(x, node, &c));
    side_write_then_replay(x, big);
}

/* A function of tests/semantics/r6_shim.c (SEM_R6_SHIM), NULL (and the
 * case failed) when missing. */
static void *r6_fn(const char *name)
{
    const char *shim = getenv("SEM_R6_SHIM");
    void *h = shim ? dlopen(shim, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *f = h ? dlsym(h, name) : NULL;
    if (!f) {
        printf("sem: no %s in %s\n", name, shim ? shim : "(SEM_R6_SHIM unset)");
        failed = 1;
    }
    return f;
}

/* C6 with ROCm 6's HIP_MEMCPY3D (size_t fields, hipMemoryType device 2),
 * through tests/semantics/r6_shim.c (SEM_R6_SHIM): the same rows as drv3d. */
static void case_drv3d_r6(void)
{
    r6_memcpy3d c = {.srcMemoryType = 2, .srcDevice = (char *)big + 32768, .srcPitch = 64, .srcHeight = 4,
                     .dstMemoryType = 2, .dstDevice = big, .dstPitch = 1024, .dstHeight = 4, .WidthInBytes = 64,
                     .Height = 4, .Depth = 3};
    hipError_t (*copy)(const void *, hipStream_t) =
        (hipError_t(*)(const void *, hipStream_t))r6_fn("hipDrvMemcpy3DAsync");
    if (!copy)
        return;
    hipGraphExec_t x = reader_exec(pos ? (char *)big + 5 * 1024 : (char *)big + 5 * 1024 + 512, 64);
    R(copy(&c, s_main));
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

/* G7: hipGraphExecMemcpyNodeSetParamsFromSymbol re-points the node at a
 * symbol (the double: `big` is its own symbol) at offset 256: a side-stream
 * write there races the replay (pos) unless ordered (neg). */
static void case_exec_from_symbol(void)
{
    hipGraphNode_t node = NULL;
    hipGraphExec_t x = copy_exec(in, &node);
    R(hipGraphExecMemcpyNodeSetParamsFromSymbol(x, node, out, big, 256, 256, hipMemcpyDeviceToDevice));
    side_write_then_replay(x, (char *)big + 256);
}

/* G7: hipDrvGraphExecMemcpyNodeSetParams (ROCm 6's HIP_MEMCPY3D, through
 * r6_shim) re-points the node at `big`: a side-stream write there races the
 * replay (pos) unless ordered (neg). */
static void case_drv_exec_memcpy(void)
{
    hipError_t (*set)(hipGraphExec_t, hipGraphNode_t, const void *, hipCtx_t) =
        (hipError_t(*)(hipGraphExec_t, hipGraphNode_t, const void *, hipCtx_t))r6_fn(
            "hipDrvGraphExecMemcpyNodeSetParams");
    if (!set)
        return;
    hipGraphNode_t node = NULL;
    hipGraphExec_t x = copy_exec(in, &node);
    r6_memcpy3d c = {.srcMemoryType = 2, .srcDevice = big, .srcPitch = 256, .srcHeight = 1, .dstMemoryType = 2,
                     .dstDevice = out, .dstPitch = 256, .dstHeight = 1, .WidthInBytes = 256, .Height = 1, .Depth = 1};
    R(set(x, node, &c, NULL));
    side_write_then_replay(x, big);
}

/* L1: hipDrvLaunchKernelEx (HIP_LAUNCH_CONFIG, ROCm 6.2+) writes what the
 * metadata says, like the other launches: on the side stream it races the
 * replay reading it (pos) unless ordered (neg). */
static void case_launch_ex(void)
{
    struct {
        unsigned gx, gy, gz, bx, by, bz, shmem;
        hipStream_t stream;
        void *attrs;
        unsigned nattrs;
    } cfg = {1, 1, 1, KN, 1, 1, 0, s_side, NULL, 0};
    hipError_t (*launch_ex)(const void *, hipFunction_t, void **, void **) =
        (hipError_t(*)(const void *, hipFunction_t, void **, void **))dlsym(RTLD_DEFAULT, "hipDrvLaunchKernelEx");
    int n = KN;
    void *args[] = {&in, &mid, &n};
    hipGraphExec_t x = reader_exec(mid, KN * sizeof(float));
    if (!launch_ex) {
        printf("sem: no hipDrvLaunchKernelEx\n");
        failed = 1;
        return;
    }
    R(launch_ex(&cfg, producer, args, NULL));
    if (!pos)
        order_side_before_main();
    R(hipGraphLaunch(x, s_main));
    R(hipDeviceSynchronize());
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"extra_capture", case_extra_capture},
    {"dlvsym", case_dlvsym},
    {"copy2d", case_copy2d},
    {"memset2d", case_memset2d},
    {"write_wait_value", case_write_wait_value},
    {"batch_memop", case_batch_memop},
    {"host_func", case_host_func},
    {"symbol", case_symbol},
    {"memset3d", case_memset3d},
    {"copy3d", case_copy3d},
    {"coop", case_coop},
    {"exec_memcpy", case_exec_memcpy},
    {"ctx_sync", case_ctx_sync},
    {"batch", case_batch},
    {"batch_side", case_batch_side},
    {"batch3d", case_batch3d},
    {"drv3d", case_drv3d},
    {"node_enabled", case_node_enabled},
    {"exec_memcpy3d", case_exec_memcpy3d},
    {"param2d", case_param2d},
    {"launch_ex", case_launch_ex},
    {"drv3d_r6", case_drv3d_r6},
    {"exec_from_symbol", case_exec_from_symbol},
    {"drv_exec_memcpy", case_drv_exec_memcpy},
};

int main(int argc, char **argv)
{
    size_t len = 0;
    void *image = argc > 3 ? khost_read_file(argv[1], &len) : NULL;
    if (!image || (strcmp(argv[3], "pos") != 0 && strcmp(argv[3], "neg") != 0)) {
        fprintf(stderr, "usage: sem_app CODE_OBJECT CASE pos|neg\n");
        return 2;
    }
    pos = strcmp(argv[3], "pos") == 0;
    khost_register((khost_reg_fn)dlsym(RTLD_DEFAULT, "hipdouble_register_module_kernel"));
    R(hipModuleLoadData(&mod, image));
    free(image);
    R(hipModuleGetFunction(&producer, mod, "producer"));
    R(hipMalloc((void **)&in, KN * sizeof(float)));
    R(hipMalloc((void **)&mid, KN * sizeof(float)));
    R(hipMalloc((void **)&out, KN * sizeof(float)));
    R(hipMalloc((void **)&big, 1 << 16));
    R(hipHostMalloc((void **)&pinned, KN * sizeof(float), 0));
    R(hipMalloc((void **)&flag, 64));
    R(hipStreamCreateWithFlags(&s_main, hipStreamNonBlocking));
    R(hipStreamCreateWithFlags(&s_side, hipStreamNonBlocking));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].name, argv[2]) == 0) {
            cases[i].fn();
            printf("sem: done %s %s\n", argv[2], argv[3]);
            return failed;
        }
    }
    fprintf(stderr, "sem_app: unknown case %s\n", argv[2]);
    return 2;
}
