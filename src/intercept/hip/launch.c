/* Kernel launches: eager launches are readers/writers of their pointer
 * arguments; launches on a capturing stream become graph nodes. */
#include "intercept/hip/hip_common.h"
#include "preload/kargs.h"
#include "preload/kernels.h"

struct hv_hip_launch {
    uint64_t func;
    uint32_t grid[3], block[3];
    size_t shmem;
    void **params;
    void **extra;
    hipEvent_t start, stop;
    uint8_t form;
};

/* The packed argument block of the `extra` launch form, if given. */
static const void *extra_block(void **extra, size_t *bytes)
{
    const void *buf = NULL;
    *bytes = 0;
    for (int i = 0; extra && i < 16 && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
            *bytes = *(size_t *)extra[i + 1];
    }
    return buf;
}

static void trace_launch(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipStream_t s,
                         enum hv_hip_stream_api spt, const struct hv_hip_launch *l)
{
    struct hv_karg args[HV_MAX_KARGS];
    size_t block_bytes;
    const void *block = extra_block(l->extra, &block_bytes);
    int n = hv_kargs_collect(l->func, l->params, block, block_bytes, args, HV_MAX_KARGS);
    const struct hv_kernel_info *k = hv_kernels_find(l->func);

    struct hv_call *c = hv_hip_begin(t, api, r, s, spt, NULL);
    struct hv_launch_args *a = &c->a.launch;
    a->func = l->func;
    memcpy(a->grid, l->grid, sizeof a->grid);
    memcpy(a->block, l->block, sizeof a->block);
    a->shmem = (uint32_t)l->shmem;
    a->kernarg_bytes = block ? (uint32_t)block_bytes : (k ? k->kernarg_bytes : 0);
    a->name_id = k ? k->name_id : 0;
    a->nptr = (uint16_t)n;
    a->form = block ? HV_LAUNCH_EXTRA : l->form;
    a->captured = (c->flags & HV_CALL_CAPTURING) != 0;
    a->event_start = (uint64_t)(uintptr_t)l->start;
    a->event_stop = (uint64_t)(uintptr_t)l->stop;
    uint64_t seq = c->h.seq;
    hv_call_commit(t, c);
    hv_kargs_emit(t, seq, 0, l->func, a->name_id, args, n);
}

#define DIMS(g, b) .grid = {(g).x, (g).y, (g).z}, .block = {(b).x, (b).y, (b).z}

HV_HIP_WRAP(hipLaunchKernel, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s),
            trace_launch(t_, api_, r_, s, HV_HIP_LEGACY,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f, DIMS(g, b), .shmem = shm,
                                                 .params = args, .form = HV_LAUNCH_PARAMS}))
HV_HIP_WRAP(hipLaunchKernel_spt, (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s),
            (f, g, b, args, shm, s),
            trace_launch(t_, api_, r_, s, HV_HIP_SPT,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f, DIMS(g, b), .shmem = shm,
                                                 .params = args, .form = HV_LAUNCH_PARAMS}))
HV_HIP_WRAP(hipExtLaunchKernel,
            (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s, hipEvent_t e0, hipEvent_t e1,
             int flags),
            (f, g, b, args, shm, s, e0, e1, flags),
            trace_launch(t_, api_, r_, s, HV_HIP_LEGACY,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f, DIMS(g, b), .shmem = shm,
                                                 .params = args, .start = e0, .stop = e1, .form = HV_LAUNCH_PARAMS}))
HV_HIP_WRAP(hipExtLaunchKernel_spt,
            (const void *f, dim3 g, dim3 b, void **args, size_t shm, hipStream_t s, hipEvent_t e0, hipEvent_t e1,
             int flags),
            (f, g, b, args, shm, s, e0, e1, flags),
            trace_launch(t_, api_, r_, s, HV_HIP_SPT,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f, DIMS(g, b), .shmem = shm,
                                                 .params = args, .start = e0, .stop = e1, .form = HV_LAUNCH_PARAMS}))
HV_HIP_WRAP(hipModuleLaunchKernel,
            (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
             unsigned shm, hipStream_t s, void **params, void **extra),
            (f, gx, gy, gz, bx, by, bz, shm, s, params, extra),
            trace_launch(t_, api_, r_, s, HV_HIP_LEGACY,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f, .grid = {gx, gy, gz},
                                                 .block = {bx, by, bz}, .shmem = shm, .params = params,
                                                 .extra = extra, .form = HV_LAUNCH_PARAMS}))
/* hipExtModuleLaunchKernel takes global work sizes (threads), not blocks. */
HV_HIP_WRAP(hipExtModuleLaunchKernel,
            (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
             size_t shm, hipStream_t s, void **params, void **extra, hipEvent_t e0, hipEvent_t e1, uint32_t flags),
            (f, gx, gy, gz, lx, ly, lz, shm, s, params, extra, e0, e1, flags),
            trace_launch(t_, api_, r_, s, HV_HIP_LEGACY,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)f,
                                                 .grid = {lx ? gx / lx : gx, ly ? gy / ly : gy, lz ? gz / lz : gz},
                                                 .block = {lx, ly, lz}, .shmem = shm, .params = params,
                                                 .extra = extra, .start = e0, .stop = e1, .form = HV_LAUNCH_PARAMS}))
HV_HIP_WRAP(hipLaunchHostFunc, (hipStream_t s, hipHostFn_t fn, void *user), (s, fn, user),
            trace_launch(t_, api_, r_, s, HV_HIP_LEGACY,
                         &(struct hv_hip_launch){.func = (uint64_t)(uintptr_t)fn, .form = HV_LAUNCH_HOST_FUNC}))
