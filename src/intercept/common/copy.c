/* Copies and memsets: every copy is a write of [dst, dst+bytes) by its
 * stream, every memset a write of its range. */
#include "names/names.h"
#include "pyframes/sites.h"
#include "intercept/common/intercept.h"
#include "preload/evidence.h"
#include "guard/guard.h"

static enum hv_dir resolve_dir(int kind, enum hv_mem dst, enum hv_mem src)
{
    switch (kind) {
    case HV_KIND_H2H: return HV_DIR_H2H;
    case HV_KIND_H2D: return HV_DIR_H2D;
    case HV_KIND_D2H: return HV_DIR_D2H;
    case HV_KIND_D2D: return HV_DIR_D2D;
    default: break;
    }
    /* Default kind: the runtime decides by address; so do we, from the
     * allocations we saw. Untracked memory is taken to be host memory. */
    int dst_dev = dst == HV_MEM_DEVICE || dst == HV_MEM_MANAGED;
    int src_dev = src == HV_MEM_DEVICE || src == HV_MEM_MANAGED;
    return dst_dev ? (src_dev ? HV_DIR_D2D : HV_DIR_H2D) : (src_dev ? HV_DIR_D2H : HV_DIR_H2H);
}

/* A host pointer the runtime never allocated or registered is pageable. */
static enum hv_mem host_side(enum hv_mem m) { return m == HV_MEM_UNKNOWN ? HV_MEM_HOST_PAGEABLE : m; }

void hv_trace_copy(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, const struct hv_copy_desc *cp)
{
    /* HIPVIS_START: async copies outside the window are not recorded;
     * blocking ones are host observations and always are. */
    if ((cp->flags & HV_COPY_ASYNC) && hv_data_skip(t, s.id))
        return;
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    struct hv_copy_args *a = &c->a.copy;
    enum hv_mem dm = hv_alloc_kind(hv_tracer.allocs, HV_PTR(cp->dst));
    enum hv_mem sm = hv_alloc_kind(hv_tracer.allocs, HV_PTR(cp->src));
    a->dst = HV_PTR(cp->dst);
    a->src = HV_PTR(cp->src);
    a->height = cp->height ? cp->height : 1;
    a->bytes = (uint64_t)cp->bytes * a->height;
    a->dpitch = cp->dpitch;
    a->spitch = cp->spitch;
    a->kind = (uint32_t)cp->kind;
    a->dir = (uint8_t)resolve_dir(cp->kind, dm, sm);
    if (a->dir == HV_DIR_H2D || a->dir == HV_DIR_H2H)
        sm = host_side(sm);
    if (a->dir == HV_DIR_D2H || a->dir == HV_DIR_H2H)
        dm = host_side(dm);
    a->dst_mem = (uint8_t)dm;
    a->src_mem = (uint8_t)sm;
    a->flags = cp->flags;
    a->dst_device = (int16_t)cp->dst_device;
    a->src_device = (int16_t)cp->src_device;
    uint64_t seq = c->h.seq, stream = c->stream, ts = c->h.ts_ns;
    int blocking = !(cp->flags & HV_COPY_ASYNC) && r == 0 && !(c->flags & HV_CALL_CAPTURING);
    /* HIPVIS_GUARD: async H2D copies a later graph launch may be guarded
     * against. The mode is tested here, inline: with guards off no call. */
    int guard = r == 0 && !blocking && a->dir == HV_DIR_H2D && !(c->flags & HV_CALL_CAPTURING) &&
                hv_guard_mode() != HV_GUARD_OFF;
    uint64_t span = a->height > 1 && a->dpitch ? a->dpitch * (a->height - 1) + cp->bytes : a->bytes;
    uint64_t epoch = c->epoch, a_dst = a->dst;
    uint8_t src_mem = a->src_mem;
    struct hv_copy_ev ev;
    int evidence = hv_ev(HV_EV_COPY);
    if (evidence)
        hv_ev_copy_begin(&ev, c);   /* payload hash goes into the record */
    hv_call_commit(t, c);
    if (evidence)
        hv_ev_copy_end(t, &ev);
    hv_py_site(t, seq, HV_PY_AT_WRITE, a_dst);
    if (guard)
        hv_guard_after_copy(t, api, stream, a_dst, span, src_mem, epoch, seq);
    /* A blocking copy returns only after the stream's earlier work is done.
     * No HV_REC_EPOCH: the call record says it, and only the analyzer knows
     * whether the copy itself is covered (not for a pageable-source H2D,
     * which may return once the bytes are staged). */
    if (blocking)
        hv_observe_stream(t, seq, ts, stream, 0);
}

void hv_trace_memset(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                     const struct hv_memset_desc *m)
{
    if (m->async && hv_data_skip(t, s.id))
        return;
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    struct hv_memset_args *a = &c->a.memset;
    uint64_t rows = m->height ? m->height : 1;
    a->dst = HV_PTR(m->dst);
    a->width = (uint64_t)m->count * m->elem;
    a->bytes = a->width * rows;
    a->pitch = m->pitch;
    a->height = rows;
    a->value = m->value;
    a->elem_size = m->elem;
    uint64_t seq = c->h.seq, stream = c->stream, ts = c->h.ts_ns;
    int blocking = !m->async && r == 0 && !(c->flags & HV_CALL_CAPTURING);
    uint64_t dst = a->dst;
    hv_call_commit(t, c);
    hv_ev_stack(t, seq);
    hv_py_site(t, seq, HV_PY_AT_WRITE, dst);
    if (blocking)
        hv_observe_stream(t, seq, ts, stream, 1);
}
