/*
 * struct_loop.c - TEST-ONLY application: the decode loop's hazard with the
 * reader's pointer inside a by-value struct, as Composable Kernel and many
 * C++ launchers pass theirs.
 *
 * Part of hipvis tests (tests/apps); runs on the HIP runtime test double
 * (tests/runtime-double). Never installed.
 *
 * A pinned host buffer (257 x int32) is copied every step into the device
 * buffer cu_seqlens_q on the null stream, then a graph captured once is
 * replayed on the same stream: its kernel _span_lengths_kernel(struct span s,
 * int32_t *tokens_per_req) reads s.p, which is cu_seqlens_q. Each step ends
 * with a blocking read-back of tokens_per_req. The code object's metadata
 * calls `s` 16 bytes by value: only the kernel's own loads say that its
 * first word is a pointer (struct_kernels.hip, embedded and registered as
 * hipcc does, like decode_loop.c's kernels).
 *
 * usage: struct_loop [--steps N]   (default 40)
 * Prints one summary line; exit 0 unless the arguments are wrong (2).
 */
#include "../runtime-double/hipdouble.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NREQ 256
#define NSEQ (NREQ + 1)
static const char *const KERNEL_NAME = "_span_lengths_kernel";

/* The kernel's first argument, laid out as struct_kernels.hip's. */
struct span {
    const int32_t *p;
    int32_t n, seed;
};

static const char k_span_stub;   /* identifies the kernel, as clang's host stub does */
static long g_reads, g_stale;

/* _span_lengths_kernel's host implementation on the double. */
static void span_kernel(void **args, dim3 grid, dim3 block, void *user)
{
    (void)grid;
    (void)block;
    (void)user;
    const struct span *s = args[0];
    int32_t *out = *(int32_t **)args[1];
    long bad = 0;
    for (int b = 0; b < s->n; b++) {
        bad += s->p[b] != b;
        out[b] = s->p[b + 1] - s->p[b];
    }
    g_reads++;
    g_stale += bad != 0;
}

extern const unsigned char hv_struct_fatbin[];
static const struct {
    unsigned magic, version;
    const void *binary, *unused;
} g_fatbin_wrapper __attribute__((section(".hipFatBinSegment"), aligned(8))) = {
    0x48495046u /* "HIPF" */, 1, hv_struct_fatbin, NULL};

static int g_failed;
#define CHECK(call)                                                          \
    do {                                                                     \
        hipError_t e_ = (call);                                              \
        if (e_ != hipSuccess && !g_failed++)                                 \
            fprintf(stderr, "struct_loop: %s: %d\n", #call, (int)e_);        \
    } while (0)

int main(int argc, char **argv)
{
    long steps = 40;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--steps") && i + 1 < argc && (steps = strtol(argv[++i], &end, 10)) > 0 && !*end)
            continue;
        fprintf(stderr, "usage: %s [--steps N]\n", argv[0]);
        return 2;
    }
    void **mods = __hipRegisterFatBinary(&g_fatbin_wrapper);
    __hipRegisterFunction(mods, &k_span_stub, (char *)KERNEL_NAME, KERNEL_NAME, (unsigned)-1, NULL, NULL, NULL,
                          NULL, NULL);
    int (*reg)(const char *, hipdouble_kernel_fn, int, const size_t *, void *) =
        (int (*)(const char *, hipdouble_kernel_fn, int, const size_t *, void *))dlsym(
            RTLD_DEFAULT, "hipdouble_register_module_kernel");
    static const size_t sizes[] = {sizeof(struct span), 8};
    if (reg)
        reg(KERNEL_NAME, span_kernel, 2, sizes, NULL);

    int32_t *pinned = NULL, *cu = NULL, *out = NULL, back[NREQ];
    hipStream_t cap = NULL;
    hipGraph_t g = NULL;
    hipGraphExec_t exec = NULL;
    CHECK(hipHostMalloc((void **)&pinned, NSEQ * sizeof(int32_t), 0));
    CHECK(hipMalloc((void **)&cu, NSEQ * sizeof(int32_t)));
    CHECK(hipMalloc((void **)&out, NREQ * sizeof(int32_t)));
    CHECK(hipStreamCreateWithFlags(&cap, hipStreamNonBlocking));
    if (g_failed)
        return 1;
    for (int b = 0; b < NSEQ; b++)
        pinned[b] = b;
    struct span s = {cu, NREQ, 0};
    void *args[] = {&s, &out};
    CHECK(hipStreamBeginCapture(cap, hipStreamCaptureModeGlobal));
    CHECK(hipLaunchKernel(&k_span_stub, (dim3){NREQ, 1, 1}, (dim3){64, 1, 1}, args, 0, cap));
    CHECK(hipStreamEndCapture(cap, &g));
    CHECK(hipGraphInstantiateWithFlags(&exec, g, 0));
    CHECK(hipGraphDestroy(g));
    long replays = 0;
    for (long i = 0; i < steps && !g_failed; i++) {
        CHECK(hipMemcpyAsync(cu, pinned, NSEQ * sizeof(int32_t), hipMemcpyHostToDevice, NULL));
        CHECK(hipGraphLaunch(exec, NULL));
        replays++;
        CHECK(hipMemcpyWithStream(back, out, sizeof back, hipMemcpyDeviceToHost, NULL));
    }
    (void)hipGraphExecDestroy(exec);
    (void)hipStreamDestroy(cap);
    (void)hipFree(cu);
    (void)hipFree(out);
    (void)hipHostFree(pinned);
    printf("struct_loop: steps=%ld replays=%ld kernel_reads=%ld stale_reads=%ld error=%s\n", steps, replays,
           g_reads, g_stale, g_failed ? "yes" : "none");
    return 0;
}
