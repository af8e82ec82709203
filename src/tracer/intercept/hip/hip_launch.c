/* Kernel launches: eager launches are readers/writers of their pointer
 * arguments; launches on a capturing stream become graph nodes. */
#include "tracer/intercept/hip/hip_int.h"

/* Fills the `extra` form's packed argument block, if given, and records; in
 * the step's pages with the wrappers (core/hot.h HV_STEP_fn). */
static HV_STEP_fn void launch(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s, enum hv_spt spt,
                   struct hv_launch_desc l, void **extra)
{
    l.kblock = hip_extra_block(extra, &l.kblock_bytes);
    struct hv_sref sr = HV_HIP_SREF(t, s, spt);
    l.unsampled = !hv_ev_launch_sampled(t, sr.id);
    hv_trace_launch(t, api, (int32_t)r, sr, &l);
}

#define LAUNCH(spt, extra, ...) launch(t_, api_, r_, s, spt, (struct hv_launch_desc){__VA_ARGS__}, extra)
#define DIMS(g, b) .grid = {(g).x, (g).y, (g).z}, .block = {(b).x, (b).y, (b).z}
#define KPARAMS(p) .params = (p), .form = HV_LAUNCH_PARAMS
#define EVENTS(e0, e1) .ev_start = HV_PTR(e0), .ev_stop = HV_PTR(e1)
/* Host work in stream order (H1): a stream-ordered op that reads and writes
 * nothing hipvis can see; under HIPVIS_HOSTCHECK the runtime runs the
 * check's trampoline (intercept.h HV_WRAP_HOST_FN). */
#define HOST_FN(name, params, args, spt, callback)                                               \
    HV_WRAP_HOST_FN(hipError_t, hipErrorSharedObjectSymbolNotFound, name, params, args, HV_HIP_S(s, spt), callback, \
                    LAUNCH(spt, NULL, .func = HV_PTR(fn), .form = HV_LAUNCH_HOST_FUNC))

