/*
 * double_kernel.c - kernel registry, code-object modules, kernel launches and
 * the h3 scalar-cache fault model of the HIP runtime test double.
 *
 * TEST-ONLY: tests/runtime-double is a host-memory stand-in for
 * libamdhip64.so.5 used by hipvis tests. Never installed.
 *
 * Kernels are host functions registered through hipdouble.h, keyed by host
 * stub (hipLaunchKernel) or by name (hipModuleGetFunction and stubs named by
 * __hipRegisterFunction). Launches copy argument values at enqueue, as the
 * real runtime does. Names without a registration run as no-op kernels, so
 * real code objects (Triton, clang) load and launch.
 */
#include "double_int.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registry (lock held) ---------------------------------------------- */

static struct hd_kdesc *g_kernels;   /* current registrations */
static struct hd_kdesc *g_graveyard; /* replaced ones: works may still use them */
static struct hd_kdesc g_noop;       /* known kernel without a registration */

struct stub_name {
    const void *stub;
    char *name;
    struct stub_name *next;
};
static struct stub_name *g_stub_names;

/* Modules and functions are never freed (unloading only invalidates their
 * handles): queued work and graph nodes may still name them. */
struct hd_module {
    unsigned char *image;
    size_t len;
    struct hd_module *next_all;
};

struct hd_function {
    struct hd_module *m;
    char *name;
    struct hd_function *next_all;
};
static struct hd_module *g_all_modules;
static struct hd_function *g_all_functions;

static struct hd_kdesc *find_key(const void *key)
{
    for (struct hd_kdesc *k = g_kernels; k; k = k->next)
        if (k->key && k->key == key)
            return k;
    return NULL;
}

static struct hd_kdesc *find_name(const char *name)
{
    for (struct hd_kdesc *k = g_kernels; k; k = k->next)
        if (!k->key && k->name && !strcmp(k->name, name))
            return k;
    return NULL;
}

static int register_desc(const void *key, const char *name, hipdouble_kernel_fn fn, int nargs,
                         const size_t *sizes, void *user)
{
    if (nargs < 0 || nargs > 256 || (nargs > 0 && !sizes) || (!key && !name))
        return -1;
    for (int i = 0; i < nargs; i++)
        if (sizes[i] == 0 || sizes[i] > 4096)
            return -1;
    hd_init();
    struct hd_kdesc *k = hd_xcalloc(1, sizeof *k);
    k->key = key;
    k->name = hd_xstrdup(name ? name : "");
    k->fn = fn;
    k->user = user;
    k->nargs = (unsigned)nargs;
    k->sizes = hd_xcalloc((size_t)nargs, sizeof(size_t));
    for (int i = 0; i < nargs; i++)
        k->sizes[i] = sizes[i];
    hd_lock();
    struct hd_kdesc *old = key ? find_key(key) : find_name(name);
    if (old) {
        for (struct hd_kdesc **pp = &g_kernels; *pp; pp = &(*pp)->next)
            if (*pp == old) {
                *pp = old->next;
                break;
            }
        old->next = g_graveyard;
        g_graveyard = old;
    }
    k->next = g_kernels;
    g_kernels = k;
    hd_unlock();
    return 0;
}

int hipdouble_register_kernel(const void *func_or_stub, const char *name, hipdouble_kernel_fn fn,
                              int nargs, const size_t *arg_sizes, void *user)
{
    if (!func_or_stub)
        return -1;
    return register_desc(func_or_stub, name, fn, nargs, arg_sizes, user);
}

int hipdouble_register_module_kernel(const char *name, hipdouble_kernel_fn fn, int nargs,
                                     const size_t *arg_sizes, void *user)
{
    if (!name || !*name)
        return -1;
    return register_desc(NULL, name, fn, nargs, arg_sizes, user);
}

struct hd_kdesc *hd_kernel_by_func(const void *func, char **name_out)
{
    *name_out = NULL;
    if (!func)
        return NULL;
    if (hd_set_has(&hd_functions, func)) {
        struct hd_function *f = (struct hd_function *)func;
        *name_out = f->name;
        struct hd_kdesc *k = find_name(f->name);
        return k ? k : &g_noop;
    }
    struct hd_kdesc *k = find_key(func);
    if (k) {
        *name_out = k->name;
        return k;
    }
    for (struct stub_name *s = g_stub_names; s; s = s->next)
        if (s->stub == func) {
            *name_out = s->name;
            k = find_name(s->name);
            return k ? k : &g_noop;
        }
    return NULL;
}

