/*
 * TEST-ONLY: NVTX (v3, header-only, from the CUDA toolkit) and roctx marks
 * around HIP calls on the runtime double. Under LD_PRELOAD=libhipvis.so with
 * NVTX_INJECTION64_PATH=libhipvis.so the trace must hold, in order:
 * push "nvtx-decode"; per step: mark "nvtx-step", roctx push "roctx-inner",
 * a memset, roctx pop; nvtx pop; a roctx start/stop range. Prints the roctx
 * depths it got back (hipvis must return the real function's values).
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
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
    printf("marks_app: roctx depths %d %d %d %d, range id %llu\n", depths[0], depths[1], depths[2], depths[3],
           (unsigned long long)id);
    return 0;
}
