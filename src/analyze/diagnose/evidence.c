/*
 * evidence: what --diagnose keeps from one trace's records besides the
 * engine's model — code objects and kernel symbols (scalar exposure),
 * host-source hashes and three-point probes (direct observations), guard
 * records, and each exec's predicted placement taken when its inventory
 * completed (execs are destroyed before the trace ends). All of it is
 * small: per source address, per probed range, per exec, per code object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/free_all.h"
#include "analyze/diagnose/diag_int.h"
#include "analyze/engine.h"
#include "format/rec_layout.h"

#define DX_OBJECT_CAP (512ull << 20)  /* bytes of code objects kept per trace */
#define DX_SOURCE_BYTES 4096u         /* rewritten source bytes kept per source (the probe's range limit) */

_Static_assert((int)DX_PROBE_AFTER_COPY == (int)HV_PROBE_AFTER_COPY &&
                   (int)DX_PROBE_PRE_REPLAY == (int)HV_PROBE_PRE_REPLAY &&
                   (int)DX_PROBE_POST_REPLAY == (int)HV_PROBE_POST_REPLAY,
               "probe points index by_point[]");

/* Appends one zeroed element to a DX_VEC; NULL out of memory. */
#define DX_PUSH(t, name)                                                                              \
    (HV_GROW((t)->name, (t)->n_##name, (t)->cap_##name, 8)                                            \
         ? (__typeof__((t)->name))memset(&(t)->name[(t)->n_##name++], 0, sizeof *(t)->name)          \
         : NULL)

void dx_trace_init(struct dx_trace *t, const struct hv_file_header *hdr, const char *path, size_t first_group,
                   const char *(*string)(void *, uint32_t), void *ctx)
{
    memset(t, 0, sizeof *t);
    t->first_group = first_group;
    t->string = string;
    t->string_ctx = ctx;
    snprintf(t->path, sizeof t->path, "%s", path ? path : "");
    if (!hdr)
        return;
    t->pid = hdr->pid;
    t->hdr_flags = hdr->flags;
    snprintf(t->runtime, sizeof t->runtime, "%.*s", (int)sizeof hdr->runtime_version, hdr->runtime_version);
    snprintf(t->runtime_path, sizeof t->runtime_path, "%.*s", (int)sizeof hdr->runtime_path, hdr->runtime_path);
    snprintf(t->knobs, sizeof t->knobs, "%.*s", (int)sizeof hdr->knobs, hdr->knobs);
    /* The same test the engine makes (engine.c configure). */
    t->cuda = strstr(t->runtime_path, "cuda") || strstr(t->runtime, "CUDA") || strstr(t->runtime, "cuda");
}

void dx_trace_free(struct dx_trace *t)
{
    for (size_t i = 0; i < t->n_objects; i++)
        free(t->objects[i].bytes);
    for (size_t i = 0; i < t->n_sources; i++) {
        free(t->sources[i].last_bytes);
        free(t->sources[i].checked);
    }
    for (size_t i = 0; i < t->n_places; i++) {
        free(t->places[i].node);
        free(t->places[i].flags);
    }
    HV_FREE_ALL(t->kernels, t->objects, t->sources, t->probes, t->guards, t->places);
    memset(t, 0, sizeof *t);
}

static void on_kernel(struct dx_trace *t, const struct hv_kernel_sym *k)
{
    if (!k->code_object_hash || !k->name_id)
        return;
    struct dx_kernel *e = DX_PUSH(t, kernels);
    if (e)
        *e = (struct dx_kernel){k->func, k->code_object_hash, k->name_id};
}

/* Code objects arrive in pieces (HV_REC_CODEOBJ), once per content hash. */
static void on_codeobj(struct dx_trace *t, const struct hv_codeobj_chunk *c)
{
    if (c->h.size < sizeof *c || c->len > c->h.size - sizeof *c || c->offset > c->total_bytes ||
        c->len > c->total_bytes - c->offset)
        return;
    struct dx_object *o = NULL;
    for (size_t i = 0; i < t->n_objects && !o; i++)
        if (t->objects[i].hash == c->hash)
            o = &t->objects[i];
    if (!o) {
        if (t->codeobj_bytes + c->total_bytes > DX_OBJECT_CAP || !(o = DX_PUSH(t, objects)))
            return;
        o->hash = c->hash;
        o->total = c->total_bytes;
        o->bytes = calloc(1, c->total_bytes ? c->total_bytes : 1);
        if (!o->bytes) {
            t->n_objects--;
            return;
        }
        t->codeobj_bytes += c->total_bytes;
    }
    if (o->total != c->total_bytes)
        return;
    memcpy(o->bytes + c->offset, c + 1, c->len);
    o->got += c->len;
}

static struct dx_source *source(struct dx_trace *t, uint64_t src)
{
    for (size_t i = 0; i < t->n_sources; i++)
        if (t->sources[i].src == src)
            return &t->sources[i];
    struct dx_source *s = DX_PUSH(t, sources);
    if (s)
        s->src = src;
    return s;
}

static void on_payload(struct dx_trace *t, const struct hv_payload *p)
{
    struct dx_source *s = source(t, p->src);
    t->payload_records++;
    if (!s)
        return;
    switch (p->when) {
    case HV_PAYLOAD_ENQUEUE:
        s->enqueued++;
        if (!HV_GROW(s->checked, s->nchecked, s->capchecked, 16))
            break;
        s->checked[s->nchecked++] = p->h.seq;
        break;
    case HV_PAYLOAD_UNCHECKED: s->unchecked++; break;
    case HV_PAYLOAD_OBSERVED: {
        if (!s->rewritten++)
            s->first_rewrite_seq = p->h.seq;
        s->last_rewrite_seq = p->h.seq;
        s->last_len = 0;
        uint32_t len = p->len <= p->h.size - sizeof *p ? p->len : 0;
        if (len > DX_SOURCE_BYTES)
            len = DX_SOURCE_BYTES;
        if (len && !s->last_bytes)
            s->last_bytes = malloc(DX_SOURCE_BYTES);
        if (len && s->last_bytes) {
            memcpy(s->last_bytes, p + 1, len);
            s->last_len = len;
        }
        break;
    }
    default: break;
    }
}

/* First point after the source whose snapshot differs from it. */
static int first_divergence(const struct hv_probe *p, const uint8_t *bytes, uint32_t *off)
{
    static const int order[] = {HV_PROBE_AFTER_COPY, HV_PROBE_PRE_REPLAY, HV_PROBE_POST_REPLAY};
    const uint8_t *want = bytes + (size_t)HV_PROBE_SOURCE * p->len;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!(p->have & HV_PROBE_HAVE(order[i])))
            continue;
        const uint8_t *got = bytes + (size_t)order[i] * p->len;
        for (uint32_t b = 0; b < p->len; b++)
            if (got[b] != want[b]) {
                *off = b;
                return order[i];
            }
    }
    return HV_PROBE_SOURCE;
}

static int was_checked(const struct dx_source *s, uint64_t copy_seq)
{
    size_t lo = 0, hi = s->nchecked;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->checked[mid] < copy_seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nchecked && s->checked[lo] == copy_seq;
}

/* An after-copy snapshot that differs from the enqueued source at byte
 * `off`: did the host put that byte there (the pinned source was rewritten
 * between the copy and the observation that read the probe back, and the
 * rewritten source holds it), or a device-side write? */
static int after_copy_cause(const struct dx_trace *t, const struct hv_probe *p, const uint8_t *bytes, uint32_t off)
{
    /* The tracer re-read the source when it read the snapshots back. */
    if (p->have & HV_PROBE_SRC_SAME)
        return DX_AC_DEVICE;
    if (p->have & HV_PROBE_SRC_REACHED)
        return DX_AC_HOST;
    const struct dx_source *best = NULL;
    for (size_t i = 0; i < t->n_sources; i++) {
        const struct dx_source *s = &t->sources[i];
        if (s->src <= p->src && p->src - s->src < DX_SOURCE_BYTES && (!best || s->src > best->src))
            best = s;
    }
    if (!best || !was_checked(best, p->copy_seq))
        return DX_AC_UNKNOWN;              /* the rewrite check did not cover this copy */
    if (!best->rewritten || best->last_rewrite_seq <= p->copy_seq || best->last_rewrite_seq > p->h.seq)
        return DX_AC_DEVICE;               /* checked, not rewritten while this copy was pending */
    uint64_t at = p->src - best->src + off;
    if (best->last_len > at)
        return best->last_bytes[at] == bytes[(size_t)HV_PROBE_AFTER_COPY * p->len + off] ? DX_AC_HOST : DX_AC_DEVICE;
    return DX_AC_HOST;                     /* rewritten, bytes not recorded: the hash changed */
}

static void on_probe(struct dx_trace *t, const struct hv_probe *p)
{
    t->probe_records++;
    if (p->h.size < sizeof *p || (uint64_t)p->len * HV_PROBE__POINTS > p->h.size - sizeof *p)
        return;
    struct dx_probe *e = NULL;
    for (size_t i = 0; i < t->n_probes && !e; i++)
        if (t->probes[i].addr == p->addr && t->probes[i].len == p->len)
            e = &t->probes[i];
    if (!e && !(e = DX_PUSH(t, probes)))
        return;
    e->addr = p->addr;
    e->len = p->len;
    if (p->status != HV_PROBE_OK || !(p->have & HV_PROBE_HAVE(HV_PROBE_SOURCE))) {
        e->failed++;
        return;
    }
    const uint8_t *bytes = (const uint8_t *)(p + 1);
    uint32_t off = 0;
    int point = first_divergence(p, bytes, &off);
    e->by_point[point == HV_PROBE_SOURCE ? DX_PROBE_MATCH : point]++;
    if (point == HV_PROBE_AFTER_COPY)
        e->after_copy_by[after_copy_cause(t, p, bytes, off)]++;
    if (point != HV_PROBE_SOURCE && !e->first_seq) {
        e->first_seq = p->replay_seq;
        e->first_point = (uint8_t)point;
        e->first_off = off;
        e->want = bytes[off];
        e->got = bytes[(size_t)point * p->len + off];
    }
}

static void on_guard(struct dx_trace *t, const struct hv_guard *g)
{
    t->guard_records++;
    struct dx_guard *e = NULL;
    for (size_t i = 0; i < t->n_guards && !e; i++)
        if (t->guards[i].stream == g->stream)
            e = &t->guards[i];
    if (!e && !(e = DX_PUSH(t, guards)))
        return;
    e->stream = g->stream;
    e->count++;
    if (g->mode < 32)
        e->modes |= 1u << g->mode;
}


void dx_trace_feed(struct dx_trace *t, const struct hv_rec_header *rec)
{
    switch (rec->type) {
    case HV_REC_KERNEL: {
        struct hv_kernel_sym l;
        on_kernel(t, HV_REC_WIDEN(struct hv_kernel_sym, rec, l));
        break;
    }
    case HV_REC_CODEOBJ:
        on_codeobj(t, (const struct hv_codeobj_chunk *)(const void *)rec);
        break;
    case HV_REC_PAYLOAD:
        if (rec->size >= sizeof(struct hv_payload))
            on_payload(t, (const struct hv_payload *)(const void *)rec);
        break;
    case HV_REC_PROBE:
        on_probe(t, (const struct hv_probe *)(const void *)rec);
        break;
    case HV_REC_GUARD: {
        struct hv_guard l;
        on_guard(t, HV_REC_WIDEN(struct hv_guard, rec, l));
        break;
    }
    default:
        break;
    }
}

void dx_trace_graph(struct dx_trace *t, const struct hv_model *m, uint32_t xi)
{
    const struct hv_exec *x = &m->execs[xi];
    struct hv_place_cfg cfg;
    struct hv_place p;
    hv_place_config(&cfg, t->knobs, m->cuda);
    if (hv_place_compute(m, x, &cfg, &p) != 0)
        return;
    /* An update of the same instantiation replaces its snapshot. */
    struct dx_place *e = NULL;
    for (size_t i = 0; i < t->n_places && !e; i++)
        if (t->places[i].exec == x->handle && t->places[i].inst_seq == x->inst_seq)
            e = &t->places[i];
    if (e) {
        free(e->node);
        free(e->flags);
    } else if (!(e = DX_PUSH(t, places))) {
        hv_place_free(&p);
        return;
    }
    e->exec = x->handle;
    e->inst_seq = x->inst_seq;
    e->nnodes = p.nodes;
    e->roots = p.roots;
    e->branches = p.branches;
    e->collectives = p.collectives;
    e->uses_parallel = p.uses_parallel;
    e->flags = p.flags;  /* taken over */
    e->node = malloc((x->nnodes ? x->nnodes : 1) * sizeof *e->node);
    if (!e->node) {
        e->nnodes = 0;
        return;
    }
    for (uint32_t k = 0; k < x->nnodes; k++)
        e->node[k] = x->nodes[k].handle;
}

const struct dx_source *dx_source_of(const struct dx_trace *t, uint64_t src)
{
    for (size_t i = 0; i < t->n_sources; i++)
        if (t->sources[i].src == src)
            return &t->sources[i];
    return NULL;
}

const struct dx_probe *dx_probe_of(const struct dx_trace *t, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < t->n_probes; i++)
        if (t->probes[i].addr < hi && t->probes[i].addr + t->probes[i].len > lo)
            return &t->probes[i];
    return NULL;
}

