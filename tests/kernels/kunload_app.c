/*
 * TEST-ONLY. A library with a fat binary (tests/codeobj's hipcc build of
 * kernels.hip) is dlopen'ed — its constructor registers the fat binary —
 * one of its kernels is launched, and the library is dlclose'd, which
 * unregisters the fat binary and unmaps its image. With a small ring the
 * launch could not store the whole code object: the rest must not be read
 * from the unmapped image (the trace says "image_unloaded" instead).
 *
 *   kunload_app LIBKERNELS
 */
#include <dlfcn.h>
#include <stdio.h>

#include "../runtime-double/hipdouble.h"

int main(int argc, char **argv)
{
    void *lib = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib) {
        fprintf(stderr, "usage: kunload_app LIBKERNELS (%s)\n", dlerror());
        return 2;
    }
    const void *saxpy = dlsym(lib, "_Z5saxpyfPKfPfi"); /* the host stub */
    float *x = NULL, *y = NULL, a = 2.0f;
    int n = 16;
    printf("malloc %d %d\n", (int)hipMalloc((void **)&x, 64), (int)hipMalloc((void **)&y, 64));
    void *args[] = {&a, &x, &y, &n};
    dim3 one = {1, 1, 1};
    printf("launch %d\n", saxpy ? (int)hipLaunchKernel(saxpy, one, one, args, 0, NULL) : -1);
    printf("sync %d\n", (int)hipDeviceSynchronize());
    printf("dlclose %d\n", dlclose(lib));
    printf("free %d %d\n", (int)hipFree(x), (int)hipFree(y));
    return 0;
}
