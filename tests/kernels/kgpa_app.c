/*
 * TEST-ONLY. Runtime functions fetched with hipGetProcAddress (ROCm 6.2+;
 * gpa_shim.c provides it here) and called through the pointers: a module
 * launch, the per-thread form of hipStreamSynchronize, and a function
 * hipvis does not intercept. Prints each result; same output with and
 * without the tracer.
 *
 *   kgpa_app CODE_OBJECT
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "khost.h"

hipError_t hipGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags, int *status);

typedef hipError_t (*launch_fn)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                hipStream_t, void **, void **);

static void *lookup(const char *name, uint64_t flags)
{
    void *p = NULL;
    int status = -1;
    hipError_t r = hipGetProcAddress(name, &p, 602, flags, &status);
    printf("hipGetProcAddress(%s, flags=%llu) -> %d status=%d %s\n", name, (unsigned long long)flags, (int)r, status,
           p ? "found" : "NULL");
    return p;
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    static char image[1 << 20];
    size_t len = f ? fread(image, 1, sizeof image, f) : 0;
    if (f)
        fclose(f);
    if (!len) {
        fprintf(stderr, "usage: kgpa_app CODE_OBJECT\n");
        return 2;
    }
    khost_register((khost_reg_fn)dlsym(RTLD_DEFAULT, "hipdouble_register_module_kernel"));
    hipModule_t mod = NULL;
    hipFunction_t producer = NULL;
    float *in = NULL, *out = NULL;
    int n = KN;
    printf("load %d\n", (int)hipModuleLoadData(&mod, image));
    printf("get %d\n", (int)hipModuleGetFunction(&producer, mod, "producer"));
    printf("malloc %d %d\n", (int)hipMalloc((void **)&in, KN * 4), (int)hipMalloc((void **)&out, KN * 4));

    launch_fn launch = (launch_fn)lookup("hipModuleLaunchKernel", 0);
    hipError_t (*sync_spt)(hipStream_t) = (hipError_t(*)(hipStream_t))lookup("hipStreamSynchronize", 0x2);
    hipError_t (*count)(int *) = (hipError_t(*)(int *))lookup("hipGetDeviceCount", 0);
    void *args[] = {&in, &out, &n};
    if (launch)
        printf("launch %d\n", (int)launch(producer, 1, 1, 1, KN, 1, 1, 0, NULL, args, NULL));
    if (sync_spt)
        printf("sync_spt %d\n", (int)sync_spt(NULL));
    int devices = -1;
    if (count) {
        hipError_t r = count(&devices);
        printf("count %d devices=%d\n", (int)r, devices);
    }
    return 0;
}