/* ---- compiler registration entry points -------------------------------- */

struct fatbin_handle {
    const void *data;
    void *modules[1];
};

void **__hipRegisterFatBinary(const void *data)
{
    hd_init();
    struct fatbin_handle *h = hd_xcalloc(1, sizeof *h);
    h->data = data;
    return h->modules;
}

void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                           const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
                           dim3 *blockDim, dim3 *gridDim, int *wSize)
{
    (void)modules;
    (void)threadLimit;
    (void)tid;
    (void)bid;
    (void)blockDim;
    (void)gridDim;
    (void)wSize;
    hd_init();
    const char *name = deviceName ? deviceName : deviceFunction;
    if (!hostFunction || !name)
        return;
    struct stub_name *s = hd_xcalloc(1, sizeof *s);
    s->stub = hostFunction;
    s->name = hd_xstrdup(name);
    hd_lock();
    s->next = g_stub_names;
    g_stub_names = s;
    hd_unlock();
}

void __hipUnregisterFatBinary(void **modules)
{
    if (!modules)
        return;
    struct fatbin_handle *h =
        (struct fatbin_handle *)((char *)modules - offsetof(struct fatbin_handle, modules));
    free(h);
}

#define CALL_STACK_DEPTH 16
static __thread struct {
    dim3 grid, block;
    size_t shmem;
    hipStream_t stream;
} tls_calls[CALL_STACK_DEPTH];
static __thread int tls_ncalls;

hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                      hipStream_t stream)
{
    hd_init();
    if (tls_ncalls == CALL_STACK_DEPTH)
        return hd_ret(hipErrorInvalidConfiguration);
    tls_calls[tls_ncalls].grid = gridDim;
    tls_calls[tls_ncalls].block = blockDim;
    tls_calls[tls_ncalls].shmem = sharedMem;
    tls_calls[tls_ncalls].stream = stream;
    tls_ncalls++;
    return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                     hipStream_t *stream)
{
    hd_init();
    if (tls_ncalls == 0)
        return hd_ret(hipErrorMissingConfiguration);
    tls_ncalls--;
    if (gridDim)
        *gridDim = tls_calls[tls_ncalls].grid;
    if (blockDim)
        *blockDim = tls_calls[tls_ncalls].block;
    if (sharedMem)
        *sharedMem = tls_calls[tls_ncalls].shmem;
    if (stream)
        *stream = tls_calls[tls_ncalls].stream;
    return hipSuccess;
}

/* ---- kernel arguments --------------------------------------------------- */

static size_t arg_align(size_t size)
{
    return size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
}

/* Offsets of a natural-alignment layout; returns the total size. */
static size_t layout(const struct hd_kdesc *k, size_t *off)
{
    size_t o = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        size_t al = arg_align(k->sizes[i]);
        o = (o + al - 1) / al * al;
        off[i] = o;
        o += k->sizes[i];
    }
    return o;
}

/* The extra array and the size it points to share one heap block, so the
 * array stays valid when the work item holding it is moved. */
static void set_extra(struct hd_kargs *a)
{
    a->extra = hd_xcalloc(1, 5 * sizeof(void *) + sizeof(size_t));
    size_t *len = (size_t *)(void *)(a->extra + 5);
    *len = a->len;
    a->extra[0] = HIP_LAUNCH_PARAM_BUFFER_POINTER;
    a->extra[1] = a->buf;
    a->extra[2] = HIP_LAUNCH_PARAM_BUFFER_SIZE;
    a->extra[3] = len;
    a->extra[4] = HIP_LAUNCH_PARAM_END;
}

