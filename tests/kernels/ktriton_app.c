/*
 * TEST-ONLY. Triton's HIP launcher, reduced: the program links no GPU
 * runtime; it takes the one the process has (dlopen("libamdhip64.so",
 * RTLD_NOLOAD)) or opens it privately (RTLD_LOCAL, out of the global symbol
 * scope, where LD_PRELOAD interposition cannot reach it), and calls
 * everything through dlsym'd pointers: hipModuleLoadData, hipModuleGetFunction,
 * hipModuleLaunchKernel. Prints each result; same output with and without
 * the tracer.
 *
 *   ktriton_app CODE_OBJECT
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "khost.h"

#define SYM(h, name) ((__typeof__(&name))dlsym(h, #name))

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    static char image[1 << 20];
    size_t len = f ? fread(image, 1, sizeof image, f) : 0;
    if (f)
        fclose(f);
    void *h = dlopen("libamdhip64.so", RTLD_NOLOAD | RTLD_LAZY);
    printf("already loaded: %s\n", h ? "yes" : "no");
    if (!h)
        h = dlopen("libamdhip64.so", RTLD_LAZY | RTLD_LOCAL);
    if (!len || !h) {
        fprintf(stderr, "usage: ktriton_app CODE_OBJECT (with libamdhip64.so on the library path)\n");
        return 2;
    }
    khost_register((khost_reg_fn)dlsym(h, "hipdouble_register_module_kernel"));
    hipModule_t mod = NULL;
    hipFunction_t fn = NULL;
    float *in = NULL, *out = NULL;
    int n = KN;
    printf("load %d\n", (int)SYM(h, hipModuleLoadData)(&mod, image));
    printf("get %d\n", (int)SYM(h, hipModuleGetFunction)(&fn, mod, "producer"));
    printf("malloc %d\n", (int)SYM(h, hipMalloc)((void **)&in, KN * 4));
    printf("malloc %d\n", (int)SYM(h, hipMalloc)((void **)&out, KN * 4));
    printf("addr in=%p out=%p\n", (void *)in, (void *)out);
    void *args[] = {&in, &out, &n};
    printf("launch %d\n", (int)SYM(h, hipModuleLaunchKernel)(fn, 1, 1, 1, KN, 1, 1, 0, NULL, args, NULL));
    printf("sync %d\n", (int)SYM(h, hipDeviceSynchronize)());
    return 0;
}
