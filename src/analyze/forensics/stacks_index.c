/*
 * Stacks of the ops findings name (HIPVIS_STACKS=1 traces), and of the host
 * accesses host-access-in-flight names (HIPVIS_HOSTCHECK traces: the pcs
 * its HV_REC_HOST_ACCESS records carry): after the findings are complete,
 * each trace that has either is read once more for its HV_REC_STACK,
 * HV_REC_HOST_ACCESS and HV_REC_MAPS records only. A stack's frames are
 * resolved to (object, offset) with the memory-map snapshot in force when
 * the stack was first recorded, then symbolized from the objects' symbol
 * tables (symbolize.c). Memory: the stack table (distinct stacks) plus one
 * entry per op the findings name.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/forensics/forensics.h"
#include "analyze/forensics/symbolize.h"
#include "analyze/run.h"
#include "common/u64map.h"

#define NO_MODULE UINT32_MAX

struct frame {
    uint64_t pc, offset, fn_off;
    uint32_t module;           /* index into paths, NO_MODULE when in no mapped object */
    int exact;                 /* the faulting instruction itself (a host access's first pc), not a return address */
    const char *fn;            /* symbolizer-owned, NULL unknown */
    const char *file;          /* source file (symbolizer-owned), NULL unknown */
    int line;
};

struct def {
    uint32_t first, n;         /* frames[first..first+n) */
};

struct want {
    uint64_t seq;
    uint32_t id, def;          /* def UINT32_MAX until known */
};

struct mapent {
    uint64_t lo, hi, bias;
    uint32_t path;
};

struct tstacks {
    uint64_t pid;
    struct hv_u64map host_ix;  /* host_key(op seq, address) -> def + 1 (0: wanted, not read yet) */
    struct hv_u64map want_ix;  /* seq -> index into want */
    struct want *want;
    uint32_t nwant, capwant;
    struct hv_u64map id_ix;    /* stack id -> def */
    struct mapent *maps;       /* the snapshot in force while reading */
    uint32_t nmaps, capmaps;
};

struct hv_stack_index {
    struct tstacks *t;
    uint32_t nt;
    char **paths;
    uint32_t npaths, cappaths;
    struct frame *frames;
    uint32_t nframes, capframes;
    struct def *defs;
    uint32_t ndefs, capdefs;
    struct hv_symbolizer *sym;
};


static uint32_t intern_path(struct hv_stack_index *x, const char *p, size_t len)
{
    for (uint32_t i = 0; i < x->npaths; i++)
        if (strlen(x->paths[i]) == len && memcmp(x->paths[i], p, len) == 0)
            return i;
    if (!HV_GROW(x->paths, x->npaths, x->cappaths, 16))
        return NO_MODULE;
    char *s = malloc(len + 1);
    if (!s)
        return NO_MODULE;
    memcpy(s, p, len);
    s[len] = '\0';
    x->paths[x->npaths] = s;
    return x->npaths++;
}

void hv_findings_each_op(const struct hv_findings *s, uint64_t pid, void (*fn)(void *ctx, uint64_t seq), void *ctx)
{
    for (size_t g = 0; g < s->ngroups; g++) {
        const struct hv_finding *f = &s->groups[g].f;
        if (f->pid != pid)
            continue;
        if (f->a.seq)
            fn(ctx, f->a.seq);
        if (f->b.seq)
            fn(ctx, f->b.seq);
    }
}

static void want_seq(void *ctx, uint64_t seq)
{
    struct tstacks *t = ctx;
    if (!seq || hv_u64map_get(&t->want_ix, seq) != HV_U64MAP_NONE || !HV_GROW(t->want, t->nwant, t->capwant, 64))
        return;
    t->want[t->nwant] = (struct want){seq, 0, UINT32_MAX};
    if (hv_u64map_put(&t->want_ix, seq, t->nwant) == 0)
        t->nwant++;
}

