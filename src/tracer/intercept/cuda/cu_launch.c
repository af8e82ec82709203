/* Driver launches (Triton, NCCL, JITs): the CUfunction (or CUkernel) is the
 * record's function; layout and name from the driver (cuda_kernels.c). */
#include "tracer/intercept/cuda/cuda_int.h"

/* In the step's pages with the wrappers (core/hot.h HV_STEP_fn): a prefill's
 * eager launch ran it from a page of its own (docs/performance.md). */
static HV_STEP_fn void launch(struct hv_thread_ctx *t, uint16_t api, CUresult r, struct hv_sref s, void *f,
                   const unsigned grid[3], const unsigned block[3], unsigned shm, void **params, void **extra)
{
    int fresh, evidence = 1;
    const struct hv_kernel_info *k;
    if ((HV_LEAN & 64) || !(evidence = hv_ev_launch_sampled(t, s.id))) {
        k = NULL;   /* not drawn (HIPVIS_LAUNCH_EVERY): no lookup */
        fresh = 0;
    } else {
        HV_ST_PART(HV_ST_PART_LAUNCH_KERNEL, k = hv_cu_kernel(t, HV_PTR(f), f, 0, &fresh));
    }
    struct hv_launch_desc l = {.func = HV_PTR(f), .grid = {grid[0], grid[1], grid[2]},
                               .block = {block[0], block[1], block[2]}, .shmem = shm, .params = params,
                               .form = HV_LAUNCH_PARAMS};
    l.kblock = hv_cu_extra_block(extra, &l.kblock_bytes);
    l.unsampled = !evidence;
    hv_cu_trace_launch(t, api, (int32_t)r, s, &l, k, fresh);
}

#define LAUNCH(spt, extra) \
    launch(t_, api_, r_, HV_CU_S(s, spt), f, (unsigned[]){gx, gy, gz}, (unsigned[]){bx, by, bz}, shm, params, extra)
#define LAUNCH_EX(spt)                                                                                         \
    launch(t_, api_, r_, HV_CU_S(c ? c->hStream : NULL, spt), f,                                                \
           c ? (unsigned[]){c->gridDimX, c->gridDimY, c->gridDimZ} : (unsigned[]){0, 0, 0},                   \
           c ? (unsigned[]){c->blockDimX, c->blockDimY, c->blockDimZ} : (unsigned[]){0, 0, 0},                \
           c ? c->sharedMemBytes : 0, params, extra)

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_CU_WRAP(cuLaunchKernel,
           (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shm,
            CUstream s, void **params, void **extra),
           (f, gx, gy, gz, bx, by, bz, shm, s, params, extra), LAUNCH(HV_SPT_LEGACY, extra))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuLaunchKernel_ptsz,
           (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shm,
            CUstream s, void **params, void **extra),
           (f, gx, gy, gz, bx, by, bz, shm, s, params, extra), LAUNCH(HV_SPT_PER_THREAD, extra))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuLaunchCooperativeKernel,
           (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shm,
            CUstream s, void **params),
           (f, gx, gy, gz, bx, by, bz, shm, s, params), LAUNCH(HV_SPT_LEGACY, NULL))
HV_CU_WRAP(cuLaunchCooperativeKernel_ptsz,
           (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shm,
            CUstream s, void **params),
           (f, gx, gy, gz, bx, by, bz, shm, s, params), LAUNCH(HV_SPT_PER_THREAD, NULL))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CU_WRAP(cuLaunchKernelEx, (const CUlaunchConfig *c, CUfunction f, void **params, void **extra),
           (c, f, params, extra), LAUNCH_EX(HV_SPT_LEGACY))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CU_WRAP(cuLaunchKernelEx_ptsz, (const CUlaunchConfig *c, CUfunction f, void **params, void **extra),
           (c, f, params, extra), LAUNCH_EX(HV_SPT_PER_THREAD))
HV_CU_HOST_FN(cuLaunchHostFunc, (CUstream s, CUhostFn fn, void *user), HV_CU_HOST_FN_ARGS, HV_SPT_LEGACY, 0)
HV_CU_HOST_FN(cuLaunchHostFunc_ptsz, (CUstream s, CUhostFn fn, void *user), HV_CU_HOST_FN_ARGS, HV_SPT_PER_THREAD, 0)
