// TEST-ONLY. A HIP program built by Debian's hipcc for gfx90a and gfx940:
// its fat binary (the kernels of tests/codeobj/kernels.hip) is registered by
// the compiler's start-up code, before main, on whatever runtime is loaded.
// On a runtime with a device (the test double) it also launches saxpy.
#include "../codeobj/kernels.hip"

#include <stdio.h>

int main()
{
    int n = -1;
    hipError_t r = hipGetDeviceCount(&n);
    printf("devices %d\n", (int)r == 0 ? n : 0);
    if (r != hipSuccess || n < 1)
        return 0;
    float *x = nullptr, *y = nullptr;
    if (hipMalloc((void **)&x, 256) != hipSuccess || hipMalloc((void **)&y, 256) != hipSuccess)
        return 1;
    printf("addr x=%p y=%p\n", (void *)x, (void *)y);
    saxpy<<<1, 64>>>(2.0f, x, y, 64);
    printf("launch %d sync %d\n", (int)hipGetLastError(), (int)hipDeviceSynchronize());
    return 0;
}
