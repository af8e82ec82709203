/* Kernel launches: eager launches are readers/writers of their pointer
 * arguments; launches on a capturing stream become graph nodes. */
#include "intercept/hip/hip_common.h"

/* Fills the `extra` form's packed argument block, if given, and records. */
static void launch(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s, enum hv_spt spt,
                   struct hv_launch_desc l, void **extra)
{
    l.kblock = hip_extra_block(extra, &l.kblock_bytes);
    hv_trace_launch(t, api, (int32_t)r, HV_HIP_SREF(t, s, spt), &l);
}

#define LAUNCH(spt, extra, ...) launch(t_, api_, r_, s, spt, (struct hv_launch_desc){__VA_ARGS__}, extra)
#define DIMS(g, b) .grid = {(g).x, (g).y, (g).z}, .block = {(b).x, (b).y, (b).z}
#define KPARAMS(p) .params = (p), .form = HV_LAUNCH_PARAMS
#define EVENTS(e0, e1) .ev_start = HV_PTR(e0), .ev_stop = HV_PTR(e1)

HV_HIP_WRAP(hipLaunchKernel, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s), LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
HV_HIP_WRAP(hipLaunchKernel_spt, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s), LAUNCH(HV_HIP_SPT, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
HV_HIP_WRAP(hipExtLaunchKernel,
            (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s, hipEvent_t e0, hipEvent_t e1,
             int flags),
            (f, g, b, args, shm, s, e0, e1, flags),
            LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args), EVENTS(e0, e1)))
HV_HIP_WRAP(hipExtLaunchKernel_spt,
            (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s, hipEvent_t e0, hipEvent_t e1,
             int flags),
            (f, g, b, args, shm, s, e0, e1, flags),
            LAUNCH(HV_HIP_SPT, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args), EVENTS(e0, e1)))
HV_HIP_WRAP(hipModuleLaunchKernel,
            (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
             unsigned shm, hipStream_t s, void **params, void **extra),
            (f, gx, gy, gz, bx, by, bz, shm, s, params, extra),
            LAUNCH(HV_HIP_LEGACY, extra, .func = HV_PTR(f), .grid = {gx, gy, gz}, .block = {bx, by, bz},
                   .shmem = shm, KPARAMS(params)))
/* hipExtModuleLaunchKernel takes global work sizes (threads), not blocks. */
HV_HIP_WRAP(hipExtModuleLaunchKernel,
            (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
             size_t shm, hipStream_t s, void **params, void **extra, hipEvent_t e0, hipEvent_t e1, uint32_t flags),
            (f, gx, gy, gz, lx, ly, lz, shm, s, params, extra, e0, e1, flags),
            LAUNCH(HV_HIP_LEGACY, extra, .func = HV_PTR(f),
                   .grid = {lx ? gx / lx : gx, ly ? gy / ly : gy, lz ? gz / lz : gz}, .block = {lx, ly, lz},
                   .shmem = shm, KPARAMS(params), EVENTS(e0, e1)))
HV_HIP_WRAP(hipLaunchHostFunc, (hipStream_t s, hipHostFn_t fn, void *user), (s, fn, user),
            LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(fn), .form = HV_LAUNCH_HOST_FUNC))
