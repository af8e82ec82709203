// race.cu - GPU validation of `hipvis experiment` (issue 15), CUDA, TEST-ONLY.
//
// A real, observable race of the ROCm/hip#3902 shape. Every step the host
// writes the step number into a pinned buffer and copies it into a device
// buffer on a SIDE stream, behind a short busy kernel, then replays a graph
// on the MAIN stream whose kernel reads the device buffer and checks every
// element against the step number. Without --sync nothing orders the copy
// before the graph (no event wait): the graph usually reads the previous
// step's values. With --sync the main stream waits on an event recorded
// after the copy: no stale read can happen.
//
// The expected value needs no host input the race could disturb: the graph
// keeps its own replay counter in device memory (checked, then incremented
// by the last node), so replay s expects s.
//
// Output: one line "race: steps=N mismatched_steps=M mismatches=K sync=0|1".
// Exit status 3 when any step read a stale value (the job's own failure,
// which hipvis experiment counts), 0 otherwise, 2 on a CUDA error.
//
// Build (shared cudart, so the tracer's LD_PRELOAD sees the runtime calls):
//   nvcc -O2 -cudart shared -o race tests/gpu/race.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 257

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "race: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
            exit(2);                                                                            \
        }                                                                                       \
    } while (0)

// Busy kernel on the side stream: delays the copy queued behind it.
__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

// The graph's reader: every element must equal the replay number.
__global__ void check(const int *buf, const unsigned *gen, unsigned *bad)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && buf[i] != (int)(*gen + 1))
        atomicAdd(bad, 1u);
}

__global__ void advance(unsigned *gen)
{
    *gen += 1;
}

int main(int argc, char **argv)
{
    int steps = 200, sync = 0;
    long long spin_cycles = 200000;  // ~0.1 ms at ~2 GHz
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sync"))
            sync = 1;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--spin") && i + 1 < argc)
            spin_cycles = atoll(argv[++i]);
        else {
            fprintf(stderr, "usage: race [--steps N] [--spin CYCLES] [--sync]\n");
            return 2;
        }
    }
    int *host, *buf;
    unsigned *gen, *bad, bad_host = 0, bad_prev = 0;
    cudaStream_t main_s, side;
    cudaEvent_t copied;
    CK(cudaMallocHost((void **)&host, N * sizeof(int)));
    CK(cudaMalloc((void **)&buf, N * sizeof(int)));
    CK(cudaMalloc((void **)&gen, sizeof(unsigned)));
    CK(cudaMalloc((void **)&bad, sizeof(unsigned)));
    CK(cudaMemset(buf, 0, N * sizeof(int)));
    CK(cudaMemset(gen, 0, sizeof(unsigned)));
    CK(cudaMemset(bad, 0, sizeof(unsigned)));
    CK(cudaStreamCreateWithFlags(&main_s, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));

    // The graph: check, then advance the replay counter.
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(main_s, cudaStreamCaptureModeGlobal));
    check<<<(N + 255) / 256, 256, 0, main_s>>>(buf, gen, bad);
    advance<<<1, 1, 0, main_s>>>(gen);
    CK(cudaStreamEndCapture(main_s, &g));
    CK(cudaGraphInstantiate(&x, g, 0));

    int mismatched_steps = 0;
    for (int s = 1; s <= steps; s++) {
        for (int i = 0; i < N; i++)
            host[i] = s;
        spin<<<1, 1, 0, side>>>(spin_cycles);
        CK(cudaMemcpyAsync(buf, host, N * sizeof(int), cudaMemcpyHostToDevice, side));
        if (sync) {
            CK(cudaEventRecord(copied, side));
            CK(cudaStreamWaitEvent(main_s, copied, 0));
        }
        CK(cudaGraphLaunch(x, main_s));
        // The step ends with both streams done: the host rewrites the
        // pinned source only after its copy ran (no host race).
        CK(cudaStreamSynchronize(side));
        CK(cudaStreamSynchronize(main_s));
        CK(cudaMemcpy(&bad_host, bad, sizeof bad_host, cudaMemcpyDeviceToHost));
        mismatched_steps += bad_host != bad_prev;
        bad_prev = bad_host;
    }
    printf("race: steps=%d mismatched_steps=%d mismatches=%u sync=%d\n", steps, mismatched_steps, bad_host, sync);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    return mismatched_steps ? 3 : 0;
}
