/* html: the self-contained HTML report. See html.h. */
#include "analyze/report/html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/free_all.h"
#include "common/u64map.h"
#include "analyze/placement.h"
#include "analyze/report/describe.h"
#include "analyze/rules/rules.h"
#include "format/names.h"

#define NBINS 512u              /* density bins per track */
#define RING 256u               /* ops kept before / after a new finding group past the cap */
#define MAX_TRACKS 4096u        /* beyond: folded into one "other streams" track per process */
#define MAX_EXECS 256u          /* graphs kept (the latest inventory per exec) */
#define MAX_GRAPH_NODES 2000u   /* nodes drawn per graph; the rest counted */
#define MAX_EPOCHS 50000u       /* epoch-boundary ticks drawn */
#define MAX_MARKS 20000u        /* regions and marks drawn (the page says how many more) */
#define MAX_OPEN 256u           /* open regions tracked (push/pop per thread, start/end by id) */

enum ev_kind { K_COPY, K_MEMSET, K_LAUNCH, K_REPLAY, K_SYNC, K_EVREC, K_EVWAIT, K_GUARD, K_MARK, K_OTHER };

struct ev {
    int64_t t;                  /* output clock, ns */
    uint64_t seq, x;            /* x: bytes (copy/memset), exec table index (replay) */
    uint32_t name;
    uint16_t track;
    uint8_t kind, pad;
};

struct track {
    uint32_t proc;
    uint8_t host;
    char name[64];
    uint32_t bins[NBINS];
};

struct proc {
    uint64_t pid, start_ns;
    int64_t off;
    char exe[256];
    char *path;
    uint32_t host_track, other_track, mark_track;
    const char *(*string)(void *, uint32_t);
    void *string_ctx;
    struct hv_u64map tracks;    /* stream id -> track */
    struct hv_u64map epochs;    /* stream id -> index into estate */
    uint64_t ops, drops[HV_DROP__COUNT];
    int has_footer;
    /* the last host observation (sync call) seen */
    uint64_t obs_seq, obs_ts;
    uint16_t obs_api;
};

struct estate { uint64_t epoch, b_seq, b_ts, completed; uint16_t b_api; };

/* A region (push..pop, start..end) or an instant mark, on its process's
 * "regions" track. */
struct mark { int64_t t0, t1; uint32_t name, track; uint8_t kind, depth; };

struct gx { uint64_t pid, b_seq; int64_t b_t; uint16_t b_api; uint8_t set; };

struct graph { uint64_t pid, handle; char *json; size_t len; };

struct hv_html {
    struct hv_view view;
    uint64_t max_detail, extra_budget;
    struct proc *procs;
    size_t nprocs, capprocs;
    struct track *tracks;
    size_t ntracks, captracks;
    char **names;
    size_t nnames, capnames;
    struct hv_u64map name_ix;   /* tagged key -> names[] */
    uint64_t *execs;
    size_t nexecs, capexecs;
    struct hv_u64map exec_ix;
    struct ev *ev;              /* kept ops */
    size_t nev, capev;
    struct ev ring[RING];       /* past the cap: the latest ops not kept */
    uint32_t ring_head, ring_n, tail_left;
    uint64_t total, in_window;
    int64_t origin, width;      /* histogram: bin 0 starts at origin; width ns per bin */
    int have_origin;
    struct estate *estate;
    size_t nestate, capestate;
    struct etick { int64_t t; uint64_t seq, epoch; uint32_t track; } *eticks;
    size_t neticks, capeticks;
    uint64_t eticks_dropped;
    const struct hv_findings *store;
    struct mark *marks;
    size_t nmarks, capmarks;
    uint64_t marks_dropped;
    struct { uint64_t key; size_t mark; } open[MAX_OPEN];  /* key: tid (push) or id|1<<63 (start) */
    uint32_t nopen;
    struct gx *gx;              /* by group index */
    size_t ngx, capgx;
    struct graph *graphs;
    size_t ngraphs, capgraphs;
    uint64_t graphs_dropped;
    int oom;
};

#define GROW(h, arr, n, cap) (HV_GROW_ZERO(arr, (n) + 1, cap, 16) ? 0 : ((h)->oom = 1, -1))
/* GROW for a table kept to `max` entries: past it, counts one more dropped. */
#define GROW_CAPPED(h, arr, n, cap, max, dropped) ((n) >= (max) ? ((dropped)++, -1) : GROW(h, arr, n, cap))

