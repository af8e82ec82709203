/* tbuild: synthetic trace records; see tbuild.h. */
#include "tbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void emit(struct tb *t, const void *rec)
{
    t->records++;
    if (t->engine)
        hv_engine_feed(t->engine, rec);
    else if (t->writer)
        hv_trace_writer_add(t->writer, rec);
}

static const char *string_cb(void *ctx, uint32_t id)
{
    struct tb *t = ctx;
    return id < TB_MAX_STRINGS ? t->strings[id] : NULL;
}

const char *tb_runtime_version;
uint32_t tb_header_flags;

static void fill_header(struct hv_file_header *h, uint64_t pid, const char *knobs)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, HV_FILE_MAGIC, sizeof h->magic);
    h->format_version = HV_FORMAT_VERSION;
    h->header_size = sizeof *h;
    h->pid = pid;
    h->clock = HV_CLOCK_MONOTONIC;
    h->transport = HV_TRANSPORT_FILE;
    h->flags = tb_header_flags;
    snprintf(h->exe, sizeof h->exe, "/synthetic/decode-loop");
    snprintf(h->runtime_version, sizeof h->runtime_version, "%s", tb_runtime_version ? tb_runtime_version : "synthetic");
    if (knobs)
        snprintf(h->knobs, sizeof h->knobs, "%s", knobs);
}

static void init(struct tb *t)
{
    memset(t, 0, sizeof *t);
    t->seq = 1;
    t->ts = 1000000;
    t->tid = 4242;
    t->device = 0;
}

void tb_engine_open(struct tb *t, struct hv_findings *out, uint64_t pid, const char *knobs)
{
    init(t);
    struct hv_file_header h;
    fill_header(&h, pid, knobs);
    struct hv_model_hooks hooks = {.string = string_cb, .string_ctx = t};
    t->out = out;
    t->engine = hv_engine_new(&h, "synthetic", out, NULL, &hooks, NULL);
}

void tb_engine_close(struct tb *t)
{
    hv_engine_finish(t->engine, NULL);
    hv_findings_add_trace(t->out, hv_engine_summary(t->engine));
    hv_engine_free(t->engine);
    t->engine = NULL;
}

int tb_file_open(struct tb *t, const char *path, uint64_t pid, const char *knobs)
{
    init(t);
    struct hv_file_header h;
    fill_header(&h, pid, knobs);
    return hv_trace_writer_open(path, &h, 1, &t->writer);
}

int tb_file_close(struct tb *t, int with_footer)
{
    struct hv_file_footer f;
    memset(&f, 0, sizeof f);
    memcpy(f.magic, HV_FOOTER_MAGIC, sizeof f.magic);
    f.calls = f.records_made = f.records_written = t->records;
    int rc = hv_trace_writer_close(t->writer, with_footer ? &f : NULL);
    t->writer = NULL;
    return rc;
}

void tb_flush(struct tb *t)
{
    if (t->writer)
        hv_trace_writer_flush(t->writer);
}

void tb_string(struct tb *t, uint32_t id, const char *text)
{
    if (id < TB_MAX_STRINGS)
        t->strings[id] = text;
    uint64_t buf[64];
    size_t len = strlen(text);
    if (len > sizeof buf - sizeof(struct hv_string) - 8)
        len = sizeof buf - sizeof(struct hv_string) - 8;
    memset(buf, 0, sizeof buf);
    struct hv_string *s = (struct hv_string *)buf;
    s->h.type = HV_REC_STRING;
    s->h.size = (uint16_t)hv_rec_padded(sizeof *s + len);
    s->h.tid = t->tid;
    s->h.seq = t->seq;
    s->h.ts_ns = t->ts;
    s->id = id;
    s->len = (uint32_t)len;
    memcpy(s + 1, text, len);
    emit(t, s);
}

static int stream_slot(struct tb *t, uint64_t stream)
{
    for (int i = 0; i < t->nstreams; i++)
        if (t->streams[i].id == stream)
            return i;
    if (t->nstreams == TB_MAX_STREAMS)
        return 0;
    t->streams[t->nstreams].id = stream;
    t->streams[t->nstreams].epoch = 0;
    return t->nstreams++;
}

