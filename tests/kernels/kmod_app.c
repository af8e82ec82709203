/*
 * TEST-ONLY. Kernels from a gfx950 code object (kernels950.cl, clang-22)
 * loaded with hipModuleLoadData, launched three ways — a params array, an
 * `extra` buffer, and through the pointer dlsym(dlopen("libamdhip64.so",
 * RTLD_NOLOAD), "hipModuleLaunchKernel") gives, as Triton's launcher gets
 * it — then captured into a fork/join graph on two streams (event record /
 * wait, a host node, an external event record node), instantiated and
 * replayed. Prints each call's result and the buffers' addresses, so
 * check_kernels.py can match the trace; the output is the same with and
 * without the tracer.
 *
 *   kmod_app CODE_OBJECT
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "khost.h"

#define R(call) report(#call, (int)(call))

static void report(const char *what, int r)
{
    char name[64];
    size_t n = strcspn(what, "(");
    snprintf(name, sizeof name, "%.*s", (int)n, what);
    printf("%s -> %d\n", name, r);
}

static void host_node(void *user) { ++*(int *)user; }

typedef hipError_t (*launch_fn)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                hipStream_t, void **, void **);

/* What Triton's HIP launcher does: functions of the runtime the process
 * already loaded, looked up by name. Also how functions that HIP 5.2 lacks
 * are reached: NULL there. */
static void *runtime_sym(const char *name)
{
    void *h = dlopen("libamdhip64.so", RTLD_NOLOAD | RTLD_LAZY);
    if (!h)
        h = dlopen("libamdhip64.so.5", RTLD_NOLOAD | RTLD_LAZY);
    return h ? dlsym(h, name) : NULL;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    void *image = argc > 1 ? khost_read_file(argv[1], &len) : NULL;
    if (!image) {
        fprintf(stderr, "usage: kmod_app CODE_OBJECT\n");
        return 2;
    }
    khost_register((khost_reg_fn)dlsym(RTLD_DEFAULT, "hipdouble_register_module_kernel"));

    hipModule_t mod = NULL;
    hipFunction_t producer = NULL, accum = NULL, consume = NULL;
    R(hipModuleLoadData(&mod, image));
    memset(image, 0, len); /* the runtime copied it; so must the tracer */
    free(image);
    R(hipModuleGetFunction(&producer, mod, "producer"));
    R(hipModuleGetFunction(&accum, mod, "accum"));
    R(hipModuleGetFunction(&consume, mod, "consume"));

    float *in = NULL, *mid = NULL, *acc = NULL, *out = NULL, host[KN];
    R(hipMalloc((void **)&in, sizeof host));
    R(hipMalloc((void **)&mid, sizeof host));
    R(hipMalloc((void **)&acc, sizeof host));
    R(hipMalloc((void **)&out, sizeof host));
    printf("addr in=%p mid=%p acc=%p out=%p\n", (void *)in, (void *)mid, (void *)acc, (void *)out);
    for (int i = 0; i < KN; i++)
        host[i] = (float)i;
    R(hipMemcpy(in, host, sizeof host, hipMemcpyHostToDevice));
    R(hipMemcpy(acc, host, sizeof host, hipMemcpyHostToDevice));

    hipStream_t s1 = NULL, s2 = NULL;
    R(hipStreamCreate(&s1));
    R(hipStreamCreate(&s2));
    int n = KN;

    /* Eager: params array, `extra` buffer, Triton-style pointer. */
    void *p_args[] = {&in, &mid, &n};
    R(hipModuleLaunchKernel(producer, 1, 1, 1, KN, 1, 1, 0, s1, p_args, NULL));
    struct {
        float *acc, *x;
        int n, pad;
    } blob = {acc, in, KN, 0};
    size_t blob_bytes = 20;
    void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &blob, HIP_LAUNCH_PARAM_BUFFER_SIZE, &blob_bytes,
                     HIP_LAUNCH_PARAM_END};
    R(hipModuleLaunchKernel(accum, 1, 1, 1, KN, 1, 1, 0, s1, NULL, extra));
    launch_fn launch = (launch_fn)runtime_sym("hipModuleLaunchKernel");
    printf("triton-style launcher %s\n", launch ? "found" : "missing");
    void *c_args[] = {&mid, &acc, &out, &n};
    if (launch)
        R(launch(consume, 1, 1, 1, KN, 1, 1, 0, s1, c_args, NULL));
    R(hipStreamSynchronize(s1));
    R(hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost));
    printf("eager out[1..3] = %g %g %g\n", host[1], host[2], host[3]);

    /* Captured fork/join: roots P (producer) and H (host); P and H feed A
     * (accum); P and A feed C (consume); C feeds E (event record). */
    hipEvent_t ef = NULL, ep = NULL, ej = NULL, edone = NULL;
    R(hipEventCreate(&ef));
    R(hipEventCreate(&ep));
    R(hipEventCreate(&ej));
    R(hipEventCreate(&edone));
    int host_runs = 0;
    hipGraph_t graph = NULL;
    hipGraphExec_t exec = NULL;
    R(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
    R(hipEventRecord(ef, s1));
    R(hipStreamWaitEvent(s2, ef, 0));
    R(hipModuleLaunchKernel(producer, 1, 1, 1, KN, 1, 1, 0, s1, p_args, NULL));
    hipError_t (*host_func)(hipStream_t, hipHostFn_t, void *) =
        (hipError_t(*)(hipStream_t, hipHostFn_t, void *))runtime_sym("hipLaunchHostFunc");
    if (host_func)
        R(host_func(s2, host_node, &host_runs));
    R(hipEventRecord(ep, s1));
    R(hipStreamWaitEvent(s2, ep, 0));
    void *a_args[] = {&acc, &in, &n};
    R(hipModuleLaunchKernel(accum, 1, 1, 1, KN, 1, 1, 0, s2, a_args, NULL));
    R(hipEventRecord(ej, s2));
    R(hipStreamWaitEvent(s1, ej, 0));
    R(hipModuleLaunchKernel(consume, 1, 1, 1, KN, 1, 1, 0, s1, c_args, NULL));
    /* ROCm 6+: an event record node. */
    hipError_t (*record_flags)(hipEvent_t, hipStream_t, unsigned) =
        (hipError_t(*)(hipEvent_t, hipStream_t, unsigned))runtime_sym("hipEventRecordWithFlags");
    if (record_flags)
        R(record_flags(edone, s1, hipEventRecordExternal));
    R(hipStreamEndCapture(s1, &graph));
    R(hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
    R(hipGraphLaunch(exec, s1));
    R(hipStreamSynchronize(s1));
    R(hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost));
    printf("graph out[1..3] = %g %g %g host_runs=%d\n", host[1], host[2], host[3], host_runs);

    R(hipGraphExecDestroy(exec));
    R(hipGraphDestroy(graph));
    R(hipModuleUnload(mod));
    return 0;
}
