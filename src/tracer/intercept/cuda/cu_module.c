/* Code loaded at run time (Triton's cuModuleLoadData, CUDA libraries) and
 * the function/kernel lookups that give launches their handles: each
 * handle's layout and name are learnt here, before its first launch. */
#include "tracer/intercept/cuda/cuda_int.h"

static void module_call(struct hv_thread_ctx *t, uint16_t api, CUresult r, uint64_t module, void *f, int is_kernel)
{
    uint64_t seq = hv_trace_module(t, api, (int32_t)r, module, HV_PTR(f), 0, 0);
    int fresh;
    const struct hv_kernel_info *k = f && r == CUDA_SUCCESS ? hv_cu_kernel(t, HV_PTR(f), f, is_kernel, &fresh) : NULL;
    if (k && fresh)
        hv_emit_kernel_sym(t, seq, k, module, 0);
}

#define LOADED(pm) module_call(t_, api_, r_, HV_OUT(pm, r_), NULL, 0)
#define GOT(pf, owner, is_kernel) \
    module_call(t_, api_, r_, HV_PTR(owner), (pf) && r_ == CUDA_SUCCESS ? (void *)*(pf) : NULL, is_kernel)
#define LIB_OPTS CUjit_option *jo, void **jv, unsigned njo, CUlibraryOption *lo, void **lv, unsigned nlo

HV_CU_WRAP(cuModuleLoad, (CUmodule * pm, const char *path), (pm, path), LOADED(pm))
HV_CU_WRAP(cuModuleLoadData, (CUmodule * pm, const void *image), (pm, image), LOADED(pm))
HV_CU_WRAP(cuModuleLoadDataEx, (CUmodule * pm, const void *image, unsigned n, CUjit_option *opts, void **vals),
           (pm, image, n, opts, vals), LOADED(pm))
HV_CU_WRAP(cuModuleLoadFatBinary, (CUmodule * pm, const void *fatbin), (pm, fatbin), LOADED(pm))
HV_CU_WRAP(cuModuleUnload, (CUmodule m), (m), module_call(t_, api_, r_, HV_PTR(m), NULL, 0))
HV_CU_WRAP(cuModuleGetFunction, (CUfunction * pf, CUmodule m, const char *name), (pf, m, name), GOT(pf, m, 0))
HV_CU_WRAP(cuLibraryLoadData, (CUlibrary * pl, const void *code, LIB_OPTS), (pl, code, jo, jv, njo, lo, lv, nlo),
           LOADED(pl))
HV_CU_WRAP(cuLibraryLoadFromFile, (CUlibrary * pl, const char *path, LIB_OPTS), (pl, path, jo, jv, njo, lo, lv, nlo),
           LOADED(pl))
HV_CU_WRAP(cuLibraryUnload, (CUlibrary l), (l), module_call(t_, api_, r_, HV_PTR(l), NULL, 0))
HV_CU_WRAP(cuLibraryGetKernel, (CUkernel * pk, CUlibrary l, const char *name), (pk, l, name), GOT(pk, l, 1))
HV_CU_WRAP(cuKernelGetFunction, (CUfunction * pf, CUkernel k), (pf, k), GOT(pf, k, 0))