#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_STEP_##part   /* every step of a GPU serving loop (core/hot.h) */
HV_HIP_WRAP(hipLaunchKernel, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s), LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipLaunchKernel_spt, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s), LAUNCH(HV_HIP_SPT, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
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
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipModuleLaunchKernel,
            (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
             unsigned shm, hipStream_t s, void **params, void **extra),
            (f, gx, gy, gz, bx, by, bz, shm, s, params, extra),
            LAUNCH(HV_HIP_LEGACY, extra, .func = HV_PTR(f), .grid = {gx, gy, gz}, .block = {bx, by, bz},
                   .shmem = shm, KPARAMS(params)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
/* hipExtModuleLaunchKernel takes global work sizes (threads), not blocks. */
HV_HIP_WRAP(hipExtModuleLaunchKernel,
            (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
             size_t shm, hipStream_t s, void **params, void **extra, hipEvent_t e0, hipEvent_t e1, uint32_t flags),
            (f, gx, gy, gz, lx, ly, lz, shm, s, params, extra, e0, e1, flags),
            LAUNCH(HV_HIP_LEGACY, extra, .func = HV_PTR(f),
                   .grid = {lx ? gx / lx : gx, ly ? gy / ly : gy, lz ? gz / lz : gz}, .block = {lx, ly, lz},
                   .shmem = shm, KPARAMS(params), EVENTS(e0, e1)))
HOST_FN(hipLaunchHostFunc, (hipStream_t s, hipHostFn_t fn, void *user), (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER),
        HV_HIP_LEGACY, 0)

/* Cooperative and extended launches (docs/semantics.md L1, L2): the same
 * record as their plain twins. */
HV_HIP_WRAP(hipLaunchCooperativeKernel, (const void *f, dim3 g, dim3 b, void **args, unsigned shm, hipStream_t s),
            (f, g, b, args, shm, s), LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
HV_HIP_WRAP(hipLaunchCooperativeKernel_spt,
            (const void *f, dim3 g, dim3 b, void **args, unsigned shm, hipStream_t s), (f, g, b, args, shm, s),
            LAUNCH(HV_HIP_SPT, NULL, .func = HV_PTR(f), DIMS(g, b), .shmem = shm, KPARAMS(args)))
HV_HIP_WRAP(hipModuleLaunchCooperativeKernel,
            (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
             unsigned shm, hipStream_t s, void **params),
            (f, gx, gy, gz, bx, by, bz, shm, s, params),
            LAUNCH(HV_HIP_LEGACY, NULL, .func = HV_PTR(f), .grid = {gx, gy, gz}, .block = {bx, by, bz},
                   .shmem = shm, KPARAMS(params)))
HV_HIP_WRAP(hipHccModuleLaunchKernel,
            (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
             size_t shm, hipStream_t s, void **params, void **extra, hipEvent_t e0, hipEvent_t e1),
            (f, gx, gy, gz, lx, ly, lz, shm, s, params, extra, e0, e1),
            LAUNCH(HV_HIP_LEGACY, extra, .func = HV_PTR(f),
                   .grid = {lx ? gx / lx : gx, ly ? gy / ly : gy, lz ? gz / lz : gz}, .block = {lx, ly, lz},
                   .shmem = shm, KPARAMS(params), EVENTS(e0, e1)))
HV_HIP_WRAP(hipLaunchKernelExC, (const hv_hipLaunchConfig *c, const void *f, void **args), (c, f, args),
            launch(t_, api_, r_, c ? c->stream : NULL, HV_HIP_LEGACY,
                   (struct hv_launch_desc){.func = HV_PTR(f), .grid = {c ? c->gridDim.x : 0, c ? c->gridDim.y : 0,
                                                                       c ? c->gridDim.z : 0},
                                           .block = {c ? c->blockDim.x : 0, c ? c->blockDim.y : 0,
                                                     c ? c->blockDim.z : 0},
                                           .shmem = c ? c->dynamicSmemBytes : 0, KPARAMS(args)},
                   NULL))
HV_HIP_WRAP(hipDrvLaunchKernelEx, (const hv_HIP_LAUNCH_CONFIG *c, hipFunction_t f, void **params, void **extra),
            (c, f, params, extra),
            launch(t_, api_, r_, c ? c->hStream : NULL, HV_HIP_LEGACY,
                   (struct hv_launch_desc){.func = HV_PTR(f), .grid = {c ? c->gridDimX : 0, c ? c->gridDimY : 0,
                                                                       c ? c->gridDimZ : 0},
                                           .block = {c ? c->blockDimX : 0, c ? c->blockDimY : 0,
                                                     c ? c->blockDimZ : 0},
                                           .shmem = c ? c->sharedMemBytes : 0, KPARAMS(params)},
                   extra))

/* Multi-device launches (L3): one launch record per list entry, each on
 * its own stream; the call's result is every entry's. */
HV_HIP_WRAP(hipLaunchCooperativeKernelMultiDevice, (hipLaunchParams *l, int n, unsigned flags), (l, n, flags),
            for (int i_ = 0; l && i_ < n; i_++) launch(
                t_, api_, r_, l[i_].stream, HV_HIP_LEGACY,
                (struct hv_launch_desc){.func = HV_PTR(l[i_].func), DIMS(l[i_].gridDim, l[i_].blockDim),
                                        .shmem = l[i_].sharedMem, KPARAMS(l[i_].args)},
                NULL))
HV_HIP_WRAP(hipExtLaunchMultiKernelMultiDevice, (hipLaunchParams *l, int n, unsigned flags), (l, n, flags),
            for (int i_ = 0; l && i_ < n; i_++) launch(
                t_, api_, r_, l[i_].stream, HV_HIP_LEGACY,
                (struct hv_launch_desc){.func = HV_PTR(l[i_].func), DIMS(l[i_].gridDim, l[i_].blockDim),
                                        .shmem = l[i_].sharedMem, KPARAMS(l[i_].args)},
                NULL))
HV_HIP_WRAP(hipModuleLaunchCooperativeKernelMultiDevice, (hv_hipFunctionLaunchParams *l, unsigned n, unsigned flags),
            (l, n, flags),
            for (unsigned i_ = 0; l && i_ < n; i_++) launch(
                t_, api_, r_, l[i_].hStream, HV_HIP_LEGACY,
                (struct hv_launch_desc){.func = HV_PTR(l[i_].function),
                                        .grid = {l[i_].gridDimX, l[i_].gridDimY, l[i_].gridDimZ},
                                        .block = {l[i_].blockDimX, l[i_].blockDimY, l[i_].blockDimZ},
                                        .shmem = l[i_].sharedMemBytes, KPARAMS(l[i_].kernelParams)},
                NULL))

HOST_FN(hipLaunchHostFunc_spt, (hipStream_t s, hipHostFn_t fn, void *user), (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER),
        HV_HIP_SPT, 0)
HOST_FN(hipStreamAddCallback, (hipStream_t s, hipStreamCallback_t fn, void *user, unsigned flags),
        (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER, flags), HV_HIP_LEGACY, 1)
HOST_FN(hipStreamAddCallback_spt, (hipStream_t s, hipStreamCallback_t fn, void *user, unsigned flags),
        (s, HV_HOST_FN_ARG(fn), HV_HOST_FN_USER, flags), HV_HIP_SPT, 1)
