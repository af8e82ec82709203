/*
 * engine_calls: what each successful call does to the model, and where the
 * rules are consulted. Failed calls are counted and otherwise ignored (they
 * changed nothing in the runtime). Calls made while their stream was
 * capturing did not run: they became graph nodes, seen later in the
 * instantiate's inventory, so they are skipped here.
 */
#include <string.h>

#include "analyze/engine_int.h"

/* The per-call path, inlined whole into hv_engine_feed_batch's loop: a
 * record then costs no call and no register saves. The loop is too big for
 * the compiler's own inlining limits, which outlined these (+3.7%
 * instructions per record measured on a decode-loop trace). */
#define HOT static inline __attribute__((always_inline))

HOT int capturing(const struct hv_call *c)
{
    return (c->flags & HV_CALL_CAPTURING) || c->capture == HV_CAPTURE_ACTIVE;
}

/* The stream a stream-ordered call ran on; 0 means the legacy null stream. */
HOT uint32_t stream_of(struct hv_engine *e, const struct hv_call *c)
{
    uint64_t id = c->stream;
    if (id == 0)
        id = HV_STREAM_LEGACY | (uint32_t)(c->device >= 0 ? c->device : 0);
    return hv_stream_get(&e->m, id, c->device);
}

static uint8_t copy_hint(const struct hv_model *m, const struct hv_copy_args *a)
{
    if (m->cuda || (a->dir != HV_DIR_H2D && a->dir != HV_DIR_D2H))
        return HV_HINT_NONE;
    if (a->bytes <= m->blit_max_bytes)
        return HV_HINT_BLIT;
    return m->sdma_disabled ? HV_HINT_BLIT_NO_SDMA : HV_HINT_SDMA;
}

/* The write rules see a write of [lo, hi) before it lands in the writer map
 * (they do not read the map), while a replay on another stream may still be
 * running (their hook's contract, rules.h): most writes of a loop find none,
 * or only the replay just enqueued on their own stream. */
static __attribute__((noinline)) void write_rules_pending(struct hv_engine *e, uint64_t lo, uint64_t hi,
                                                          const struct hv_writer *w)
{
    const struct hv_model *m = &e->m;  /* pruned by write_rules */
    uint32_t i = 0;
    while (i < m->npending && m->execs[m->pending[i]].last.stream == w->stream)
        i++;
    if (i == m->npending)
        return;
    struct hv_write_ctx wr = {.lo = lo, .hi = hi, .w = w};
    for (int i = 0; i < e->n_write; i++)
        e->write_rules[i]->on_write(&e->m, &wr);
}

static inline void write_rules(struct hv_engine *e, uint64_t lo, uint64_t hi, const struct hv_writer *w)
{
    struct hv_model *m = &e->m;
    if (!e->n_write || !m->npending)
        return;
    /* A loop's first copy of a step: the host saw the last replay complete. */
    hv_pending_prune(m);
    if (!m->npending)
        return;
    /* A loop's sync copy, right after its replay: the one replay pending
     * ran on this stream. */
    if (m->npending == 1 && m->execs[m->pending[0]].last.stream == w->stream)
        return;
    write_rules_pending(e, lo, hi, w);
}

void hv_engine_write(struct hv_engine *e, uint64_t lo, uint64_t hi, const struct hv_writer *w)
{
    if (lo >= hi)
        return;
    write_rules(e, lo, hi, w);
    hv_writer_set(&e->m, lo, hi, w);
}

/* A write of `rows` rows of `width` bytes, `pitch` apart from dst (pitch 0
 * or rows 1: one contiguous range). Rows are written exactly: one writer
 * segment per row up to HV_EXACT_ROWS separated rows, so the bytes between
 * rows keep their own last writer; a taller write is one segment over its
 * bounding box that carries its row geometry (hv_writer_rows). */
static void apply_rows(struct hv_engine *e, uint64_t dst, uint64_t width, uint64_t pitch, uint64_t rows,
                       struct hv_writer *w)
{
    if (rows <= 1 || !pitch || width >= pitch) {
        uint64_t n = rows > 1 && pitch ? pitch * (rows - 1) + width : width * (rows ? rows : 1);
        uint64_t hi = dst + n;
        hv_engine_write(e, dst, hi < dst ? UINT64_MAX : hi, w);  /* wrapped: garbage in, keep the map sane */
        return;
    }
    uint64_t end = dst + pitch * (rows - 1) + width;
    if (end < dst)
        end = UINT64_MAX;
    if (rows > HV_EXACT_ROWS) {
        w->pitch = pitch;
        w->width = width;
        hv_engine_write(e, dst, end, w);
        return;
    }
    for (uint64_t r = 0; r < rows; r++)
        hv_engine_write(e, dst + r * pitch, dst + r * pitch + width, w);
}

