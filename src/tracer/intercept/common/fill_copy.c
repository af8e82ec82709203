/* Copies and memsets: every copy is a write of [dst, dst+bytes) by its
 * stream, every memset a write of its range. */
#include "tracer/names/marks.h"
#include "tracer/pyframes/sites.h"
#include "tracer/intercept/common/intercept.h"
#include "tracer/evidence/evidence.h"
#include "tracer/guard/guard_modes.h"
#include "tracer/hostcheck/hostcheck.h"

void hv_trace_copy_rest(struct hv_thread_ctx *t, struct hv_call *c, uint64_t width, int evidence)
{
    const struct hv_copy_args *a = &c->a.copy;
    uint16_t api = c->api;
    int32_t r = c->result;
    uint64_t seq = c->h.seq, stream = c->stream, ts = c->h.ts_ns;
    int capturing = (c->flags & HV_CALL_CAPTURING) != 0;
    int blocking = !(a->flags & HV_COPY_ASYNC) && r == 0 && !capturing;
    /* A pitched copy's host rows, for the host-access check. */
    struct hv_hc_rows rows = {a->dir == HV_DIR_D2H ? a->dpitch : a->spitch, a->height, width};
    int pitched = (a->flags & HV_COPY_2D) && r == 0 && !capturing && !blocking;
    /* HIPVIS_GUARD: async H2D copies a later graph launch may be guarded
     * against, and the H2D and D2H copies copy-sync waits for. */
    int guard = r == 0 && !blocking && (a->dir == HV_DIR_H2D || a->dir == HV_DIR_D2H) && !capturing &&
                hv_guard_mode() != HV_GUARD_OFF;
    if (!blocking && !guard && !evidence && !hv_hot.py_on) {
        hv_call_commit(t, c);
        return;
    }
    uint64_t span = a->height > 1 && a->dpitch ? a->dpitch * (a->height - 1) + width : a->bytes;
    uint64_t a_dst = a->dst;
    struct hv_guard_copy gc = {a_dst, span, c->epoch, seq, a->dir, a->dst_mem, a->src_mem};
    struct hv_copy_ev ev;
    if (evidence)
        HV_ST_PART(HV_ST_PART_COPY_EV, hv_ev_copy_begin(&ev, c));   /* payload hash goes into the record */
    hv_call_commit(t, c);
    if (evidence) {
        HV_ST_PART(HV_ST_PART_COPY_EV, hv_ev_copy_end(t, &ev));
        if (hv_ev(HV_EV_HOSTCHECK) && ev.ok && ev.async)
            hv_hc_copy(t, &ev, NULL);   /* protects the pinned pages the copy reads or writes */
        else if (hv_ev(HV_EV_HOSTCHECK) && pitched)
            hv_hc_copy(t, &ev, &rows);  /* the same, row by row */
    }
    hv_py_site(t, seq, HV_PY_AT_WRITE, a_dst);
    if (guard)
        hv_guard_after_copy(t, api, stream, &gc);
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
    if (m->async && hv_ev(HV_EV_HOSTCHECK))
        hv_hc_memset(t, c);
    hv_call_commit(t, c);
    hv_ev_stack(t, seq);
    hv_py_site(t, seq, HV_PY_AT_WRITE, dst);
    if (blocking)
        hv_observe_stream(t, seq, ts, stream, 1);
}
