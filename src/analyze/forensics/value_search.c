/*
 * Value search: which recorded writes put V into [lo, hi), and how many
 * epochs before a replay that reads the range (docs/evidence.md).
 *
 * Writes are followed in program (enqueue) order through a content shadow
 * (value_shadow.c): an H2D copy whose payload was recorded, a memset, and a
 * D2D copy of content known that way (provenance: "put there by" the
 * original write). Everything else that writes the range -- copies without
 * a payload, 2D copies, eager kernels with a write (or unknown) pointer
 * argument into it, graph replays whose arguments may write it -- leaves
 * the content unknown and is listed as a writer with unrecorded content.
 * Epochs are per stream: the distance is counted in the writer's stream,
 * between the write and the replay.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/forensics/value_int.h"
#include "common/grow.h"
#include "common/free_all.h"
#include "common/u64map.h"
#include "analyze/report/describe.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

#define MAX_HITS 100000u
#define MAX_SITES 64u
#define TEXT_HITS 40u

struct hit {
    uint64_t addr;
    struct hv_vorigin o, via;
};

/* A writer whose content is not recorded, by site. */
struct site {
    struct hv_vorigin last;
    uint64_t count, first_seq, exec;
    int32_t node;
    int16_t arg;
};

struct search {
    struct hv_vq *vq;
    struct hv_vshadow sh;
    struct hit *hits;
    size_t nhits, caphits;
    uint64_t hits_dropped;
    struct site sites[MAX_SITES];
    uint32_t nsites;
    uint64_t sites_dropped;
    /* Newest epoch seen per stream, by canonical id. */
    struct hv_u64map six;
    uint64_t *sid, *sepoch;
    uint32_t nst, capst;
    /* The replay distances are counted to, and the epochs at it. */
    int have_replay;
    struct hv_vorigin replay;
    uint64_t replay_exec, replays_reading;
    uint64_t *snap;
    uint32_t nsnap;
    /* A copy waits for its payload record (same seq). */
    int pending;
    struct hv_call pc;
    uint64_t launch_seq;
};

/* ---- per-stream epochs ---- */

static uint32_t stream_ix(struct search *s, uint64_t id)
{
    uint32_t i = hv_u64map_get(&s->six, id);
    if (i != HV_U64MAP_NONE)
        return i;
    if (!HV_GROW2(s->sid, s->sepoch, s->nst, s->capst, 16))
        return HV_U64MAP_NONE;
    i = s->nst;
    if (hv_u64map_put(&s->six, id, i) != 0)
        return HV_U64MAP_NONE;
    s->nst++;
    s->sid[i] = id;
    s->sepoch[i] = HV_EPOCH_UNKNOWN;
    return i;
}

static void note_epoch(struct search *s, uint64_t stream, uint64_t epoch)
{
    if (!stream || epoch == HV_EPOCH_UNKNOWN)
        return;
    uint32_t i = stream_ix(s, stream);
    if (i != HV_U64MAP_NONE && (s->sepoch[i] == HV_EPOCH_UNKNOWN || epoch > s->sepoch[i]))
        s->sepoch[i] = epoch;
}

static uint64_t stream_of(const struct hv_call *c)
{
    return c->stream ? c->stream : HV_STREAM_LEGACY | (uint32_t)(c->device >= 0 ? c->device : 0);
}

static struct hv_vorigin origin_of(const struct hv_call *c, uint8_t kind)
{
    struct hv_vorigin o = {.seq = c->h.seq, .epoch = c->epoch, .stream = stream_of(c), .api = c->api, .kind = kind};
    if (kind == HV_SIDE_COPY) {
        o.dst = c->a.copy.dst;
        o.src = c->a.copy.src;
        o.bytes = c->a.copy.bytes;
        o.dir = c->a.copy.dir;
    } else if (kind == HV_SIDE_MEMSET) {
        o.dst = c->a.memset.dst;
        o.bytes = c->a.memset.bytes;
    }
    return o;
}

/* ---- what lands in the range ---- */

static int overlaps(const struct search *s, uint64_t lo, uint64_t hi)
{
    return lo < s->vq->hi && hi > s->vq->lo;
}

/* Every W-aligned (from the range start) position of [lo, hi) inside the
 * range that now holds V. */
