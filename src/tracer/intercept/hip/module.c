/*
 * Code objects: fat binaries registered at start-up and modules loaded at run
 * time are decoded (cotable.c, src/codeobj) into argument layouts, so
 * launches and graph nodes can name their kernels and pointer arguments
 * exactly. What could not be decoded is counted in the module call's
 * parse_errors and named by HV_REC_CODEOBJ_NOTE records after it.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracer/intercept/hip/cotable_int.h"
#include "tracer/intercept/hip/hip_int.h"
#include "tracer/core/costore.h"
#include "tracer/core/safecopy.h"

/* hipModuleLoadData gets no length; an image claiming more is not decoded. */
#define IMAGE_MAX ((size_t)1 << 30)

/* The module call, then one note per reason something was skipped. */
static uint64_t trace_load_result(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t module,
                                  uint32_t name_id, const struct hv_cotab_load *ld, const char *extra_problem)
{
    struct hv_module_args a = {.module = module, .image_hash = ld->image_hash, .name_id = name_id,
                               .nkernels = ld->nkernels, .parse_errors = ld->problems + (extra_problem != NULL)};
    uint64_t seq = hv_trace_module_args(t, api, r, &a);
    for (int e = 0; e < HV_CO_ERR__COUNT; e++)
        if (ld->errors[e])
            hv_costore_note(t, seq, HV_CO_NOTE_PARSE, ld->image_hash, ld->first_offset[e], ld->errors[e],
                            hv_co_err_name((enum hv_co_err)e));
    if (extra_problem)
        hv_costore_note(t, seq, HV_CO_NOTE_PARSE, ld->image_hash, UINT64_MAX, 1, extra_problem);
    return seq;
}

/* Binds handle `func` (host stub or hipFunction_t) to kernel `name` of
 * `module` and records it after call `seq`. */
static const struct hv_kernel_info *bind_kernel(struct hv_thread_ctx *t, uint64_t seq, uint64_t func,
                                                uint64_t module, const char *name, uint32_t name_id)
{
    struct hv_kernel_arg args[HV_MAX_KERNEL_ARGS];
    const char *names[HV_MAX_KERNEL_ARGS];
    struct hv_kernel_info info = {.func = func, .name_id = name_id};
    uint64_t hash = hv_cotab_bind(module, name, &info, args, names);
    hv_kernels_add(&info);
    hv_emit_kernel_sym(t, seq, &info, module, hash);
    hv_emit_karg_names(t, seq, &info, hash, names);
    return hv_kernels_find(func);
}

/* ---- start-up registration (called by every HIP program's constructors) ---- */

/* Why a fat-binary wrapper gave no image to decode. */
static const char *fatbin_problem(int rc)
{
    switch (rc) {
    case 0: return NULL;
    case -EPROTO: return "fatbin_bad_magic";
    case -ERANGE: return "fatbin_unbounded";
    default: return "fatbin_null";
    }
}

HV_EXPORT void **__hipRegisterFatBinary(const void *data);
HV_WRAPPER(__hipRegisterFatBinary);
HV_EXPORT void **__hipRegisterFatBinary(const void *data)
{
    __typeof__(&__hipRegisterFatBinary) real = HV_REAL(__hipRegisterFatBinary);
    struct hv_thread_ctx *t = hv_enter();
    void **modules = real ? real(data) : NULL;
    if (t) {
        int e = errno;
        const void *image = NULL;
        size_t len = 0;
        struct hv_cotab_load ld;
        /* The image stays mapped (it is in the caller's .hip_fatbin) until
         * __hipUnregisterFatBinary: decoded in place, not copied. */
        int rc = hv_co_fatbin_image(data, 0, &image, &len);
        hv_cotab_load(HV_PTR(modules), rc == 0 ? image : NULL, len, NULL, &ld);
        trace_load_result(t, HV_API___hipRegisterFatBinary, 0, HV_PTR(modules), 0, &ld, fatbin_problem(rc));
        hv_leave(t);
        errno = e;
    }
    return modules;
}

HV_EXPORT void __hipRegisterFunction(void **modules, const void *host_fn, char *device_fn, const char *device_name,
                                     unsigned int thread_limit, void *tid, void *bid, dim3 *block, dim3 *grid,
                                     int *wsize);