hipError_t hd_kargs_build(struct hd_kargs *a, const struct hd_kdesc *k, void **params,
                          void **extra)
{
    memset(a, 0, sizeof *a);
    unsigned n = k ? k->nargs : 0;
    if (params && extra)
        return hipErrorInvalidValue;
    size_t *off = hd_xcalloc(n, sizeof(size_t));
    size_t total = n ? layout(k, off) : 0;
    if (extra) {
        void *src = NULL;
        size_t len = 0;
        bool have_len = false;
        for (int i = 0; i < 32 && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
            if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
                src = extra[i + 1];
            } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) {
                len = *(size_t *)extra[i + 1];
                have_len = true;
            } else {
                free(off);
                return hipErrorInvalidValue;
            }
        }
        if ((!src && len) || !have_len || len < total) {
            free(off);
            return hipErrorInvalidValue;
        }
        a->len = len;
        a->buf = hd_xmalloc(len);
        if (len)
            memcpy(a->buf, src, len);
        set_extra(a);
    } else if (n) {
        if (!params) {
            free(off);
            return hipErrorInvalidValue;
        }
        for (unsigned i = 0; i < n; i++)
            if (!params[i]) {
                free(off);
                return hipErrorInvalidValue;
            }
        a->len = total;
        a->buf = hd_xmalloc(total);
        for (unsigned i = 0; i < n; i++)
            memcpy(a->buf + off[i], params[i], k->sizes[i]);
    }
    a->nargs = n;
    if (n) {
        a->argv = hd_xcalloc(n, sizeof(void *));
        for (unsigned i = 0; i < n; i++)
            a->argv[i] = a->buf + off[i];
    }
    free(off);
    return hipSuccess;
}

void hd_kargs_clone(struct hd_kargs *dst, const struct hd_kargs *src)
{
    memset(dst, 0, sizeof *dst);
    dst->len = src->len;
    dst->nargs = src->nargs;
    if (src->buf) {
        dst->buf = hd_xmalloc(src->len);
        memcpy(dst->buf, src->buf, src->len);
    }
    if (src->nargs) {
        dst->argv = hd_xcalloc(src->nargs, sizeof(void *));
        for (unsigned i = 0; i < src->nargs; i++)
            dst->argv[i] = dst->buf + ((unsigned char *)src->argv[i] - src->buf);
    }
    if (src->extra)
        set_extra(dst);
}

void hd_kargs_free(struct hd_kargs *a)
{
    free(a->buf);
    free(a->argv);
    free(a->extra);
    memset(a, 0, sizeof *a);
}

/* ---- h3: scalar cache ----------------------------------------------------
 * Pointer arguments marked scalar-read are read through a per-device cache
 * of lines (one line = from the pointer to the end of its allocation, at
 * most 64 KiB). Eager launches refresh the lines they read; graph kernel
 * nodes use the cached line as is; only host synchronization with system
 * scope (stream / device sync, sync on a system-scope event) invalidates. */

struct scalar_arg {
    char *name;
    unsigned index;
    struct scalar_arg *next;
};

struct kc_entry {
    const void *addr;
    size_t len;
    unsigned char *bytes;
    bool valid;
    struct kc_entry *next;
};

static pthread_mutex_t g_kc = PTHREAD_MUTEX_INITIALIZER;
static struct scalar_arg *g_scalar_args;
static struct kc_entry *g_kc_entries[HD_MAX_DEVICES];

#define KC_MAX_BYTES 65536

int hipdouble_set_scalar_read(const char *name, int arg_index)
{
    if (!name || arg_index < 0 || arg_index >= 64)
        return -1;
    struct scalar_arg *s = hd_xcalloc(1, sizeof *s);
    s->name = hd_xstrdup(name);
    s->index = (unsigned)arg_index;
    pthread_mutex_lock(&g_kc);
    s->next = g_scalar_args;
    g_scalar_args = s;
    pthread_mutex_unlock(&g_kc);
    return 0;
}

void hd_scalar_cache_invalidate(int device)
{
    if (device < 0 || device >= HD_MAX_DEVICES)
        return;
    pthread_mutex_lock(&g_kc);
    for (struct kc_entry *e = g_kc_entries[device]; e; e = e->next)
        e->valid = false;
    pthread_mutex_unlock(&g_kc);
}

static uint64_t scalar_mask(const char *name)
{
    uint64_t m = 0;
    if (!name)
        return 0;
    pthread_mutex_lock(&g_kc);
    for (struct scalar_arg *s = g_scalar_args; s; s = s->next)
        if (!strcmp(s->name, name))
            m |= 1ull << s->index;
    pthread_mutex_unlock(&g_kc);
    return m;
}

