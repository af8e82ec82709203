/*
 * TEST-ONLY (check-cuda): learnt pointer words of by-value kernel
 * parameters (src/tracer/core/kargs.c). On the stand-in driver, iter_k (one
 * 1048-byte by-value parameter) is launched PHASE1 times with data pointers
 * at offsets 984 and 992, then PHASE2 times with one more pointer at offset
 * 512 that no launch held before. check_learn.py checks the trace: every
 * launch reports the pointers at learnt offsets; the new one is found by the
 * next full rescan (one launch in 64 per thread) and by every launch after it.
 * Last, a launch captured into a graph with a pointer at offset 256, new
 * again: a captured launch is scanned in full, so it reports it at once.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "iter_k.h"

#define PHASE1 200
#define PHASE2 300

int main(void)
{
    CUfunction f;
    CUdeviceptr b[3];
    if (iter_k_setup(&f, b, 1u << 20) != 0)
        return 1;
    static uint64_t cfg[ITER_K_WORDS];
    iter_k_config(cfg, b[0] + 0x100, b[1] + 0x200);
    void *params[1] = {cfg};
    for (int i = 0; i < PHASE1 + PHASE2; i++) {
        if (i == PHASE1)
            cfg[512 / 8] = b[2] + 0x300;
        if (cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL) != CUDA_SUCCESS)
            return 1;
    }
    CUstream s;
    CUgraph g;
    cfg[256 / 8] = b[2] + 0x400;
    if (cuStreamCreate(&s, 0) != CUDA_SUCCESS || cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL) != CUDA_SUCCESS ||
        cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, params, NULL) != CUDA_SUCCESS ||
        cuStreamEndCapture(s, &g) != CUDA_SUCCESS)
        return 1;
    printf("phase1 %d phase2 %d a %#llx b %#llx c %#llx d %#llx\n", PHASE1, PHASE2, (unsigned long long)(b[0] + 0x100),
           (unsigned long long)(b[1] + 0x200), (unsigned long long)(b[2] + 0x300), (unsigned long long)(b[2] + 0x400));
    return 0;
}