void hv_engine_writer_base(struct hv_writer *w, const struct hv_call *c, uint32_t s, const struct hv_model *m)
{
    memset(w, 0, sizeof *w);
    w->seq = c->h.seq;
    w->epoch = c->epoch;
    w->ts_ns = c->h.ts_ns;
    w->stream = s;
    w->stream_id = m->streams[s].id;
    w->api = c->api;
    w->arg_index = HV_ARG_NONE;
}

/* A copy's writer, every field set (it may be built in place, over an old
 * value). */
static inline void copy_writer(struct hv_writer *w, const struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    _Static_assert(sizeof(struct hv_writer) == 112, "copy_writer sets every field of struct hv_writer");
    const struct hv_copy_args *a = &c->a.copy;
    w->seq = c->h.seq;
    w->epoch = c->epoch;
    w->ts_ns = c->h.ts_ns;
    w->dst = a->dst;
    w->src = a->src;
    w->bytes = a->bytes;
    w->name_func = 0;
    w->stream_id = e->m.streams[s].id;
    w->stream = s;
    w->name_id = 0;
    w->api = c->api;
    w->kind = HV_WRITER_COPY;
    w->dir = a->dir;
    w->src_mem = a->src_mem;
    w->dst_mem = a->dst_mem;
    w->copy_flags = a->flags;
    w->arg_index = HV_ARG_NONE;
    w->hint = copy_hint(&e->m, a);
    w->site = 0;
    w->pitch = w->width = 0;
}

HOT void on_copy(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    const struct hv_copy_args *a = &c->a.copy;
    e->sum.copies++;
    if (a->height <= 1) {
        /* One row (nearly every copy), apply_rows' contiguous case: the
         * writer is built straight into its segment. */
        uint64_t hi = a->dst + a->bytes;
        if (hi < a->dst)
            hi = UINT64_MAX;  /* wrapped: garbage in, keep the map sane */
        if (a->dst >= hi)
            return;
        struct hv_writer *v = hv_writer_slot(&e->m, a->dst, hi);
        if (v) {
            uint64_t site = hv_writer_same_site(v, e->m.streams[s].id, c->api, HV_WRITER_COPY, HV_ARG_NONE, a->src,
                                                a->dst) ? v->site : 0;
            copy_writer(v, e, c, s);
            write_rules(e, a->dst, hi, v);
            hv_writer_done(&e->m, v, site);
            return;
        }
    }
    struct hv_writer w;
    copy_writer(&w, e, c, s);
    uint64_t rows = a->height ? a->height : 1;
    apply_rows(e, a->dst, a->bytes / rows, (a->flags & HV_COPY_2D) ? a->dpitch : 0, rows, &w);
}

/* A synchronous copy returns after the stream's prior work and (except a
 * pageable-source H2D, which may return once the bytes are staged) the copy
 * itself completed. */
HOT void sync_copy_observed(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    const struct hv_copy_args *a = &c->a.copy;
    int staged = a->dir == HV_DIR_H2D && a->src_mem != HV_MEM_HOST_PINNED && a->src_mem != HV_MEM_HOST_REGISTERED;
    hv_stream_observed(&e->m, s, staged ? c->h.seq - 1 : c->h.seq, &e->m.streams[s].vc);
}

static void on_memset(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    const struct hv_memset_args *a = &c->a.memset;
    struct hv_writer w;
    hv_engine_writer_base(&w, c, s, &e->m);
    w.kind = HV_WRITER_MEMSET;
    w.dst = a->dst;
    w.bytes = a->bytes;
    w.hint = e->m.cuda ? HV_HINT_NONE : HV_HINT_FILL_KERNEL;
    uint64_t rows = a->height ? a->height : 1;
    apply_rows(e, a->dst, a->width ? a->width : a->bytes / rows, a->height > 1 ? a->pitch : 0, rows, &w);
    e->sum.memsets++;
}

