/*
 * Code objects: fat binaries registered at start-up and modules loaded at run
 * time are decoded (src/codeobj) into argument layouts, so launches and graph
 * nodes can name their kernels and their pointer arguments exactly.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codeobj/codeobj.h"
#include "intercept/hip/hip_common.h"
#include "preload/kernels.h"

/* All code objects seen so far; decoded on cold paths only, under a mutex. */
static struct hv_co_table co_table;
static pthread_mutex_t co_lock = PTHREAD_MUTEX_INITIALIZER;

static uint8_t access_of(const struct hv_co_arg *a)
{
    switch (hv_co_arg_access(a)) {
    case HV_CO_ACC_READ_ONLY: return HV_ACCESS_READ;
    case HV_CO_ACC_WRITE_ONLY: return HV_ACCESS_WRITE;
    case HV_CO_ACC_READ_WRITE: return HV_ACCESS_READ_WRITE;
    default: return HV_ACCESS_UNKNOWN;
    }
}

/* Binds function handle `func` to kernel `name`'s layout and records it. */
static void bind_kernel(struct hv_thread_ctx *t, uint64_t seq, uint64_t func, uint64_t module, const char *name)
{
    struct hv_kernel_arg args[HV_MAX_KERNEL_ARGS];
    struct hv_kernel_info info = {.func = func, .args = args};
    uint64_t hash = 0;
    pthread_mutex_lock(&co_lock);
    const struct hv_co_kernel *k = name ? hv_co_find(&co_table, name) : NULL;
    if (k) {
        hash = k->code_object_hash;
        info.kernarg_bytes = k->kernarg_size;
        for (uint32_t i = 0; i < k->nargs && info.nargs < HV_MAX_KERNEL_ARGS; i++) {
            const struct hv_co_arg *a = &k->args[i];
            if (a->value_kind == HV_CO_VK_HIDDEN)
                continue; /* hidden arguments are not in the launch's params array */
            args[info.nargs++] = (struct hv_kernel_arg){
                a->offset, a->size, a->value_kind == HV_CO_VK_GLOBAL_BUFFER ? HV_ARGK_POINTER : HV_ARGK_BY_VALUE,
                access_of(a)};
        }
    }
    pthread_mutex_unlock(&co_lock);
    info.name_id = hv_string_id(t, name, seq);
    hv_kernels_add(&info);
    struct hv_kernel_sym *rec = hv_aux_begin(t, HV_REC_KERNEL, sizeof *rec, seq);
    if (rec) {
        rec->func = func;
        rec->module = module;
        rec->code_object_hash = hash;
        rec->name_id = info.name_id;
        rec->kernarg_bytes = info.kernarg_bytes;
        rec->nargs = info.nargs;
        hv_aux_commit(t, rec);
    }
}

/* Decodes an image into the table; returns kernels added and the number of
 * problems counted while decoding it. */
static int parse_image(const void *image, size_t len, unsigned flags, uint32_t *problems)
{
    struct hv_co_opts opts = {NULL, 0, flags};
    pthread_mutex_lock(&co_lock);
    uint32_t before = co_table.nissues;
    int n = image && len ? hv_co_parse(&co_table, image, len, &opts) : 0;
    *problems = co_table.nissues - before;
    pthread_mutex_unlock(&co_lock);
    return n < 0 ? 0 : n;
}

static void trace_module(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t module, uint64_t func,
                         const char *name, int nkernels, uint32_t problems)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    uint64_t seq = c->h.seq;
    c->a.module.module = module;
    c->a.module.function = func;
    c->a.module.nkernels = (uint32_t)nkernels;
    c->a.module.parse_errors = problems;
    hv_call_commit(t, c);
    if (func && r == 0)
        bind_kernel(t, seq, func, module, name);
}

/* ---- start-up registration (called by every HIP program's constructors) ---- */

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
        uint32_t problems = 0;
        int n = hv_co_fatbin_image(data, 0, &image, &len) == 0 ? parse_image(image, len, 0, &problems) : 0;
        trace_module(t, HV_API___hipRegisterFatBinary, 0, (uint64_t)(uintptr_t)modules, 0, NULL, n, problems);
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
        trace_module(t, HV_API___hipRegisterFunction, 0, (uint64_t)(uintptr_t)modules, (uint64_t)(uintptr_t)host_fn,
                     device_name, 0, 0);
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
    if (real)
        real(modules);
    if (t) {
        int e = errno;
        trace_module(t, HV_API___hipUnregisterFatBinary, 0, (uint64_t)(uintptr_t)modules, 0, NULL, 0, 0);
        hv_leave(t);
        errno = e;
    }
}

/* ---- run-time modules (Triton, JITs) ---- */

/* The image of hipModuleLoad is a file; read it once to decode it. */
static int parse_file(const char *path, uint32_t *problems)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    int n = 0;
    *problems = 0;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (1 << 30)) {
        void *buf = malloc((size_t)st.st_size);
        if (buf && read(fd, buf, (size_t)st.st_size) == st.st_size)
            n = parse_image(buf, (size_t)st.st_size, HV_CO_COPY_ELF, problems);
        free(buf);
    }
    close(fd);
    return n;
}

static void trace_load(struct hv_thread_ctx *t, uint16_t api, hipError_t r, hipModule_t *pm, const void *image,
                       const char *path)
{
    uint32_t problems = 0;
    int n = 0;
    if (r == hipSuccess)
        n = path ? parse_file(path, &problems)
                 : parse_image(image, hv_co_image_size(image, (size_t)1 << 30), HV_CO_COPY_ELF, &problems);
    trace_module(t, api, r, pm && r == hipSuccess ? (uint64_t)(uintptr_t)*pm : 0, 0, NULL, n, problems);
}

HV_HIP_WRAP(hipModuleLoad, (hipModule_t * pm, const char *path), (pm, path),
            trace_load(t_, api_, r_, pm, NULL, path))
HV_HIP_WRAP(hipModuleLoadData, (hipModule_t * pm, const void *image), (pm, image),
            trace_load(t_, api_, r_, pm, image, NULL))
HV_HIP_WRAP(hipModuleLoadDataEx,
            (hipModule_t * pm, const void *image, unsigned int n, hipJitOption *opts, void **vals),
            (pm, image, n, opts, vals), trace_load(t_, api_, r_, pm, image, NULL))
HV_HIP_WRAP(hipModuleUnload, (hipModule_t m), (m),
            trace_module(t_, api_, r_, (uint64_t)(uintptr_t)m, 0, NULL, 0, 0))
HV_HIP_WRAP(hipModuleGetFunction, (hipFunction_t * pf, hipModule_t m, const char *name), (pf, m, name),
            trace_module(t_, api_, r_, (uint64_t)(uintptr_t)m, pf && r_ == hipSuccess ? (uint64_t)(uintptr_t)*pf : 0,
                         name, 0, 0))
