/*
 * Runtime entry points whose signature differs between libcudart.so.12 and
 * libcudart.so.13 under one exported name (docs/semantics.md C11, C12, G2):
 *
 *   cudaMemcpyBatchAsync      12.8/12.9: (..., numAttrs, failIdx, stream)  13: (..., numAttrs, stream)
 *   cudaMemcpy3DBatchAsync    12.8/12.9: (n, ops, failIdx, flags, stream)  13: (n, ops, flags, stream)
 *   cudaStreamGetCaptureInfo  12: (stream, status, id)                     13: (stream, status, id, graph,
 *                                                                              deps, edgeData, numDeps)
 *   cudaStreamUpdateCaptureDependencies 12: (stream, deps, numDeps, flags) 13: (stream, deps, edgeData,
 *                                                                              numDeps, flags)
 *
 * A wrapper cannot know which one its caller was compiled for, so each
 * wrapper takes the longer parameter list and passes every slot on
 * unchanged: the runtime reads the slots of its own signature, in the same
 * registers and stack positions as the caller wrote them (System V x86-64
 * and AArch64 pass integer arguments in order; an unread trailing slot is
 * a register or a word of the caller's frame). What hipvis records is read
 * from the slots of the signature of the library the real function lives
 * in: the major version in its file name (libcudart.so.12 / .so.13, after
 * symlinks). An unknown library: the call is recorded with nothing read.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The toolkit's (CUDA 13) declarations of these names are put aside: the
 * wrappers below declare the longer lists. */
#define cudaMemcpyBatchAsync hv_cuda13_decl_cudaMemcpyBatchAsync
#define cudaMemcpy3DBatchAsync hv_cuda13_decl_cudaMemcpy3DBatchAsync
#define cudaStreamGetCaptureInfo hv_cuda13_decl_cudaStreamGetCaptureInfo
#define cudaStreamUpdateCaptureDependencies hv_cuda13_decl_cudaStreamUpdateCaptureDependencies
#include "tracer/intercept/cuda/cuda_int.h"
#undef cudaMemcpyBatchAsync
#undef cudaMemcpy3DBatchAsync
#undef cudaStreamGetCaptureInfo
#undef cudaStreamUpdateCaptureDependencies

_Static_assert(sizeof(struct cudaMemcpyAttributes) == sizeof(struct hv_copy_attr) &&
                   sizeof(struct cudaMemcpy3DBatchOp) == sizeof(struct hv_copy_op3d),
               "batch copy layouts");

static int major_of(const char *path)
{
    const char *so = path ? strstr(path, "libcudart.so.") : NULL;
    return so ? atoi(so + strlen("libcudart.so.")) : 0;
}

/* Major version of the libcudart holding `fn`; 0 unknown. */
static int cudart_major(const void *fn)
{
    static _Atomic(const void *) last_fn;
    static _Atomic int last_major;
    if (fn && atomic_load_explicit(&last_fn, memory_order_acquire) == fn)
        return atomic_load_explicit(&last_major, memory_order_relaxed);
    Dl_info di;
    int major = 0;
    if (fn && dladdr(fn, &di) && di.dli_fname) {
        major = major_of(di.dli_fname);
        char real[PATH_MAX];
        if (!major && realpath(di.dli_fname, real))
            major = major_of(real);
    }
    atomic_store_explicit(&last_major, major, memory_order_relaxed);
    atomic_store_explicit(&last_fn, fn, memory_order_release);
    return major;
}

/* The slot that holds the stream: `at13` in CUDA 13's list, `at12` in CUDA
 * 12's; NULL and *known 0 when the library is neither. */
#define SLOT(at12, at13) (major >= 13 ? (at13) : major == 12 ? (at12) : NULL)

static void batch1d(struct hv_thread_ctx *t, uint16_t api, int32_t r, enum hv_spt spt, const void *real,
                    void **dsts, void **srcs, size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs,
                    size_t *idxs, size_t nattrs, void *a8, void *a9)
{
    int major = cudart_major(real);
    cudaStream_t s = (cudaStream_t)SLOT(a9, a8);
    hv_trace_copy_batch(t, api, r, major ? HV_CU_SREF(t, s, spt) : HV_NO_STREAM, major ? count : 0,
                        hv_batch1d_elem,
                        &(struct hv_batch1d){(const uint64_t *)dsts, (const uint64_t *)srcs, sizes,
                                             (const struct hv_copy_attr *)attrs, idxs, nattrs, 0});
}

#define BATCH1D_P                                                                                         \
    void **dsts, void **srcs, size_t *sizes, size_t count, struct cudaMemcpyAttributes *attrs, size_t *idxs, \
        size_t nattrs, void *a8, void *a9