void hv_engine_eager_kargs(struct hv_engine *e, const struct hv_kargs *k, const struct hv_karg *args)
{
    const struct hv_call *c = e->curp;
    if (!e->cur_ok || c->h.seq != k->h.seq || hv_engine_op(e, c->api) != HV_OP_LAUNCH) {
        if (!(c->h.seq == k->h.seq && !e->cur_ok))
            e->sum.orphan_records++;
        return;
    }
    hv_engine_eager_reads(e, k, args);  /* before its own writes land */
    for (uint32_t i = 0; i < k->count; i++)
        e->sum.inferred_launch_args += args[i].origin == HV_ARG_INFERRED;
    for (uint32_t i = 0; i < k->count; i++) {
        const struct hv_karg *g = &args[i];
        if (g->access != HV_ACCESS_WRITE && g->access != HV_ACCESS_READ_WRITE)
            continue;  /* only metadata-known writes make an eager kernel a writer */
        /* The extent of a kernel's write is unknown: record it at the
         * pointer so it neither invents overlaps nor erases other writers. */
        if (g->value == UINT64_MAX)
            continue;
        /* Built in place, as a copy's writer (on_copy). */
        struct hv_writer *v = hv_writer_slot(&e->m, g->value, g->value + 1);
        if (!v)
            continue;
        uint64_t site = hv_writer_same_site(v, e->m.streams[e->cur_stream].id, c->api, HV_WRITER_KERNEL,
                                            (int16_t)g->index, 0, g->value) ? v->site : 0;
        hv_engine_writer_base(v, c, e->cur_stream, &e->m);
        v->kind = HV_WRITER_KERNEL;
        v->dst = g->value;
        v->name_id = k->name_id ? k->name_id : c->a.launch.name_id;
        v->name_func = k->func ? k->func : c->a.launch.func;
        v->arg_index = (int16_t)g->index;
        v->hint = e->m.cuda ? HV_HINT_NONE : HV_HINT_KERNEL;
        write_rules(e, g->value, g->value + 1, v);
        hv_writer_done(&e->m, v, site);
    }
}

void hv_engine_end_building(struct hv_engine *e)
{
    uint32_t x = e->building;
    if (x == HV_NO_INDEX)
        return;
    e->building = HV_NO_INDEX;
    hv_exec_finalize(&e->m, x);
    if (e->obs.graph)
        e->obs.graph(e->obs.ctx, &e->m, x);
}

HOT void on_replay(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    struct hv_model *m = &e->m;
    e->sum.replays++;
    /* A live exec holding the handle is the one exec_ix maps it to. */
    uint32_t *hint = &e->replay_hint[(c->a.graph.exec >> 4) & 7u];
    uint32_t x = *hint;
    if (x >= m->nexecs || !m->execs[x].live || m->execs[x].handle != c->a.graph.exec)
        *hint = x = hv_exec_find(m, c->a.graph.exec);
    if (x == HV_NO_INDEX) {
        hv_coverage_replay(m, NULL, &e->sum);
        return;
    }
    if (m->execs[x].dirty)
        hv_exec_finalize(m, x);
    hv_coverage_replay(m, &m->execs[x], &e->sum);
    struct hv_replay_ctx rp = {.exec = x};
    rp.r.seq = c->h.seq;
    rp.r.epoch = c->epoch;
    rp.r.ts_ns = c->h.ts_ns;
    rp.r.stream = s;
    rp.r.stream_id = m->streams[s].id;
    rp.r.api = c->api;
    struct hv_exec *ex = &m->execs[x];
    if (ex->rsite_of != ex->site || ex->rsite_stream_id != rp.r.stream_id || ex->rsite_api != c->api) {
        ex->rsite = hv_mix64(ex->site ^ hv_mix64(rp.r.stream_id ^ ((uint64_t)c->api << 52)));
        ex->rsite_of = ex->site;
        ex->rsite_stream_id = rp.r.stream_id;
        ex->rsite_api = c->api;
    }
    rp.site = ex->rsite;
    hv_pending_prune(m);
    if (m->execs[x].nranges && e->n_overlap)
        hv_engine_join(e, &rp);
    for (int i = 0; i < e->n_replay; i++)
        e->replay_rules[i]->on_replay(m, &rp);
    hv_exec_replayed(m, x, &rp.r);
}

static void on_graph(struct hv_engine *e, const struct hv_call *c, uint8_t kind)
{
    struct hv_model *m = &e->m;
    const struct hv_graph_args *a = &c->a.graph;
    uint32_t x;
    switch (kind) {
    case HV_K_INSTANTIATE:
        if (!a->exec)
            return;
        e->sum.instantiates++;
        x = hv_exec_begin(m, a->exec, a->graph, c->h.seq, c->api);
        if (x == HV_NO_INDEX)
            return;
        m->execs[x].no_inventory = !(a->rec_flags & HV_GRAPH_NODES_RECORDED);
        if (m->execs[x].no_inventory)
            e->sum.execs_no_inventory++;
        e->building = x;
        e->building_seq = c->h.seq;
        e->building_fresh = 0;
        return;
    case HV_K_EXEC_DESTROY:
        x = hv_exec_find(m, a->exec);
        if (x != HV_NO_INDEX)
            hv_exec_destroy(m, x);
        return;
    case HV_K_EXEC_UPDATE:
    case HV_K_NODE_SETPARAMS:
    case HV_K_NODE_SET_ENABLED:
        x = hv_exec_find(m, a->exec);
        if (x == HV_NO_INDEX)
            return;
        /* Older traces did not record isEnabled: the node record that
         * follows (empty when disabled) is all they say. */
        if (kind == HV_K_NODE_SET_ENABLED && (a->rec_flags & HV_GRAPH_ENABLED_RECORDED))
            hv_exec_set_enabled(m, x, a->node, a->flags != 0);
        e->building = x;
        e->building_seq = c->h.seq;
        e->building_fresh = kind == HV_K_EXEC_UPDATE;
        return;
    default:
        return;
    }
}