const struct dx_place *dx_place_of(const struct dx_trace *t, uint64_t exec, uint64_t before_seq)
{
    const struct dx_place *best = NULL;
    for (size_t i = 0; i < t->n_places; i++) {
        const struct dx_place *p = &t->places[i];
        if (p->exec == exec && p->inst_seq < before_seq && (!best || p->inst_seq > best->inst_seq))
            best = p;
    }
    return best;
}

uint64_t dx_guarded(const struct dx_trace *t, uint64_t stream, uint32_t *modes)
{
    for (size_t i = 0; i < t->n_guards; i++)
        if (t->guards[i].stream == stream) {
            *modes = t->guards[i].modes;
            return t->guards[i].count;
        }
    *modes = 0;
    return 0;
}

uint64_t dx_kernel_hash(const struct dx_trace *t, const char *name)
{
    for (size_t i = 0; name && t->string && i < t->n_kernels; i++) {
        const char *n = t->string(t->string_ctx, t->kernels[i].name_id);
        if (n && strcmp(n, name) == 0)
            return t->kernels[i].hash;
    }
    return 0;
}

void dx_trace_objects(const struct dx_trace *t, struct hv_sx *sx)
{
    for (size_t i = 0; i < t->n_objects; i++)
        if (t->objects[i].got >= t->objects[i].total)
            hv_sx_add_image(sx, t->objects[i].bytes, t->objects[i].total, "trace");
}
