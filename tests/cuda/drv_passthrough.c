/*
 * TEST-ONLY: the driver-API side of the CUDA front end, on the stand-in
 * driver (fake_libcuda.c) loaded the way Triton loads the real one:
 * dlopen(RTLD_LOCAL) + dlsym. Exercises the interposed dlsym, the
 * cuGetProcAddress substitution (the `_ptsz` variant picked by flag), kernel
 * layouts from cuFuncGetParamInfo (a pointer packed in a 16-byte struct
 * parameter too), and the graph walk at instantiate. Prints each call's
 * symbol and result like rt_passthrough; check_trace.py checks the records.
 *
 * usage: drv_passthrough /path/to/libcuda.so.1
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#undef cuGetProcAddress

#define CALL(sym, expr)                                  \
    do {                                                 \
        int rc_ = (int)(expr);                           \
        printf("%s %d\n", sym, rc_);                     \
    } while (0)

/* A local pointer named like the function, typed from its prototype. */
#define FN(name)                             \
    typedef __typeof__(&name) name##_fn_;   \
    name##_fn_ name = (name##_fn_)dlsym(lib, #name)

typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);

int main(int argc, char **argv)
{
    void *lib = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib) {
        fprintf(stderr, "drv_passthrough: cannot load %s: %s\n", argc > 1 ? argv[1] : "(none)", dlerror());
        return 2;
    }
    FN(cuInit);
    FN(cuMemAlloc_v2);
    FN(cuMemFree_v2);
    FN(cuMemcpyHtoDAsync_v2);
    FN(cuModuleLoadData);
    FN(cuModuleGetFunction);
    FN(cuLaunchKernel);
    FN(cuGetProcAddress_v2);
    FN(cuStreamCreate);
    FN(cuStreamBeginCapture_v2);
    FN(cuStreamEndCapture);
    FN(cuGraphInstantiateWithFlags);
    FN(cuGraphLaunch);
    FN(cuStreamSynchronize);
    FN(cuStreamWriteValue32_v2);
    FN(cuStreamWaitValue32_v2);
    FN(cuStreamBatchMemOp_v2);
