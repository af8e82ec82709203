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
//   bench STEPS                    per step: an H2D and a D2H copy of pinned
//                                  memory and a small kernel, then a sync
// Prints what it read (a racy read prints the value it happened to see:
// compare racy runs by exit status, synchronized ones byte for byte).
// Exit status 0, 2 on a CUDA error.
//
// Build (shared cudart, so the tracer's LD_PRELOAD sees the runtime calls):
//   nvcc -O2 -cudart shared -o hostcheck tests/gpu/hostcheck.cu
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