/* A call record with header, api, stream and the stream's current epoch. */
static struct hv_call call(struct tb *t, uint16_t api, uint64_t stream)
{
    struct hv_call c;
    memset(&c, 0, sizeof c);
    c.h.type = HV_REC_CALL;
    c.h.size = sizeof c;
    c.h.tid = t->tid;
    c.h.seq = ++t->seq;
    t->ts += 1000;
    c.h.ts_ns = t->ts;
    c.api = api;
    c.device = t->device;
    c.stream = stream;
    c.stream_form = stream == 0 ? HV_STREAM_FORM_NONE
                    : (stream & HV_STREAM_LEGACY) ? HV_STREAM_FORM_LEGACY_NULL : HV_STREAM_FORM_EXPLICIT;
    c.epoch = stream ? t->streams[stream_slot(t, stream)].epoch : HV_EPOCH_UNKNOWN;
    return c;
}

void tb_aux(struct tb *t, void *rec)
{
    struct hv_rec_header *h = rec;
    h->seq = t->seq;
    h->tid = t->tid;
    h->ts_ns = t->ts;
    emit(t, rec);
}

void tb_stream_create(struct tb *t, uint64_t stream, uint32_t flags)
{
    struct hv_call c = call(t, HV_API_hipStreamCreateWithFlags, 0);
    c.a.stream.handle = stream;
    c.a.stream.flags = flags;
    emit(t, &c);
}

void tb_alloc(struct tb *t, uint64_t ptr, uint64_t bytes, uint8_t mem)
{
    struct hv_call c = call(t, mem == HV_MEM_HOST_PINNED ? HV_API_hipHostMalloc : HV_API_hipMalloc, 0);
    c.a.alloc.ptr = ptr;
    c.a.alloc.bytes = bytes;
    c.a.alloc.mem = mem;
    emit(t, &c);
}

void tb_free(struct tb *t, uint64_t ptr)
{
    struct hv_call c = call(t, HV_API_hipFree, 0);
    c.a.alloc.ptr = ptr;
    emit(t, &c);
}

void tb_copy(struct tb *t, uint64_t stream, uint64_t dst, uint64_t src, uint64_t bytes, uint8_t dir, uint8_t src_mem,
             int async)
{
    struct hv_call c = call(t, async ? HV_API_hipMemcpyAsync : HV_API_hipMemcpy, stream);
    c.a.copy.dst = dst;
    c.a.copy.src = src;
    c.a.copy.bytes = bytes;
    c.a.copy.height = 1;
    c.a.copy.dir = dir;
    c.a.copy.src_mem = src_mem;
    c.a.copy.dst_mem = dir == HV_DIR_H2D || dir == HV_DIR_D2D ? HV_MEM_DEVICE : HV_MEM_HOST_PINNED;
    c.a.copy.flags = async ? HV_COPY_ASYNC : 0;
    c.a.copy.dst_device = c.a.copy.src_device = -1;
    emit(t, &c);
}

void tb_failed_copy(struct tb *t, uint64_t stream, uint64_t dst, uint64_t bytes)
{
    struct hv_call c = call(t, HV_API_hipMemcpyAsync, stream);
    c.result = 1; /* hipErrorInvalidValue */
    c.a.copy.dst = dst;
    c.a.copy.bytes = bytes;
    c.a.copy.dir = HV_DIR_H2D;
    c.a.copy.flags = HV_COPY_ASYNC;
    emit(t, &c);
}

void tb_memset(struct tb *t, uint64_t stream, uint64_t dst, uint64_t bytes)
{
    struct hv_call c = call(t, HV_API_hipMemsetAsync, stream);
    c.a.memset.dst = dst;
    c.a.memset.bytes = bytes;
    c.a.memset.height = 1;
    c.a.memset.elem_size = 1;
    emit(t, &c);
}

