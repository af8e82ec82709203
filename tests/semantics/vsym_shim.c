/*
 * TEST-ONLY. A runtime entry point with a symbol version, as the real
 * libamdhip64 defines them (hipMemsetAsync@@hip_4.2); the runtime double
 * has no version definitions, so sem_app's dlvsym case looks the function
 * up here. It does nothing and succeeds; `vsym_shim_calls` counts calls.
 */
#include <stddef.h>

int vsym_shim_calls;

__attribute__((visibility("default"))) int hipMemsetAsync(void *dst, int value, size_t n, void *stream)
{
    (void)dst, (void)value, (void)n, (void)stream;
    vsym_shim_calls++;
    return 0;
}