static void on_map(struct hv_stack_index *x, struct tstacks *t, const struct hv_map *m)
{
    if (m->index == 0)
        t->nmaps = 0;   /* a new snapshot replaces the last */
    if (!HV_GROW(t->maps, t->nmaps, t->capmaps, 64))
        return;
    t->maps[t->nmaps++] = (struct mapent){m->lo, m->hi, m->bias, intern_path(x, (const char *)(m + 1), m->path_len)};
}

/* A new definition of `n` pcs at `pcs` resolved against the snapshot in
 * force; the first one `exact` (a faulting instruction). */
static uint32_t new_def(struct hv_stack_index *x, struct tstacks *t, const uint8_t *pcs, uint32_t n, int exact)
{
    if (!HV_GROW(x->defs, x->ndefs, x->capdefs, 64))
        return UINT32_MAX;
    struct def *d = &x->defs[x->ndefs];
    d->first = x->nframes;
    d->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!HV_GROW(x->frames, x->nframes, x->capframes, 256))
            break;
        struct frame *f = &x->frames[x->nframes++];
        memcpy(&f->pc, pcs + 8u * i, 8);
        f->exact = exact && i == 0;
        f->module = NO_MODULE;
        f->offset = f->pc;
        f->fn = NULL;
        for (uint32_t k = 0; k < t->nmaps; k++)
            if (f->pc >= t->maps[k].lo && f->pc < t->maps[k].hi) {
                f->module = t->maps[k].path;
                f->offset = f->pc - t->maps[k].bias;
                break;
            }
        d->n++;
    }
    return x->ndefs++;
}

static uint32_t on_def(struct hv_stack_index *x, struct tstacks *t, const struct hv_stack *s)
{
    uint32_t d = new_def(x, t, (const uint8_t *)(s + 1), s->nframes, 0);
    if (d != UINT32_MAX && s->id)
        hv_u64map_put(&t->id_ix, s->id, d);
    return d;
}

/* A host access by the op it hit and the address it touched. */
static uint64_t host_key(uint64_t op_seq, uint64_t addr) { return hv_mix64(op_seq) ^ addr; }

static void want_hosts(const struct hv_findings *s, struct tstacks *t)
{
    for (size_t g = 0; g < s->ngroups; g++) {
        const struct hv_finding *f = &s->groups[g].f;
        if (f->pid == t->pid && f->b.kind == HV_SIDE_HOST)
            hv_u64map_put(&t->host_ix, host_key(f->a.seq, f->b.value), 0);
    }
}

static void on_host(struct hv_stack_index *x, struct tstacks *t, const struct hv_host_access *r)
{
    uint64_t k = host_key(r->h.seq, r->addr);
    if (hv_u64map_get(&t->host_ix, k) != 0)   /* not wanted, or read already */
        return;
    uint32_t d = new_def(x, t, (const uint8_t *)(r + 1), r->nframes, 1);
    if (d != UINT32_MAX)
        hv_u64map_put(&t->host_ix, k, d + 1);
}

struct stacks_pass {
    struct hv_stack_index *x;
    struct tstacks *t;
};

static int stacks_record(void *ctx, struct hv_run *r, const struct hv_rec_header *rec)
{
    (void)r;
    struct stacks_pass *p = ctx;
    struct tstacks *t = p->t;
    if (rec->type == HV_REC_MAPS && rec->size >= sizeof(struct hv_map)) {
        const struct hv_map *m = (const struct hv_map *)(const void *)rec;
        if (sizeof *m + (uint64_t)m->path_len <= rec->size)
            on_map(p->x, t, m);
    } else if (rec->type == HV_REC_HOST_ACCESS && rec->size >= sizeof(struct hv_host_access)) {
        const struct hv_host_access *h = (const struct hv_host_access *)(const void *)rec;
        if (sizeof *h + 8ull * h->nframes <= rec->size)
            on_host(p->x, t, h);
    } else if (rec->type == HV_REC_STACK && rec->size >= sizeof(struct hv_stack)) {
        const struct hv_stack *s = (const struct hv_stack *)(const void *)rec;
        if (sizeof *s + 8ull * s->nframes > rec->size)
            return 0;
        uint32_t w = hv_u64map_get(&t->want_ix, rec->seq);
        uint32_t d = s->nframes ? on_def(p->x, t, s) : UINT32_MAX;
        if (w != HV_U64MAP_NONE) {
            t->want[w].id = s->id;
            t->want[w].def = d;
        }
    }
    return 0;
}

