/* Runtime launches: the host stub is the record's function; its layout and
 * name come from the driver through cudaGetFuncBySymbol (cuda_kernels.c). */
#include "tracer/intercept/cuda/cuda_int.h"

/* In the step's pages with the wrappers, as cu_launch.c's. */
static HV_STEP_fn void launch(struct hv_thread_ctx *t, uint16_t api, cudaError_t r, struct hv_sref s, const void *stub,
                   void *real, dim3 g, dim3 b, size_t shm, void **args)
{
    int fresh, evidence = 1;
    const struct hv_kernel_info *k;
    if ((HV_LEAN & 64) || !(evidence = hv_ev_launch_sampled(t, s.id))) {
        k = NULL;   /* not drawn (HIPVIS_LAUNCH_EVERY): no lookup */
        fresh = 0;
    } else {
        HV_ST_PART(HV_ST_PART_LAUNCH_KERNEL, k = hv_cudart_kernel(t, stub, real, &fresh));
    }
    struct hv_launch_desc l = {.func = HV_PTR(stub), .grid = {g.x, g.y, g.z}, .block = {b.x, b.y, b.z},
                               .shmem = shm, .params = args, .form = HV_LAUNCH_PARAMS};
    l.unsampled = !evidence;
    hv_cu_trace_launch(t, api, (int32_t)r, s, &l, k, fresh);
}

#define LAUNCH(spt) launch(t_, api_, r_, HV_CU_S(s, spt), f, (void *)real_, g, b, shm, args)
#define LAUNCH_EX(spt) \
    launch(t_, api_, r_, HV_CU_S(c ? c->stream : NULL, spt), f, (void *)real_, c ? c->gridDim : (dim3){0, 0, 0}, \
           c ? c->blockDim : (dim3){0, 0, 0}, c ? c->dynamicSmemBytes : 0, args)

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_CUDART_WRAP(cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **args, size_t shm, cudaStream_t s),
               (f, g, b, args, shm, s), LAUNCH(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaLaunchKernel_ptsz, (const void *f, dim3 g, dim3 b, void **args, size_t shm, cudaStream_t s),
               (f, g, b, args, shm, s), LAUNCH(HV_SPT_PER_THREAD))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_CUDART_WRAP(cudaLaunchCooperativeKernel, (const void *f, dim3 g, dim3 b, void **args, size_t shm, cudaStream_t s),
               (f, g, b, args, shm, s), LAUNCH(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaLaunchCooperativeKernel_ptsz,
               (const void *f, dim3 g, dim3 b, void **args, size_t shm, cudaStream_t s), (f, g, b, args, shm, s),
               LAUNCH(HV_SPT_PER_THREAD))
HV_CUDART_WRAP(cudaLaunchKernelExC, (const cudaLaunchConfig_t *c, const void *f, void **args), (c, f, args),
               LAUNCH_EX(HV_SPT_LEGACY))
HV_CUDART_WRAP(cudaLaunchKernelExC_ptsz, (const cudaLaunchConfig_t *c, const void *f, void **args), (c, f, args),
               LAUNCH_EX(HV_SPT_PER_THREAD))
HV_CUDART_HOST_FN(cudaLaunchHostFunc, (cudaStream_t s, cudaHostFn_t fn, void *user), HV_CU_HOST_FN_ARGS,
                  HV_SPT_LEGACY, 0)
HV_CUDART_HOST_FN(cudaLaunchHostFunc_ptsz, (cudaStream_t s, cudaHostFn_t fn, void *user), HV_CU_HOST_FN_ARGS,
                  HV_SPT_PER_THREAD, 0)
