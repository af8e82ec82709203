/*
 * Finding the real runtime functions without linking the runtime.
 *
 * Every wrapper registers itself in the `hv_wrappers` linker section (see
 * HV_WRAPPER), so the set of intercepted names is the set of wrappers
 * compiled in — no central list to keep in sync. The real function is
 * resolved on first use: dlsym(RTLD_NEXT) first; when the runtime was loaded
 * into a local scope (ctypes, Triton's dlopen) that fails, and the address
 * handed out by an intercepted dlsym() or found through the runtime's own
 * handle is used instead.
 */
#ifndef HV_TRACER_CORE_REALSYM_H
#define HV_TRACER_CORE_REALSYM_H

#include <stdatomic.h>

struct hv_wrapper {
    const char *name;
    void *wrapper;            /* our exported function */
    _Atomic(void *) real;     /* the runtime's, once resolved */
};

#define HV_EXPORT __attribute__((visibility("default")))

/* Declares the registry entry of wrapper `name` (a function defined in the
 * same file). */
#define HV_WRAPPER(name) HV_WRAPPER_IN(name, )
/* The same with attributes for the entry (HV_HOT_DATA: intercept.h
 * HV_WRAP_ATTRS). The entry holds the wrapper's address through a hidden
 * alias: `name` itself is exported, so its address in a data initializer is
 * bound by the dynamic linker, and an interposer preloaded ahead of hipvis
 * that defines the same name would be taken for hipvis's wrapper (its
 * dlsym(RTLD_NEXT) then came back to itself and looped). */
#define HV_WRAPPER_IN(name, attrs)                                                                   \
    extern __typeof__(name) hv_self_##name                                                           \
        __attribute__((alias(#name), copy(name), visibility("hidden")));                             \
    static attrs struct hv_wrapper hv_w_##name = {#name, (void *)hv_self_##name, NULL};              \
    __attribute__((used, section("hv_wrappers"))) static struct hv_wrapper *const hv_wp_##name = &hv_w_##name

void *hv_real_resolve(struct hv_wrapper *w);

/* The real function of wrapper `name`, typed like the wrapper. */
#define HV_REAL(name)                                                                      \
    ((__typeof__(&name))({                                                                 \
        void *p_ = atomic_load_explicit(&hv_w_##name.real, memory_order_acquire);           \
        p_ ? p_ : hv_real_resolve(&hv_w_##name);                                            \
    }))

/* A runtime function hipvis calls itself (graph walk), not intercepted. */
void *hv_runtime_sym(const char *name);

/* Wrapper entry for `name`, NULL when hipvis does not intercept it. */
struct hv_wrapper *hv_wrapper_find(const char *name);

/* The wrapper of the function at address `real`, among the wrappers named
 * `base` or a versioned form of it (`base_v2`, `base_ptsz`, `base_v2_ptds`, `base_spt`):
 * how a function handed out by the runtime's own lookup (cuGetProcAddress
 * asks by base name; the address says which version it gave) is matched to
 * its wrapper. `resolve` gives a wrapper's real address by name when it has
 * not been resolved yet. Binds the wrapper to `real`; NULL when none matches. */
struct hv_wrapper *hv_wrapper_for_address(const char *base, void *real, void *(*resolve)(const char *));
/* Whether `p` is one of hipvis's wrappers. */
int hv_is_wrapper(const void *p);

/* dlsym as the application would have seen it without hipvis. */
void *hv_real_dlsym(void *handle, const char *name);

/* Path of the runtime library the first resolved function came from. */
const char *hv_runtime_path(void);

#endif