HV_WRAPPER(__hipRegisterFunction);
HV_EXPORT void __hipRegisterFunction(void **modules, const void *host_fn, char *device_fn, const char *device_name,
                                     unsigned int thread_limit, void *tid, void *bid, dim3 *block, dim3 *grid,
                                     int *wsize)
{
    __typeof__(&__hipRegisterFunction) real = HV_REAL(__hipRegisterFunction);
    struct hv_thread_ctx *t = hv_enter();
    if (real)
        real(modules, host_fn, device_fn, device_name, thread_limit, tid, bid, block, grid, wsize);
    if (t) {
        int e = errno;
        uint32_t name_id = hv_string_id(t, device_name, hv_seq_peek());
        struct hv_module_args a = {.module = HV_PTR(modules), .function = HV_PTR(host_fn), .name_id = name_id};
        uint64_t seq = hv_trace_module_args(t, HV_API___hipRegisterFunction, 0, &a);
        if (host_fn)
            bind_kernel(t, seq, HV_PTR(host_fn), HV_PTR(modules), device_name, name_id);
        hv_leave(t);
        errno = e;
    }
}

HV_EXPORT void __hipUnregisterFatBinary(void **modules);
HV_WRAPPER(__hipUnregisterFatBinary);
HV_EXPORT void __hipUnregisterFatBinary(void **modules)
{
    __typeof__(&__hipUnregisterFatBinary) real = HV_REAL(__hipUnregisterFatBinary);
    struct hv_thread_ctx *t = hv_enter();
    /* Before the runtime lets go of it: the library holding the image may
     * be unmapped right after (dlclose). */
    hv_cotab_unload(HV_PTR(modules));
    if (real)
        real(modules);
    if (t) {
        int e = errno;
        hv_trace_module(t, HV_API___hipUnregisterFatBinary, 0, HV_PTR(modules), 0, 0, 0);
        hv_leave(t);
        errno = e;
    }
}

/* ---- run-time modules (Triton, JITs, rocBLAS/Tensile) ---- */

/* The image of hipModuleLoad is a file: read whole. 0 when unreadable. */
static size_t read_file(const char *path, void **out)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    size_t n = 0;
    *out = NULL;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (size_t)st.st_size <= IMAGE_MAX && (*out = malloc((size_t)st.st_size)))
        n = read(fd, *out, (size_t)st.st_size) == st.st_size ? (size_t)st.st_size : 0;
    close(fd);
    if (!n) {
        free(*out);
        *out = NULL;
    }
    return n;
}

/* Decodes a module the runtime accepted, from a private copy: the caller
 * may free its image as soon as the call returns. */
static void trace_load(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipModule_t *pm, const void *image,
                       const char *path)
{
    struct hv_cotab_load ld;
    void *copy = NULL;
    size_t len = 0;
    uint64_t module = HV_OUT(pm, r);
    uint32_t name_id = path ? hv_string_id(t, path, hv_seq_peek()) : 0;
    if (r == hipSuccess)
        len = path ? read_file(path, &copy) : hv_safecopy_image(image, IMAGE_MAX, hv_co_image_size, &copy);
    hv_cotab_load(module, copy, len, copy, &ld);
    trace_load_result(t, api, r, module, name_id, &ld, r == hipSuccess && !len ? "image_unreadable" : NULL);
}

static void trace_get_function(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipFunction_t *pf,
                               hipModule_t m, const char *name)
{
    uint32_t name_id = hv_string_id(t, name, hv_seq_peek());
    struct hv_module_args a = {.module = HV_PTR(m), .function = HV_OUT(pf, r), .name_id = name_id};
    uint64_t seq = hv_trace_module_args(t, api, r, &a);
    /* A looked-up kernel is about to run: its code object is stored now,
     * while the module is surely loaded. */
    if (a.function)
        hv_costore_touch(t, seq, bind_kernel(t, seq, a.function, HV_PTR(m), name, name_id));
}

HV_HIP_WRAP(hipModuleLoad, (hipModule_t * pm, const char *path), (pm, path),
            trace_load(t_, api_, r_, pm, NULL, path))
HV_HIP_WRAP(hipModuleLoadData, (hipModule_t * pm, const void *image), (pm, image),
            trace_load(t_, api_, r_, pm, image, NULL))
HV_HIP_WRAP(hipModuleLoadDataEx,
            (hipModule_t * pm, const void *image, unsigned int n, hipJitOption *opts, void **vals),
            (pm, image, n, opts, vals), trace_load(t_, api_, r_, pm, image, NULL))
HV_HIP_WRAP(hipModuleUnload, (hipModule_t m), (m), hv_trace_module(t_, api_, r_, HV_PTR(m), 0, 0, 0))
HV_HIP_WRAP(hipModuleGetFunction, (hipFunction_t * pf, hipModule_t m, const char *name), (pf, m, name),
            trace_get_function(t_, api_, r_, pf, m, name))
