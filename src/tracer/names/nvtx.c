/*
 * NVTX (v2 library and v3 header-only) ranges and marks, by injection:
 * NVTX loads the library named by NVTX_INJECTION64_PATH (point it at
 * libhipvis.so; `hipvis run` does) and calls InitializeInjectionNvtx2,
 * which fills NVTX's callback table for the core calls. Nothing is
 * interposed: a program that never sets the variable never reaches here.
 * Layouts follow nvToolsExt.h / nvtxDetail (stable since NVTX 2).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hipvis/trace.h"
#include "tracer/names/marks.h"

typedef void (*nvtx_fn)(void);
typedef nvtx_fn **nvtx_table;   /* NvtxFunctionTable: pointers to the slots */

struct nvtx_callbacks {          /* NvtxExportTableCallbacks */
    size_t struct_size;
    int (*get_module_table)(int module, nvtx_table *out_table, unsigned *out_size);
};

enum { NVTX_ETID_CALLBACKS = 1, NVTX_CB_MODULE_CORE = 1, NVTX_CB_MODULE_CORE2 = 5 };
enum {
    CORE_MarkEx = 1, CORE_MarkA = 2, CORE_RangeStartEx = 4, CORE_RangeStartA = 5, CORE_RangeEnd = 7,
    CORE_RangePushEx = 8, CORE_RangePushA = 9, CORE_RangePop = 11,
    CORE2_DomainMarkEx = 1, CORE2_DomainRangeStartEx = 2, CORE2_DomainRangeEnd = 3, CORE2_DomainRangePushEx = 4,
    CORE2_DomainRangePop = 5,
};

/* nvtxEventAttributes_t: the message is at 32 (type) / 40 (value). */
static const char *message_of(const void *attr)
{
    int32_t type;
    const char *text;
    if (!attr)
        return NULL;
    memcpy(&type, (const char *)attr + 32, sizeof type);
    memcpy(&text, (const char *)attr + 40, sizeof text);
    return type == 1 ? text : NULL;   /* NVTX_MESSAGE_TYPE_ASCII; wide and registered strings unnamed */
}

static _Atomic uint64_t next_range = 1;

static void mark_a(const char *m) { hv_mark_emit(HV_MARK_POINT, HV_MARK_NVTX, m, 0); }
static void mark_ex(const void *a) { mark_a(message_of(a)); }
static uint64_t start_a(const char *m)
{
    uint64_t id = atomic_fetch_add(&next_range, 1);
    hv_mark_emit(HV_MARK_START, HV_MARK_NVTX, m, id);
    return id;
}
static uint64_t start_ex(const void *a) { return start_a(message_of(a)); }
static void range_end(uint64_t id) { hv_mark_emit(HV_MARK_END, HV_MARK_NVTX, NULL, id); }
static int push_a(const char *m)
{
    hv_mark_emit(HV_MARK_PUSH, HV_MARK_NVTX, m, 0);
    return 0;
}
static int push_ex(const void *a) { return push_a(message_of(a)); }
static int pop(void)
{
    hv_mark_emit(HV_MARK_POP, HV_MARK_NVTX, NULL, 0);
    return 0;
}
static void d_mark_ex(void *d, const void *a) { (void)d; mark_ex(a); }
static uint64_t d_start_ex(void *d, const void *a) { (void)d; return start_ex(a); }
static void d_range_end(void *d, uint64_t id) { (void)d; range_end(id); }
static int d_push_ex(void *d, const void *a) { (void)d; return push_ex(a); }
static int d_pop(void *d) { (void)d; return pop(); }

static void set(nvtx_table t, unsigned size, unsigned id, nvtx_fn fn)
{
    if (t && id < size && t[id])
        *t[id] = fn;
}

HV_EXPORT int InitializeInjectionNvtx2(const void *(*get_export_table)(uint32_t id));

HV_EXPORT int InitializeInjectionNvtx2(const void *(*get_export_table)(uint32_t id))
{
    const struct nvtx_callbacks *cb = get_export_table ? get_export_table(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb || !cb->get_module_table)
        return 0;
    nvtx_table t = NULL;
    unsigned n = 0;
    if (cb->get_module_table(NVTX_CB_MODULE_CORE, &t, &n)) {
        set(t, n, CORE_MarkEx, (nvtx_fn)mark_ex);
        set(t, n, CORE_MarkA, (nvtx_fn)mark_a);
        set(t, n, CORE_RangeStartEx, (nvtx_fn)start_ex);
        set(t, n, CORE_RangeStartA, (nvtx_fn)start_a);
        set(t, n, CORE_RangeEnd, (nvtx_fn)range_end);
        set(t, n, CORE_RangePushEx, (nvtx_fn)push_ex);
        set(t, n, CORE_RangePushA, (nvtx_fn)push_a);
        set(t, n, CORE_RangePop, (nvtx_fn)pop);
    }
    if (cb->get_module_table(NVTX_CB_MODULE_CORE2, &t, &n)) {
        set(t, n, CORE2_DomainMarkEx, (nvtx_fn)d_mark_ex);
        set(t, n, CORE2_DomainRangeStartEx, (nvtx_fn)d_start_ex);
        set(t, n, CORE2_DomainRangeEnd, (nvtx_fn)d_range_end);
        set(t, n, CORE2_DomainRangePushEx, (nvtx_fn)d_push_ex);
        set(t, n, CORE2_DomainRangePop, (nvtx_fn)d_pop);
    }
    return 1;
}