struct hv_html *hv_html_open(const struct hv_findings *store, const struct hv_view *view, uint64_t max_detail)
{
    struct hv_html *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->store = store;
    if (view)
        h->view = *view;
    else
        hv_view_init(&h->view);
    h->max_detail = max_detail ? max_detail : HV_HTML_MAX_DETAIL;
    h->extra_budget = h->max_detail / 2;
    h->width = 1000;
    hv_u64map_init(&h->name_ix);
    hv_u64map_init(&h->exec_ix);
    return h;
}

static struct proc *cur(struct hv_html *h)
{
    return h->nprocs ? &h->procs[h->nprocs - 1] : NULL;
}

static uint32_t new_track(struct hv_html *h, const char *name, int host)
{
    if (GROW(h, h->tracks, h->ntracks, h->captracks))
        return 0;
    struct track *t = &h->tracks[h->ntracks];
    memset(t, 0, sizeof *t);
    t->proc = (uint32_t)(h->nprocs - 1);
    t->host = (uint8_t)host;
    snprintf(t->name, sizeof t->name, "%s", name);
    return (uint32_t)h->ntracks++;
}

void hv_html_begin_trace(struct hv_html *h, const struct hv_file_header *hdr, const char *path,
                         const char *(*string)(void *ctx, uint32_t id), void *string_ctx)
{
    if (GROW(h, h->procs, h->nprocs, h->capprocs))
        return;
    struct proc *p = &h->procs[h->nprocs++];
    memset(p, 0, sizeof *p);
    p->pid = hdr ? hdr->pid : 0;
    p->start_ns = hdr ? hdr->start_ns : 0;
    p->off = hv_view_offset(&h->view, hdr);
    snprintf(p->exe, sizeof p->exe, "%s", hdr ? hdr->exe : "");
    p->path = strdup(path ? path : "");
    hv_u64map_init(&p->tracks);
    hv_u64map_init(&p->epochs);
    p->host_track = new_track(h, "host: syncs, guards", 1);
    p->other_track = UINT32_MAX;
    p->mark_track = UINT32_MAX;
    p->string = string;
    p->string_ctx = string_ctx;
    h->nopen = 0;
    if (!h->have_origin && hdr) {
        h->origin = (int64_t)hdr->start_ns + p->off;
        h->have_origin = 1;
    }
    h->ring_n = 0;  /* context rings do not span traces */
    h->tail_left = 0;
}

static uint32_t track_of(struct hv_html *h, struct proc *p, uint64_t stream)
{
    uint32_t t = hv_u64map_get(&p->tracks, stream);
    if (t != HV_U64MAP_NONE)
        return t;
    char b[48], name[64];
    if (h->ntracks >= MAX_TRACKS) {
        if (p->other_track == UINT32_MAX)
            p->other_track = new_track(h, "other streams (track limit)", 0);
        t = p->other_track;
    } else {
        snprintf(name, sizeof name, "stream %s", hv_stream_text(stream, b, sizeof b));
        t = new_track(h, name, 0);
    }
    if (hv_u64map_put(&p->tracks, stream, t) != 0)
        h->oom = 1;
    return t;
}

static uint32_t name_of(struct hv_html *h, uint64_t key, const char *text)
{
    uint32_t n = hv_u64map_get(&h->name_ix, key);
    if (n != HV_U64MAP_NONE)
        return n;
    if (GROW(h, h->names, h->nnames, h->capnames))
        return 0;
    h->names[h->nnames] = strdup(text ? text : "?");
    if (!h->names[h->nnames]) {
        h->oom = 1;
        return 0;
    }
    n = (uint32_t)h->nnames++;
    if (hv_u64map_put(&h->name_ix, key, n) != 0)
        h->oom = 1;
    return n;
}

static uint32_t exec_of(struct hv_html *h, uint64_t handle)
{
    uint32_t n = hv_u64map_get(&h->exec_ix, handle);
    if (n != HV_U64MAP_NONE)
        return n;
    if (GROW(h, h->execs, h->nexecs, h->capexecs))
        return 0;
    h->execs[h->nexecs] = handle;
    n = (uint32_t)h->nexecs++;
    if (hv_u64map_put(&h->exec_ix, handle, n) != 0)
        h->oom = 1;
    return n;
}

/* Density: every op in the window, whatever is kept. The bins double in
 * width (pairs merge) when an op falls past the last one, so their number
 * stays fixed however long the trace is. */