static void check_hits(struct search *s, uint64_t lo, uint64_t hi, const struct hv_vcontent *c)
{
    const struct hv_vq *q = s->vq;
    if (!c || !overlaps(s, lo, hi))
        return;
    uint64_t start = lo > q->lo ? lo : q->lo, end = hi < q->hi ? hi : q->hi;
    uint64_t p = q->lo + (start - q->lo + q->width - 1) / q->width * q->width;
    for (; p + q->width <= end; p += q->width) {
        unsigned k = 0;
        while (k < q->width && hv_vshadow_byte(&s->sh, c, p + k) == q->value[k])
            k++;
        if (k < q->width)
            continue;
        if (!HV_GROW_UPTO(s->hits, s->nhits + 1, s->caphits, 64, MAX_HITS)) {
            s->hits_dropped++;
            continue;
        }
        s->hits[s->nhits++] = (struct hit){p, c->o, c->via};
    }
}

static void unknown_writer(struct search *s, uint64_t lo, uint64_t hi, const struct hv_vorigin *o, uint64_t exec,
                           int32_t node, int16_t arg)
{
    if (!overlaps(s, lo, hi))
        return;
    for (uint32_t i = 0; i < s->nsites; i++) {
        struct site *st = &s->sites[i];
        if (st->last.api == o->api && st->last.kind == o->kind && st->last.stream == o->stream && st->exec == exec &&
            st->node == node && st->arg == arg && st->last.dir == o->dir) {
            st->count++;
            st->last = *o;
            return;
        }
    }
    if (s->nsites == MAX_SITES) {
        s->sites_dropped++;
        return;
    }
    s->sites[s->nsites++] = (struct site){*o, 1, o->seq, exec, node, arg};
}

static void write_known(struct search *s, uint64_t lo, uint64_t hi, const struct hv_vcontent *c)
{
    check_hits(s, lo, hi, hv_vshadow_set(&s->sh, lo, hi, c));
}

static void write_unknown(struct search *s, uint64_t lo, uint64_t hi, const struct hv_vorigin *o, uint64_t exec,
                          int32_t node, int16_t arg)
{
    hv_vshadow_set(&s->sh, lo, hi, NULL);
    unknown_writer(s, lo, hi, o, exec, node, arg);
}

/* A D2D copy carries the source's known content, segment by segment. */
static void copy_d2d(struct search *s, const struct hv_vorigin *o)
{
    struct piece {
        uint64_t lo, hi;
        struct hv_vcontent c;
    } *pc = NULL;
    size_t n = 0, cap = 0;
    uint64_t covered = 0;
    struct hv_imap_seg seg;
    for (int ok = hv_imap_seek(&s->sh.map, o->src, &seg); ok && seg.lo < o->src + o->bytes;
         ok = hv_imap_seek(&s->sh.map, seg.hi, &seg)) {
        if (!HV_GROW(pc, n, cap, 8))
            break;
        uint64_t lo = seg.lo > o->src ? seg.lo : o->src, hi = seg.hi < o->src + o->bytes ? seg.hi : o->src + o->bytes;
        const struct hv_vcontent *src = seg.val;
        struct piece *p = &pc[n++];
        p->lo = o->dst + (lo - o->src);
        p->hi = o->dst + (hi - o->src);
        p->c = *src;
        p->c.base = src->base + (o->dst - o->src);   /* the same bytes, moved */
        p->c.via = src->via.seq ? src->via : src->o;
        p->c.o = *o;
        covered += hi - lo;
        if (seg.hi == UINT64_MAX)
            break;
    }
    hv_vshadow_set(&s->sh, o->dst, o->dst + o->bytes, NULL);
    if (covered < o->bytes)
        unknown_writer(s, o->dst, o->dst + o->bytes, o, 0, -1, -1);
    for (size_t i = 0; i < n; i++)
        write_known(s, pc[i].lo, pc[i].hi, &pc[i].c);
    free(pc);
}

