/*
 * passthrough.c - TEST-ONLY application: calls a broad list of HIP APIs with
 * plausible arguments and prints each call's return code ("name -> code").
 *
 * Part of hipvis tests (tests/apps). Its output is compared with and without
 * a preload tracer, on the real runtime (which answers "no device") and on
 * the HIP runtime test double (tests/runtime-double). Never installed.
 *
 * APIs that HIP 5.2 does not export, and the double's control entry points,
 * are reached through dlsym so the binary starts on either runtime; missing
 * ones print "name -> unavailable". Handles are NULL-initialised so calls
 * after a failed creation stay well-defined.
 */
#include "../runtime-double/hipdouble.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void report(const char *call, hipError_t e)
{
    printf("%.*s -> %d\n", (int)strcspn(call, "("), call, (int)e);
}

#define P(call) report(#call, (call))

/* Calls an API that may be absent from the runtime. */
#define OPT(fn, ...)                                              \
    do {                                                          \
        void *p_ = dlsym(RTLD_DEFAULT, #fn);                      \
        if (!p_)                                                  \
            printf("%s -> unavailable\n", #fn);                   \
        else                                                      \
            report(#fn, ((__typeof__(&fn))p_)(__VA_ARGS__));      \
    } while (0)

static const char k_stub;       /* host stub registered with the double directly */
static const char k_named_stub; /* host stub bound to a name, as clang's code does */
static int g_kernel_runs, g_host_runs;

static void kernel_fn(void **args, dim3 g, dim3 b, void *user)
{
    (void)args;
    (void)g;
    (void)b;
    (void)user;
    g_kernel_runs++;
}

static void host_fn(void *ud)
{
    (void)ud;
    g_host_runs++;
}

static void register_if_double(void)
{
    int (*is_double)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "hipdouble_is_test_double");
    int (*reg)(const void *, const char *, hipdouble_kernel_fn, int, const size_t *, void *) =
        (int (*)(const void *, const char *, hipdouble_kernel_fn, int, const size_t *, void *))
            dlsym(RTLD_DEFAULT, "hipdouble_register_kernel");
    int (*reg_mod)(const char *, hipdouble_kernel_fn, int, const size_t *, void *) =
        (int (*)(const char *, hipdouble_kernel_fn, int, const size_t *, void *))dlsym(
            RTLD_DEFAULT, "hipdouble_register_module_kernel");
    printf("passthrough: test-double=%d\n", is_double ? is_double() : 0);
    static const size_t sizes[] = {8, 4};
    if (reg)
        reg(&k_stub, "pt_kernel", kernel_fn, 2, sizes, NULL);
    if (reg_mod)
        reg_mod("pt_module_kernel", kernel_fn, 2, sizes, NULL);
}

int main(void)
{
    enum { N = 64 };
    static int32_t reg_buf[N], host_buf[N];
    void *dev = NULL, *dev2 = NULL, *dev3 = NULL, *dev4 = NULL, *pin = NULL, *pin2 = NULL,
         *pin3 = NULL;
    hipStream_t s = NULL, s2 = NULL, s3 = NULL;
    hipEvent_t e = NULL, e2 = NULL, t0 = NULL;
    hipModule_t mod = NULL, mod2 = NULL;
    hipFunction_t fn = NULL;
    hipGraph_t g = NULL, mg = NULL, child = NULL, got_graph = NULL;
    hipGraphExec_t x = NULL, x2 = NULL, x3 = NULL;
    hipGraphNode_t nodes[16] = {0}, from[16] = {0}, to[16] = {0};
    hipGraphNode_t kn = NULL, cn = NULL, c1 = NULL, sn = NULL, ern = NULL, ewn = NULL, hn = NULL,
                   en = NULL, chn = NULL, err_node = NULL;
    int count = 0, dev_id = -1, ver = 0;
    size_t n = 0;
    float ms = 0;
    dim3 one = {1, 1, 1};
    int64_t arg0 = 7;
    int32_t arg1 = 3;
    void *kargs[] = {&arg0, &arg1};

    register_if_double();
    static const struct {
        unsigned magic, version;
        const void *binary, *unused;
    } fatbin = {0, 0, NULL, NULL};
    void **mods = __hipRegisterFatBinary(&fatbin);
    printf("__hipRegisterFatBinary -> %s\n", mods ? "handle" : "null");
    __hipRegisterFunction(mods, &k_named_stub, (char *)"pt_module_kernel", "pt_module_kernel",
                          (unsigned)-1, NULL, NULL, NULL, NULL, NULL);

    /* device and versions */
    P(hipInit(0));
    P(hipDriverGetVersion(&ver));
    P(hipRuntimeGetVersion(&ver));
    P(hipGetDeviceCount(&count));
    P(hipSetDevice(0));
    P(hipGetDevice(&dev_id));
    P(hipDeviceSynchronize());

    /* memory */
    P(hipMalloc(&dev, N * 4));
    P(hipMalloc(&dev4, N * 4));
    P(hipExtMallocWithFlags(&dev2, N * 4, 0));
    P(hipMallocAsync(&dev3, N * 4, NULL));
    P(hipHostMalloc(&pin, N * 4, 0));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    P(hipMallocHost(&pin2, N * 4));
    P(hipHostAlloc(&pin3, N * 4, 0));
#pragma GCC diagnostic pop
    P(hipHostRegister(reg_buf, sizeof reg_buf, 0));
    hipPointerAttribute_t attr;
    P(hipPointerGetAttributes(&attr, dev));

    /* streams and events */
    P(hipStreamCreate(&s));
    P(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    P(hipStreamCreateWithPriority(&s3, 0, 0));
    P(hipEventCreate(&t0));
    P(hipEventCreate(&e));
    P(hipEventCreateWithFlags(&e2, hipEventDisableTiming));

    /* copies and memsets */
    P(hipMemcpy(dev, host_buf, N * 4, hipMemcpyHostToDevice));
    P(hipMemcpyAsync(dev, pin, N * 4, hipMemcpyHostToDevice, s));
    P(hipMemcpyWithStream(pin, dev, N * 4, hipMemcpyDeviceToHost, s));
    P(hipMemcpyHtoD(dev, host_buf, N * 4));
    P(hipMemcpyDtoH(host_buf, dev, N * 4));
    P(hipMemcpyDtoD(dev4, dev, N * 4));
    P(hipMemcpyHtoDAsync(dev, pin, N * 4, s));
    P(hipMemcpyDtoHAsync(pin, dev, N * 4, s));
    P(hipMemcpyDtoDAsync(dev4, dev, N * 4, s));
    P(hipMemcpy2D(dev, 64, pin, 64, 32, 2, hipMemcpyHostToDevice));
    P(hipMemcpy2DAsync(dev, 64, pin, 64, 32, 2, hipMemcpyHostToDevice, s));
    P(hipMemcpyPeer(dev4, 0, dev, 0, N * 4));
    P(hipMemcpyPeerAsync(dev4, 0, dev, 0, N * 4, s));
    P(hipMemset(dev, 0, N * 4));
    P(hipMemsetAsync(dev, 1, N * 4, s));
    P(hipMemsetD8(dev, 2, N));
    P(hipMemsetD16(dev, 3, N));
    P(hipMemsetD32(dev, 4, N));
    P(hipMemsetD8Async(dev, 5, N, s));
    P(hipMemsetD16Async(dev, 6, N, s));
    P(hipMemsetD32Async(dev, 7, N, s));
    P(hipMemset2D(dev, 64, 0, 32, 2));
    P(hipMemset2DAsync(dev, 64, 0, 32, 2, s));
    P(hipMemcpy_spt(dev, host_buf, N * 4, hipMemcpyHostToDevice));
    P(hipMemcpyAsync_spt(dev, pin, N * 4, hipMemcpyHostToDevice, NULL));
    P(hipMemcpy2D_spt(dev, 64, pin, 64, 32, 2, hipMemcpyHostToDevice));
    P(hipMemset_spt(dev, 0, N * 4));
    P(hipMemset2D_spt(dev, 64, 0, 32, 2));
    OPT(hipMemsetAsync_spt, dev, 0, N * 4, NULL);
    OPT(hipMemset2DAsync_spt, dev, 64, 0, 32, 2, NULL);
    OPT(hipMemcpy2DAsync_spt, dev, 64, pin, 64, 32, 2, hipMemcpyHostToDevice, NULL);

    /* launches */
    P(hipEventRecord(t0, s));
    P(hipLaunchKernel(&k_stub, one, one, kargs, 0, s));
    P(hipLaunchKernel_spt(&k_stub, one, one, kargs, 0, NULL));
    P(hipLaunchKernel(&k_named_stub, one, one, kargs, 0, s));
    P(hipExtLaunchKernel(&k_stub, one, one, kargs, 0, s, NULL, NULL, 0));
    OPT(hipLaunchHostFunc, s, host_fn, NULL); /* not exported by HIP 5.2 */
    OPT(hipLaunchHostFunc_spt, NULL, host_fn, NULL);
    static const char bundle[] = "__CLANG_OFFLOAD_BUNDLE__";
    P(hipModuleLoadData(&mod, bundle));
    P(hipModuleLoadDataEx(&mod2, bundle, 0, NULL, NULL));
    P(hipModuleLoad(&mod2, "/nonexistent/kernel.hsaco"));
    P(hipModuleGetFunction(&fn, mod, "pt_module_kernel"));
    P(hipModuleLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, kargs, NULL));
    struct {
        int64_t a;
        int32_t b;
    } packed = {1, 2};
    size_t psz = sizeof packed;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &psz,
                     HIP_LAUNCH_PARAM_END};
    P(hipModuleLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, NULL, extra));
    /* C name since ROCm 6; HIP 5.2 exports only a C++-mangled one */
    OPT(hipExtModuleLaunchKernel, fn, 64, 1, 1, 64, 1, 1, 0, s, kargs, NULL, NULL, NULL, 0);

    /* synchronization */
    P(hipEventRecord(e, s));
    OPT(hipEventRecord_spt, e2, NULL);
    OPT(hipEventRecordWithFlags, e2, s, 0);
    P(hipStreamWaitEvent(s2, e, 0));
    P(hipStreamWaitEvent_spt(NULL, e, 0));
    P(hipStreamQuery(s2));
    P(hipStreamQuery_spt(NULL));
    P(hipEventQuery(e));
    P(hipEventSynchronize(e));
    P(hipEventElapsedTime(&ms, t0, e));
    P(hipStreamSynchronize(s));
    P(hipStreamSynchronize_spt(NULL));

    /* capture with a fork / join */
    hipStreamCaptureStatus st;
    unsigned long long cap_id = 0;
    P(hipStreamBeginCapture(s2, hipStreamCaptureModeGlobal));
    P(hipStreamIsCapturing(s2, &st));
    P(hipStreamGetCaptureInfo(s2, &st, &cap_id));
    P(hipMemcpyAsync(dev, pin, N * 4, hipMemcpyHostToDevice, s2));
    P(hipLaunchKernel(&k_stub, one, one, kargs, 0, s2));
    P(hipEventRecord(e, s2));
    P(hipStreamWaitEvent(s3, e, 0));
    OPT(hipLaunchHostFunc, s3, host_fn, NULL);
    P(hipEventRecord(e2, s3));
    P(hipStreamWaitEvent(s2, e2, 0));
    P(hipMemsetAsync(dev4, 0, N * 4, s2));
    P(hipStreamEndCapture(s2, &g));

    /* graph inspection, instantiation, launch, update */
    n = 16;
    P(hipGraphGetNodes(g, nodes, &n));
    n = 16;
    P(hipGraphGetRootNodes(g, from, &n));
    n = 16;
    P(hipGraphGetEdges(g, from, to, &n));
    hipGraphNodeType type;
    hipKernelNodeParams kp;
    hipMemcpy3DParms mp;
    memset(&kp, 0, sizeof kp);
    P(hipGraphNodeGetType(nodes[0], &type));
    P(hipGraphMemcpyNodeGetParams(nodes[0], &mp));
    P(hipGraphKernelNodeGetParams(nodes[1], &kp));
    P(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    P(hipGraphInstantiateWithFlags(&x2, g, hipGraphInstantiateFlagAutoFreeOnLaunch));
    hipGraphInstantiateParams ip;
    memset(&ip, 0, sizeof ip);
    OPT(hipGraphInstantiateWithParams, &x3, g, &ip);
    OPT(hipGraphUpload, x, s);
    P(hipGraphLaunch(x, s));
    OPT(hipGraphLaunch_spt, x2, NULL);
    kp.kernelParams = kargs;
    P(hipGraphExecKernelNodeSetParams(x, nodes[1], &kp));
    hipGraphExecUpdateResult ur;
    P(hipGraphExecUpdate(x, g, &err_node, &ur));
    P(hipStreamSynchronize(s));

    /* graph built by hand */
    P(hipGraphCreate(&mg, 0));
    P(hipGraphCreate(&child, 0));
    hipKernelNodeParams knp = {.blockDim = one, .func = (void *)&k_stub, .gridDim = one,
                               .kernelParams = kargs};
    P(hipGraphAddKernelNode(&kn, mg, NULL, 0, &knp));
    hipMemcpy3DParms m3;
    memset(&m3, 0, sizeof m3);
    m3.srcPtr = (hipPitchedPtr){pin, N * 4, N * 4, 1};
    m3.dstPtr = (hipPitchedPtr){dev, N * 4, N * 4, 1};
    m3.extent = (hipExtent){N * 4, 1, 1};
    m3.kind = hipMemcpyHostToDevice;
    P(hipGraphAddMemcpyNode(&cn, mg, &kn, 1, &m3));
    P(hipGraphAddMemcpyNode1D(&c1, mg, &cn, 1, pin, dev, N * 4, hipMemcpyDeviceToHost));
    hipMemsetParams msp = {.dst = dev, .elementSize = 4, .height = 1, .value = 1, .width = N};
    P(hipGraphAddMemsetNode(&sn, mg, NULL, 0, &msp));
    P(hipGraphAddEventRecordNode(&ern, mg, &sn, 1, e));
    P(hipGraphAddEventWaitNode(&ewn, mg, NULL, 0, e2));
    hipHostNodeParams hp = {host_fn, NULL};
    P(hipGraphAddHostNode(&hn, mg, NULL, 0, &hp));
    P(hipGraphAddEmptyNode(&en, mg, NULL, 0));
    P(hipGraphAddHostNode(&hn, child, NULL, 0, &hp));
    P(hipGraphAddChildGraphNode(&chn, mg, NULL, 0, child));
    hipGraphNode_t df[] = {c1, ern}, dt[] = {en, en};
    P(hipGraphAddDependencies(mg, df, dt, 2));
    P(hipGraphMemsetNodeGetParams(sn, &msp));
    hipEvent_t ev_out = NULL;
    P(hipGraphEventRecordNodeGetEvent(ern, &ev_out));
    P(hipGraphEventWaitNodeGetEvent(ewn, &ev_out));
    P(hipGraphHostNodeGetParams(hn, &hp));
    P(hipGraphChildGraphNodeGetGraph(chn, &got_graph));
    P(hipGraphExecDestroy(x3));
    P(hipGraphInstantiate(&x3, mg, NULL, NULL, 0));
    P(hipGraphLaunch(x3, s));
    P(hipDeviceSynchronize());

    /* issue 14 (docs/semantics.md C3-C6, C11, C12, G7): batch copies (ROCm
     * 7.1+), driver-style and parameter-block copies, exec-node setters */
    void *bd[2] = {dev, pin}, *bs[2] = {pin, dev};
    size_t bn[2] = {64, 64}, bfail = 0;
    OPT(hipMemcpyBatchAsync, bd, bs, bn, 2, NULL, NULL, 0, &bfail, s);
    struct {
        int type;
        void *ptr;
        size_t row, layer;
        int loc[2];
    } ops[2] = {{1, pin, 0, 0, {0, 0}}, {1, dev, 0, 0, {0, 0}}};
    struct {
        __typeof__(ops[0]) src, dst;
        hipExtent extent;
        int order;
        unsigned flags;
    } op3 = {ops[0], ops[1], {64, 2, 1}, 1, 0};
    OPT(hipMemcpy3DBatchAsync, 1, &op3, &bfail, 0, s);
    HIP_MEMCPY3D d3 = {.srcMemoryType = hipMemoryTypeHost, .srcHost = pin, .srcPitch = 64, .srcHeight = 2,
                       .dstMemoryType = hipMemoryTypeDevice, .dstDevice = (hipDeviceptr_t)dev, .dstPitch = 64,
                       .dstHeight = 2, .WidthInBytes = 64, .Height = 2, .Depth = 1};
    P(hipDrvMemcpy3D(&d3));
    P(hipDrvMemcpy3DAsync(&d3, s));
    hip_Memcpy2D p2 = {.srcMemoryType = hipMemoryTypeHost, .srcHost = pin, .srcPitch = 64,
                       .dstMemoryType = hipMemoryTypeDevice, .dstDevice = (hipDeviceptr_t)dev, .dstPitch = 64,
                       .WidthInBytes = 64, .Height = 2};
    P(hipMemcpyParam2D(&p2));
    P(hipMemcpyParam2DAsync(&p2, s));
    P(hipDrvMemcpy2DUnaligned(&p2));
    P(hipGraphExecMemcpyNodeSetParamsToSymbol(x3, cn, dev, pin, 64, 0, hipMemcpyHostToDevice));
    P(hipGraphExecMemcpyNodeSetParamsFromSymbol(x3, c1, pin, dev, 64, 0, hipMemcpyDeviceToHost));
    OPT(hipGraphNodeSetEnabled, x3, cn, 0);
    OPT(hipGraphNodeSetEnabled, x3, cn, 1);
    P(hipStreamSynchronize(s));

    /* capture through the _spt entry points */
    hipGraph_t g2 = NULL;
    OPT(hipStreamBeginCapture_spt, hipStreamPerThread, hipStreamCaptureModeRelaxed);
    OPT(hipStreamIsCapturing_spt, hipStreamPerThread, &st);
    OPT(hipStreamEndCapture_spt, hipStreamPerThread, &g2);

    /* errors */
    P(hipStreamSynchronize((hipStream_t)(uintptr_t)0x4321));
    P(hipPeekAtLastError());
    P(hipGetLastError());
    P(hipGetLastError());
    printf("hipGetErrorName -> %s\n", hipGetErrorName(hipErrorInvalidValue));
    printf("hipGetErrorString -> %s\n", hipGetErrorString(hipErrorNotReady));

    /* cleanup */
    P(hipGraphExecDestroy(x));
    P(hipGraphExecDestroy(x2));
    P(hipGraphExecDestroy(x3));
    P(hipGraphDestroy(g));
    P(hipGraphDestroy(mg));
    P(hipGraphDestroy(child));
    if (g2)
        P(hipGraphDestroy(g2));
    P(hipModuleUnload(mod));
    P(hipEventDestroy(t0));
    P(hipEventDestroy(e));
    P(hipEventDestroy(e2));
    P(hipStreamDestroy(s));
    P(hipStreamDestroy(s2));
    P(hipStreamDestroy(s3));
    P(hipFreeAsync(dev3, NULL));
    P(hipFree(dev));
    P(hipFree(dev2));
    P(hipFree(dev4));
    P(hipHostFree(pin));
    P(hipHostFree(pin2));
    P(hipHostFree(pin3));
    P(hipHostUnregister(reg_buf));
    P(hipDeviceSynchronize());
    __hipUnregisterFatBinary(mods);
    printf("passthrough: kernels=%d host_fns=%d\n", g_kernel_runs, g_host_runs);
    return 0;
}