static void count_bin(struct hv_html *h, uint32_t track, int64_t t)
{
    int64_t rel = t - h->origin;
    if (rel < 0)
        rel = 0;
    while (rel / h->width >= NBINS) {
        for (size_t k = 0; k < h->ntracks; k++) {
            uint32_t *b = h->tracks[k].bins;
            for (uint32_t i = 0; i < NBINS / 2; i++)
                b[i] = b[2 * i] + b[2 * i + 1];
            memset(b + NBINS / 2, 0, NBINS / 2 * sizeof *b);
        }
        h->width *= 2;
    }
    uint32_t *bin = &h->tracks[track].bins[rel / h->width];
    if (*bin < UINT32_MAX)
        (*bin)++;
}

static void keep(struct hv_html *h, const struct ev *e)
{
    if (GROW(h, h->ev, h->nev, h->capev))
        return;
    h->ev[h->nev++] = *e;
}

static void add(struct hv_html *h, struct proc *p, uint64_t seq, uint64_t rec_ts, uint32_t track, int kind,
                uint32_t name, uint64_t x)
{
    h->total++;
    if (!hv_view_in(&h->view, seq, rec_ts, p->start_ns))
        return;
    struct ev e = {.t = (int64_t)rec_ts + p->off, .seq = seq, .x = x, .name = name, .track = (uint16_t)track,
                   .kind = (uint8_t)kind};
    h->in_window++;
    p->ops++;
    count_bin(h, track, e.t);
    if (h->nev < h->max_detail) {
        keep(h, &e);
    } else if (h->tail_left) {
        h->tail_left--;
        keep(h, &e);
    } else {
        h->ring[(h->ring_head + h->ring_n) % RING] = e;
        if (h->ring_n < RING)
            h->ring_n++;
        else
            h->ring_head = (h->ring_head + 1) % RING;
    }
}

/* A new finding group past the cap: keep the ops just before it (the
 * ring) and just after it, while the extra budget lasts. */
static void keep_context(struct hv_html *h)
{
    if (h->nev < h->max_detail || h->nev >= h->max_detail + h->extra_budget)
        return;
    for (uint32_t i = 0; i < h->ring_n; i++)
        keep(h, &h->ring[(h->ring_head + i) % RING]);
    h->ring_n = 0;
    h->ring_head = 0;
    h->tail_left = RING;
}

static struct estate *estate_of(struct hv_html *h, struct proc *p, uint64_t stream)
{
    uint32_t i = hv_u64map_get(&p->epochs, stream);
    if (i == HV_U64MAP_NONE) {
        if (GROW(h, h->estate, h->nestate, h->capestate))
            return NULL;
        i = (uint32_t)h->nestate++;
        if (hv_u64map_put(&p->epochs, stream, i) != 0)
            h->oom = 1;
        memset(&h->estate[i], 0, sizeof h->estate[i]);
        h->estate[i].epoch = HV_EPOCH_UNKNOWN;
    }
    return &h->estate[i];
}

static void epoch_seen(struct hv_html *h, struct proc *p, uint64_t stream, uint64_t epoch, uint64_t b_seq,
                       uint64_t b_ts, uint16_t b_api)
{
    struct estate *s = estate_of(h, p, stream);
    if (!s)
        return;
    if (s->epoch == epoch)
        return;
    int first = s->epoch == HV_EPOCH_UNKNOWN;
    s->epoch = epoch;
    s->b_seq = b_seq;
    s->b_ts = b_ts;
    s->b_api = b_api;
    if (first || !b_seq || !hv_view_in(&h->view, b_seq, b_ts, p->start_ns))
        return;
    if (GROW_CAPPED(h, h->eticks, h->neticks, h->capeticks, MAX_EPOCHS, h->eticks_dropped))
        return;
    uint32_t track = track_of(h, p, stream);
    h->eticks[h->neticks++] = (struct etick){.t = (int64_t)b_ts + p->off, .seq = b_seq, .epoch = epoch, .track = track};
}

