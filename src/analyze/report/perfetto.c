/*
 * perfetto: Chrome trace-event JSON that ui.perfetto.dev (and
 * chrome://tracing) opens. Written while the engines run, so memory does not
 * grow with the trace:
 *   - one process per traced pid, one thread track per stream, one "host"
 *     track for synchronizations and guard insertions;
 *   - copies, memsets, kernel launches, graph replays, event records/waits
 *     as 1 us slices at their host timestamp (the trace records when the
 *     host enqueued them, not when the GPU ran them);
 *   - findings as instant events on the exposed op's stream with a flow
 *     arrow from the write (or earlier op) to it; the first
 *     HV_PERFETTO_MAX_PER_GROUP occurrences of each group are drawn, the
 *     group's count says how many there were.
 * Size: a slice carries its name, place, time and seq only (the seq finds
 * the call in `hipvis-dump`); the copy's direction and size are in its
 * name. Before this, every slice carried its addresses, epoch and memory
 * kinds, which made the JSON ~15x the trace (docs/analysis.md has figures).
 * --window and --clock (view.h) cut and shift what is written.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "analyze/report/describe.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

#define HV_PERFETTO_MAX_PER_GROUP 32u
#define HOST_TID 1u

struct hv_perfetto {
    FILE *out;
    struct hv_json w;            /* on out: {"displayTimeUnit":..,"traceEvents":[ one event a line */
    struct hv_view view;
    uint64_t pid, start_ns;
    int64_t off;                 /* recorded ts -> output clock */
    struct hv_u64map tids;       /* stream id -> tid, per trace */
    uint32_t next_tid;
    uint64_t next_flow;
    const char *(*string)(void *, uint32_t);
    void *string_ctx;
};

/* Opens the next event, on a line of its own: {"ph":ph */
static void event(struct hv_perfetto *p, const char *ph)
{
    hv_json_nl(&p->w);
    hv_json_obj(&p->w);
    hv_json_kstr(&p->w, "ph", ph);
}

/* Microseconds with ns precision, on the output clock (may be negative
 * with base=: events before the profiler's base time). */
static void ts(struct hv_perfetto *p, uint64_t rec_ns)
{
    int64_t ns = (int64_t)rec_ns + p->off;
    uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;
    char b[32];
    snprintf(b, sizeof b, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000u, a % 1000u);
    hv_json_key(&p->w, "ts");
    hv_json_raw(&p->w, b);
}

/* An event's track and time: "pid", "tid", "ts". */
static void at(struct hv_perfetto *p, uint32_t tid, uint64_t rec_ns)
{
    hv_json_ku64(&p->w, "pid", p->pid);
    hv_json_ku64(&p->w, "tid", tid);
    ts(p, rec_ns);
}

/* A metadata event naming a process or (tid != 0) a thread track. */
static void meta_name(struct hv_perfetto *p, const char *what, uint32_t tid, const char *name)
{
    event(p, "M");
    hv_json_kstr(&p->w, "name", what);
    hv_json_ku64(&p->w, "pid", p->pid);
    if (tid)
        hv_json_ku64(&p->w, "tid", tid);
    hv_json_kobj(&p->w, "args");
    hv_json_kstr(&p->w, "name", name);
    hv_json_obj_end(&p->w);
    hv_json_obj_end(&p->w);
}

struct hv_perfetto *hv_perfetto_open(FILE *out, const struct hv_view *view)
{
    struct hv_perfetto *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->out = out;
    hv_json_init(&p->w, out, 0);
    if (view)
        p->view = *view;
    else
        hv_view_init(&p->view);
    hv_u64map_init(&p->tids);
    hv_json_obj(&p->w);
    hv_json_kstr(&p->w, "displayTimeUnit", "ns");
    hv_json_karr(&p->w, "traceEvents");
    return p;
}

static void thread_name(struct hv_perfetto *p, uint32_t tid, const char *name)
{
    meta_name(p, "thread_name", tid, name);
}

void hv_perfetto_begin_trace(struct hv_perfetto *p, const struct hv_file_header *hdr,
                             const char *(*string)(void *ctx, uint32_t id), void *string_ctx)
{
    p->string = string;
    p->string_ctx = string_ctx;
    p->pid = hdr ? hdr->pid : 0;
    p->start_ns = hdr ? hdr->start_ns : 0;
    p->off = hv_view_offset(&p->view, hdr);
    hv_u64map_free(&p->tids);
    p->next_tid = HOST_TID + 1;
    char buf[600], vb[160];
    snprintf(buf, sizeof buf, "pid %" PRIu64 " %s (%s)", p->pid, hdr ? hdr->exe : "",
             hv_view_text(&p->view, vb, sizeof vb));
    meta_name(p, "process_name", 0, buf);
    thread_name(p, HOST_TID, "host (syncs, guards)");
}

