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

/* The attribute of copy i: the last k with idxs[k] <= i. */
static const struct hv_copy_attr *batch_attr(const struct hv_batch1d *b, size_t i)
{
    const struct hv_copy_attr *a = NULL;
    for (size_t k = 0; b->attrs && b->idxs && k < b->nattrs && b->idxs[k] <= i; k++)
        a = &b->attrs[k];
    return a;
}

unsigned hv_batch1d_elem(const void *ctx, size_t i, struct hv_copy_desc out[2])
{
    const struct hv_batch1d *b = ctx;
    if (!b->dsts || !b->srcs || !b->sizes)
        return 0;
    out[0] = *HV_COPY1D(b->dsts[i], b->srcs[i], b->sizes[i], HV_KIND_DEFAULT, HV_COPY_ASYNC);
    const struct hv_copy_attr *a = b->swap ? batch_attr(b, i) : NULL;
    if (!a || !(a->flags & b->swap))
        return 1;
    out[1] = *HV_COPY1D(b->srcs[i], b->dsts[i], b->sizes[i], HV_KIND_DEFAULT, HV_COPY_ASYNC);
    return 2;
}

/* A batch operand as a pitched side: rows of row_length bytes (0: packed,
 * the copy's width), layers of layer_height rows. Arrays have no address. */
static struct hv_pitched3d batch_side(const struct hv_copy_operand *o, size_t width, size_t height)
{
    if (o->type != 1)
        return (struct hv_pitched3d){.array = (const void *)(uintptr_t)(o->op.array.array | 1)};
    return (struct hv_pitched3d){.ptr = (const void *)(uintptr_t)o->op.ptr.ptr,
                                 .pitch = o->op.ptr.row_length ? o->op.ptr.row_length : width,
                                 .ysize = o->op.ptr.layer_height ? o->op.ptr.layer_height : height};
}

unsigned hv_batch3d_elem(const void *ctx, size_t i, struct hv_copy_desc out[2])
{
    if (!ctx)
        return 0;
    const struct hv_copy_op3d *op = (const struct hv_copy_op3d *)ctx + i;
    struct hv_pitched3d d = batch_side(&op->dst, op->width, op->height);
    struct hv_pitched3d s = batch_side(&op->src, op->width, op->height);
    out[0] = hv_copy3d(&d, &s, op->width, op->height, op->depth, HV_KIND_DEFAULT, HV_COPY_ASYNC);
    return 1;
}

void hv_trace_copy_batch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, size_t count,
                         hv_copy_elem_fn elem, const void *ctx)
{
    struct hv_copy_desc d[2];
    unsigned recorded = 0;
    for (size_t i = 0; r == 0 && elem && i < count; i++) {
        unsigned n = elem(ctx, i, d);
        for (unsigned k = 0; k < n && k < 2; k++, recorded++)
            hv_trace_copy(t, api, r, s, &d[k]);
    }
    /* A failed batch ran nothing: its arrays are not read (the runtime
     * may have refused them as invalid). */
    if (!recorded)
        hv_trace_copy(t, api, r, s,
                      &(struct hv_copy_desc){.kind = HV_KIND_DEFAULT, .flags = HV_COPY_ASYNC, .dst_device = -1,
                                             .src_device = -1});
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
