#include "tracer/core/realsym.h"
#include "common/elfsym.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern struct hv_wrapper *const __start_hv_wrappers[];
extern struct hv_wrapper *const __stop_hv_wrappers[];

typedef void *(*dlsym_fn)(void *, const char *);
static _Atomic(dlsym_fn) real_dlsym_fn;
static _Atomic(void *) runtime_handle;
static char runtime_path[256];
static _Atomic int runtime_path_set;

typedef void *(*dlvsym_fn)(void *, const char *, const char *);
static _Atomic(dlvsym_fn) real_dlvsym_fn;

/* libc's dlvsym (libdl's before glibc 2.34). */
static void *real_dlvsym(void *handle, const char *name, const char *version)
{
    dlvsym_fn f = atomic_load_explicit(&real_dlvsym_fn, memory_order_acquire);
    if (!f) {
        f = (dlvsym_fn)hv_elf_lookup("libc.so.6", "dlvsym");
        if (!f)
            f = (dlvsym_fn)hv_elf_lookup("libdl.so.2", "dlvsym");
        if (!f)
            return NULL;
        atomic_store_explicit(&real_dlvsym_fn, f, memory_order_release);
    }
    return f(handle, name, version);
}

/* libc's dlsym, found through the real dlvsym so that it is libc's whatever
 * the interposition order. GLIBC_2.34 is where dlsym moved into libc; older
 * glibc exports it from libdl as GLIBC_2.2.5. */
void *hv_real_dlsym(void *handle, const char *name)
{
    dlsym_fn f = atomic_load_explicit(&real_dlsym_fn, memory_order_acquire);
    if (!f) {
        f = (dlsym_fn)real_dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        if (!f)
            f = (dlsym_fn)real_dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        if (!f)
            return NULL;
        atomic_store_explicit(&real_dlsym_fn, f, memory_order_release);
    }
    return f(handle, name);
}

/* Remembers which library the runtime is, so helpers hipvis calls itself
 * come from the same copy the application uses. */
static void note_runtime(void *fn)
{
    Dl_info info;
    int expect = 0;
    if (atomic_load_explicit(&runtime_path_set, memory_order_acquire) || !dladdr(fn, &info) || !info.dli_fname)
        return;
    if (!atomic_compare_exchange_strong(&runtime_path_set, &expect, 1))
        return;
    snprintf(runtime_path, sizeof runtime_path, "%s", info.dli_fname);
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    atomic_store_explicit(&runtime_handle, h, memory_order_release);
}

static const char *const runtime_sonames[] = {
    "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
    "libcudart.so.13",  "libcudart.so.12",  "libcudart.so",     "libcuda.so.1",
};

static void *lookup_elsewhere(const char *name)
{
    void *h = atomic_load_explicit(&runtime_handle, memory_order_acquire);
    void *p = h ? hv_real_dlsym(h, name) : NULL;
    for (size_t i = 0; !p && i < sizeof runtime_sonames / sizeof runtime_sonames[0]; i++) {
        void *lib = dlopen(runtime_sonames[i], RTLD_LAZY | RTLD_NOLOAD);
        if (lib) {
            p = hv_real_dlsym(lib, name);
            dlclose(lib);
        }
    }
    return p;
}

void *hv_real_resolve(struct hv_wrapper *w)
{
    void *p = hv_real_dlsym(RTLD_NEXT, w->name);
    if (!p || p == w->wrapper)
        p = lookup_elsewhere(w->name);
    if (!p || p == w->wrapper)
        return NULL;
    note_runtime(p);
    void *expect = NULL;
    atomic_compare_exchange_strong_explicit(&w->real, &expect, p, memory_order_acq_rel, memory_order_acquire);
    return atomic_load_explicit(&w->real, memory_order_acquire);
}

void *hv_runtime_sym(const char *name)
{
    void *h = atomic_load_explicit(&runtime_handle, memory_order_acquire);
    void *p = h ? hv_real_dlsym(h, name) : NULL;
    return p ? p : lookup_elsewhere(name);
}

const char *hv_runtime_path(void)
{
    return atomic_load_explicit(&runtime_path_set, memory_order_acquire) ? runtime_path : "";
}

struct hv_wrapper *hv_wrapper_find(const char *name)
{
    /* dlsym is called for every Python extension and plugin; reject names
     * that cannot be a runtime entry point before scanning the table. */
    if (!name || (name[0] != 'h' && name[0] != 'c' && name[0] != '_'))
        return NULL;
    for (struct hv_wrapper *const *w = __start_hv_wrappers; w < __stop_hv_wrappers; w++)
        if (strcmp((*w)->name, name) == 0)
            return *w;
    return NULL;
}

/* `rest` (what follows the base name) is "", or `_v<digits>` and/or
 * `_ptsz`/`_ptds` (CUDA) or `_spt` (HIP's per-thread forms). */