static void on_sync(struct hv_engine *e, const struct hv_call *c, uint8_t kind)
{
    struct hv_model *m = &e->m;
    const struct hv_sync_args *a = &c->a.sync;
    e->sum.syncs++;
    if (kind == HV_K_DEVICE_SYNC) {
        hv_device_observed(m, c->device, c->h.seq);
        return;
    }
    if (kind == HV_K_EVENT_SYNC) {
        hv_event_observed(m, a->event, a->completed_stream, a->completed_seq);
        return;
    }
    uint64_t sid = a->completed_stream ? a->completed_stream : c->stream;
    if (kind != HV_K_STREAM_SYNC && !a->completed_stream)
        return;
    struct hv_call tmp = *c;
    tmp.stream = sid;
    uint32_t s = stream_of(e, &tmp);
    if (s != HV_NO_INDEX)
        hv_stream_observed(m, s, a->completed_seq ? a->completed_seq : c->h.seq, &m->streams[s].vc);
    /* A NULL-handle (legacy) synchronize or query also waited for the
     * device's blocking streams, up to this call; the tracer writes no
     * per-stream record for it (older traces also carry HV_REC_EPOCH
     * records, which cover no less). hipStreamLegacy (form LEGACY_HANDLE)
     * finishes the legacy stream alone. */
    if (s != HV_NO_INDEX && c->stream_form == HV_STREAM_FORM_LEGACY_NULL && (sid & HV_STREAM_LEGACY))
        hv_legacy_observed(m, m->streams[s].device, c->h.seq);
}

/* Stream-ordered ops: legacy barriers before, program order after. */
HOT uint32_t begin_op(struct hv_engine *e, const struct hv_call *c)
{
    uint32_t s = stream_of(e, c);
    if (s != HV_NO_INDEX)
        hv_stream_before_op(&e->m, s);
    return s;
}

HOT void end_op(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    hv_stream_after_op(&e->m, s, c->h.seq, c->epoch);
    e->cur_stream = s;
}

/* Input health: a run whose calls fail analyzes as clean unless the report
 * says so (wrong library path, no device). A failed call changed nothing. */
static __attribute__((noinline)) void call_failed(struct hv_engine *e, const struct hv_call *c)
{
    uint8_t op = hv_engine_op(e, c->api);
    uint8_t kind = hv_engine_kind(e, c->api);
    if (!e->sum.failed_calls++) {
        e->sum.first_failed_api = c->api;
        e->sum.first_failed_result = c->result;
        e->sum.first_failed_seq = c->h.seq;
    }
    if (op == HV_OP_LAUNCH || (op == HV_OP_GRAPH && kind == HV_K_GRAPH_LAUNCH))
        e->sum.failed_launches++;
    else if (op == HV_OP_COPY || op == HV_OP_MEMSET)
        e->sum.failed_copies++;
}

/* A successful call that is not stream-ordered. */
static __attribute__((noinline)) void call_other(struct hv_engine *e, const struct hv_call *c)
{
    struct hv_model *m = &e->m;
    uint8_t kind = hv_engine_kind(e, c->api);
    switch (hv_engine_op(e, c->api)) {
    case HV_OP_GRAPH:
        on_graph(e, c, kind);
        break;
    case HV_OP_SYNC:
        on_sync(e, c, kind);
        break;
    case HV_OP_EVENT:
        if (kind == HV_K_EVENT_DESTROY)
            hv_event_destroyed(m, c->a.event.event);
        break;
    case HV_OP_STREAM:
        if (kind == HV_K_STREAM_CREATE)
            hv_stream_created(m, c->a.stream.handle, c->device, c->a.stream.flags);
        else if (kind == HV_K_STREAM_DESTROY)
            hv_stream_destroyed(m, c->a.stream.handle ? c->a.stream.handle : c->stream);
        break;
    case HV_OP_ALLOC:
        if (c->a.alloc.ptr) {
            hv_alloc_add(m, c->a.alloc.ptr, c->a.alloc.bytes, c->a.alloc.mem, c->h.seq, c->api);
            e->sum.allocs++;
        }
        break;
    case HV_OP_FREE:
        if (c->a.alloc.ptr) {
            hv_alloc_release(m, c->a.alloc.ptr, c->h.seq, c->api);
            e->sum.frees++;
        }
        break;
    case HV_OP_MODULE:
        if (c->a.module.function && c->a.module.name_id)
            hv_u64map_put(&m->kernel_names, c->a.module.function, c->a.module.name_id);
        break;
    default:
        break;
    }
    e->cur_ok = 1;
}