static void apply_copy(struct search *s, const struct hv_call *c, const struct hv_payload *p)
{
    const struct hv_copy_args *a = &c->a.copy;
    struct hv_vorigin o = origin_of(c, HV_SIDE_COPY);
    uint64_t lo = a->dst, hi = a->dst + a->bytes;
    if (a->flags & HV_COPY_2D) {
        hi = a->dst + (a->height > 1 ? a->dpitch * (a->height - 1) : 0) + a->bytes / (a->height ? a->height : 1);
        write_unknown(s, lo, hi, &o, 0, -1, -1);
        return;
    }
    if (a->dir == HV_DIR_D2D) {
        copy_d2d(s, &o);
        return;
    }
    if (p && p->len == a->bytes && a->bytes) {
        struct hv_vcontent cnt = {.base = a->dst, .blob = hv_vshadow_blob(&s->sh, (const uint8_t *)(p + 1), p->len),
                                  .o = o};
        if (cnt.blob != UINT32_MAX) {
            write_known(s, lo, hi, &cnt);
            return;
        }
    }
    write_unknown(s, lo, hi, &o, 0, -1, -1);
}

static void apply_memset(struct search *s, const struct hv_call *c)
{
    const struct hv_memset_args *a = &c->a.memset;
    struct hv_vorigin o = origin_of(c, HV_SIDE_MEMSET);
    uint32_t elem = a->elem_size ? a->elem_size : 1;
    if (a->height > 1) {
        uint64_t hi = a->dst + a->pitch * (a->height - 1) + a->width;
        write_unknown(s, a->dst, hi, &o, 0, -1, -1);
        return;
    }
    struct hv_vcontent cnt = {.base = a->dst, .blob = UINT32_MAX, .pattern = a->value, .elem = (uint8_t)elem, .o = o};
    write_known(s, a->dst, a->dst + a->bytes, &cnt);
}

static int may_write(uint8_t access)
{
    return access == HV_ACCESS_WRITE || access == HV_ACCESS_READ_WRITE || access == HV_ACCESS_UNKNOWN;
}

static void on_replay(struct search *s, const struct hv_model *m, const struct hv_call *c)
{
    uint32_t x = hv_exec_find(m, c->a.graph.exec);
    if (x == HV_NO_INDEX)
        return;
    const struct hv_exec *ex = &m->execs[x];
    struct hv_vorigin o = origin_of(c, HV_SIDE_REPLAY);
    int reads = 0;
    for (uint32_t i = 0; i < ex->nranges; i++)
        reads |= overlaps(s, ex->ranges[i].lo, ex->ranges[i].hi) && hv_access_reads(ex->ranges[i].access);
    if (reads) {
        s->replays_reading++;
        int chosen = s->vq->replay_seq ? c->h.seq == s->vq->replay_seq : 1;
        if (chosen) {
            note_epoch(s, o.stream, o.epoch);
            uint64_t *snap = realloc(s->snap, (s->nst ? s->nst : 1) * sizeof *snap);
            if (snap) {
                memcpy(snap, s->sepoch, s->nst * sizeof *snap);
                s->snap = snap;
                s->nsnap = s->nst;
                s->have_replay = 1;
                s->replay = o;
                s->replay_exec = ex->handle;
            }
        }
    }
    for (uint32_t i = 0; i < ex->nranges; i++) {
        const struct hv_arange *rg = &ex->ranges[i];
        if (may_write(rg->access))
            write_unknown(s, rg->lo, rg->hi, &o, ex->handle, (int32_t)ex->nodes[rg->node].index, rg->arg_index);
    }
}

static void on_kargs(struct search *s, const struct hv_model *m, const struct hv_kargs *k)
{
    const struct hv_karg *args = (const struct hv_karg *)(const void *)(k + 1);
    struct hv_vorigin o = {.seq = k->h.seq, .epoch = s->pc.epoch, .stream = 0, .kind = HV_SIDE_KERNEL};
    o.api = s->pc.api;
    o.stream = stream_of(&s->pc);
    for (uint32_t i = 0; i < k->count; i++) {
        if (!may_write(args[i].access))
            continue;
        uint64_t lo, hi;
        struct hv_imap_seg a;
        hv_pointer_range(m, args[i].value, args, k->count, &lo, &hi, &a);
        o.dst = args[i].value;
        write_unknown(s, lo, hi, &o, k->func, -1, (int16_t)args[i].index);
    }
}

static void flush_copy(struct search *s, const struct hv_payload *p)
{
    if (s->pending)
        apply_copy(s, &s->pc, p);
    s->pending = 0;
}

static int is_graph_launch(uint16_t api)
{
    return hv_api_op(api) == HV_OP_GRAPH && strstr(hv_api_name(api), "GraphLaunch") != NULL;
}

