/*
 * perfetto: Chrome trace-event JSON that ui.perfetto.dev (and
 * chrome://tracing) opens. Written while the engines run, so memory does not
 * grow with the trace:
 *   - one process per traced pid, one thread track per stream, one "host"
 *     track for synchronizations;
 *   - copies, memsets, kernel launches, graph replays, event records/waits
 *     as 1 us slices at their host timestamp (the trace records when the
 *     host enqueued them, not when the GPU ran them);
 *   - findings as instant events on the exposed op's stream, with the
 *     context in args; the first HV_PERFETTO_MAX_PER_GROUP occurrences of
 *     each group are drawn, the group's count says how many there were.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/u64map.h"
#include "analyze/report/describe.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

#define HV_PERFETTO_MAX_PER_GROUP 100u
#define HOST_TID 1u

struct hv_perfetto {
    FILE *out;
    uint64_t pid;
    int first;                   /* no event written yet */
    struct hv_u64map tids;       /* stream id -> tid, per trace */
    uint32_t next_tid;
};

static void sep(struct hv_perfetto *p)
{
    fputs(p->first ? "\n" : ",\n", p->out);
    p->first = 0;
}

static void ts(FILE *out, uint64_t ns)
{
    fprintf(out, ",\"ts\":%" PRIu64 ".%03" PRIu64, ns / 1000u, ns % 1000u);
}

struct hv_perfetto *hv_perfetto_open(FILE *out)
{
    struct hv_perfetto *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->out = out;
    p->first = 1;
    hv_u64map_init(&p->tids);
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
    return p;
}

static void thread_name(struct hv_perfetto *p, uint32_t tid, const char *name)
{
    sep(p);
    fprintf(p->out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu64 ",\"tid\":%u,\"args\":{\"name\":",
            p->pid, tid);
    hv_json_str(p->out, name);
    fputs("}}", p->out);
}