static void on_call(void *ctx, const struct hv_model *m, const struct hv_call *c, uint32_t s)
{
    struct hv_html *h = ctx;
    struct proc *p = cur(h);
    if (!p)
        return;
    enum hv_op op = hv_api_op(c->api);
    uint64_t api = c->api;
    if (op == HV_OP_SYNC) {
        p->obs_seq = c->h.seq;
        p->obs_ts = c->h.ts_ns;
        p->obs_api = c->api;
        add(h, p, c->h.seq, c->h.ts_ns, p->host_track, K_SYNC, name_of(h, 1ull << 60 | api, hv_api_name(c->api)), 0);
        return;
    }
    if (s == HV_NO_INDEX || s >= m->nstreams)
        return;
    uint64_t sid = m->streams[s].id;
    /* A call that made the host observe its own stream's work complete (a
     * blocking copy, say) is an observation too: the model says so by
     * advancing the stream's completed_seq. */
    struct estate *es = estate_of(h, p, sid);
    if (es && m->streams[s].completed_seq > es->completed) {
        es->completed = m->streams[s].completed_seq;
        p->obs_seq = c->h.seq;
        p->obs_ts = c->h.ts_ns;
        p->obs_api = c->api;
    }
    if (c->epoch != HV_EPOCH_UNKNOWN)
        epoch_seen(h, p, sid, c->epoch, p->obs_seq, p->obs_ts, p->obs_api);
    uint32_t t = track_of(h, p, sid);
    char nm[96];
    switch (op) {
    case HV_OP_COPY:
        snprintf(nm, sizeof nm, "%s %s", hv_api_name(c->api), hv_dir_text(c->a.copy.dir));
        add(h, p, c->h.seq, c->h.ts_ns, t, K_COPY, name_of(h, 2ull << 60 | api << 8 | c->a.copy.dir, nm),
            c->a.copy.bytes);
        break;
    case HV_OP_MEMSET:
        add(h, p, c->h.seq, c->h.ts_ns, t, K_MEMSET, name_of(h, 1ull << 60 | api, hv_api_name(c->api)),
            c->a.memset.bytes);
        break;
    case HV_OP_LAUNCH: {
        const char *k = hv_model_name(m, c->a.launch.name_id, c->a.launch.func);
        uint64_t key = 3ull << 60 | (uint64_t)(h->nprocs & 0xfff) << 48 |
                       (c->a.launch.name_id ? c->a.launch.name_id : (c->a.launch.func & 0xffffffffffffull));
        add(h, p, c->h.seq, c->h.ts_ns, t, K_LAUNCH, name_of(h, key, k ? k : hv_api_name(c->api)), 0);
        break;
    }
    case HV_OP_GRAPH:
        add(h, p, c->h.seq, c->h.ts_ns, t, K_REPLAY, name_of(h, 1ull << 60 | api, hv_api_name(c->api)),
            exec_of(h, c->a.graph.exec));
        break;
    case HV_OP_EVENT: {
        const char *n = hv_api_name(c->api);
        int kind = strstr(n, "Wait") ? K_EVWAIT : strstr(n, "Record") ? K_EVREC : K_OTHER;
        if (kind == K_OTHER)  /* create/destroy: not stream work */
            break;
        add(h, p, c->h.seq, c->h.ts_ns, t, kind, name_of(h, 1ull << 60 | api, n), 0);
        break;
    }
    default:
        break;
    }
}

struct hv_engine_observer hv_html_observer(struct hv_html *h)
{
    struct hv_engine_observer o = {.ctx = h, .call = on_call};
    return o;
}

/* Regions and marks (HV_REC_MARK, docs/names.md): ranges are kept when
 * they close (an open range has t1 = -1 until then; still open at the end
 * of the trace: it runs to the end). */
