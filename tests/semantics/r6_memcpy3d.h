/* TEST-ONLY: HIP_MEMCPY3D as ROCm 6 lays it out (size_t fields; hipMemoryType
 * host 1, device 2, array 10), for r6_shim.c and sem_app's drv3d_r6 case. */
#ifndef HV_TESTS_SEMANTICS_R6_MEMCPY3D_H
#define HV_TESTS_SEMANTICS_R6_MEMCPY3D_H

#include <stddef.h>

typedef struct {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    void *srcDevice, *srcArray;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    void *dstDevice, *dstArray;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
} r6_memcpy3d;

#endif
