/*
 * Runtime lookups that hand out function pointers — cuGetProcAddress,
 * cudaGetDriverEntryPoint, hipGetProcAddress — shared by the front ends.
 * Like the interposed dlsym, they hand out hipvis's wrapper and keep the
 * real address for it, so calls made through those pointers are traced.
 *
 * The lookups ask by base name ("hipStreamBeginCapture"); the runtime picks
 * the version and the per-thread variant from the requested version and
 * flags. The address it returns says which one it picked: the wrapper of
 * that exact symbol is handed out, so its parameters are the right ones. An
 * address no wrapper resolves to is handed out untouched.
 */
#include "tracer/intercept/common/intercept.h"

void *hv_lookup_substitute(const char *symbol, void **pfn, int32_t r, void *(*resolve)(const char *))
{
    void *got = pfn && r == 0 ? *pfn : NULL;
    if (got && !hv_is_wrapper(got)) {
        struct hv_wrapper *w = hv_wrapper_for_address(symbol, got, resolve);
        if (w)
            *pfn = w->wrapper;
    }
    return got;
}

void hv_trace_lookup(struct hv_thread_ctx *t, uint16_t api, int32_t r, const char *symbol, void *got, void **pfn,
                     uint64_t flags, uint64_t version)
{
    uint32_t name = hv_string_id(t, symbol, hv_seq_peek());
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.raw[0] = name;
    c->a.raw[1] = HV_PTR(got);
    c->a.raw[2] = got ? HV_PTR(*pfn) : 0;
    c->a.raw[3] = flags;
    c->a.raw[4] = version;
    hv_call_commit(t, c);
}
