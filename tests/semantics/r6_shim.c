/*
 * TEST-ONLY: a ROCm 6 face on the runtime double for hipDrvMemcpy3DAsync,
 * whose HIP_MEMCPY3D changed in ROCm 6 (size_t fields; hipMemoryType host
 * 1, device 2). Built with soname libamdhip64.so.7 and exporting
 * hipGetDevicePropertiesR0600, the export hipvis reads the layout from
 * (src/intercept/hip/memcpy.c rocm6_layout); the copy itself is the
 * double's hipMemcpy3DAsync of the same pitched pointers.
 */
#include <string.h>

/* HIP 5.2's declaration has the old struct: put it aside. */
#define hipDrvMemcpy3DAsync hip52_decl_hipDrvMemcpy3DAsync
#include "../runtime-double/hipdouble.h"
#undef hipDrvMemcpy3DAsync

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

/* Present so hipvis takes this runtime for ROCm 6+; never called. */
int hipGetDevicePropertiesR0600(void *prop, int device);
int hipGetDevicePropertiesR0600(void *prop, int device)
{
    (void)prop, (void)device;
    return (int)hipErrorNotSupported;
}

hipError_t hipDrvMemcpy3DAsync(const r6_memcpy3d *c, hipStream_t stream);
hipError_t hipDrvMemcpy3DAsync(const r6_memcpy3d *c, hipStream_t stream)
{
    if (!c || c->srcMemoryType == 10 || c->dstMemoryType == 10)
        return hipErrorInvalidValue;
    hipMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    void *src = c->srcMemoryType == 1 ? (void *)c->srcHost : c->srcDevice;
    void *dst = c->dstMemoryType == 1 ? c->dstHost : c->dstDevice;
    p.srcPtr = (hipPitchedPtr){src, c->srcPitch, c->WidthInBytes, c->srcHeight};
    p.dstPtr = (hipPitchedPtr){dst, c->dstPitch, c->WidthInBytes, c->dstHeight};
    p.srcPos = (hipPos){c->srcXInBytes, c->srcY, c->srcZ};
    p.dstPos = (hipPos){c->dstXInBytes, c->dstY, c->dstZ};
    p.extent = (hipExtent){c->WidthInBytes, c->Height, c->Depth};
    p.kind = hipMemcpyDefault;
    return hipMemcpy3DAsync(&p, stream);
}