/* Returns a private copy of what the scalar cache holds for `p` (filling the
 * line from memory when invalid or when `refresh`), or NULL when p is not
 * device memory. */
static void *scalar_view(int device, const void *p, bool refresh)
{
    void *base;
    size_t size;
    if (hd_mem_lookup(p, &base, &size) != HD_A_DEVICE)
        return NULL;
    size_t len = (size_t)((const unsigned char *)base + size - (const unsigned char *)p);
    if (len > KC_MAX_BYTES)
        len = KC_MAX_BYTES;
    pthread_mutex_lock(&g_kc);
    struct kc_entry *e = g_kc_entries[device];
    while (e && e->addr != p)
        e = e->next;
    if (!e) {
        e = hd_xcalloc(1, sizeof *e);
        e->addr = p;
        e->next = g_kc_entries[device];
        g_kc_entries[device] = e;
    }
    if (refresh || !e->valid || e->len != len) {
        free(e->bytes);
        e->bytes = hd_xmalloc(len);
        memcpy(e->bytes, hd_dma(p), len);
        e->len = len;
        e->valid = true;
    }
    void *view = hd_xmalloc(len);
    memcpy(view, e->bytes, len);
    pthread_mutex_unlock(&g_kc);
    return view;
}

/* ---- managed memory ------------------------------------------------------
 * A kernel reaches managed memory as a GPU does, through the physical pages
 * (the block's alias, double_memory.c) and not the program's mapping, which
 * a tracer may have protected while the kernel is in flight. */

/* A copy of the argument bytes with every pointer into managed memory
 * replaced by its alias, or NULL when none points there. Pointers are the
 * 8-byte words of arguments of 8 bytes or more (the layout aligns those to
 * 8), in the params array and the `extra` buffer alike: both are unpacked
 * into the same bytes at enqueue. */
static unsigned char *device_args(const struct hd_kargs *a, const struct hd_kdesc *k)
{
    unsigned char *copy = NULL;
    for (unsigned i = 0; i < a->nargs && i < k->nargs; i++) {
        size_t at = (size_t)((const unsigned char *)a->argv[i] - a->buf);
        for (size_t o = 0; o + sizeof(void *) <= k->sizes[i]; o += 8) {
            void *v, *alias;
            memcpy(&v, a->buf + at + o, sizeof v);
            if (!v || !(alias = hd_managed_alias(v)))
                continue;
            if (!copy) {
                copy = hd_xmalloc(a->len);
                memcpy(copy, a->buf, a->len);
            }
            memcpy(copy + at + o, &alias, sizeof alias);
        }
    }
    return copy;
}

void hd_kernel_execute(struct hd_work *w, int device)
{
    struct hd_kdesc *k = w->u.kern.k;
    if (!k || !k->fn)
        return;
    const struct hd_kargs *ka = &w->u.kern.a;
    void **argv = ka->argv;
    unsigned n = ka->nargs;
    unsigned char *dbuf = n ? device_args(ka, k) : NULL;
    uint64_t mask = (hd_cfg.faults & HD_FAULT_H3) ? scalar_mask(w->u.kern.name) : 0;
    if (!n || (!mask && !dbuf)) {
        k->fn(argv, w->u.kern.grid, w->u.kern.block, k->user);
        return;
    }
    void **av = hd_xcalloc(n, sizeof(void *));
    void **views = hd_xcalloc(n, sizeof(void *));
    for (unsigned i = 0; i < n; i++) {
        av[i] = dbuf ? dbuf + ((unsigned char *)argv[i] - ka->buf) : argv[i];
        if (i < 64 && (mask >> i & 1) && k->sizes[i] == sizeof(void *)) {
            void *p;
            memcpy(&p, argv[i], sizeof p);
            /* An eager dispatch carries an acquire fence: it refreshes the
             * lines it reads. Pre-built graph packets do not. */
            views[i] = scalar_view(device, p, !w->from_graph);
            if (views[i])
                av[i] = &views[i];
        }
    }
    k->fn(av, w->u.kern.grid, w->u.kern.block, k->user);
    for (unsigned i = 0; i < n; i++)
        free(views[i]);
    free(views);
    free(av);
    free(dbuf);
}

/* ---- modules ------------------------------------------------------------ */