#define BATCH1D_A dsts, srcs, sizes, count, attrs, idxs, nattrs, a8, a9
HV_CUDART_WRAP(cudaMemcpyBatchAsync, (BATCH1D_P), (BATCH1D_A),
               batch1d(t_, api_, r_, HV_SPT_LEGACY, (void *)real_, BATCH1D_A))
HV_CUDART_WRAP(cudaMemcpyBatchAsync_ptsz, (BATCH1D_P), (BATCH1D_A),
               batch1d(t_, api_, r_, HV_SPT_PER_THREAD, (void *)real_, BATCH1D_A))

static void batch3d(struct hv_thread_ctx *t, uint16_t api, int32_t r, enum hv_spt spt, const void *real, size_t n,
                    struct cudaMemcpy3DBatchOp *ops, void *a3, void *a4, void *a5)
{
    int major = cudart_major(real);
    (void)a3;
    cudaStream_t s = (cudaStream_t)SLOT(a5, a4);
    hv_trace_copy_batch(t, api, r, major ? HV_CU_SREF(t, s, spt) : HV_NO_STREAM, major && ops ? n : 0,
                        hv_batch3d_elem, ops);
}
HV_CUDART_WRAP(cudaMemcpy3DBatchAsync, (size_t n, struct cudaMemcpy3DBatchOp *ops, void *a3, void *a4, void *a5),
               (n, ops, a3, a4, a5), batch3d(t_, api_, r_, HV_SPT_LEGACY, (void *)real_, n, ops, a3, a4, a5))
HV_CUDART_WRAP(cudaMemcpy3DBatchAsync_ptsz,
               (size_t n, struct cudaMemcpy3DBatchOp *ops, void *a3, void *a4, void *a5), (n, ops, a3, a4, a5),
               batch3d(t_, api_, r_, HV_SPT_PER_THREAD, (void *)real_, n, ops, a3, a4, a5))

/* Status and capture id are the 2nd and 3rd slots in both lists; the
 * graph (4th) exists in CUDA 13's only. */
static void capture_info(struct hv_thread_ctx *t, uint16_t api, int32_t r, enum hv_spt spt, const void *real,
                         cudaStream_t s, enum cudaStreamCaptureStatus *st, unsigned long long *id, void *a4)
{
    int major = cudart_major(real);
    cudaGraph_t *g = major >= 13 ? (cudaGraph_t *)a4 : NULL;
    hv_trace_raw(t, api, r, HV_CU_SREF(t, s, spt), major && st && !r ? (uint64_t)*st : 0,
                 major && id && !r ? (uint64_t)*id : 0, HV_OUT(g, r), 0);
}
#define INFO_P                                                                                         \
    cudaStream_t s, enum cudaStreamCaptureStatus *st, unsigned long long *id, void *a4, void *a5, void *a6, \
        void *a7
HV_CUDART_WRAP(cudaStreamGetCaptureInfo, (INFO_P), (s, st, id, a4, a5, a6, a7),
               capture_info(t_, api_, r_, HV_SPT_LEGACY, (void *)real_, s, st, id, a4))
HV_CUDART_WRAP(cudaStreamGetCaptureInfo_ptsz, (INFO_P), (s, st, id, a4, a5, a6, a7),
               capture_info(t_, api_, r_, HV_SPT_PER_THREAD, (void *)real_, s, st, id, a4))

/* raw: the dependency count and flags (slots 3, 4 in CUDA 12; 4, 5 in 13). */
static void update_deps(struct hv_thread_ctx *t, uint16_t api, int32_t r, enum hv_spt spt, const void *real,
                        cudaStream_t s, void *a3, void *a4, void *a5)
{
    int major = cudart_major(real);
    hv_trace_raw(t, api, r, HV_CU_SREF(t, s, spt), (uint64_t)(uintptr_t)SLOT(a3, a4),
                 (uint32_t)(uintptr_t)SLOT(a4, a5), 0, 0);
}
HV_CUDART_WRAP(cudaStreamUpdateCaptureDependencies, (cudaStream_t s, cudaGraphNode_t *deps, void *a3, void *a4, void *a5),
               (s, deps, a3, a4, a5), update_deps(t_, api_, r_, HV_SPT_LEGACY, (void *)real_, s, a3, a4, a5))
HV_CUDART_WRAP(cudaStreamUpdateCaptureDependencies_ptsz,
               (cudaStream_t s, cudaGraphNode_t *deps, void *a3, void *a4, void *a5), (s, deps, a3, a4, a5),
               update_deps(t_, api_, r_, HV_SPT_PER_THREAD, (void *)real_, s, a3, a4, a5))
