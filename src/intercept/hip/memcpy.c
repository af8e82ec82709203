/* Copy family: every copy is a write of [dst, dst+bytes) by its stream. */
#include "intercept/hip/hip_common.h"

#define COPY(s, spt, cp) hv_trace_copy(t_, api_, r_, HV_HIP_S(s, spt), cp)

HV_HIP_WRAP(hipMemcpy, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpy_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k), (dst, src, n, k),
            COPY(NULL, HV_HIP_SPT, HV_COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpyAsync, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyAsync_spt, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_SPT, HV_COPY1D(dst, src, n, k, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyWithStream, (void *dst, const void *src, size_t n, hipMemcpyKind k, hipStream_t s),
            (dst, src, n, k, s), COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, k, 0)))
HV_HIP_WRAP(hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyHostToDevice, 0)))
HV_HIP_WRAP(hipMemcpyDtoH, (void *dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToHost, 0)))
HV_HIP_WRAP(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n), (dst, src, n),
            COPY(NULL, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToDevice, 0)))
HV_HIP_WRAP(hipMemcpyHtoDAsync, (hipDeviceptr_t dst, void *src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyHostToDevice, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoHAsync, (void *dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToHost, HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpyDtoDAsync, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s), (dst, src, n, s),
            COPY(s, HV_HIP_LEGACY, HV_COPY1D(dst, src, n, hipMemcpyDeviceToDevice, HV_COPY_ASYNC)))

#define COPY2D(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = w, .dpitch = dp, .spitch = sp, .height = h, .kind = k, \
                            .flags = (flags_) | HV_COPY_2D, .dst_device = -1, .src_device = -1})

HV_HIP_WRAP(hipMemcpy2D, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), COPY(NULL, HV_HIP_LEGACY, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2D_spt, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k),
            (dst, dp, src, sp, w, h, k), COPY(NULL, HV_HIP_SPT, COPY2D(0)))
HV_HIP_WRAP(hipMemcpy2DAsync,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), COPY(s, HV_HIP_LEGACY, COPY2D(HV_COPY_ASYNC)))
HV_HIP_WRAP(hipMemcpy2DAsync_spt,
            (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, hipMemcpyKind k, hipStream_t s),
            (dst, dp, src, sp, w, h, k, s), COPY(s, HV_HIP_SPT, COPY2D(HV_COPY_ASYNC)))

#define COPYPEER(flags_) \
    (&(struct hv_copy_desc){.dst = dst, .src = src, .bytes = n, .kind = hipMemcpyDeviceToDevice, \
                            .flags = (flags_) | HV_COPY_PEER, .dst_device = dd, .src_device = sd})

HV_HIP_WRAP(hipMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n), (dst, dd, src, sd, n),
            COPY(NULL, HV_HIP_LEGACY, COPYPEER(0)))
HV_HIP_WRAP(hipMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, hipStream_t s),
            (dst, dd, src, sd, n, s), COPY(s, HV_HIP_LEGACY, COPYPEER(HV_COPY_ASYNC)))