static void mark_rec(struct hv_html *h, struct proc *p, const struct hv_mark *mk)
{
    const struct hv_rec_header *rec = &mk->h;
    int64_t t = (int64_t)rec->ts_ns + p->off;
    if (mk->kind == HV_MARK_POP || mk->kind == HV_MARK_END) {
        uint64_t key = mk->kind == HV_MARK_POP ? rec->tid : (mk->id | 1ull << 63);
        for (uint32_t i = h->nopen; i-- > 0;)
            if (h->open[i].key == key) {
                h->marks[h->open[i].mark].t1 = t;
                h->open[i] = h->open[--h->nopen];
                break;
            }
        return;
    }
    if (!hv_view_in(&h->view, rec->seq, rec->ts_ns, p->start_ns))
        return;
    if (GROW_CAPPED(h, h->marks, h->nmarks, h->capmarks, MAX_MARKS, h->marks_dropped))
        return;
    if (p->mark_track == UINT32_MAX)
        p->mark_track = new_track(h, "regions and marks", 1);
    const char *name = mk->name_id && p->string ? p->string(p->string_ctx, mk->name_id) : NULL;
    char buf[96];
    if (mk->kind == HV_MARK_RECORD_ON || mk->kind == HV_MARK_RECORD_OFF) {
        snprintf(buf, sizeof buf, "recording %s (%" PRIu64 " calls skipped so far)",
                 mk->kind == HV_MARK_RECORD_ON ? "resumed" : "paused", mk->skipped);
        name = buf;
    }
    struct mark *m = &h->marks[h->nmarks];
    *m = (struct mark){.t0 = t, .t1 = -1, .track = p->mark_track, .kind = mk->kind,
                       .depth = (uint8_t)(mk->depth < 255 ? mk->depth : 255)};
    m->name = name_of(h, 5ull << 60 | (uint64_t)(h->nprocs & 0xfff) << 40 | mk->name_id,
                      name ? name : mk->kind == HV_MARK_POINT ? "mark" : "region");
    if (mk->kind == HV_MARK_RECORD_ON || mk->kind == HV_MARK_RECORD_OFF)
        m->name = name_of(h, 6ull << 60 | (uint64_t)h->nmarks, name);
    if ((mk->kind == HV_MARK_PUSH || mk->kind == HV_MARK_START) && h->nopen < MAX_OPEN) {
        h->open[h->nopen].key = mk->kind == HV_MARK_PUSH ? rec->tid : (mk->id | 1ull << 63);
        h->open[h->nopen].mark = h->nmarks;
        h->nopen++;
    }
    h->nmarks++;
}

void hv_html_record(struct hv_html *h, const struct hv_rec_header *rec)
{
    struct proc *p = cur(h);
    if (!p)
        return;
    if (rec->type == HV_REC_MARK && rec->size >= sizeof(struct hv_mark)) {
        mark_rec(h, p, (const struct hv_mark *)rec);
        return;
    }
    if (rec->type == HV_REC_GUARD && rec->size >= sizeof(struct hv_guard)) {
        const struct hv_guard *g = (const struct hv_guard *)rec;
        add(h, p, rec->seq, rec->ts_ns, p->host_track, K_GUARD,
            name_of(h, 4ull << 60 | g->mode, g->exec ? "guard before replay" : "guard after copy"),
            g->exec ? exec_of(h, g->exec) : 0);
    } else if (rec->type == HV_REC_EPOCH && rec->size >= sizeof(struct hv_epoch)) {
        const struct hv_epoch *e = (const struct hv_epoch *)rec;
        epoch_seen(h, p, e->stream, e->epoch, rec->seq, rec->ts_ns, rec->seq == p->obs_seq ? p->obs_api : 0);
    }
}

void hv_html_footer(struct hv_html *h, const struct hv_file_footer *ft)
{
    struct proc *p = cur(h);
    if (!p || !ft)
        return;
    p->has_footer = 1;
    memcpy(p->drops, ft->dropped, sizeof p->drops);
}

void hv_html_on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new)
{
    struct hv_html *h = ctx;
    struct proc *p = cur(h);
    if (!is_new || !p)
        return;
    keep_context(h);
    size_t gi = hv_findings_index(h->store, g);
    while (h->ngx <= gi) {
        if (GROW(h, h->gx, h->ngx, h->capgx))
            return;
        memset(&h->gx[h->ngx++], 0, sizeof *h->gx);
    }
    struct gx *x = &h->gx[gi];
    x->pid = f->pid;
    const struct hv_fside *a = &f->a;
    if (a->kind == HV_SIDE_NONE || a->kind == HV_SIDE_TRACE || a->kind == HV_SIDE_FREE || a->epoch == HV_EPOCH_UNKNOWN)
        return;
    uint32_t i = hv_u64map_get(&p->epochs, a->stream);
    if (i == HV_U64MAP_NONE || h->estate[i].epoch != a->epoch || !h->estate[i].b_seq)
        return;
    x->set = 1;
    x->b_seq = h->estate[i].b_seq;
    x->b_t = (int64_t)h->estate[i].b_ts + p->off;
    x->b_api = h->estate[i].b_api;
}

/* ------------------------------------------------------------ graphs */

