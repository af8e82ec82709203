/* Memset family: writes of [dst, dst+bytes). */
#include "tracer/intercept/hip/hip_int.h"

#define SET(s, spt, m) hv_trace_memset(t_, api_, r_, HV_HIP_S(s, spt), m)
#define SET2D(async_) \
    (&(struct hv_memset_desc){.dst = dst, .count = w, .pitch = p, .height = h, .value = (uint32_t)v, .elem = 1, \
                              .async = (async_)})

HV_HIP_WRAP(hipMemset, (void *dst, int v, size_t n), (dst, v, n), SET(NULL, HV_HIP_LEGACY, HV_SET(dst, n, v, 1, 0)))
HV_HIP_WRAP(hipMemset_spt, (void *dst, int v, size_t n), (dst, v, n), SET(NULL, HV_HIP_SPT, HV_SET(dst, n, v, 1, 0)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part) HV_HOT_##part   /* called every step of a serving loop (core/hot.h) */
HV_HIP_WRAP(hipMemsetAsync, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            SET(s, HV_HIP_LEGACY, HV_SET(dst, n, v, 1, 1)))
HV_HIP_WRAP(hipMemsetAsync_spt, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            SET(s, HV_HIP_SPT, HV_SET(dst, n, v, 1, 1)))
#undef HV_WRAP_ATTRS
#define HV_WRAP_ATTRS(part)
HV_HIP_WRAP(hipMemsetD8, (hipDeviceptr_t dst, unsigned char v, size_t n), (dst, v, n),
            SET(NULL, HV_HIP_LEGACY, HV_SET(dst, n, v, 1, 0)))
HV_HIP_WRAP(hipMemsetD8Async, (hipDeviceptr_t dst, unsigned char v, size_t n, hipStream_t s), (dst, v, n, s),
            SET(s, HV_HIP_LEGACY, HV_SET(dst, n, v, 1, 1)))
HV_HIP_WRAP(hipMemsetD16, (hipDeviceptr_t dst, unsigned short v, size_t n), (dst, v, n),
            SET(NULL, HV_HIP_LEGACY, HV_SET(dst, n, v, 2, 0)))
HV_HIP_WRAP(hipMemsetD16Async, (hipDeviceptr_t dst, unsigned short v, size_t n, hipStream_t s), (dst, v, n, s),
            SET(s, HV_HIP_LEGACY, HV_SET(dst, n, v, 2, 1)))
HV_HIP_WRAP(hipMemsetD32, (hipDeviceptr_t dst, int v, size_t n), (dst, v, n),
            SET(NULL, HV_HIP_LEGACY, HV_SET(dst, n, v, 4, 0)))
HV_HIP_WRAP(hipMemsetD32Async, (hipDeviceptr_t dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
            SET(s, HV_HIP_LEGACY, HV_SET(dst, n, v, 4, 1)))
HV_HIP_WRAP(hipMemset2D, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
            SET(NULL, HV_HIP_LEGACY, SET2D(0)))
HV_HIP_WRAP(hipMemset2D_spt, (void *dst, size_t p, int v, size_t w, size_t h), (dst, p, v, w, h),
            SET(NULL, HV_HIP_SPT, SET2D(0)))
HV_HIP_WRAP(hipMemset2DAsync, (void *dst, size_t p, int v, size_t w, size_t h, hipStream_t s), (dst, p, v, w, h, s),
            SET(s, HV_HIP_LEGACY, SET2D(1)))
HV_HIP_WRAP(hipMemset2DAsync_spt, (void *dst, size_t p, int v, size_t w, size_t h, hipStream_t s),
            (dst, p, v, w, h, s), SET(s, HV_HIP_SPT, SET2D(1)))

/* hipMemset3D: rows of `width` bytes, `pitch` apart, height x depth of them
 * (docs/semantics.md M5, M6; rows between slices as in hv_copy3d). */
#define SET3D(async_)                                                                                            \
    (&(struct hv_memset_desc){.dst = pp.ptr, .count = ext.width, .pitch = pp.pitch,                              \
                              .height = hv_rows3d(ext.height, ext.depth, pp.ysize), .value = (uint32_t)v,        \
                              .elem = 1, .async = (async_)})

HV_HIP_WRAP(hipMemset3D, (hipPitchedPtr pp, int v, hipExtent ext), (pp, v, ext), SET(NULL, HV_HIP_LEGACY, SET3D(0)))
HV_HIP_WRAP(hipMemset3D_spt, (hipPitchedPtr pp, int v, hipExtent ext), (pp, v, ext), SET(NULL, HV_HIP_SPT, SET3D(0)))
HV_HIP_WRAP(hipMemset3DAsync, (hipPitchedPtr pp, int v, hipExtent ext, hipStream_t s), (pp, v, ext, s),
            SET(s, HV_HIP_LEGACY, SET3D(1)))
HV_HIP_WRAP(hipMemset3DAsync_spt, (hipPitchedPtr pp, int v, hipExtent ext, hipStream_t s), (pp, v, ext, s),
            SET(s, HV_HIP_SPT, SET3D(1)))
