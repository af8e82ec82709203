/* TEST-ONLY: rt_calls.h compiled for the per-thread default stream. */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda_runtime_api.h>

#include "rt_calls.h"

void stream_calls_ptds(char *host, void *dev, cudaStream_t s, cudaEvent_t e, cudaGraph_t g, cudaGraphExec_t x);
void stream_calls_ptds(char *host, void *dev, cudaStream_t s, cudaEvent_t e, cudaGraph_t g, cudaGraphExec_t x)
{
    stream_calls(host, dev, s, e, g, x);
}
