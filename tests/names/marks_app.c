/*
 * TEST-ONLY: NVTX (v3, header-only, from the CUDA toolkit) and roctx marks
 * around HIP calls on the runtime double. Under LD_PRELOAD=libhipvis.so with
 * NVTX_INJECTION64_PATH=libhipvis.so the trace must hold, in order:
 * push "nvtx-decode"; per step: mark "nvtx-step", roctx push "roctx-inner",
 * a memset, roctx pop; nvtx pop; a roctx start/stop range. Prints the roctx
 * depths it got back (hipvis must return the real function's values).
 * Built with -DHV_NO_NVTX where the toolkit's nvtx3 headers are missing
 * (Debian 12 main has none): then only the roctx part runs, and the output
 * says "nvtx off" so that the test expects no NVTX marks.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#ifndef HV_NO_NVTX
#include <nvtx3/nvToolsExt.h>
#define NVTX_STATE "on"
#else
#define nvtxRangePushA(m) ((void)(m))
#define nvtxMarkA(m) ((void)(m))
#define nvtxRangePop() ((void)0)
#define NVTX_STATE "off"
#endif
#include <stdint.h>
#include <stdio.h>

int roctxRangePushA(const char *message);
int roctxRangePop(void);
void roctxMarkA(const char *message);
uint64_t roctxRangeStartA(const char *message);
void roctxRangeStop(uint64_t id);

int main(void)
{
    void *d = NULL;
    if (hipMalloc(&d, 4096) != hipSuccess)
        return 1;
    nvtxRangePushA("nvtx-decode");
    int depths[4];
    for (int i = 0; i < 4; i++) {
        nvtxMarkA("nvtx-step");
        depths[i] = roctxRangePushA("roctx-inner");
        hipMemsetAsync(d, i, 4096, 0);
        roctxRangePop();
    }
    nvtxRangePop();
    uint64_t id = roctxRangeStartA("roctx-range");
    roctxMarkA("roctx-mark");
    roctxRangeStop(id);
    hipDeviceSynchronize();
    hipFree(d);
    printf("marks_app: roctx depths %d %d %d %d, range id %llu, nvtx %s\n", depths[0], depths[1], depths[2],
           depths[3], (unsigned long long)id, NVTX_STATE);
    return 0;
}