void tb_copy2d(struct tb *t, uint64_t stream, uint64_t dst, uint64_t pitch, uint64_t src, uint64_t width,
               uint64_t rows)
{
    struct hv_call c = call(t, HV_API_hipMemcpy2DAsync, stream);
    c.a.copy.dst = dst;
    c.a.copy.src = src;
    c.a.copy.bytes = width * rows;
    c.a.copy.dpitch = pitch;
    c.a.copy.spitch = width;
    c.a.copy.height = rows;
    c.a.copy.dir = HV_DIR_D2D;
    c.a.copy.src_mem = c.a.copy.dst_mem = HV_MEM_DEVICE;
    c.a.copy.flags = HV_COPY_ASYNC | HV_COPY_2D;
    c.a.copy.dst_device = c.a.copy.src_device = -1;
    emit(t, &c);
}

void tb_memset2d(struct tb *t, uint64_t stream, uint64_t dst, uint64_t pitch, uint64_t width, uint64_t rows)
{
    struct hv_call c = call(t, HV_API_hipMemset2DAsync, stream);
    c.a.memset.dst = dst;
    c.a.memset.bytes = width * rows;
    c.a.memset.width = width;
    c.a.memset.pitch = pitch;
    c.a.memset.height = rows;
    c.a.memset.elem_size = 1;
    emit(t, &c);
}

/* KARGS record for an eager launch (owner 0) or a kernel node. */
static void kargs(struct tb *t, uint64_t seq, uint64_t owner, uint32_t name_id, const struct tb_arg *a, uint32_t n)
{
    uint64_t buf[(sizeof(struct hv_kargs) + 16 * sizeof(struct hv_karg)) / 8];
    if (n > 16)
        n = 16;
    memset(buf, 0, sizeof buf);
    struct hv_kargs *k = (struct hv_kargs *)buf;
    k->h.type = HV_REC_KARGS;
    k->h.size = (uint16_t)(sizeof *k + n * sizeof(struct hv_karg));
    k->h.tid = t->tid;
    k->h.seq = seq;
    k->h.ts_ns = t->ts;
    k->owner_node = owner;
    k->func = 0x7000 + name_id;
    k->count = n;
    k->name_id = name_id;
    struct hv_karg *g = (struct hv_karg *)(k + 1);
    for (uint32_t i = 0; i < n; i++) {
        g[i].value = a[i].value;
        g[i].offset = 8u * a[i].index;
        g[i].index = a[i].index;
        g[i].access = a[i].access;
        g[i].origin = a[i].origin ? a[i].origin : HV_ARG_METADATA;
    }
    emit(t, k);
}

void tb_launch(struct tb *t, uint64_t stream, uint32_t name_id, const struct tb_arg *args, uint32_t nargs)
{
    struct hv_call c = call(t, HV_API_hipLaunchKernel, stream);
    c.a.launch.func = 0x7000 + name_id;
    c.a.launch.name_id = name_id;
    c.a.launch.nptr = (uint16_t)nargs;
    c.a.launch.form = HV_LAUNCH_PARAMS;
    emit(t, &c);
    if (nargs)
        kargs(t, c.h.seq, 0, name_id, args, nargs);
}

void tb_launch_undrawn(struct tb *t, uint64_t stream)
{
    struct hv_call c = call(t, HV_API_hipLaunchKernel, stream);
    c.flags |= HV_CALL_UNSAMPLED;
    c.a.launch.func = 0x7fff;
    c.a.launch.form = HV_LAUNCH_PARAMS;
    emit(t, &c);
}

/* The node record of node `index` (handle 0x6000 + index) under call seq. */
static struct hv_graph_node node_rec(struct tb *t, uint64_t seq, uint64_t exec, uint32_t index)
{
    struct hv_graph_node n;
    memset(&n, 0, sizeof n);
    n.h.type = HV_REC_GRAPH_NODE;
    n.h.size = sizeof n;
    n.h.tid = t->tid;
    n.h.seq = seq;
    n.h.ts_ns = t->ts;
    n.exec = exec;
    n.node = 0x6000 + index;
    return n;
}

