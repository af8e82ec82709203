/*
 * Kernel layouts and names from the driver: cuFuncGetParamInfo (CUDA 12.4+)
 * gives each parameter's offset and size, cuFuncGetName the name. Learnt on
 * a handle's first launch or lookup (cold), cached in the kernels table.
 */
#include <dlfcn.h>

#include "tracer/intercept/cuda/cuda_int.h"

void *hv_cu_sym(const char *name)
{
    static _Atomic(void *) handle;
    void *h = atomic_load_explicit(&handle, memory_order_acquire);
    if (!h) {
        /* Only a driver the process already loaded: hipvis never loads one. */
        h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            return NULL;
        void *expect = NULL;
        if (!atomic_compare_exchange_strong_explicit(&handle, &expect, h, memory_order_acq_rel,
                                                     memory_order_acquire))
            dlclose(h); /* another thread stored the same library's handle */
        h = atomic_load_explicit(&handle, memory_order_acquire);
    }
    return hv_real_dlsym(h, name);
}

typedef CUresult (*param_info_fn)(void *, size_t, size_t *, size_t *);
typedef CUresult (*name_fn)(const char **, void *);

/* Reads the layout of f into info; returns the first query's result. */
static CUresult read_layout(void *f, int is_kernel, struct hv_kernel_info *info, struct hv_kernel_arg *args)
{
    param_info_fn get = (param_info_fn)hv_cu_sym(is_kernel ? "cuKernelGetParamInfo" : "cuFuncGetParamInfo");
    CUresult first = CUDA_ERROR_NOT_FOUND;
    info->nargs = info->kernarg_bytes = 0;
    for (size_t i = 0; get && i < HV_MAX_KERNEL_ARGS; i++) {
        size_t off = 0, size = 0;
        CUresult r = get(f, i, &off, &size);
        if (i == 0)
            first = r;
        if (r != CUDA_SUCCESS)
            break;
        /* The driver gives sizes, not types: every parameter of 8 bytes or
         * more is scanned for pointers (kargs.c). */
        args[i] = (struct hv_kernel_arg){(uint32_t)off, (uint32_t)size, HV_ARGK_BY_VALUE, HV_ACCESS_UNKNOWN};
        info->nargs = (uint32_t)i + 1;
        if (off + size > info->kernarg_bytes)
            info->kernarg_bytes = (uint32_t)(off + size);
    }
    return first;
}

/* A handle's first launch or lookup: its layout and name from the driver. */
HV_COLD_FN __attribute__((noinline)) static const struct hv_kernel_info *cu_kernel_learn(struct hv_thread_ctx *t,
                                                                                        uint64_t key, void *f,
                                                                                        int is_kernel, int *fresh)
{
    struct hv_kernel_arg args[HV_MAX_KERNEL_ARGS];
    struct hv_kernel_info info = {.func = key, .args = args};
    /* cuLaunchKernel(Ex) also accepts a CUkernel cast to CUfunction. */
    if (read_layout(f, is_kernel, &info, args) == CUDA_ERROR_INVALID_HANDLE && !is_kernel)
        read_layout(f, is_kernel = 1, &info, args);
    name_fn get_name = (name_fn)hv_cu_sym(is_kernel ? "cuKernelGetName" : "cuFuncGetName");
    const char *name = NULL;
    if (get_name && get_name(&name, f) != CUDA_SUCCESS)
        name = NULL;
    info.name_id = hv_string_id(t, name, hv_seq_peek());
    if (hv_kernels_add(&info) != 0)
        return NULL;
    *fresh = 1;
    return hv_kernels_find(key);
}

/* Every eager launch's lookup: in the step's pages (core/hot.h), the
 * driver queries of a new handle out of them. */
HV_STEP_FN const struct hv_kernel_info *hv_cu_kernel(struct hv_thread_ctx *t, uint64_t key, void *f, int is_kernel,
                                                     int *fresh)
{
    *fresh = 0;
    const struct hv_kernel_info *k = hv_kernels_find(key);
    if (__builtin_expect(k || !f, 1))
        return k;
    return cu_kernel_learn(t, key, f, is_kernel, fresh);
}

/* A stub's first launch or lookup (runtime and driver queries). */
HV_COLD_FN __attribute__((noinline)) static const struct hv_kernel_info *cudart_kernel_learn(struct hv_thread_ctx *t,
                                                                                            const void *stub,
                                                                                            void *real, int *fresh)
{
    /* The function of the runtime copy that launched it: a process may hold
     * several (PyTorch's, a library's own). */
    Dl_info dl;
    void *lib = real && dladdr(real, &dl) && dl.dli_fname ? dlopen(dl.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    cudaError_t (*by_symbol)(cudaFunction_t *, const void *) =
        lib ? (cudaError_t(*)(cudaFunction_t *, const void *))hv_real_dlsym(lib, "cudaGetFuncBySymbol") : NULL;
    cudaFunction_t f = NULL;
    if (!by_symbol || by_symbol(&f, stub) != cudaSuccess)
        f = NULL;
    if (lib)
        dlclose(lib);
    int fresh_f;
    const struct hv_kernel_info *kf = f ? hv_cu_kernel(t, HV_PTR(f), f, 0, &fresh_f) : NULL;
    /* The stub gets the function's layout (or an empty entry, so an unknown
     * stub is looked up once, not at every launch). */
    struct hv_kernel_info info = kf ? *kf : (struct hv_kernel_info){0};
    info.func = HV_PTR(stub);
    if (hv_kernels_add(&info) != 0)
        return NULL;
    *fresh = 1;
    return hv_kernels_find(HV_PTR(stub));
}

/* Every runtime launch's lookup, in the step's pages as hv_cu_kernel. */
HV_STEP_FN const struct hv_kernel_info *hv_cudart_kernel(struct hv_thread_ctx *t, const void *stub, void *real,
                                                         int *fresh)
{
    *fresh = 0;
    const struct hv_kernel_info *k = hv_kernels_find(HV_PTR(stub));
    if (__builtin_expect(k || !stub, 1))
        return k;
    return cudart_kernel_learn(t, stub, real, fresh);
}