static void on_call(struct search *s, const struct hv_model *m, const struct hv_call *c)
{
    flush_copy(s, NULL);
    note_epoch(s, c->stream, c->epoch);
    if (hv_api_op(c->api) == HV_OP_SYNC)
        note_epoch(s, c->a.sync.completed_stream, c->a.sync.new_epoch);
    if (c->result != 0 || (c->flags & HV_CALL_CAPTURING) || c->capture == HV_CAPTURE_ACTIVE)
        return;
    switch (hv_api_op(c->api)) {
    case HV_OP_COPY:
        s->pending = 1;   /* its payload record, if any, comes next */
        s->pc = *c;
        break;
    case HV_OP_MEMSET:
        apply_memset(s, c);
        break;
    case HV_OP_LAUNCH:
        s->pc = *c;
        s->launch_seq = c->h.seq;
        break;
    case HV_OP_FREE:
        if (c->a.alloc.ptr && c->a.alloc.bytes)
            hv_vshadow_set(&s->sh, c->a.alloc.ptr, c->a.alloc.ptr + c->a.alloc.bytes, NULL);
        break;
    default:
        if (is_graph_launch(c->api))
            on_replay(s, m, c);
        break;
    }
}

static void feed(void *ctx, struct hv_engine *e, const struct hv_rec_header *rec)
{
    struct search *s = ctx;
    const struct hv_model *m = hv_engine_model(e);
    switch (rec->type) {
    case HV_REC_CALL:
        if (rec->size >= sizeof(struct hv_call))
            on_call(s, m, (const struct hv_call *)(const void *)rec);
        break;
    case HV_REC_PAYLOAD: {
        const struct hv_payload *p = (const struct hv_payload *)(const void *)rec;
        if (s->pending && rec->seq == s->pc.h.seq && p->when != HV_PAYLOAD_OBSERVED)
            flush_copy(s, p);
        break;
    }
    case HV_REC_KARGS: {
        const struct hv_kargs *k = (const struct hv_kargs *)(const void *)rec;
        if (!k->owner_node && rec->seq == s->launch_seq && rec->size >= sizeof *k &&
            (uint64_t)k->count * sizeof(struct hv_karg) <= rec->size - sizeof *k)
            on_kargs(s, m, k);
        break;
    }
    case HV_REC_EPOCH: {
        const struct hv_epoch *ep = (const struct hv_epoch *)(const void *)rec;
        note_epoch(s, ep->stream, ep->epoch);
        break;
    }
    default:
        break;
    }
}

/* ---- report ---- */

/* Epochs of the writer's stream between the write and the replay; -1 when
 * the write came after it, -2 unknown. */
static int64_t distance(const struct search *s, const struct hit *h)
{
    if (!s->have_replay || h->o.epoch == HV_EPOCH_UNKNOWN)
        return -2;
    if (h->o.seq > s->replay.seq)
        return -1;
    uint32_t i = hv_u64map_get(&s->six, h->o.stream);
    uint64_t now = i < s->nsnap ? s->snap[i] : HV_EPOCH_UNKNOWN;
    return now == HV_EPOCH_UNKNOWN || now < h->o.epoch ? -2 : (int64_t)(now - h->o.epoch);
}

static const char *origin_text(const struct hv_vorigin *o, char *buf, size_t len)
{
    char sb[48];
    if (o->kind == HV_SIDE_COPY)
        snprintf(buf, len, "%s %s at seq %" PRIu64 " (stream %s, epoch %" PRIu64 ")", hv_api_name(o->api),
                 hv_dir_text(o->dir), o->seq, hv_stream_text(o->stream, sb, sizeof sb), o->epoch);
    else
        snprintf(buf, len, "%s at seq %" PRIu64 " (stream %s, epoch %" PRIu64 ")", hv_api_name(o->api), o->seq,
                 hv_stream_text(o->stream, sb, sizeof sb), o->epoch);
    return buf;
}