void tb_instantiate(struct tb *t, uint64_t exec, const struct tb_node *nodes, uint32_t nnodes, const uint32_t *edges,
                    uint32_t nedges)
{
    uint64_t graph = exec ^ 0x100000;
    struct hv_call c = call(t, HV_API_hipGraphInstantiate, 0);
    c.a.graph.graph = graph;
    c.a.graph.exec = exec;
    c.a.graph.nnodes = nnodes;
    c.a.graph.rec_flags = HV_GRAPH_NODES_RECORDED;
    emit(t, &c);
    for (uint32_t i = 0; i < nnodes; i++) {
        struct hv_graph_node n = node_rec(t, c.h.seq, exec, i);
        n.graph = graph;
        n.index = i;
        n.type = nodes[i].type;
        n.nptr = (uint16_t)nodes[i].nargs;
        if (n.type == HV_NODE_KERNEL) {
            n.u.kernel.func = 0x7000 + nodes[i].name_id;
            n.u.kernel.name_id = nodes[i].name_id;
            n.u.kernel.kernarg_bytes = nodes[i].no_layout ? 0 : 256;  /* the kernel's layout, as the tracer knew it */
        } else if (n.type == HV_NODE_MEMCPY) {
            n.u.memcpy.dst = nodes[i].dst;
            n.u.memcpy.src = nodes[i].src;
            n.u.memcpy.bytes = nodes[i].bytes;
            n.u.memcpy.dir = nodes[i].dir;
        } else if (n.type == HV_NODE_MEMSET) {
            n.u.memset.dst = nodes[i].dst;
            n.u.memset.bytes = nodes[i].bytes;
        }
        emit(t, &n);
        if (n.type == HV_NODE_KERNEL && nodes[i].nargs)
            kargs(t, c.h.seq, n.node, nodes[i].name_id, nodes[i].args, nodes[i].nargs);
    }
    /* Edges: as given, else the chain 0 -> 1 -> ... */
    uint32_t pairs[2 * 64];
    uint32_t ne = 0;
    if (edges) {
        for (uint32_t i = 0; i < nedges && i < 64; i++, ne++) {
            pairs[2 * ne] = edges[2 * i];
            pairs[2 * ne + 1] = edges[2 * i + 1];
        }
    } else {
        for (uint32_t i = 0; i + 1 < nnodes && i < 64; i++, ne++) {
            pairs[2 * ne] = i;
            pairs[2 * ne + 1] = i + 1;
        }
    }
    uint64_t buf[(sizeof(struct hv_graph_edges) + sizeof pairs) / 8 + 1];
    memset(buf, 0, sizeof buf);
    struct hv_graph_edges *e = (struct hv_graph_edges *)buf;
    e->h.type = HV_REC_GRAPH_EDGES;
    e->h.size = (uint16_t)hv_rec_padded(sizeof *e + ne * 8u);
    e->h.tid = t->tid;
    e->h.seq = c.h.seq;
    e->h.ts_ns = t->ts;
    e->exec = exec;
    e->graph = graph;
    e->count = ne;
    memcpy(e + 1, pairs, ne * 8u);
    emit(t, e);
}

void tb_instantiate_bare(struct tb *t, uint64_t exec)
{
    struct hv_call c = call(t, HV_API_hipGraphInstantiate, 0);
    c.a.graph.graph = exec ^ 0x100000;
    c.a.graph.exec = exec;
    emit(t, &c);
}

void tb_graph_launch(struct tb *t, uint64_t exec, uint64_t stream)
{
    struct hv_call c = call(t, HV_API_hipGraphLaunch, stream);
    c.a.graph.exec = exec;
    emit(t, &c);
}

void tb_exec_destroy(struct tb *t, uint64_t exec)
{
    struct hv_call c = call(t, HV_API_hipGraphExecDestroy, 0);
    c.a.graph.exec = exec;
    emit(t, &c);
}

