/*
 * TEST-ONLY (check-cuda): an interposer preloaded AHEAD of libhipvis.so, as
 * another tool or a user's shim would be. It wraps two runtime functions
 * and finds what it forwards to with dlsym(RTLD_NEXT), which hipvis
 * interposes: the answer must be the next definition (hipvis's wrapper),
 * never the shim's own function (that looped forever before the wrapper
 * table took hipvis's addresses through hidden aliases).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static int forwarded, self_found;

static void report(void) { fprintf(stderr, "stack_shim: forwarded %d, own function returned %d\n", forwarded, self_found); }

static void *next(const char *name, void *self)
{
    static int once;
    if (!once++)
        atexit(report);
    void *p = dlsym(RTLD_NEXT, name);
    if (p == self) {
        self_found++;
        return NULL;
    }
    forwarded++;
    return p;
}

__attribute__((visibility("default"))) int cudaSetDevice(int d)
{
    int (*fn)(int) = (int (*)(int))next("cudaSetDevice", (void *)cudaSetDevice);
    return fn ? fn(d) : 999;
}

__attribute__((visibility("default"))) int cudaMalloc(void **p, size_t n)
{
    int (*fn)(void **, size_t) = (int (*)(void **, size_t))next("cudaMalloc", (void *)cudaMalloc);
    return fn ? fn(p, n) : 999;
}