static void read_trace(struct hv_stack_index *x, struct tstacks *t, const char *path)
{
    struct stacks_pass p = {x, t};
    struct hv_run_opts o = {.records_only = 1,
                            .ctx = &p,
                            .record = stacks_record,
                            .record_types = 1ull << HV_REC_MAPS | 1ull << HV_REC_STACK | 1ull << HV_REC_HOST_ACCESS};
    struct hv_run r;
    hv_run_file(path, NULL, &o, &r);
    /* References resolve to their definition, wherever it came in the trace. */
    for (uint32_t i = 0; i < t->nwant; i++)
        if (t->want[i].def == UINT32_MAX && t->want[i].id)
            t->want[i].def = hv_u64map_get(&t->id_ix, t->want[i].id);
}

/* The header alone: whether the trace recorded stacks or host accesses, and its pid. */
struct stacks_header {
    int yes;
    uint64_t pid;
};

static int header_only(void *ctx, struct hv_run *r)
{
    struct stacks_header *h = ctx;
    h->yes = (r->hdr->flags & (HV_HDR_STACKS | HV_HDR_HOSTCHECK)) != 0;
    h->pid = r->hdr->pid;
    return 1;
}

static int has_stacks(const char *path, uint64_t *pid)
{
    struct stacks_header h = {0, 0};
    struct hv_run_opts o = {.records_only = 1, .ctx = &h, .begin = header_only};
    struct hv_run r;
    hv_run_file(path, NULL, &o, &r);
    *pid = h.pid;
    return h.yes;
}

void hv_stacks_free(struct hv_stack_index *x)
{
    if (!x)
        return;
    for (uint32_t i = 0; i < x->nt; i++) {
        hv_u64map_free(&x->t[i].want_ix);
        hv_u64map_free(&x->t[i].host_ix);
        hv_u64map_free(&x->t[i].id_ix);
        free(x->t[i].want);
        free(x->t[i].maps);
    }
    free(x->t);
    for (uint32_t i = 0; i < x->npaths; i++)
        free(x->paths[i]);
    free(x->paths);
    free(x->frames);
    free(x->defs);
    hv_symbolizer_free(x->sym);
    free(x);
}

struct hv_stack_index *hv_stacks_for_findings(const struct hv_findings *s, const char *const *traces, int ntraces)
{
    struct hv_stack_index *x = calloc(1, sizeof *x);
    if (!x || !(x->t = calloc((size_t)ntraces + 1, sizeof *x->t)) || !(x->sym = hv_symbolizer_new())) {
        hv_stacks_free(x);
        return NULL;
    }
    for (int i = 0; i < ntraces; i++) {
        uint64_t pid;
        if (!has_stacks(traces[i], &pid))
            continue;
        struct tstacks *t = &x->t[x->nt++];
        t->pid = pid;
        hv_u64map_init(&t->want_ix);
        hv_u64map_init(&t->id_ix);
        hv_u64map_init(&t->host_ix);
        hv_findings_each_op(s, pid, want_seq, t);
        want_hosts(s, t);
        read_trace(x, t, traces[i]);
    }
    if (!x->nt) {
        hv_stacks_free(x);
        return NULL;
    }
    /* Return addresses point after the call: symbolize pc - 1 (a faulting
     * instruction's own address as it is). */
    for (uint32_t i = 0; i < x->nframes; i++) {
        struct frame *f = &x->frames[i];
        uint64_t at = f->exact || !f->offset ? f->offset : f->offset - 1;
        if (f->module != NO_MODULE)
            f->fn = hv_symbolize(x->sym, x->paths[f->module], at, &f->fn_off);
        if (f->fn)
            f->fn_off += at != f->offset;
        f->file = NULL;
        if (f->module != NO_MODULE && f->offset && hv_symbolize_line(x->sym, x->paths[f->module], at, &f->file, &f->line) != 0)
            f->file = NULL;
    }
    return x;
}

