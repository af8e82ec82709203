/*
 * TEST-ONLY: a ROCm 6 face on the runtime double for hipDrvMemcpy3DAsync,
 * whose HIP_MEMCPY3D changed in ROCm 6 (size_t fields; hipMemoryType host
 * 1, device 2). Built with soname libamdhip64.so.7 and exporting
 * hipGetDevicePropertiesR0600, the export hipvis reads the layout from
 * (src/tracer/intercept/hip/memcpy.c rocm6_layout); the copy itself is the
 * double's hipMemcpy3DAsync of the same pitched pointers. Also
 * hipDrvGraphExecMemcpyNodeSetParams (ROCm 6+ only, so always this layout),
 * through the double's hipGraphExecMemcpyNodeSetParams.
 */
/* HIP 5.2's declaration has the old struct: put it aside. */
#define hipDrvMemcpy3DAsync hip52_decl_hipDrvMemcpy3DAsync
#include "../runtime-double/hipdouble.h"
#undef hipDrvMemcpy3DAsync
#include "r6_memcpy3d.h"

/* Present so hipvis takes this runtime for ROCm 6+; never called. */
int hipGetDevicePropertiesR0600(void *prop, int device);
int hipGetDevicePropertiesR0600(void *prop, int device)
{
    (void)prop, (void)device;
    return (int)hipErrorNotSupported;
}

/* The double's pitched-pointer form of a ROCm 6 HIP_MEMCPY3D. */
static hipMemcpy3DParms parms_of(const r6_memcpy3d *c)
{
    return (hipMemcpy3DParms){
        .srcPtr = make_hipPitchedPtr(c->srcMemoryType == 1 ? (void *)c->srcHost : c->srcDevice, c->srcPitch,
                                     c->WidthInBytes, c->srcHeight),
        .dstPtr = make_hipPitchedPtr(c->dstMemoryType == 1 ? c->dstHost : c->dstDevice, c->dstPitch,
                                     c->WidthInBytes, c->dstHeight),
        .srcPos = make_hipPos(c->srcXInBytes, c->srcY, c->srcZ),
        .dstPos = make_hipPos(c->dstXInBytes, c->dstY, c->dstZ),
        .extent = make_hipExtent(c->WidthInBytes, c->Height, c->Depth),
        .kind = hipMemcpyDefault};
}

static int has_array(const r6_memcpy3d *c) { return !c || c->srcMemoryType == 10 || c->dstMemoryType == 10; }

hipError_t hipDrvMemcpy3DAsync(const r6_memcpy3d *c, hipStream_t stream);
hipError_t hipDrvMemcpy3DAsync(const r6_memcpy3d *c, hipStream_t stream)
{
    if (has_array(c))
        return hipErrorInvalidValue;
    hipMemcpy3DParms p = parms_of(c);
    return hipMemcpy3DAsync(&p, stream);
}

hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t e, hipGraphNode_t n, const r6_memcpy3d *c, hipCtx_t ctx);
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t e, hipGraphNode_t n, const r6_memcpy3d *c, hipCtx_t ctx)
{
    (void)ctx;
    if (has_array(c))
        return hipErrorInvalidValue;
    hipMemcpy3DParms p = parms_of(c);
    return hipGraphExecMemcpyNodeSetParams(e, n, &p);
}