/* Size of an ELF64 image from its headers, 0 when not a sane ELF64. */
static size_t elf_size(const unsigned char *img)
{
    if (memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64)
        return 0;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    size_t end = sizeof *eh;
    if (eh->e_shoff && eh->e_shentsize == sizeof(Elf64_Shdr)) {
        size_t e = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
        if (e > end)
            end = e;
    }
    if (eh->e_phoff && eh->e_phentsize == sizeof(Elf64_Phdr)) {
        size_t e = eh->e_phoff + (size_t)eh->e_phnum * eh->e_phentsize;
        if (e > end)
            end = e;
    }
    return end < ((size_t)1 << 31) ? end : 0;
}

/* Whether the ELF image defines symbol `name`; -1 when it has no symtab. */
static int elf_has_symbol(const unsigned char *img, size_t len, const char *name)
{
    if (len < sizeof(Elf64_Ehdr))
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (!eh->e_shoff || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
        return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    int found_table = -1;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
            continue;
        if (sh[i].sh_link >= eh->e_shnum || sh[i].sh_offset + sh[i].sh_size > len ||
            sh[i].sh_entsize != sizeof(Elf64_Sym))
            continue;
        const Elf64_Shdr *strs = &sh[sh[i].sh_link];
        if (strs->sh_offset + strs->sh_size > len)
            continue;
        found_table = 0;
        const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
        size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t j = 0; j < nsym; j++) {
            if (sym[j].st_name >= strs->sh_size)
                continue;
            const char *s = (const char *)img + strs->sh_offset + sym[j].st_name;
            size_t max = strs->sh_size - sym[j].st_name;
            if (strnlen(s, max) < max && !strcmp(s, name))
                return 1;
        }
    }
    return found_table;
}

static hipError_t module_from_image(hipModule_t *module, const unsigned char *image, size_t len)
{
    struct hd_module *m = hd_xcalloc(1, sizeof *m);
    if (len) {
        m->image = hd_xmalloc(len);
        memcpy(m->image, image, len);
        m->len = len;
    }
    hd_lock();
    hd_set_add(&hd_modules, m);
    m->next_all = g_all_modules;
    g_all_modules = m;
    hd_unlock();
    *module = (hipModule_t)m;
    return hipSuccess;
}

static hipError_t load_data(hipModule_t *module, const void *image)
{
    hd_init();
    if (!module || !image)
        return hd_ret(hipErrorInvalidValue);
    /* Any blob loads (clang offload bundles, raw code objects); only plain
     * ELF images are kept, to check kernel names against their symbols. */
    size_t len = elf_size(image);
    return hd_ret(module_from_image(module, image, len));
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
    return load_data(module, image);
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                               hipJitOption *options, void **optionValues)
{
    (void)numOptions;
    (void)options;
    (void)optionValues;
    return load_data(module, image);
}

hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
    hd_init();
    if (!module || !fname)
        return hd_ret(hipErrorInvalidValue);
    FILE *f = fopen(fname, "rb");
    if (!f)
        return hd_ret(hipErrorFileNotFound);
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            buf = hd_xrealloc(buf, cap);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    if (len == 0) {
        free(buf);
        return hd_ret(hipErrorInvalidImage);
    }
    hipError_t e = module_from_image(module, buf, elf_size(buf) ? len : 0);
    free(buf);
    return hd_ret(e);
}

