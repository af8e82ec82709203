/*
 * TEST-ONLY. hipGetProcAddress for runtimes that lack it (Debian's HIP 5.2,
 * the runtime double): what ROCm 6.2+ does — the named function, in its
 * per-thread form (`_spt`) when the flags ask for the per-thread default
 * stream — looked up in the loaded libamdhip64 with libc's own dlsym: the
 * tracer interposes dlsym and would hand back its own wrapper, which is
 * what the test wants to see the tracer's hipGetProcAddress do instead.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "../runtime-double/hipdouble.h"

#define PER_THREAD_DEFAULT_STREAM 0x2 /* HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM */

__attribute__((visibility("default"))) hipError_t hipGetProcAddress(const char *symbol, void **pfn, int version,
                                                                    uint64_t flags, int *status)
{
    char name[256];
    void *h = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_NOLOAD);
    /* libc's dlsym, found past this library (the tracer is before it). */
    void *(*libc_dlsym)(void *, const char *) = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!libc_dlsym)
        libc_dlsym = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    (void)version;
    if (!symbol || !pfn)
        return hipErrorInvalidValue;
    snprintf(name, sizeof name, "%s%s", symbol, flags & PER_THREAD_DEFAULT_STREAM ? "_spt" : "");
    *pfn = h && libc_dlsym ? libc_dlsym(h, name) : NULL;
    if (!*pfn && h && libc_dlsym)
        *pfn = libc_dlsym(h, symbol);
    if (status)
        *status = *pfn ? 0 : 1;
    if (h)
        dlclose(h);
    return *pfn ? hipSuccess : hipErrorNotFound;
}
