/*
 * bench-launch: what hipvis adds to one eager kernel launch of the kind
 * PyTorch makes every prefill step (issue 12): cuLaunchKernel of a kernel
 * whose one by-value parameter is a 1048-byte TensorIterator config (sizes,
 * strides, offsets, two data pointers), on the TEST-ONLY stand-in driver
 * (fake_libcuda.c). The driver layout query says "one 1048-byte parameter",
 * so hipvis scans it word by word for pointers into tracked allocations.
 *
 * In-process A/B: blocks alternate recording off and on for this thread
 * (hipvis_record_this_thread; both arms go through the wrappers), and only
 * the launch call is timed. Two phases: hot (launches back to back) and
 * cold (2 MiB written between launches, as the Python and framework code
 * of a real step evicts hipvis's lines). Without LD_PRELOAD both arms are
 * direct: the noise floor.
 */
#define _GNU_SOURCE   /* clock_gettime, RTLD_DEFAULT */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench/bench_util.h"   /* now_ns, cmp_double */
#include "iter_k.h"

#define MAX_BLOCKS 31
static int BLOCKS = MAX_BLOCKS;   /* BENCH_LAUNCH_BLOCKS: fewer, for callgrind */
#define HOT_CALLS 2000
#define COLD_CALLS 100
#define COLD_BYTES (2u << 20)

static void (*record_this_thread)(int);

static unsigned char *thrash;

/* ns per launch over one block, only the launch calls timed. */
static double block(CUfunction f, void **params, int calls, int cold)
{
    uint64_t total = 0;
    for (int i = 0; i < calls; i++) {
        if (cold)
            for (size_t off = 0; off < COLD_BYTES; off += 64)
                thrash[off]++;
        uint64_t t0 = now_ns();
        CUresult r = cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL);
        total += now_ns() - t0;
        if (r != CUDA_SUCCESS) {
            fprintf(stderr, "bench-launch: cuLaunchKernel returned %d\n", (int)r);
            exit(1);
        }
    }
    return (double)total / calls;
}

/* Median of BLOCKS pairs, arms alternating: *on_ns, *off_ns, and the
 * median of the per-pair differences (returned). */
static double ab(CUfunction f, void **params, int calls, int cold, double *on_ns, double *off_ns)
{
    double on[MAX_BLOCKS], off[MAX_BLOCKS], d[MAX_BLOCKS];
    for (int k = 0; k < BLOCKS; k++) {
        for (int j = 0; j < 2; j++) {
            int arm = (k + j) % 2;   /* order alternates so drift hits both alike */
            if (record_this_thread)
                record_this_thread(arm);
            (arm ? on : off)[k] = block(f, params, calls, cold);
        }
        d[k] = on[k] - off[k];
    }
    if (record_this_thread)
        record_this_thread(1);
    qsort(on, BLOCKS, sizeof on[0], cmp_double);
    qsort(off, BLOCKS, sizeof off[0], cmp_double);
    qsort(d, BLOCKS, sizeof d[0], cmp_double);
    *on_ns = on[BLOCKS / 2];
    *off_ns = off[BLOCKS / 2];
    return d[BLOCKS / 2];
}

int main(void)
{
    CUfunction f;
    CUdeviceptr bufs[3];
    if (iter_k_setup(&f, bufs, 2u << 20) != 0) {
        fprintf(stderr, "bench-launch: the stand-in driver has no iter_k\n");
        return 1;
    }
    static uint64_t cfg[ITER_K_WORDS];
    iter_k_config(cfg, bufs[1] + 0xc00, bufs[2] + 0x400);
    void *params[1] = {cfg};
    thrash = calloc(1, COLD_BYTES);
    if (!thrash)
        return 1;
    const char *nb = getenv("BENCH_LAUNCH_BLOCKS");
    if (nb && atoi(nb) > 0 && atoi(nb) <= MAX_BLOCKS)
        BLOCKS = atoi(nb);
    record_this_thread = (void (*)(int))dlsym(RTLD_DEFAULT, "hipvis_record_this_thread");
    block(f, params, HOT_CALLS, 0);   /* warm-up: the kernel's layout is learnt here */
    double on, off;
    double hot = ab(f, params, HOT_CALLS, 0, &on, &off);
    printf("bench-launch: cuLaunchKernel, one 1048-byte by-value parameter (PyTorch's reduce config), hot: "
           "recording off %.1f ns, on %.1f ns: %+.1f ns per launch (median of %d block pairs of %d)\n",
           off, on, hot, BLOCKS, HOT_CALLS);
    double cold = ab(f, params, COLD_CALLS, 1, &on, &off);
    printf("bench-launch: the same with caches cold (%u KiB written between launches): recording off %.1f ns, "
           "on %.1f ns: %+.1f ns per launch (median of %d block pairs of %d)%s\n",
           COLD_BYTES >> 10, off, on, cold, BLOCKS, COLD_CALLS,
           record_this_thread ? "" : "; no hipvis preloaded: both arms direct (the noise floor)");
    free(thrash);
    return 0;
}