static const struct def *def_of(const struct hv_stack_index *x, uint64_t pid, uint64_t seq)
{
    for (uint32_t i = 0; i < x->nt; i++) {
        const struct tstacks *t = &x->t[i];
        if (t->pid != pid)
            continue;
        uint32_t w = hv_u64map_get(&t->want_ix, seq);
        if (w == HV_U64MAP_NONE || t->want[w].def >= x->ndefs)
            return NULL;
        return &x->defs[t->want[w].def];
    }
    return NULL;
}

/* The stack of a finding's side: a host access's own pcs, else its op's. */
static const struct def *side_def(const struct hv_stack_index *x, const struct hv_finding *f, const struct hv_fside *s)
{
    if (s->kind != HV_SIDE_HOST)
        return s->seq ? def_of(x, f->pid, s->seq) : NULL;
    for (uint32_t i = 0; i < x->nt; i++) {
        uint32_t d = x->t[i].pid == f->pid ? hv_u64map_get(&x->t[i].host_ix, host_key(f->a.seq, s->value)) : 0;
        if (d && d != HV_U64MAP_NONE && d - 1 < x->ndefs)
            return &x->defs[d - 1];
    }
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void side_json(void *ctx, struct hv_json *w, const struct hv_finding *f, const struct hv_fside *s)
{
    const struct hv_stack_index *x = ctx;
    const struct def *d = side_def(x, f, s);
    if (!d)
        return;
    hv_json_karr(w, "stack");
    for (uint32_t i = 0; i < d->n; i++) {
        const struct frame *fr = &x->frames[d->first + i];
        hv_json_obj(w);
        hv_json_khex(w, "pc", fr->pc);
        hv_json_kstr(w, "module", fr->module == NO_MODULE ? NULL : x->paths[fr->module]);
        hv_json_khex(w, "offset", fr->offset);
        hv_json_kstr(w, "function", fr->fn);
        if (fr->fn)
            hv_json_khex(w, "function_offset", fr->fn_off);
        if (fr->file) {
            hv_json_kstr(w, "file", fr->file);
            hv_json_ki64(w, "line", fr->line);
        }
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
}

static void side_text(void *ctx, FILE *out, const struct hv_finding *f, const struct hv_fside *s)
{
    const struct hv_stack_index *x = ctx;
    const struct def *d = side_def(x, f, s);
    for (uint32_t i = 0; d && i < d->n && i < 8; i++) {
        const struct frame *fr = &x->frames[d->first + i];
        fprintf(out, "           %s #%u ", i ? "     " : "stack", i);
        if (fr->fn)
            fprintf(out, "%s+0x%" PRIx64 " ", fr->fn, fr->fn_off);
        if (fr->file)
            fprintf(out, "at %s:%d ", base_name(fr->file), fr->line);
        if (fr->module != NO_MODULE)
            fprintf(out, "(%s+0x%" PRIx64 ")\n", base_name(x->paths[fr->module]), fr->offset);
        else
            fprintf(out, "(0x%" PRIx64 ")\n", fr->pc);
    }
    if (d && d->n > 8)
        fprintf(out, "                  ... %u more frames\n", d->n - 8);
}

void hv_stacks_install(struct hv_stack_index *x, struct hv_report_opts *o)
{
    o->side_json = side_json;
    o->side_text = side_text;
    o->side_ctx = x;
}