#undef cuMemcpyBatchAsync
#undef cuStreamGetCaptureInfo
    FN(cuMemcpyBatchAsync_v2);
    FN(cuMemcpy3DBatchAsync_v2);
    FN(cuStreamGetCaptureInfo_v3);
    FN(cuGraphNodeSetEnabled);
    FN(cuGraphExecMemcpyNodeSetParams);
    FN(cuGraphGetNodes);
    /* The CUDA 12.8 form, with failIdx before the stream (cudaTypedefs.h
     * PFN_cuMemcpyBatchAsync_v12080): cuda.h declares only the CUDA 13 one. */
    CUresult (*cuMemcpyBatchAsync)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *,
                                   size_t, size_t *, CUstream) =
        (CUresult(*)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t, size_t *,
                     CUstream))dlsym(lib, "cuMemcpyBatchAsync");

    static char host[1028];
    CUdeviceptr seqlens = 0, out = 0;
    CUmodule mod = NULL;
    CUfunction f = NULL;
    CUstream s = NULL;
    CUgraph g = NULL;
    CUgraphExec x = NULL;
    void *ptsz = NULL;
    CUdriverProcAddressQueryResult st;
    CALL("cuInit", cuInit(0)); /* not intercepted: no record expected (check_trace.py skips it) */
    CALL("cuMemAlloc_v2", cuMemAlloc_v2(&seqlens, sizeof host));
    CALL("cuMemAlloc_v2", cuMemAlloc_v2(&out, 4096));
    CALL("cuModuleLoadData", cuModuleLoadData(&mod, host));
    CALL("cuModuleGetFunction", cuModuleGetFunction(&f, mod, "triton_k"));
    /* Parameters: a pointer, an int, and a 16-byte struct whose second
     * word is a pointer (how PyTorch packs them). */
    int n = 256;
    struct { uint64_t tag; CUdeviceptr p; } packed = {0x1234, out + 64};
    void *params[3] = {&seqlens, &n, &packed};
    CALL("cuMemcpyHtoDAsync_v2", cuMemcpyHtoDAsync_v2(seqlens, host, sizeof host, NULL));
    CALL("cuLaunchKernel", cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CALL("cuGetProcAddress_v2", cuGetProcAddress_v2("cuLaunchKernel", &ptsz, 12000,
                                                    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
    CALL("cuLaunchKernel_ptsz", ((launch_fn)ptsz)(f, 2, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CALL("cuStreamCreate", cuStreamCreate(&s, 0));
    CALL("cuStreamBeginCapture_v2", cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CALL("cuMemcpyHtoDAsync_v2", cuMemcpyHtoDAsync_v2(seqlens, host, sizeof host, s));
    CALL("cuLaunchKernel", cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, s, params, NULL));
    CALL("cuStreamEndCapture", cuStreamEndCapture(s, &g));
    CALL("cuGraphInstantiateWithFlags", cuGraphInstantiateWithFlags(&x, g, 0));
    CALL("cuMemcpyHtoDAsync_v2", cuMemcpyHtoDAsync_v2(seqlens, host, sizeof host, s));
    CALL("cuGraphLaunch", cuGraphLaunch(x, s));
    CALL("cuStreamSynchronize", cuStreamSynchronize(s));
    /* Stream memory operations: a signal and the wait that reads it, one batch, a refused one. */
    CALL("cuStreamWriteValue32_v2", cuStreamWriteValue32_v2(s, out, 1, 0));
    CALL("cuStreamWaitValue32_v2", cuStreamWaitValue32_v2(NULL, out, 1, CU_STREAM_WAIT_VALUE_GEQ));
    CUstreamBatchMemOpParams ops[2] = {{.writeValue = {.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32, .address = out,
                                                       .value = 2}},
                                       {.waitValue = {.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32, .address = out,
                                                      .value = 2, .flags = CU_STREAM_WAIT_VALUE_EQ}}};
    CALL("cuStreamBatchMemOp_v2", cuStreamBatchMemOp_v2(s, 2, ops, 0));
    printf("cuStreamBatchMemOp_v2 0\n"); /* one record per entry (docs/semantics.md): the wait's */
    CALL("cuStreamWriteValue32_v2", cuStreamWriteValue32_v2(s, 0, 1, 0));
    /* Batch copies (C11, C12): two pairs, one record each; the stream is the
     * one the capture query named, the driver refuses any other. */
    CUstreamCaptureStatus cst;
    cuuint64_t cid = 0;
    CUgraph cg = NULL;
    CALL("cuStreamGetCaptureInfo_v3", cuStreamGetCaptureInfo_v3(s, &cst, &cid, &cg, NULL, NULL, NULL));
    CUdeviceptr bd[2] = {out, out + 1024}, bs[2] = {seqlens, seqlens + 512};
    size_t bn[2] = {256, 128}, fail = 0;
    CALL("cuMemcpyBatchAsync_v2", cuMemcpyBatchAsync_v2(bd, bs, bn, 2, NULL, NULL, 0, s));
    printf("cuMemcpyBatchAsync_v2 0\n"); /* the second pair's record */
    CALL("cuMemcpyBatchAsync", cuMemcpyBatchAsync(bd, bs, bn, 1, NULL, NULL, 0, &fail, s));
    printf("failIdx 0x%zx\n", fail);
    CALL("cuMemcpyBatchAsync_v2", cuMemcpyBatchAsync_v2(bd, bs, bn, 2, NULL, NULL, 0, NULL)); /* refused */
    CUDA_MEMCPY3D_BATCH_OP op3 = {.src = {.type = CU_MEMCPY_OPERAND_TYPE_POINTER, .op.ptr = {.ptr = seqlens}},
                                  .dst = {.type = CU_MEMCPY_OPERAND_TYPE_POINTER,
                                          .op.ptr = {.ptr = out, .rowLength = 1024, .layerHeight = 2}},
                                  .extent = {64, 2, 2}, .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM};
    CALL("cuMemcpy3DBatchAsync_v2", cuMemcpy3DBatchAsync_v2(1, &op3, 0, s));
    CALL("cuGraphNodeSetEnabled", cuGraphNodeSetEnabled(x, NULL, 0)); /* refused: no such node */
    /* G7: the exec's copy node now copies 512 B into out + 2048. */
    CUgraphNode gn[2];
    size_t ngn = 2;
    if (cuGraphGetNodes(g, gn, &ngn) == CUDA_SUCCESS && ngn == 2) {
        CUDA_MEMCPY3D cp = {.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = host, .dstMemoryType = CU_MEMORYTYPE_DEVICE,
                            .dstDevice = out + 2048, .WidthInBytes = 512, .Height = 1, .Depth = 1};
        CALL("cuGraphExecMemcpyNodeSetParams", cuGraphExecMemcpyNodeSetParams(x, gn[0], &cp, NULL));
    }
    CALL("cuMemFree_v2", cuMemFree_v2(seqlens));
    printf("seqlens 0x%llx out 0x%llx\n", (unsigned long long)seqlens, (unsigned long long)out);
    return 0;
}