static void hit_text(FILE *out, const struct search *s, const struct hit *h)
{
    char b1[160], b2[160];
    fprintf(out, "  %" PRId64 " at 0x%" PRIx64 "+%" PRIu64 " was written by %s", s->vq->v, s->vq->lo,
            h->addr - s->vq->lo, origin_text(&h->o, b1, sizeof b1));
    if (h->via.seq)
        fprintf(out, " from 0x%" PRIx64 ", put there by %s", h->o.src + (h->addr - h->o.dst),
                origin_text(&h->via, b2, sizeof b2));
    int64_t d = distance(s, h);
    if (d == -2)
        fprintf(out, s->have_replay ? ", epoch distance unknown\n" : "\n");
    else if (d == -1)
        fprintf(out, ", after replay seq %" PRIu64 "\n", s->replay.seq);
    else if (d == 0)
        fprintf(out, ", in the same epoch as replay seq %" PRIu64 "\n", s->replay.seq);
    else
        fprintf(out, ", %" PRId64 " epoch%s before replay seq %" PRIu64 "%s\n", d, d == 1 ? "" : "s", s->replay.seq,
                h->o.stream == s->replay.stream ? "" : " (epochs of the writer's stream)");
}

static void report_text(FILE *out, const struct search *s, const char *path, uint64_t pid)
{
    char b[48], b2[160];
    const struct hv_vq *q = s->vq;
    fprintf(out, "== %s (pid %" PRIu64 "): value %" PRId64 " (%u-byte) in 0x%" PRIx64 " .. 0x%" PRIx64 " (%s)\n",
            path, pid, q->v, q->width, q->lo, q->hi, hv_bytes_text(q->hi - q->lo, b, sizeof b));
    if (s->have_replay)
        fprintf(out, "  replay   %s exec 0x%" PRIx64 " seq %" PRIu64 " stream %s epoch %" PRIu64 " (%s)\n",
                hv_api_name(s->replay.api), s->replay_exec, s->replay.seq,
                hv_stream_text(s->replay.stream, b, sizeof b), s->replay.epoch,
                q->replay_seq ? "--replay" : "the last replay reading the range");
    else
        fprintf(out, "  replay   %s\n", q->replay_seq ? "--replay SEQ is not a replay reading the range"
                                                      : "no replay reads the range");
    if (!s->nhits)
        fprintf(out, "  no recorded write put %" PRId64 " there\n", q->v);
    for (size_t i = 0; i < s->nhits; i++) {
        if (s->nhits > TEXT_HITS && i == 10) {
            fprintf(out, "  ... %zu more ...\n", s->nhits - TEXT_HITS);
            i = s->nhits - (TEXT_HITS - 10);
        }
        hit_text(out, s, &s->hits[i]);
    }
    if (s->hits_dropped)
        fprintf(out, "  (%" PRIu64 " more writes of the value not kept)\n", s->hits_dropped);
    if (s->nsites)
        fprintf(out, "  writes whose content was not recorded:\n");
    for (uint32_t i = 0; i < s->nsites; i++) {
        const struct site *st = &s->sites[i];
        fprintf(out, "    %s", origin_text(&st->last, b2, sizeof b2));
        if (st->exec && st->last.kind == HV_SIDE_REPLAY)
            fprintf(out, " exec 0x%" PRIx64 " node %d arg %d", st->exec, st->node, st->arg);
        else if (st->last.kind == HV_SIDE_KERNEL)
            fprintf(out, " kernel arg %d", st->arg);
        fprintf(out, ": %" PRIu64 " time%s since seq %" PRIu64 "\n", st->count, st->count == 1 ? "" : "s",
                st->first_seq);
    }
}

static void kv_origin(struct hv_json *w, const char *key, const struct hv_vorigin *o)
{
    char b[48];
    hv_json_kobj(w, key);
    hv_json_kstr(w, "api", hv_api_name(o->api));
    hv_json_ku64(w, "seq", o->seq);
    hv_json_kstr(w, "stream", hv_stream_text(o->stream, b, sizeof b));
    if (o->epoch == HV_EPOCH_UNKNOWN)
        hv_json_knull(w, "epoch");
    else
        hv_json_ku64(w, "epoch", o->epoch);
    if (o->kind == HV_SIDE_COPY) {
        hv_json_kstr(w, "dir", hv_dir_text(o->dir));
        hv_json_khex(w, "src", o->src);
        hv_json_khex(w, "dst", o->dst);
        hv_json_ku64(w, "bytes", o->bytes);
    }
    hv_json_obj_end(w);
}