hipError_t hipModuleUnload(hipModule_t module)
{
    hd_init();
    hd_lock();
    bool ok = module && hd_set_has(&hd_modules, module);
    if (ok) {
        hd_set_del(&hd_modules, module);
        for (struct hd_function *f = g_all_functions; f; f = f->next_all)
            if (f->m == (struct hd_module *)module)
                hd_set_del(&hd_functions, f);
        struct hd_module *m = (struct hd_module *)module;
        free(m->image);
        m->image = NULL;
        m->len = 0;
    }
    hd_unlock();
    return hd_ret(ok ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname)
{
    hd_init();
    if (!function || !kname)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    hipError_t e = hipSuccess;
    if (!module || !hd_set_has(&hd_modules, module)) {
        e = hipErrorInvalidHandle;
    } else {
        struct hd_module *m = (struct hd_module *)module;
        if (m->image && !find_name(kname) && elf_has_symbol(m->image, m->len, kname) == 0)
            e = hipErrorNotFound;
    }
    if (e == hipSuccess) {
        struct hd_function *f = hd_xcalloc(1, sizeof *f);
        f->m = (struct hd_module *)module;
        f->name = hd_xstrdup(kname);
        f->next_all = g_all_functions;
        g_all_functions = f;
        hd_set_add(&hd_functions, f);
        *function = (hipFunction_t)f;
    }
    hd_unlock();
    return hd_ret(e);
}

/* ---- launches ------------------------------------------------------------ */

/* Builds and submits a kernel work item. Lock held. */
static hipError_t launch(const void *func, bool module_func, dim3 grid, dim3 block,
                         size_t shmem, struct hd_stream *s, void **params, void **extra)
{
    if (module_func && !hd_set_has(&hd_functions, func))
        return hipErrorInvalidHandle;
    char *name;
    struct hd_kdesc *k = hd_kernel_by_func(func, &name);
    if (!k)
        return hipErrorInvalidDeviceFunction;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z ||
        (uint64_t)block.x * block.y * block.z > 1024)
        return hipErrorInvalidConfiguration;
    struct hd_work w = {.kind = HD_W_KERNEL};
    hipError_t e = hd_kargs_build(&w.u.kern.a, k, params, extra);
    if (e != hipSuccess)
        return e;
    w.u.kern.k = k;
    w.u.kern.func = func;
    w.u.kern.name = name;
    w.u.kern.grid = grid;
    w.u.kern.block = block;
    w.u.kern.shmem = (unsigned)shmem;
    e = hd_submit_work(s, &w, NULL);
    if (e != hipSuccess)
        hd_work_release(&w);
    return e;
}

static hipError_t launch_api(const void *func, bool module_func, dim3 grid, dim3 block,
                             size_t shmem, hipStream_t stream, bool spt, void **params,
                             void **extra, hipEvent_t start, hipEvent_t stop)
{
    hd_init();
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    hipError_t e = s ? hipSuccess : hipErrorInvalidHandle;
    struct hd_event *evs[2] = {NULL, NULL};
    hipEvent_t hs[2] = {start, stop};
    for (int i = 0; i < 2 && e == hipSuccess; i++)
        if (hs[i]) {
            if (!hd_set_has(&hd_events, hs[i]))
                e = hipErrorInvalidHandle;
            else
                evs[i] = (struct hd_event *)hs[i];
        }
    if (e == hipSuccess && evs[0])
        e = hd_event_record(evs[0], s, 0, false);
    if (e == hipSuccess)
        e = launch(func, module_func, grid, block, shmem, s, params, extra);
    if (e == hipSuccess && evs[1])
        e = hd_event_record(evs[1], s, 0, false);
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes, hipStream_t stream)
{
    return launch_api(function_address, false, numBlocks, dimBlocks, sharedMemBytes, stream,
                      false, args, NULL, NULL, NULL);
}

hipError_t hipLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                               void **args, size_t sharedMemBytes, hipStream_t stream)
{
    return launch_api(function_address, false, numBlocks, dimBlocks, sharedMemBytes, stream, true,
                      args, NULL, NULL, NULL);
}

hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX,
                                      void **kernelParams, unsigned int sharedMemBytes,
                                      hipStream_t stream)
{
    return launch_api(f, false, gridDim, blockDimX, sharedMemBytes, stream, false, kernelParams,
                      NULL, NULL, NULL);
}

hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 gridDim, dim3 blockDim,
                                          void **kernelParams, uint32_t sharedMemBytes,
                                          hipStream_t hStream)
{
    return launch_api(f, false, gridDim, blockDim, sharedMemBytes, hStream, true, kernelParams,
                      NULL, NULL, NULL);
}

hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                              void **args, size_t sharedMemBytes, hipStream_t stream,
                              hipEvent_t startEvent, hipEvent_t stopEvent, int flags)
{
    (void)flags;
    return launch_api(function_address, false, numBlocks, dimBlocks, sharedMemBytes, stream,
                      false, args, NULL, startEvent, stopEvent);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra)
{
    dim3 g = {gridDimX, gridDimY, gridDimZ}, b = {blockDimX, blockDimY, blockDimZ};
    return launch_api(f, true, g, b, sharedMemBytes, stream, false, kernelParams, extra, NULL,
                      NULL);
}

