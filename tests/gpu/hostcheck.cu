// hostcheck.cu - GPU validation of the host-access check (HIPVIS_HOSTCHECK,
// docs/hostcheck.md), CUDA, TEST-ONLY. Run by tests/gpu/hostcheck.sh.
//
// Each case puts an async operation really in flight (queued behind a busy
// kernel on its stream) and touches its host-visible memory before or after
// synchronizing:
//   d2h-read, d2h-read-sync        cudaMemcpyAsync D2H into pinned memory; the
//                                  host reads the destination (RACE d2h-read)
//   h2d-write, h2d-write-sync      cudaMemcpyAsync H2D from pinned memory; the
//                                  host rewrites the source (RACE h2d-write)
//   managed-read, managed-read-sync a kernel writes managed memory; the host
//                                  reads it (RACE managed-read)
//   managed-write, managed-write-sync a kernel reads managed memory; the host
//                                  writes it (RACE managed-write)
//   callback-read                  cudaLaunchHostFunc after a D2H copy into
//                                  pinned memory, on its stream: the host
//                                  function reads the destination (no race)
//   callback-add                   the same through cudaStreamAddCallback
//   callback-drv                   the same through cuLaunchHostFunc and
//                                  cuStreamAddCallback
//   callback-other                 the host function on another stream
//                                  (RACE callback-other)
//   bench STEPS                    per step: an H2D and a D2H copy of pinned
//                                  memory and a small kernel, then a sync
// Prints what it read (a racy read prints the value it happened to see:
// compare racy runs by exit status, synchronized ones byte for byte).
// Exit status 0, 2 on a CUDA error.
//
// Build (shared cudart, so the tracer's LD_PRELOAD sees the runtime calls):
//   nvcc -O2 -cudart shared -o hostcheck tests/gpu/hostcheck.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1024

#define CK(x)                                                                                       \
    do {                                                                                            \
        cudaError_t e_ = (x);                                                                       \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "hostcheck: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
            exit(2);                                                                                \
        }                                                                                           \
    } while (0)

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles)
        ;
}

__global__ void sum(const int *p, int n, int *out)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += p[i];
    atomicAdd(out, s);
}

__global__ void fill(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}