static int is_version_suffix(const char *rest)
{
    if (rest[0] == '_' && rest[1] == 'v' && rest[2] >= '0' && rest[2] <= '9') {
        rest += 2;
        while (*rest >= '0' && *rest <= '9')
            rest++;
    }
    return *rest == '\0' || strcmp(rest, "_ptsz") == 0 || strcmp(rest, "_ptds") == 0 || strcmp(rest, "_spt") == 0;
}

struct hv_wrapper *hv_wrapper_for_address(const char *base, void *real, void *(*resolve)(const char *))
{
    size_t n = base ? strlen(base) : 0;
    if (!n || !real)
        return NULL;
    for (struct hv_wrapper *const *w = __start_hv_wrappers; w < __stop_hv_wrappers; w++) {
        if (strncmp((*w)->name, base, n) != 0 || !is_version_suffix((*w)->name + n))
            continue;
        void *p = atomic_load_explicit(&(*w)->real, memory_order_acquire);
        if (!p && resolve)
            p = resolve((*w)->name);
        if (p != real)
            continue;
        void *expect = NULL;
        atomic_compare_exchange_strong_explicit(&(*w)->real, &expect, real, memory_order_acq_rel,
                                                memory_order_acquire);
        if (atomic_load_explicit(&(*w)->real, memory_order_acquire) == real)
            return *w;
    }
    return NULL;
}

int hv_is_wrapper(const void *p)
{
    for (struct hv_wrapper *const *w = __start_hv_wrappers; w < __stop_hv_wrappers; w++)
        if ((*w)->wrapper == p)
            return 1;
    return 0;
}

/*
 * RTLD_NEXT is relative to the caller, and our call to the real dlsym would
 * make it relative to hipvis. So walk the objects loaded after the caller
 * and return the first definition that lives in that object itself (a
 * lookup through an object's handle also searches its dependencies, which
 * could hand an interposer back its own symbol). `version` NULL: dlsym's
 * lookup, else dlvsym's.
 */
static void *next_after_caller(const void *caller, const char *name, const char *version)
{
    Dl_info info;
    struct link_map *lm = NULL;
    if (!dladdr1(caller, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
        return version ? real_dlvsym(RTLD_NEXT, name, version) : hv_real_dlsym(RTLD_NEXT, name);
    for (struct link_map *m = lm->l_next; m; m = m->l_next) {
        void *h = dlopen(m->l_name && m->l_name[0] ? m->l_name : NULL, RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        void *p = version ? real_dlvsym(h, name, version) : hv_real_dlsym(h, name);
        dlclose(h);
        struct link_map *def = NULL;
        Dl_info di;
        if (p && dladdr1(p, &di, (void **)&def, RTLD_DL_LINKMAP) && def == m)
            return p;
    }
    return NULL;
}

/* What a lookup of `name` that found `p` hands the caller: hipvis's
 * wrapper when it has one (bound to `p`), else `p`. `exact`: only when the
 * wrapper calls `p` itself (a versioned lookup may find another version
 * than the one the wrapper is bound to: then the caller gets it untraced
 * rather than a different function). */
static void *substitute(const char *name, void *p, int exact)
{
    if (!p)
        return p;
    struct hv_wrapper *w = hv_wrapper_find(name);
    if (!w)
        return p;
    /* The lookup found hipvis itself (RTLD_DEFAULT, or a handle whose scope
     * includes us): answer as the runtime would — our wrapper if the runtime
     * has the function, NULL if it does not, so feature probes see no
     * function that the runtime lacks. */
    if (p == w->wrapper)
        return atomic_load_explicit(&w->real, memory_order_acquire) || hv_real_resolve(w) ? p : NULL;
    void *expect = NULL;
    if (atomic_compare_exchange_strong_explicit(&w->real, &expect, p, memory_order_acq_rel, memory_order_acquire))
        note_runtime(p);
    else if (exact && expect != p)
        return p;
    return w->wrapper;
}

/*
 * Interposed so that runtime functions looked up by name — ctypes,
 * Triton's launcher (dlopen + dlsym of hipModuleLaunchKernel), NCCL's
 * driver entry points — are traced too: the caller gets our wrapper, and the
 * wrapper calls the address the lookup found.
 */
HV_EXPORT void *dlsym(void *handle, const char *name)
{
    void *p = handle == RTLD_NEXT ? next_after_caller(__builtin_return_address(0), name, NULL)
                                  : hv_real_dlsym(handle, name);
    return substitute(name, p, 0);
}

/* The same for versioned lookups: dlvsym(handle, "hipMemcpyAsync",
 * "hip_4.2") is how code that pins a runtime ABI version fetches it. */
HV_EXPORT void *dlvsym(void *handle, const char *name, const char *version)
{
    void *p = handle == RTLD_NEXT ? next_after_caller(__builtin_return_address(0), name, version)
                                  : real_dlvsym(handle, name, version);
    return substitute(name, p, 1);
}
