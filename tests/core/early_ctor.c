/*
 * A library whose constructor calls the runtime. Linked into the test
 * program, it is initialised before the preloaded libhipvis.so (ld.so runs
 * initialisers of later-loaded independent objects first), so this proves
 * calls made before hipvis's constructor are traced.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>

void *early_ptr;

__attribute__((constructor)) static void early(void) { hipMalloc(&early_ptr, 4096); }