void hv_html_on_graph(struct hv_html *h, const struct hv_model *m, uint32_t xi)
{
    const struct hv_exec *x = &m->execs[xi];
    size_t slot = h->ngraphs;
    for (size_t i = 0; i < h->ngraphs; i++)
        if (h->graphs[i].pid == m->pid && h->graphs[i].handle == x->handle)
            slot = i;
    if (slot == h->ngraphs && h->ngraphs >= MAX_EXECS) {
        h->graphs_dropped++;
        return;
    }
    struct hv_json w;
    hv_json_init_buf(&w, HV_JSON_SCRIPT);
    struct hv_place_cfg pc;
    struct hv_place pl;
    hv_place_config(&pc, m->sum ? m->sum->knobs : NULL, m->cuda);
    if (hv_place_compute(m, x, &pc, &pl) != 0)
        memset(&pl, 0, sizeof pl);
    hv_json_obj(&w);
    hv_json_ku64(&w, "pid", m->pid);
    hv_json_khex(&w, "exec", x->handle);
    hv_json_khex(&w, "graph", x->graph);
    hv_json_kstr(&w, "api", hv_api_name(x->inst_api));
    hv_json_ku64(&w, "inst_seq", x->inst_seq);
    hv_json_ku64(&w, "nnodes", x->nnodes);
    hv_json_ku64(&w, "queues", pc.queues);
    hv_json_ki64(&w, "parallel", pl.uses_parallel);
    hv_json_ki64(&w, "cuda", m->cuda);
    hv_json_karr(&w, "nodes");
    uint32_t shown = x->nnodes < MAX_GRAPH_NODES ? x->nnodes : MAX_GRAPH_NODES;
    for (uint32_t k = 0; k < shown; k++) {
        const struct hv_gnode *g = &x->nodes[k];
        const char *name = g->type == HV_NODE_KERNEL ? hv_model_name(m, g->name_id, g->func) : NULL;
        uint8_t fl = pl.flags ? pl.flags[k] : 0;
        if (hv_place_is_collective(name))
            fl |= HV_PLACE_COLLECTIVE;
        hv_json_obj(&w);
        hv_json_ku64(&w, "i", g->index);
        hv_json_khex(&w, "h", g->handle);
        hv_json_khex(&w, "g", g->graph);
        hv_json_ki64(&w, "child", g->parent ? 1 : 0);
        hv_json_kstr(&w, "type", hv_node_type_text(g->type));
        if (name)
            hv_json_kstr(&w, "name", name);
        if (fl) {
            hv_json_ku64(&w, "place", fl);
            const char *why = hv_place_reason(fl);
            if (why && *why)
                hv_json_kstr(&w, "why", why);
        }
        hv_json_karr(&w, "args");
        for (uint32_t a = 0; a < x->nargs; a++)
            if (x->args_node[a] == k) {
                hv_json_arr(&w);
                hv_json_u64(&w, x->args[a].index);
                hv_json_hex(&w, x->args[a].value);
                hv_json_str(&w, hv_access_text(x->args[a].access));
                hv_json_arr_end(&w);
            }
        hv_json_arr_end(&w);
        hv_json_obj_end(&w);
    }
    hv_json_arr_end(&w);
    hv_json_karr(&w, "edges");
    for (uint32_t i = 0; i < x->nedges; i++) {
        const struct hv_gedge *e = &x->edges[i];
        hv_json_arr(&w);
        hv_json_hex(&w, e->graph);
        hv_json_u64(&w, e->from);
        hv_json_u64(&w, e->to);
        hv_json_arr_end(&w);
    }
    hv_json_arr_end(&w);
    hv_json_obj_end(&w);
    hv_place_free(&pl);
    size_t len;
    char *buf = hv_json_take(&w, &len);
    if (!buf) {
        h->oom = 1;
        return;
    }
    if (slot == h->ngraphs) {
        if (GROW(h, h->graphs, h->ngraphs, h->capgraphs)) {
            free(buf);
            return;
        }
        h->graphs[h->ngraphs++] = (struct graph){.pid = m->pid, .handle = x->handle};
    } else {
        free(h->graphs[slot].json);
    }
    h->graphs[slot].json = buf;
    h->graphs[slot].len = len;
}

/* ------------------------------------------------------------ output */

/* "key":[...] of one column of the kept ops: `value` of each index i. */
#define COLUMN(w, key, n, i, value)              \
    do {                                         \
        hv_json_karr(w, key);                    \
        for (size_t i = 0; i < (n); i++)         \
            hv_json_i64(w, (int64_t)(value));    \
        hv_json_arr_end(w);                      \
    } while (0)