static uint32_t tid_of(struct hv_perfetto *p, uint64_t stream)
{
    uint32_t t = hv_u64map_get(&p->tids, stream);
    if (t != HV_U64MAP_NONE)
        return t;
    t = p->next_tid++;
    hv_u64map_put(&p->tids, stream, t);
    char b[48], name[64];
    snprintf(name, sizeof name, "stream %s", hv_stream_text(stream, b, sizeof b));
    thread_name(p, t, name);
    return t;
}

static void slice(struct hv_perfetto *p, uint32_t tid, const char *name, uint64_t rec_ns, uint64_t seq)
{
    event(p, "X");
    hv_json_kstr(&p->w, "name", name);
    at(p, tid, rec_ns);
    hv_json_ku64(&p->w, "dur", 1);
    hv_json_kobj(&p->w, "args");
    hv_json_ku64(&p->w, "seq", seq);
    hv_json_obj_end(&p->w);
    hv_json_obj_end(&p->w);
}

static void on_call(void *ctx, const struct hv_model *m, const struct hv_call *c, uint32_t s)
{
    struct hv_perfetto *p = ctx;
    char name[96], b[32];
    if (!hv_view_in(&p->view, c->h.seq, c->h.ts_ns, p->start_ns))
        return;
    enum hv_op op = hv_api_op(c->api);
    if (op == HV_OP_SYNC) {
        slice(p, HOST_TID, hv_api_name(c->api), c->h.ts_ns, c->h.seq);
        return;
    }
    if (s == HV_NO_INDEX || s >= m->nstreams)
        return;
    uint32_t tid = tid_of(p, m->streams[s].id);
    switch (op) {
    case HV_OP_COPY:
        snprintf(name, sizeof name, "%s %s %s", hv_api_name(c->api), hv_dir_text(c->a.copy.dir),
                 hv_bytes_text(c->a.copy.bytes, b, sizeof b));
        slice(p, tid, name, c->h.ts_ns, c->h.seq);
        break;
    case HV_OP_MEMSET:
        snprintf(name, sizeof name, "%s %s", hv_api_name(c->api), hv_bytes_text(c->a.memset.bytes, b, sizeof b));
        slice(p, tid, name, c->h.ts_ns, c->h.seq);
        break;
    case HV_OP_LAUNCH: {
        const char *k = hv_model_name(m, c->a.launch.name_id, c->a.launch.func);
        slice(p, tid, k ? k : hv_api_name(c->api), c->h.ts_ns, c->h.seq);
        break;
    }
    case HV_OP_GRAPH:
        snprintf(name, sizeof name, "replay exec 0x%" PRIx64, c->a.graph.exec);
        slice(p, tid, name, c->h.ts_ns, c->h.seq);
        break;
    case HV_OP_EVENT:
        slice(p, tid, hv_api_name(c->api), c->h.ts_ns, c->h.seq);
        break;
    default:
        break;
    }
}

/* Regions and marks (HV_REC_MARK): push/pop as B/E slices on a track per
 * host thread, start/end as async slices, marks as instants. */
static void mark(struct hv_perfetto *p, const struct hv_mark *mk)
{
    const struct hv_rec_header *rec = &mk->h;
    if (mk->kind != HV_MARK_POP && mk->kind != HV_MARK_END && !hv_view_in(&p->view, rec->seq, rec->ts_ns, p->start_ns))
        return;
    const char *name = mk->name_id && p->string ? p->string(p->string_ctx, mk->name_id) : NULL;
    uint64_t key = 0xfeed000000000000ull | rec->tid;  /* not a stream id: those set bit 63 or 62 alone */
    uint32_t tid = HOST_TID;
    if (mk->kind <= HV_MARK_POINT) {
        /* a thread's own track: real thread ids, far above the stream tracks' small numbers */
        tid = rec->tid;
        if (hv_u64map_get(&p->tids, key) == HV_U64MAP_NONE) {
            char tn[64];
            snprintf(tn, sizeof tn, "thread %u regions", rec->tid);
            hv_u64map_put(&p->tids, key, 1);
            thread_name(p, tid, tn);
        }
    }
    switch (mk->kind) {
    case HV_MARK_PUSH: event(p, "B"); break;
    case HV_MARK_POP: event(p, "E"); break;
    case HV_MARK_START:
    case HV_MARK_END:
        event(p, mk->kind == HV_MARK_START ? "b" : "e");
        hv_json_kstr(&p->w, "cat", "region");
        hv_json_ku64(&p->w, "id", mk->id);
        break;
    default:
        event(p, "i");
        hv_json_kstr(&p->w, "s", "t");
        break;
    }
    if (mk->kind == HV_MARK_RECORD_ON || mk->kind == HV_MARK_RECORD_OFF)
        name = mk->kind == HV_MARK_RECORD_ON ? "recording resumed" : "recording paused";
    if (mk->kind != HV_MARK_POP)
        hv_json_kstr(&p->w, "name", name ? name : mk->kind == HV_MARK_POINT ? "mark" : "region");
    at(p, tid, rec->ts_ns);
    hv_json_obj_end(&p->w);
}