#define CU(x)                                                                        \
    do {                                                                             \
        CUresult e_ = (x);                                                           \
        if (e_ != CUDA_SUCCESS) {                                                    \
            fprintf(stderr, "hostcheck: %s: error %d (line %d)\n", #x, e_, __LINE__); \
            exit(2);                                                                 \
        }                                                                            \
    } while (0)

// What the host functions read (a runtime thread writes, the host reads
// after the synchronize that waits for them) and what they were given.
static volatile int cb_value = -1, cb_runs, cb_status = -1;
static void *volatile cb_stream;

static void CUDART_CB read_cb(void *arg)
{
    cb_value = ((volatile int *)arg)[3]; /* RACE callback-other */
    cb_runs = cb_runs + 1;
}

static void CUDART_CB read_stream_cb(cudaStream_t st, cudaError_t status, void *arg)
{
    cb_stream = st;
    cb_status = (int)status;
    read_cb(arg);
}

static void CUDA_CB read_drv_cb(CUstream st, CUresult status, void *arg)
{
    cb_stream = st;
    cb_status = (int)status;
    read_cb(arg);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: hostcheck CASE [STEPS]\n");
        return 2;
    }
    const char *c = argv[1];
    int sync = strstr(c, "-sync") != NULL;
    const long long busy = 20 * 1000 * 1000;   // ~10 ms at 2 GHz: the op stays in flight
    int *dev, *pinned;
    cudaStream_t s;
    CK(cudaMalloc(&dev, N * sizeof(int)));
    CK(cudaHostAlloc(&pinned, N * sizeof(int), cudaHostAllocDefault));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    fill<<<(N + 255) / 256, 256, 0, s>>>(dev, N, 100);
    CK(cudaStreamSynchronize(s));
    memset(pinned, 0, N * sizeof(int));
    if (!strncmp(c, "d2h-read", 8)) {
        spin<<<1, 1, 0, s>>>(busy);
        CK(cudaMemcpyAsync(pinned, dev, N * sizeof(int), cudaMemcpyDeviceToHost, s));
        if (sync)
            CK(cudaStreamSynchronize(s));
        volatile int v = ((volatile int *)pinned)[3]; /* RACE d2h-read */
        CK(cudaStreamSynchronize(s));
        printf("%s: then %d%s\n", c, pinned[3], sync ? "" : " (racy read not printed)");
        (void)v;
    } else if (!strncmp(c, "h2d-write", 9)) {
        for (int i = 0; i < N; i++)
            pinned[i] = 5000 + i;
        cudaEvent_t ev;
        CK(cudaEventCreate(&ev));
        spin<<<1, 1, 0, s>>>(busy);
        CK(cudaMemcpyAsync(dev, pinned, N * sizeof(int), cudaMemcpyHostToDevice, s));
        CK(cudaEventRecord(ev, s));
        if (sync)
            CK(cudaEventSynchronize(ev));
        pinned[9] = -1; /* RACE h2d-write */
        CK(cudaStreamSynchronize(s));
        int back = 0;
        CK(cudaMemcpy(&back, dev + 9, sizeof back, cudaMemcpyDeviceToHost));
        printf("%s: device[9] %d\n", c, back);
        CK(cudaEventDestroy(ev));
    } else if (!strncmp(c, "managed-read", 12)) {
        int *m;
        CK(cudaMallocManaged(&m, N * sizeof(int)));
        memset(m, 0, N * sizeof(int));
        spin<<<1, 1, 0, s>>>(busy);
        fill<<<(N + 255) / 256, 256, 0, s>>>(m, N, 7);
        if (sync)
            CK(cudaStreamSynchronize(s));
        volatile int v = ((volatile int *)m)[5]; /* RACE managed-read */
        CK(cudaStreamSynchronize(s));
        CK(cudaGetLastError());
        printf("%s: then %d%s\n", c, m[5], sync ? "" : " (racy read not printed)");
        (void)v;
        CK(cudaFree(m));
    } else if (!strncmp(c, "managed-write", 13)) {
        int *m, *out;
        CK(cudaMallocManaged(&m, N * sizeof(int)));
        CK(cudaMallocManaged(&out, sizeof(int)));
        for (int i = 0; i < N; i++)
            m[i] = 1;
        *out = 0;
        spin<<<1, 1, 0, s>>>(busy);
        sum<<<1, 256, 0, s>>>(m, N, out);
        if (sync)
            CK(cudaStreamSynchronize(s));
        m[7] = 2; /* RACE managed-write */
        CK(cudaStreamSynchronize(s));
        CK(cudaGetLastError());
        if (sync)
            printf("%s: sum %d\n", c, *out);
        else
            printf("%s: done (racy sum not printed)\n", c);
        CK(cudaFree(out));
        CK(cudaFree(m));
    } else if (!strncmp(c, "callback-", 9)) {
        cudaStream_t other;
        CK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
        spin<<<1, 1, 0, s>>>(busy);
        CK(cudaMemcpyAsync(pinned, dev, N * sizeof(int), cudaMemcpyDeviceToHost, s));
        int want = 1;
        if (!strcmp(c, "callback-read")) {
            CK(cudaLaunchHostFunc(s, read_cb, pinned));
        } else if (!strcmp(c, "callback-add")) {
            CK(cudaStreamAddCallback(s, read_stream_cb, pinned, 0));
        } else if (!strcmp(c, "callback-drv")) {
            CU(cuLaunchHostFunc((CUstream)s, read_cb, pinned));
            CU(cuStreamAddCallback((CUstream)s, read_drv_cb, pinned, 0));
            want = 2;
        } else if (!strcmp(c, "callback-other")) {
            CK(cudaLaunchHostFunc(other, read_cb, pinned));   // runs while the copy waits behind spin
        } else {
            fprintf(stderr, "hostcheck: unknown case '%s'\n", c);
            return 2;
        }
        CK(cudaStreamSynchronize(other));
        CK(cudaStreamSynchronize(s));
        if (!strcmp(c, "callback-other"))
            printf("%s: %d run, then %d (racy read not printed)\n", c, cb_runs, pinned[3]);
        else
            printf("%s: callback read %d (%d of %d runs), stream %s, status %d, then %d\n", c, cb_value, cb_runs,
                   want, cb_stream == (void *)s ? "its own" : cb_stream ? "another" : "none", cb_status, pinned[3]);
        CK(cudaStreamDestroy(other));
    } else if (!strcmp(c, "bench")) {
        long steps = argc > 2 ? atol(argv[2]) : 2000;
        int *src;
        CK(cudaHostAlloc(&src, N * sizeof(int), cudaHostAllocDefault));
        long sum = 0;
        for (long i = 0; i < steps; i++) {
            src[0] = (int)i;
            CK(cudaMemcpyAsync(dev, src, N * sizeof(int), cudaMemcpyHostToDevice, s));
            fill<<<(N + 255) / 256, 256, 0, s>>>(dev, 64, (int)i);
            CK(cudaMemcpyAsync(pinned, dev, N * sizeof(int), cudaMemcpyDeviceToHost, s));
            CK(cudaStreamSynchronize(s));
            sum += pinned[0];
        }
        printf("bench: checksum %ld\n", sum);
        CK(cudaFreeHost(src));
    } else {
        fprintf(stderr, "hostcheck: unknown case '%s'\n", c);
        return 2;
    }
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(pinned));
    CK(cudaFree(dev));
    return 0;
}