void hv_perfetto_begin_trace(struct hv_perfetto *p, uint64_t pid, const char *label)
{
    p->pid = pid;
    hv_u64map_free(&p->tids);
    p->next_tid = HOST_TID + 1;
    sep(p);
    fprintf(p->out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu64 ",\"args\":{\"name\":", pid);
    char buf[600];
    snprintf(buf, sizeof buf, "pid %" PRIu64 " %s", pid, label ? label : "");
    hv_json_str(p->out, buf);
    fputs("}}", p->out);
    thread_name(p, HOST_TID, "host (syncs)");
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

static void slice(struct hv_perfetto *p, uint32_t tid, const char *cat, const char *name, uint64_t ns,
                  const struct hv_call *c)
{
    sep(p);
    fprintf(p->out, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":", cat);
    hv_json_str(p->out, name);
    fprintf(p->out, ",\"pid\":%" PRIu64 ",\"tid\":%u", p->pid, tid);
    ts(p->out, ns);
    fprintf(p->out, ",\"dur\":1,\"args\":{\"seq\":%" PRIu64, c->h.seq);
    if (c->epoch != HV_EPOCH_UNKNOWN)
        fprintf(p->out, ",\"epoch\":%" PRIu64, c->epoch);
    switch (hv_api_op(c->api)) {
    case HV_OP_COPY:
        fprintf(p->out, ",\"dst\":\"0x%" PRIx64 "\",\"src\":\"0x%" PRIx64 "\",\"bytes\":%" PRIu64 ",\"src_mem\":\"%s\"",
                c->a.copy.dst, c->a.copy.src, c->a.copy.bytes, hv_mem_text(c->a.copy.src_mem));
        break;
    case HV_OP_MEMSET:
        fprintf(p->out, ",\"dst\":\"0x%" PRIx64 "\",\"bytes\":%" PRIu64, c->a.memset.dst, c->a.memset.bytes);
        break;
    case HV_OP_GRAPH:
        fprintf(p->out, ",\"exec\":\"0x%" PRIx64 "\"", c->a.graph.exec);
        break;
    case HV_OP_EVENT:
        fprintf(p->out, ",\"event\":\"0x%" PRIx64 "\"", c->a.event.event);
        break;
    default:
        break;
    }
    fputs("}}", p->out);
}

static void on_call(void *ctx, const struct hv_model *m, const struct hv_call *c, uint32_t s)
{
    struct hv_perfetto *p = ctx;
    char name[96], b[32];
    enum hv_op op = hv_api_op(c->api);
    if (op == HV_OP_SYNC) {
        slice(p, HOST_TID, "sync", hv_api_name(c->api), c->h.ts_ns, c);
        return;
    }
    if (s == HV_NO_INDEX || s >= m->nstreams)
        return;
    uint32_t tid = tid_of(p, m->streams[s].id);
    switch (op) {
    case HV_OP_COPY:
        snprintf(name, sizeof name, "%s %s %s", hv_api_name(c->api), hv_dir_text(c->a.copy.dir),
                 hv_bytes_text(c->a.copy.bytes, b, sizeof b));
        slice(p, tid, "copy", name, c->h.ts_ns, c);
        break;
    case HV_OP_MEMSET:
        slice(p, tid, "memset", hv_api_name(c->api), c->h.ts_ns, c);
        break;
    case HV_OP_LAUNCH: {
        const char *k = hv_model_name(m, c->a.launch.name_id, c->a.launch.func);
        slice(p, tid, "launch", k ? k : hv_api_name(c->api), c->h.ts_ns, c);
        break;
    }
    case HV_OP_GRAPH:
        snprintf(name, sizeof name, "replay exec 0x%" PRIx64, c->a.graph.exec);
        slice(p, tid, "replay", name, c->h.ts_ns, c);
        break;
    case HV_OP_EVENT:
        slice(p, tid, "event", hv_api_name(c->api), c->h.ts_ns, c);
        break;
    default:
        break;
    }
}

struct hv_engine_observer hv_perfetto_observer(struct hv_perfetto *p)
{
    struct hv_engine_observer o = {.ctx = p, .call = on_call};
    return o;
}

void hv_perfetto_on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new)
{
    struct hv_perfetto *p = ctx;
    (void)is_new;
    if (g->count > HV_PERFETTO_MAX_PER_GROUP || f->pid != p->pid)
        return;
    const struct hv_fside *s = f->b.kind != HV_SIDE_NONE ? &f->b : &f->a;
    uint32_t tid = s->kind == HV_SIDE_TRACE || s->kind == HV_SIDE_FREE ? HOST_TID : tid_of(p, s->stream);
    sep(p);
    fprintf(p->out, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"finding\",\"name\":\"%s\",\"pid\":%" PRIu64 ",\"tid\":%u",
            hv_rule_name(f->rule), p->pid, tid);
    ts(p->out, s->ts_ns);
    fprintf(p->out, ",\"args\":{\"severity\":\"%s\",\"lo\":\"0x%" PRIx64 "\",\"hi\":\"0x%" PRIx64
                    "\",\"earlier_seq\":%" PRIu64 ",\"later_seq\":%" PRIu64 ",\"earlier_api\":\"%s\"",
            hv_severity_name(f->severity), f->lo, f->hi, f->a.seq, f->b.seq, hv_api_name(f->a.api));
    if (f->b.exec)
        fprintf(p->out, ",\"exec\":\"0x%" PRIx64 "\",\"node_index\":%d,\"arg_index\":%d", f->b.exec,
                f->b.node_index, f->b.arg_index);
    if (f->b.name) {
        fputs(",\"kernel\":", p->out);
        hv_json_str(p->out, f->b.name);
    }
    fputs(",\"why\":", p->out);
    hv_json_str(p->out, hv_rule_why(f->rule));
    fputs("}}", p->out);
}

int hv_perfetto_close(struct hv_perfetto *p)
{
    fputs("\n]}\n", p->out);
    int rc = ferror(p->out) ? -1 : 0;
    hv_u64map_free(&p->tids);
    free(p);
    return rc;
}