/* Host observed `stream` complete up to `upto`: the sync call's payload and
 * the HV_REC_EPOCH record the tracer adds. */
static void epoch_advanced(struct tb *t, struct hv_call *c, uint64_t stream, uint64_t upto)
{
    int i = stream_slot(t, stream);
    t->streams[i].epoch++;
    c->a.sync.completed_stream = stream;
    c->a.sync.completed_seq = upto;
    c->a.sync.new_epoch = t->streams[i].epoch;
    emit(t, c);
    struct hv_epoch e;
    memset(&e, 0, sizeof e);
    e.h.type = HV_REC_EPOCH;
    e.h.size = sizeof e;
    e.h.tid = t->tid;
    e.h.seq = c->h.seq;
    e.h.ts_ns = t->ts;
    e.stream = stream;
    e.epoch = t->streams[i].epoch;
    e.completed_seq = upto;
    emit(t, &e);
}

void tb_stream_sync(struct tb *t, uint64_t stream)
{
    struct hv_call c = call(t, HV_API_hipStreamSynchronize, stream);
    epoch_advanced(t, &c, stream, c.h.seq);
}

void tb_device_sync(struct tb *t)
{
    struct hv_call c = call(t, HV_API_hipDeviceSynchronize, 0);
    emit(t, &c);
    for (int i = 0; i < t->nstreams; i++)
        t->streams[i].epoch++;
}

void tb_event_record(struct tb *t, uint64_t ev, uint64_t stream)
{
    struct hv_call c = call(t, HV_API_hipEventRecord, stream);
    c.a.event.event = ev;
    emit(t, &c);
    int i;
    for (i = 0; i < t->nevents && t->events[i].ev != ev; i++)
        ;
    if (i == TB_MAX_EVENTS)
        return;
    if (i == t->nevents)
        t->nevents++;
    t->events[i].ev = ev;
    t->events[i].stream = stream;
    t->events[i].seq = c.h.seq;
    t->events[i].epoch = c.epoch;
}

static int event_slot(struct tb *t, uint64_t ev)
{
    for (int i = 0; i < t->nevents; i++)
        if (t->events[i].ev == ev)
            return i;
    return -1;
}

void tb_stream_wait(struct tb *t, uint64_t stream, uint64_t ev)
{
    struct hv_call c = call(t, HV_API_hipStreamWaitEvent, stream);
    c.a.event.event = ev;
    int i = event_slot(t, ev);
    if (i >= 0) {
        c.a.event.record_stream = t->events[i].stream;
        c.a.event.record_seq = t->events[i].seq;
        c.a.event.record_epoch = t->events[i].epoch;
    }
    emit(t, &c);
}

void tb_event_sync(struct tb *t, uint64_t ev)
{
    struct hv_call c = call(t, HV_API_hipEventSynchronize, 0);
    c.a.sync.event = ev;
    int i = event_slot(t, ev);
    if (i < 0) {
        emit(t, &c);
        return;
    }
    epoch_advanced(t, &c, t->events[i].stream, t->events[i].seq);
}

size_t tb_count_rule(const struct hv_findings *s, int rule)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ngroups; i++)
        if (s->groups[i].f.rule == rule)
            n++;
    return n;
}

const struct hv_group *tb_group(const struct hv_findings *s, int rule)
{
    for (size_t i = 0; i < s->ngroups; i++)
        if (s->groups[i].f.rule == rule)
            return &s->groups[i];
    return NULL;
}

void tb_set_enabled(struct tb *t, uint64_t exec, uint32_t index, int on, uint16_t type)
{
    struct hv_call c = call(t, HV_API_hipGraphNodeSetEnabled, 0);
    c.a.graph.exec = exec;
    c.a.graph.node = 0x6000 + index;
    c.a.graph.rec_flags = HV_GRAPH_ENABLED_RECORDED;
    c.a.graph.flags = on != 0;
    emit(t, &c);
    struct hv_graph_node n = node_rec(t, c.h.seq, exec, index);
    n.type = on ? type : HV_NODE_EMPTY;
    emit(t, &n);
}