/* A recorded write that put the value there, and how it stands to the replay. */
static void hit_json(struct hv_json *w, const struct search *s, const struct hit *h)
{
    int64_t d = distance(s, h);
    hv_json_obj(w);
    hv_json_khex(w, "addr", h->addr);
    hv_json_ku64(w, "offset", h->addr - s->vq->lo);
    kv_origin(w, "write", &h->o);
    if (h->via.seq)
        kv_origin(w, "via", &h->via);
    hv_json_kstr(w, "relation", d == -2 ? "unknown" : d == -1 ? "after" : d == 0 ? "same-epoch" : "before");
    if (d >= 0)
        hv_json_ki64(w, "epochs_before", d);
    hv_json_obj_end(w);
}

/* A site that wrote the range without recording what it wrote. */
static void site_json(struct hv_json *w, const struct site *st)
{
    hv_json_obj(w);
    HV_JSON_COUNTS(w, {"count", st->count}, {"first_seq", st->first_seq});
    kv_origin(w, "last", &st->last);
    if (st->exec) {
        hv_json_khex(w, "exec", st->exec);
        hv_json_ki64(w, "node_index", st->node);
        hv_json_ki64(w, "arg_index", st->arg);
    }
    hv_json_obj_end(w);
}

/* What was looked for: the value, its width, the range. */
static void query_json(struct hv_json *w, const struct hv_vq *q)
{
    hv_json_ki64(w, "value", q->v);
    hv_json_ku64(w, "width", q->width);
    hv_json_khex(w, "lo", q->lo);
    hv_json_khex(w, "hi", q->hi);
}

static void report_json(struct hv_json *w, const struct search *s, const char *path, uint64_t pid)
{
    const struct hv_vq *q = s->vq;
    hv_json_obj(w);
    hv_json_kstr(w, "path", path);
    hv_json_ku64(w, "pid", pid);
    query_json(w, q);
    hv_json_ku64(w, "replays_reading", s->replays_reading);
    if (s->have_replay) {
        kv_origin(w, "replay", &s->replay);
        hv_json_khex(w, "replay_exec", s->replay_exec);
    } else {
        hv_json_knull(w, "replay");
    }
    hv_json_karr(w, "writes");
    for (size_t i = 0; i < s->nhits; i++)
        hit_json(w, s, &s->hits[i]);
    hv_json_arr_end(w);
    hv_json_karr(w, "unrecorded");
    for (uint32_t i = 0; i < s->nsites; i++)
        site_json(w, &s->sites[i]);
    hv_json_arr_end(w);
    hv_json_ku64(w, "writes_not_kept", s->hits_dropped);
    hv_json_obj_end(w);
}

static void search_free(struct search *s)
{
    hv_vshadow_free(&s->sh);
    hv_u64map_free(&s->six);
    HV_FREE_ALL(s->hits, s->sid, s->sepoch, s->snap);
}

int hv_value_search(const struct hv_value_query *q, const char *const *traces, int ntraces, FILE *out)
{
    struct hv_vq vq;
    int found = 0, status = 0;
    if (hv_vq_parse(q, &vq) != 0)
        return 2;
    struct hv_json w;
    hv_json_init(&w, out, 0);
    if (q->json) {
        hv_json_obj(&w);
        hv_json_kstr(&w, "tool", "hipvis-analyze");
        hv_json_kstr(&w, "version", HIPVIS_VERSION);
        hv_json_kstr(&w, "query", "find-value");
        hv_json_karr(&w, "traces");
    }
    for (int t = 0; t < ntraces; t++) {
        if (vq.kernel && hv_vq_resolve(&vq, traces[t]) != 0) {
            status = 2;
            continue;
        }
        struct search s;
        memset(&s, 0, sizeof s);
        s.vq = &vq;
        hv_vshadow_init(&s.sh);
        hv_u64map_init(&s.six);
        struct hv_file_header hdr;
        int rc = hv_vq_run_trace(traces[t], feed, &s, NULL, &hdr);
        flush_copy(&s, NULL);
        if (rc == 0) {
            if (q->json)
                report_json(&w, &s, traces[t], hdr.pid);
            else
                report_text(out, &s, traces[t], hdr.pid);
            found |= s.nhits > 0;
        } else {
            status = 2;
        }
        search_free(&s);
    }
    if (q->json) {
        hv_json_arr_end(&w);
        hv_json_kbool(&w, "found", found);
        hv_json_obj_end(&w);
        hv_json_eol(&w);
    }
    return status ? status : found ? 0 : 1;
}