void hv_perfetto_record(struct hv_perfetto *p, const struct hv_rec_header *rec)
{
    if (rec->type == HV_REC_MARK && rec->size >= sizeof(struct hv_mark)) {
        mark(p, (const struct hv_mark *)rec);
        return;
    }
    if (rec->type != HV_REC_GUARD || rec->size < sizeof(struct hv_guard))
        return;
    if (!hv_view_in(&p->view, rec->seq, rec->ts_ns, p->start_ns))
        return;
    const struct hv_guard *g = (const struct hv_guard *)rec;
    char name[96];
    snprintf(name, sizeof name, "guard before replay exec 0x%" PRIx64, g->exec);
    slice(p, HOST_TID, g->exec ? name : "guard after copy", rec->ts_ns, rec->seq);
}

struct hv_engine_observer hv_perfetto_observer(struct hv_perfetto *p)
{
    struct hv_engine_observer o = {.ctx = p, .call = on_call};
    return o;
}

static int on_stream(const struct hv_fside *s)
{
    return s->kind != HV_SIDE_NONE && s->kind != HV_SIDE_TRACE && s->kind != HV_SIDE_FREE;
}

static uint32_t side_tid(struct hv_perfetto *p, const struct hv_fside *s)
{
    return on_stream(s) && s->kind != HV_SIDE_SYNC ? tid_of(p, s->stream) : HOST_TID;
}

void hv_perfetto_on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new)
{
    struct hv_perfetto *p = ctx;
    (void)is_new;
    if (g->count > HV_PERFETTO_MAX_PER_GROUP || f->pid != p->pid)
        return;
    const struct hv_fside *s = f->b.kind != HV_SIDE_NONE ? &f->b : &f->a;
    if (s->kind != HV_SIDE_TRACE && !hv_view_in(&p->view, s->seq, s->ts_ns, p->start_ns))
        return;
    const char *rule = hv_rule_name(f->rule);
    uint32_t tid = s->kind == HV_SIDE_TRACE || s->kind == HV_SIDE_FREE ? HOST_TID : tid_of(p, s->stream);
    /* The arrow: from the earlier op to the exposed one, both drawn slices. */
    if (s == &f->b && on_stream(&f->a) && on_stream(&f->b) &&
        hv_view_in(&p->view, f->a.seq, f->a.ts_ns, p->start_ns)) {
        uint64_t id = ++p->next_flow;
        for (int end = 0; end < 2; end++) {
            const struct hv_fside *x = end ? &f->b : &f->a;
            uint32_t xtid = side_tid(p, x);   /* may name a new track: an event of its own, first */
            event(p, end ? "f" : "s");
            if (end)
                hv_json_kstr(&p->w, "bp", "e");
            hv_json_kstr(&p->w, "cat", "finding");
            hv_json_kstr(&p->w, "name", rule);
            hv_json_ku64(&p->w, "id", id);
            at(p, xtid, x->ts_ns);
            hv_json_obj_end(&p->w);
        }
    }
    event(p, "i");
    hv_json_kstr(&p->w, "s", "t");
    hv_json_kstr(&p->w, "cat", "finding");
    hv_json_kstr(&p->w, "name", rule);
    at(p, tid, s->ts_ns);
    hv_json_kobj(&p->w, "args");
    hv_json_kstr(&p->w, "severity", hv_severity_name(f->severity));
    hv_json_khex(&p->w, "lo", f->lo);
    hv_json_khex(&p->w, "hi", f->hi);
    hv_json_ku64(&p->w, "earlier_seq", f->a.seq);
    hv_json_ku64(&p->w, "later_seq", f->b.seq);
    hv_json_kstr(&p->w, "earlier_api", hv_api_name(f->a.api));
    if (f->a.kind != HV_SIDE_NONE && f->a.epoch != HV_EPOCH_UNKNOWN)
        hv_json_ku64(&p->w, "earlier_epoch", f->a.epoch);
    if (f->b.exec) {
        hv_json_khex(&p->w, "exec", f->b.exec);
        hv_json_ki64(&p->w, "node_index", f->b.node_index);
        hv_json_ki64(&p->w, "arg_index", f->b.arg_index);
    }
    if (f->b.name)
        hv_json_kstr(&p->w, "kernel", f->b.name);
    hv_json_kstr(&p->w, "why", hv_rule_why(f->rule));
    hv_json_obj_end(&p->w);
    hv_json_obj_end(&p->w);
}

int hv_perfetto_close(struct hv_perfetto *p)
{
    hv_json_nl(&p->w);
    hv_json_arr_end(&p->w);
    hv_json_obj_end(&p->w);
    hv_json_eol(&p->w);
    int rc = ferror(p->out) ? -1 : 0;
    hv_u64map_free(&p->tids);
    free(p);
    return rc;
}
