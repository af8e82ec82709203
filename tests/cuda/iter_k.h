/*
 * TEST-ONLY: the stand-in driver's iter_k (fake_libcuda.c: one 1048-byte
 * by-value parameter, the shape of PyTorch's reduce config), as the launch
 * benchmark and the learnt-words check set it up.
 */
#ifndef HV_TESTS_CUDA_ITER_K_H
#define HV_TESTS_CUDA_ITER_K_H

#include <cuda.h>
#include <stdint.h>

#define ITER_K_WORDS (1048 / 8)

/* Loads iter_k into *f and makes three tracked allocations of `bytes` each;
 * 0 or -1. */
static inline int iter_k_setup(CUfunction *f, CUdeviceptr b[3], size_t bytes)
{
    CUmodule m;
    if (cuInit(0) != CUDA_SUCCESS || cuModuleLoadData(&m, "image") != CUDA_SUCCESS ||
        cuModuleGetFunction(f, m, "iter_k") != CUDA_SUCCESS)
        return -1;
    for (int i = 0; i < 3; i++)
        if (cuMemAlloc_v2(&b[i], bytes) != CUDA_SUCCESS)
            return -1;
    return 0;
}

/* The config block: packed int32 sizes and strides, zeros, and two data
 * pointers at offsets 984 and 992, where PyTorch's reduce config holds them. */
static inline void iter_k_config(uint64_t cfg[ITER_K_WORDS], CUdeviceptr p984, CUdeviceptr p992)
{
    for (int i = 0; i < ITER_K_WORDS; i++)
        cfg[i] = i < 100 ? (uint64_t)((i * 7) % 64) | (uint64_t)((i * 13) % 512) << 32 : 0;
    cfg[984 / 8] = p984;
    cfg[992 / 8] = p992;
}

#endif