static uint32_t blocks_of(uint32_t global, uint32_t local)
{
    return local ? (global + local - 1) / local : 0;
}

static hipError_t ext_module_launch(hipFunction_t f, uint32_t globalWorkSizeX,
                                    uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                    uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                    hipStream_t hStream, void **kernelParams, void **extra,
                                    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags)
{
    (void)flags;
    dim3 g = {blocks_of(globalWorkSizeX, localWorkSizeX), blocks_of(globalWorkSizeY, localWorkSizeY),
              blocks_of(globalWorkSizeZ, localWorkSizeZ)};
    dim3 b = {localWorkSizeX, localWorkSizeY, localWorkSizeZ};
    return launch_api(f, true, g, b, sharedMemBytes, hStream, false, kernelParams, extra,
                      startEvent, stopEvent);
}

hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                    uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                    uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                    hipStream_t hStream, void **kernelParams, void **extra,
                                    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags)
{
    return ext_module_launch(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX,
                             localWorkSizeY, localWorkSizeZ, sharedMemBytes, hStream, kernelParams,
                             extra, startEvent, stopEvent, flags);
}

/* HIP 5.2's hip_ext.h declares hipExtModuleLaunchKernel without extern "C",
 * so C++ programs built against it reference the mangled name. */
__attribute__((visibility("default"))) hipError_t hd_ext_module_launch_cxx(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
    size_t shmem, hipStream_t stream, void **params, void **extra, hipEvent_t start,
    hipEvent_t stop, uint32_t flags)
    __asm__("_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
hipError_t hd_ext_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
                                    uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
                                    hipStream_t stream, void **params, void **extra,
                                    hipEvent_t start, hipEvent_t stop, uint32_t flags)
{
    return ext_module_launch(f, gx, gy, gz, lx, ly, lz, shmem, stream, params, extra, start, stop,
                             flags);
}

/* Cooperative module launch: the double runs every block of a kernel on one
 * host thread, so grid-wide synchronization holds trivially; same launch. */
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                            unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams)
{
    dim3 g = {gridDimX, gridDimY, gridDimZ}, b = {blockDimX, blockDimY, blockDimZ};
    return launch_api(f, true, g, b, sharedMemBytes, stream, false, kernelParams, NULL, NULL, NULL);
}

/* hipHccModuleLaunchKernel: hipExtModuleLaunchKernel without flags (hip_ext.h). */
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent)
{
    return ext_module_launch(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
                             localWorkSizeZ, sharedMemBytes, hStream, kernelParams, extra, startEvent, stopEvent, 0);
}

hipError_t hipExtLaunchKernel_spt(const void *function_address, dim3 numBlocks, dim3 dimBlocks, void **args,
                                  size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                  hipEvent_t stopEvent, int flags)
{
    (void)flags;
    return launch_api(function_address, false, numBlocks, dimBlocks, sharedMemBytes, stream, true, args, NULL,
                      startEvent, stopEvent);
}

/* hipLaunchKernelExC / hipDrvLaunchKernelEx (ROCm 6.2+): the launch
 * configuration's geometry and stream; attributes (cooperative, cluster
 * shape) change nothing in a double that runs every block on one thread. */
struct hd_launch_config {
    dim3 grid, block;
    size_t shmem;
    hipStream_t stream;
    void *attrs;
    unsigned nattrs;
};
struct hd_drv_launch_config {
    unsigned gx, gy, gz, bx, by, bz, shmem;
    hipStream_t stream;
    void *attrs;
    unsigned nattrs;
};
hipError_t hipLaunchKernelExC(const struct hd_launch_config *config, const void *fPtr, void **args)
{
    if (!config)
        return hd_ret(hipErrorInvalidValue);
    return launch_api(fPtr, false, config->grid, config->block, config->shmem, config->stream, false, args, NULL,
                      NULL, NULL);
}
hipError_t hipDrvLaunchKernelEx(const struct hd_drv_launch_config *config, hipFunction_t f, void **params,
                                void **extra)
{
    if (!config)
        return hd_ret(hipErrorInvalidValue);
    dim3 g = {config->gx, config->gy, config->gz}, b = {config->bx, config->by, config->bz};
    return launch_api(f, true, g, b, config->shmem, config->stream, false, params, extra, NULL, NULL);
}
