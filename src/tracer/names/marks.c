/*
 * The public API of include/hipvis/hipvis.h (hipvis_record_this_thread
 * lives in src/tracer/core/switch.c): names and marks become records of the
 * calling thread, with the seq of the latest call of the process (they are
 * no calls), so the analyzer applies them from that point of the trace on.
 */
#include <string.h>

#define HIPVIS_STRONG 1 /* the definitions, not weak references */
#include "hipvis/hipvis.h"
#include "tracer/names/names_int.h"
#include "tracer/pyframes/sites.h"

/* Regions open on this thread (push minus pop), for the record's depth. */
static __thread uint16_t region_depth;

static void mark_on(struct hv_thread_ctx *t, unsigned kind, unsigned source, const char *name, uint64_t id,
                    uint64_t skipped)
{
    uint64_t seq = hv_seq_peek();
    uint32_t name_id = name && *name ? hv_string_id(t, name, seq) : 0;
    if (kind == HV_MARK_PUSH)
        region_depth++;
    else if (kind == HV_MARK_POP && region_depth)
        region_depth--;
    struct hv_mark *m = hv_aux_begin(t, HV_REC_MARK, sizeof *m, seq);
    if (!m)
        return;
    m->kind = (uint8_t)kind;
    m->source = (uint8_t)source;
    m->depth = region_depth;
    m->name_id = name_id;
    m->id = id;
    m->skipped = skipped;
    hv_aux_commit(t, m);
}

void hv_mark_emit(unsigned kind, unsigned source, const char *name, uint64_t id)
{
    int e = errno;
    struct hv_thread_ctx *t = hv_enter();
    if (t) {
        mark_on(t, kind, source, name, id, 0);
        hv_leave(t);
    }
    errno = e;
}

void hv_mark_in_call(struct hv_thread_ctx *t, unsigned kind, unsigned source, uint64_t skipped)
{
    mark_on(t, kind, source, NULL, 0, skipped);
}

HV_EXPORT void hipvis_name(const void *ptr, size_t bytes, const char *name)
{
    int e = errno;
    struct hv_thread_ctx *t = hv_enter();
    if (t) {
        uint64_t seq = hv_seq_peek();
        uint32_t id = name && *name ? hv_string_id(t, name, seq) : 0;
        struct hv_name *n = hv_aux_begin(t, HV_REC_NAME, sizeof *n, seq);
        if (n) {
            n->ptr = HV_PTR(ptr);
            n->bytes = bytes;
            n->name_id = id;
            hv_aux_commit(t, n);
            hv_py_always(t, seq, HV_PY_AT_NAME, HV_PTR(ptr));
        }
        hv_leave(t);
    }
    errno = e;
}

HV_EXPORT void hipvis_region_push(const char *name) { hv_mark_emit(HV_MARK_PUSH, HV_MARK_HIPVIS, name, 0); }
HV_EXPORT void hipvis_region_pop(void) { hv_mark_emit(HV_MARK_POP, HV_MARK_HIPVIS, NULL, 0); }
HV_EXPORT void hipvis_mark(const char *name) { hv_mark_emit(HV_MARK_POINT, HV_MARK_HIPVIS, name, 0); }