/* A successful stream-ordered call: 0 when it did not run (captured into a
 * graph, or no stream entry could be made). */
HOT int call_on_stream(struct hv_engine *e, const struct hv_call *c, uint8_t cls)
{
    struct hv_model *m = &e->m;
    if (capturing(c) || (cls == HV_C_LAUNCH && c->a.launch.captured)) {
        e->sum.captured_skipped++;
        return 0;
    }
    uint32_t s = begin_op(e, c);
    if (s == HV_NO_INDEX)
        return 0;
    /* The classes of a serving loop's records first, in order of count. */
    if (cls == HV_C_COPY) {
        on_copy(e, c, s);
        end_op(e, c, s);
        if (!(c->a.copy.flags & HV_COPY_ASYNC))
            sync_copy_observed(e, c, s);
        e->cur_ok = 1;
        return 1;
    }
    if (cls == HV_C_EVENT_RECORD)
        hv_event_recorded(m, c->a.event.event, s, c->h.seq);
    else if (cls == HV_C_REPLAY)
        on_replay(e, c, s);
    else if (cls == HV_C_LAUNCH) {
        e->sum.launches++;
        if (c->flags & HV_CALL_UNSAMPLED)
            e->sum.launches_unsampled++;
        else if (hv_model_no_layout(m, c->a.launch.func,
                                    c->a.launch.form == HV_LAUNCH_EXTRA ? 0 : c->a.launch.kernarg_bytes))
            e->sum.unknown_layout_launches++;
    }
    else if (cls == HV_C_MEMSET)
        on_memset(e, c, s);
    else if (cls == HV_C_MEMOP)
        hv_engine_memop(e, c, s);
    else
        hv_event_waited(m, c->a.event.event, s, c->a.event.record_stream, c->a.event.record_seq);
    end_op(e, c, s);
    e->cur_ok = 1;
    return 1;
}

/* One successful or failed call (HOT: see the top). */
HOT void call_body(struct hv_engine *e, const struct hv_call *c)
{
    e->sum.calls++;
    e->curp = c;  /* readable for the whole batch (kept at its end unless the driver keeps records) */
    e->cur_ok = 0;
    e->cur_stream = HV_NO_INDEX;
    if (c->result != 0) {
        call_failed(e, c);
        return;
    }
    uint8_t cls = hv_engine_class(e, c->api);
    if (cls == HV_C_OTHER)
        call_other(e, c);
    else if (!call_on_stream(e, c, cls))
        return;
    if (e->obs.call)
        e->obs.call(e->obs.ctx, &e->m, c, e->cur_stream);
}

/* The one place a call is applied (so the compiler makes one copy of it,
 * inlined into the loop). */
uint64_t hv_engine_feed_batch(struct hv_engine *e, const struct hv_rec_header *const *recs, size_t n)
{
    uint64_t types = 0;
    for (size_t i = 0; i < n; i++) {
        const struct hv_rec_header *rec = recs[i];
        types |= 1ull << (rec->type & 63);
        if (!hv_engine_feed_head(e, rec))
            continue;
        if (rec->type != HV_REC_CALL) {
            hv_engine_feed_other(e, rec);
            continue;
        }
        /* Nearly every record is a call of today's layout: no copy. One an
         * older writer made shorter is read through a zero-filled copy. */
        if (rec->size >= sizeof(struct hv_call)) {
            call_body(e, (const struct hv_call *)(const void *)rec);
            continue;
        }
        struct hv_call local;
        memset(&local, 0, sizeof local);
        memcpy(&local, rec, rec->size);
        call_body(e, &local);
        hv_engine_keep(e);  /* the last call may point at `local` */
    }
    /* The driver may reuse the records once this returns, unless it
     * promised otherwise (it then calls hv_engine_keep itself). */
    if (!e->stable)
        hv_engine_keep(e);
    return types;
}
