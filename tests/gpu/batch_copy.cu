// batch_copy.cu - GPU validation of issue 14's batch copies and capture-state
// twins on CUDA 13, TEST-ONLY.
//
// The shape of ROCm/rocm-systems#11662 on CUDA: a graph replays on the MAIN
// stream reading a device buffer, and a cudaMemcpyBatchAsync on a SIDE
// stream writes that buffer (pair 1) and copies an unrelated device range
// to the host (pair 0). Without --sync nothing orders the batch before the
// replay (hipvis must report unordered-write); with --sync the main stream
// waits on an event recorded after the batch (hipvis must stay silent).
// Also exercised, each checked on the GPU: cudaMemcpy3DBatchAsync (rows of
// 64 B at pitch 1024), cudaStreamGetCaptureInfo (CUDA 13's seven-parameter
// list) during capture, cudaGraphNodeSetEnabled off and on.
//
// Output: "batch_copy: ok=1 ... sum=S ..." and exit 0 when every copy moved
// the bytes it should (S is N=256 with --sync; without it S may be less: the
// race); exit 3 when one did not; 2 on a CUDA error. The tracer
// passes every argument through: the same output is expected with and
// without LD_PRELOAD=libhipvis.so.
//
// Build: nvcc -O2 -cudart shared -o batch_copy tests/gpu/batch_copy.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "batch_copy: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
            exit(2);                                                                                   \
        }                                                                                              \
    } while (0)

__global__ void sum(const int *buf, int *out)
{
    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < N; i++)
            s += buf[i];
        *out = s;
    }
}

int main(int argc, char **argv)
{
    int sync = argc > 1 && strcmp(argv[1], "--sync") == 0;
    int *buf, *other, *out, *host, *pinned, *vol;
    cudaStream_t s_main, s_side;
    CK(cudaMalloc(&buf, N * sizeof(int)));
    CK(cudaMalloc(&other, N * sizeof(int)));
    CK(cudaMalloc(&out, sizeof(int)));
    CK(cudaMalloc(&vol, 1 << 16));
    CK(cudaMallocHost(&pinned, N * sizeof(int)));
    CK(cudaMallocHost(&host, N * sizeof(int)));
    CK(cudaStreamCreateWithFlags(&s_main, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s_side, cudaStreamNonBlocking));
    for (int i = 0; i < N; i++)
        pinned[i] = 1;
    CK(cudaMemset(other, 0, N * sizeof(int)));
    CK(cudaMemset(buf, 0, N * sizeof(int)));

    // The replay: a graph whose kernel reads buf; captured with a
    // capture-state query in the middle.
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(s_main, cudaStreamCaptureModeGlobal));
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    unsigned long long cid = 0;
    cudaGraph_t cg = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *ed = NULL;
    size_t nd = 0;
    CK(cudaStreamGetCaptureInfo(s_main, &st, &cid, &cg, &deps, &ed, &nd));
    sum<<<1, 32, 0, s_main>>>(buf, out);
    CK(cudaStreamEndCapture(s_main, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    int capture_ok = st == cudaStreamCaptureStatusActive && cid != 0 && cg == g;

    // The batch: pair 0 copies `other` to the host, pair 1 writes buf.
    void *dsts[2] = {host, buf}, *srcs[2] = {other, pinned};
    size_t sizes[2] = {N * sizeof(int), N * sizeof(int)}, idx = 0;
    struct cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    CK(cudaMemcpyBatchAsync((void *const *)dsts, (const void *const *)srcs, sizes, 2, &attr, &idx, 1, s_side));
    if (sync) {
        cudaEvent_t e;
        CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        CK(cudaEventRecord(e, s_side));
        CK(cudaStreamWaitEvent(s_main, e, 0));
    }
    CK(cudaGraphLaunch(x, s_main));
    CK(cudaDeviceSynchronize());
    int total = 0;
    CK(cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost));

    // Disabled, the node does nothing: out keeps what we put there.
    cudaGraphNode_t node;
    size_t nn = 1;
    CK(cudaGraphGetNodes(g, &node, &nn));
    CK(cudaMemset(out, 0xff, sizeof(int)));
    CK(cudaGraphNodeSetEnabled(x, node, 0));
    CK(cudaGraphLaunch(x, s_main));
    CK(cudaStreamSynchronize(s_main));
    int disabled = 0;
    CK(cudaMemcpy(&disabled, out, sizeof disabled, cudaMemcpyDeviceToHost));
    CK(cudaGraphNodeSetEnabled(x, node, 1));

    // 3D batch: 3 slices of 4 rows of 64 B at pitch 1024 from a packed source.
    CK(cudaMemset(vol, 0, 1 << 16));
    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = pinned; /* 768 packed bytes: 12 rows of 64 */
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = vol;
    op.dst.op.ptr.rowLength = 1024;
    op.dst.op.ptr.layerHeight = 4;
    op.extent = make_cudaExtent(64, 4, 3);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    CK(cudaMemcpy3DBatchAsync(1, &op, 0, s_side));
    CK(cudaStreamSynchronize(s_side));
    static unsigned char v[1 << 16];
    CK(cudaMemcpy(v, vol, sizeof v, cudaMemcpyDeviceToHost));
    // Each of the 12 rows holds the next 64 packed source bytes (the ints' own
    // bytes, zeros included); the rest of each 1024-byte pitch stays 0.
    const unsigned char *packed = (const unsigned char *)pinned;
    int rows_ok = 1;
    for (int r = 0; r < 12; r++)
        for (int b = 0; b < 1024; b++)
            if (v[r * 1024 + b] != (b < 64 ? packed[r * 64 + b] : 0))
                rows_ok = 0;

    // Unordered (no --sync), the replay may read buf before, during or after
    // the batch wrote it: its sum is the race's symptom, not a failure.
    int ok = (!sync || total == N) && host[0] == 0 && disabled == -1 && rows_ok && capture_ok;
    printf("batch_copy: ok=%d sync=%d sum=%d disabled_out=%d rows_ok=%d capture_ok=%d\n", ok, sync, total,
           disabled, rows_ok, capture_ok);
    return ok ? 0 : 3;
}