/* One traced process: its pid, clock shift, op count, exe, trace, drops. */
static void proc_json(const struct hv_html *h, struct hv_json *w, const struct proc *p)
{
    hv_json_obj(w);
    hv_json_ku64(w, "pid", p->pid);
    hv_json_ki64(w, "shift", p->off - h->origin);
    hv_json_ku64(w, "ops", p->ops);
    hv_json_ki64(w, "footer", p->has_footer);
    hv_json_kstr(w, "exe", p->exe);
    hv_json_kstr(w, "path", p->path);
    hv_json_karr(w, "drops");
    for (int k = 0; k < HV_DROP__COUNT; k++)
        hv_json_u64(w, p->drops[k]);
    hv_json_arr_end(w);
    hv_json_obj_end(w);
}

static void write_data(struct hv_html *h, struct hv_json *w, const struct hv_findings *s,
                       const struct hv_report_opts *ro)
{
    char vb[200];
    hv_json_obj(w);
    hv_json_key(w, "report");
    hv_report_json_write(w, s, ro);
    hv_json_kstr(w, "view", hv_view_text(&h->view, vb, sizeof vb));
    snprintf(vb, sizeof vb, "%" PRId64, h->origin);
    hv_json_kstr(w, "t0", vb);
    HV_JSON_COUNTS(w, {"total_ops", h->total}, {"ops_in_window", h->in_window}, {"kept", h->nev},
                   {"max_detail", h->max_detail});
    hv_json_ki64(w, "oom", h->oom);
    hv_json_karr(w, "drop_causes");
    for (int i = 0; i < HV_DROP__COUNT; i++)
        hv_json_str(w, hv_drop_cause_name((unsigned)i));
    hv_json_arr_end(w);
    hv_json_karr(w, "procs");
    for (size_t i = 0; i < h->nprocs; i++)
        proc_json(h, w, &h->procs[i]);
    hv_json_arr_end(w);
    hv_json_karr(w, "tracks");
    for (size_t i = 0; i < h->ntracks; i++) {
        hv_json_obj(w);
        hv_json_ku64(w, "p", h->tracks[i].proc);
        hv_json_ki64(w, "host", h->tracks[i].host);
        hv_json_kstr(w, "name", h->tracks[i].name);
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
    hv_json_karr(w, "names");
    for (size_t i = 0; i < h->nnames; i++)
        hv_json_str(w, h->names[i]);
    hv_json_arr_end(w);
    hv_json_karr(w, "execs");
    for (size_t i = 0; i < h->nexecs; i++)
        hv_json_hex(w, h->execs[i]);
    hv_json_arr_end(w);
    /* Ops in trace order (kept ops only ever append), column by column;
     * time and seq as deltas (they mostly grow; seq restarts with each
     * trace), time from t0 so that every number stays exact in a double. */
    hv_json_kobj(w, "ev");
    COLUMN(w, "t", h->nev, i, h->ev[i].t - (i ? h->ev[i - 1].t : h->origin));
    COLUMN(w, "s", h->nev, i, h->ev[i].seq - (i ? h->ev[i - 1].seq : 0));
    COLUMN(w, "k", h->nev, i, h->ev[i].kind);
    COLUMN(w, "r", h->nev, i, h->ev[i].track);
    COLUMN(w, "n", h->nev, i, h->ev[i].name);
    hv_json_karr(w, "x");
    for (size_t i = 0; i < h->nev; i++)
        hv_json_u64(w, h->ev[i].x);
    hv_json_arr_end(w);
    hv_json_obj_end(w);
    hv_json_kobj(w, "hist");
    hv_json_ki64(w, "w", h->width);
    hv_json_ku64(w, "nb", NBINS);
    hv_json_karr(w, "bins");
    for (size_t t = 0; t < h->ntracks; t++) {
        uint32_t last = NBINS;
        while (last > 0 && !h->tracks[t].bins[last - 1])
            last--;
        hv_json_arr(w);
        for (uint32_t b = 0; b < last; b++)
            hv_json_u64(w, h->tracks[t].bins[b]);
        hv_json_arr_end(w);
    }
    hv_json_arr_end(w);
    hv_json_obj_end(w);
    hv_json_karr(w, "epochs");
    for (size_t i = 0; i < h->neticks; i++) {
        hv_json_arr(w);
        hv_json_u64(w, h->eticks[i].track);
        hv_json_i64(w, h->eticks[i].t - h->origin);
        hv_json_u64(w, h->eticks[i].seq);
        hv_json_u64(w, h->eticks[i].epoch);
        hv_json_arr_end(w);
    }
    hv_json_arr_end(w);
    hv_json_ku64(w, "epochs_dropped", h->eticks_dropped);
    hv_json_karr(w, "marks");
    for (size_t i = 0; i < h->nmarks; i++) {
        const struct mark *m = &h->marks[i];
        hv_json_arr(w);
        hv_json_u64(w, m->track);
        hv_json_i64(w, m->t0 - h->origin);
        if (m->t1 >= 0)
            hv_json_i64(w, m->t1 - h->origin);
        else if (m->kind == HV_MARK_PUSH || m->kind == HV_MARK_START)
            hv_json_null(w);
        else
            hv_json_i64(w, -1);
        hv_json_u64(w, m->name);
        hv_json_u64(w, m->kind);
        hv_json_u64(w, m->depth);
        hv_json_arr_end(w);
    }
    hv_json_arr_end(w);
    hv_json_ku64(w, "marks_dropped", h->marks_dropped);
    /* Per finding, in the report's order: the epoch boundary the host last
     * observed on the earlier op's stream. The report lists each bug's
     * groups together (hv_findings_bugs reorders the sorted groups). */
    hv_json_karr(w, "boundaries");
    const struct hv_group **v = hv_findings_sorted(s);
    struct hv_bug *bugs = NULL;
    if (v && hv_findings_bugs(v, s->ngroups, &bugs) != (size_t)-1)
        free(bugs);
    for (size_t i = 0; v && i < s->ngroups; i++) {
        size_t gi = hv_findings_index(s, v[i]);
        const struct gx *x = gi < h->ngx ? &h->gx[gi] : NULL;
        if (x && x->set) {
            hv_json_obj(w);
            hv_json_ki64(w, "t", x->b_t - h->origin);
            hv_json_ku64(w, "seq", x->b_seq);
            hv_json_kstr(w, "api", x->b_api ? hv_api_name(x->b_api) : "");
            hv_json_obj_end(w);
        } else {
            hv_json_null(w);
        }
    }
    free(v);
    hv_json_arr_end(w);
    hv_json_ku64(w, "graphs_dropped", h->graphs_dropped);
    hv_json_karr(w, "graphs");
    for (size_t i = 0; i < h->ngraphs; i++)
        hv_json_rawn(w, h->graphs[i].json, h->graphs[i].len);   /* written with HV_JSON_SCRIPT too */
    hv_json_arr_end(w);
    hv_json_obj_end(w);
}

int hv_html_write(struct hv_html *h, FILE *out, const struct hv_findings *s, const struct hv_report_opts *ro)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          /* Nothing may be fetched: the page works offline or not at all. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width\">\n"
          "<title>hipvis report</title>\n<style>\n",
          out);
    fputs(hv_html_css, out);
    fputs("</style></head>\n<body>\n<noscript>This report draws itself with JavaScript; "
          "`hipvis-analyze TRACE` prints the same findings as text.</noscript>\n"
          "<script type=\"application/json\" id=\"hv-data\">",
          out);
    /* Inside <script>, "</script" or "<!--" would end or change the
     * element: the writer escapes every '<' (JSON has '<' only inside
     * strings, where \u003c means the same). */
    struct hv_json w;
    hv_json_init(&w, out, HV_JSON_SCRIPT);
    write_data(h, &w, s, ro);
    fputs("</script>\n<script>\n", out);
    fputs(hv_html_js, out);
    fputs("</script>\n</body></html>\n", out);
    return ferror(out) || h->oom ? -1 : 0;
}

void hv_html_free(struct hv_html *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->nprocs; i++) {
        free(h->procs[i].path);
        hv_u64map_free(&h->procs[i].tracks);
        hv_u64map_free(&h->procs[i].epochs);
    }
    for (size_t i = 0; i < h->nnames; i++)
        free(h->names[i]);
    for (size_t i = 0; i < h->ngraphs; i++)
        free(h->graphs[i].json);
    hv_u64map_free(&h->name_ix);
    hv_u64map_free(&h->exec_ix);
    HV_FREE_ALL(h->procs, h->tracks, h->names, h->execs, h->ev, h->estate, h->eticks, h->gx, h->marks, h->graphs,
                h);
}
