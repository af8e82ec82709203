/*
 * Names, Python lines and regions of the findings (docs/names.md): the
 * analyzer hands this index each trace's HV_REC_NAME, HV_REC_PYSTACK,
 * HV_REC_MARK and HV_REC_KARG_NAMES records while it analyzes the trace (a
 * second read of the trace cost as much as the analysis). Once the findings
 * are complete, a trace is read again only when it opens regions and the
 * findings name ops in it: an op's region depends on its thread, which only
 * its call record says. Then
 *   - a finding's buffer gets the name hipvis_name() gave the range (the
 *     latest naming before the finding's later op), else the name of the
 *     kernel argument it was read (or written) through, where the code
 *     object names its arguments (HV_REC_KARG_NAMES), else the Python line
 *     that allocated it or first wrote it; a kernel argument name is shown
 *     beside a hipvis_name() name too;
 *   - each op of a finding gets the Python stack recorded at that call, or
 *     the one recorded at the first call from the same site on the same
 *     target (stacks are taken once per native site and target);
 *   - each op gets the regions open on its thread and the latest instant
 *     mark of the process before it, with its ordinal ("step" #12).
 * Memory: every name, stack and mark of the traces, and one entry per op the
 * findings name.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/forensics/forensics.h"
#include "analyze/run.h"
#include "common/free_all.h"
#include "common/strset.h"
#include "common/u64map.h"
#include "format/rec_layout.h"
#include "hipvis/reader.h"

#define NONE UINT32_MAX

struct pyfr {
    uint32_t file, func;       /* string indexes */
    int32_t line;
};

struct pystk {
    uint64_t seq, target;
    uint32_t first, n, version, tid;
    uint8_t status, why;
};

struct bname {
    uint64_t seq, ptr, bytes;
    uint32_t name;             /* string index, NONE: name removed */
    uint32_t stack;            /* pystk index of the naming, NONE */
};

struct mark {
    uint64_t seq, id, skipped;
    uint32_t tid, name, order;
    uint8_t kind, source;
};

/* A stack recorded (or referred to) for a target at a call: a later call
 * on the same target with no record of its own repeated the latest one. */
struct use {
    uint64_t key, seq;
    uint32_t stack;
};

/* A kernel's argument names (HV_REC_KARG_NAMES): args[first, first+n) of
 * the index. A handle may be bound again (module unloaded, another loaded
 * at the same address): the latest binding before an op is its. */
struct kan {
    uint64_t func, seq;
    uint32_t first, n;
    uint32_t prev;             /* the same handle's binding before this one, NONE */
};

struct kan_arg {
    uint32_t name;             /* string index, NONE: unnamed */
    uint32_t offset;
    uint16_t index;
    uint8_t kind;              /* enum hv_karg_name_kind */
};

/* An op a finding names, and what it was given. */
struct want {
    uint64_t seq;
    uint32_t tid;              /* from its call record, NONE unknown */
    uint32_t stack;            /* pystk, NONE */
    uint8_t inherited;         /* the stack is an earlier call's on the same target (the op recorded none) */
    uint32_t region;           /* string index of "a > b", NONE */
    uint32_t mark;             /* string index of the latest instant mark's text, NONE */
    uint64_t mark_n;           /* its ordinal among marks of that text */
    uint64_t skipped_before;   /* HIPVIS_START: data calls not recorded before this op */
};

struct tnames {
    uint64_t pid;
    char *path;                /* for the second read (regions need the ops' threads) */
    int regions_gated;         /* HV_HDR_REGIONS */
    int pyframes_first;        /* HV_HDR_PYFRAMES_FIRST: an inherited stack is the target's first call's */
    int opens_regions;         /* a PUSH or START mark was seen */
    struct hv_u64map str_ix;   /* trace string id -> index into strs */
    struct hv_u64map want_ix;  /* seq -> want */
    struct want *want;
    uint32_t nwant, capwant;
    struct hv_u64map seq_stack;   /* call seq -> pystk (first for that seq) */
    struct hv_u64map id_stack;    /* stack id -> pystk that defined it */
    struct use *uses;             /* (why, target) -> pystk, in seq order after sort_uses() */
    uint32_t nuses, capuses;
    struct pystk *stk;
    uint32_t nstk, capstk;
    struct bname *names;
    uint32_t nnames, capnames;
    struct mark *marks;
    uint32_t nmarks, capmarks;
    struct kan *kans;
    uint32_t nkans, capkans;
    struct hv_u64map kan_last;    /* func -> its latest binding (kans index) */
    uint64_t skipped_total;
    uint32_t unsupported_version;  /* a stack said HV_PY_UNSUPPORTED: that interpreter's PY_VERSION_HEX */
    int unsupported;
};

struct hv_names_index {
    struct tnames *t;
    uint32_t nt, capt;
    struct tnames *cur;        /* the trace being fed, NULL none */
    struct hv_strset strs;     /* texts, each once */
    struct pyfr *fr;
    uint32_t nfr, capfr;
    struct kan_arg *ka;
    uint32_t nka, capka;
    /* The hooks that were installed before ours (caller stacks): chained. */
    struct hv_report_opts prev;
};


static uint32_t intern(struct hv_names_index *x, const char *s)
{
    return s ? hv_strset_intern(&x->strs, s) : NONE;
}

/* The text of trace string `id`, interned; NONE unknown. */
static uint32_t str_of(struct hv_names_index *x, struct tnames *t, struct hv_reader *rd, uint32_t id)
{
    if (!id)
        return NONE;
    uint32_t i = hv_u64map_get(&t->str_ix, id);
    if (i != NONE)
        return i;
    i = intern(x, hv_reader_string(rd, id));
    if (i != NONE)
        hv_u64map_put(&t->str_ix, id, i);
    return i;
}

static const char *S(const struct hv_names_index *x, uint32_t i) { return i < x->strs.n ? x->strs.v[i] : NULL; }

static void want_seq(void *ctx, uint64_t seq)
{
    struct tnames *t = ctx;
    if (!seq || hv_u64map_get(&t->want_ix, seq) != NONE || !HV_GROW(t->want, t->nwant, t->capwant, 64))
        return;
    t->want[t->nwant] = (struct want){.seq = seq, .tid = NONE, .stack = NONE, .region = NONE, .mark = NONE};
    if (hv_u64map_put(&t->want_ix, seq, t->nwant) == 0)
        t->nwant++;
}

static uint64_t first_key(unsigned why, uint64_t target) { return hv_mix64(target) ^ ((uint64_t)why << 58); }

static void add_use(struct tnames *t, unsigned why, uint64_t target, uint64_t seq, uint32_t stack)
{
    if (target && HV_GROW(t->uses, t->nuses, t->capuses, 64))
        t->uses[t->nuses++] = (struct use){first_key(why, target), seq, stack};
}

static void on_pystack(struct hv_names_index *x, struct tnames *t, struct hv_reader *rd, const struct hv_pystack *p)
{
    if (p->nframes == 0 && p->status == HV_PY_OK && p->id) {   /* a reference to a stack defined before */
        uint32_t def = hv_u64map_get(&t->id_stack, p->id);
        if (def != NONE) {
            if (hv_u64map_get(&t->seq_stack, p->h.seq) == NONE)
                hv_u64map_put(&t->seq_stack, p->h.seq, def);
            add_use(t, p->why, p->target, p->h.seq, def);
        }
        return;
    }
    if (!HV_GROW(t->stk, t->nstk, t->capstk, 64))
        return;
    struct pystk *s = &t->stk[t->nstk];
    *s = (struct pystk){p->h.seq, p->target, x->nfr, 0, p->py_version, p->h.tid, p->status, p->why};
    if (p->status == HV_PY_UNSUPPORTED && !t->unsupported) {
        t->unsupported = 1;
        t->unsupported_version = p->py_version;
    }
    const struct hv_pyframe *f = (const struct hv_pyframe *)(p + 1);
    for (uint32_t i = 0; i < p->nframes && HV_GROW(x->fr, x->nfr, x->capfr, 256); i++) {
        x->fr[x->nfr++] = (struct pyfr){str_of(x, t, rd, f[i].file_id), str_of(x, t, rd, f[i].func_id), f[i].line};
        s->n++;
    }
    if (hv_u64map_get(&t->seq_stack, p->h.seq) == NONE)
        hv_u64map_put(&t->seq_stack, p->h.seq, t->nstk);
    if (p->id)
        hv_u64map_put(&t->id_stack, p->id, t->nstk);
    add_use(t, p->why, p->target, p->h.seq, t->nstk);
    if (p->why == HV_PY_AT_NAME && t->nnames && t->names[t->nnames - 1].seq == p->h.seq &&
        t->names[t->nnames - 1].ptr == p->target)
        t->names[t->nnames - 1].stack = t->nstk;
    t->nstk++;
}

/* The record types hv_names_feed collects. */
int hv_names_wanted(uint64_t seen) { return (seen & HV_NAMES_TYPES) != 0; }

static void on_karg_names(struct hv_names_index *x, struct tnames *t, struct hv_reader *rd,
                          const struct hv_karg_names *k)
{
    if (!HV_GROW(t->kans, t->nkans, t->capkans, 16))
        return;
    struct kan *e = &t->kans[t->nkans];
    *e = (struct kan){k->func, k->h.seq, x->nka, 0, hv_u64map_get(&t->kan_last, k->func)};
    if (hv_u64map_put(&t->kan_last, k->func, t->nkans) != 0)
        return;
    const struct hv_karg_name *a = (const struct hv_karg_name *)(k + 1);
    for (uint32_t i = 0; i < k->count && HV_GROW(x->ka, x->nka, x->capka, 64); i++) {
        x->ka[x->nka++] = (struct kan_arg){str_of(x, t, rd, a[i].name_id), a[i].offset, a[i].index,
                                           a[i].kind};
        e->n++;
    }
    t->nkans++;
}

void hv_names_feed(struct hv_names_index *x, struct hv_reader *rd, const struct hv_rec_header *rec)
{
    struct tnames *t = x->cur;
    /* A stack's frames and a kernel's argument names are read up to the
     * count the record announces: it must hold them all. */
    if (!t || hv_rec_check(rec))
        return;
    switch (rec->type) {
    case HV_REC_PYSTACK:
        on_pystack(x, t, rd, (const struct hv_pystack *)(const void *)rec);
        break;
    case HV_REC_NAME: {
        const struct hv_name *n = (const struct hv_name *)(const void *)rec;
        if (rec->size >= sizeof *n && HV_GROW(t->names, t->nnames, t->capnames, 16))
            t->names[t->nnames++] = (struct bname){rec->seq, n->ptr, n->bytes, str_of(x, t, rd, n->name_id), NONE};
        break;
    }
    case HV_REC_KARG_NAMES:
        on_karg_names(x, t, rd, (const struct hv_karg_names *)(const void *)rec);
        break;
    case HV_REC_MARK: {
        const struct hv_mark *m = (const struct hv_mark *)(const void *)rec;
        if (rec->size >= sizeof *m && HV_GROW(t->marks, t->nmarks, t->capmarks, 64)) {
            t->marks[t->nmarks] = (struct mark){rec->seq, m->id, m->skipped, rec->tid, str_of(x, t, rd, m->name_id),
                                                t->nmarks, m->kind, m->source};
            t->nmarks++;
            if (m->skipped > t->skipped_total)
                t->skipped_total = m->skipped;
            t->opens_regions |= m->kind == HV_MARK_PUSH || m->kind == HV_MARK_START;
        }
        break;
    }
    default:
        break;
    }
}

/* The threads of the ops the findings name, from their call records: the
 * second read of a trace, only for one that opens regions. The reader
 * renumbers records the same way on every read (reading on after damage as
 * the analysis did), so seqs match the first. */
struct tids_pass {
    struct tnames *t;
    uint32_t left;
};

static int tids_begin(void *ctx, struct hv_run *r)
{
    (void)r;
    return ((struct tids_pass *)ctx)->left == 0;
}

static int tids_record(void *ctx, struct hv_run *r, const struct hv_rec_header *rec)
{
    (void)r;
    struct tids_pass *p = ctx;
    uint32_t w = hv_u64map_get(&p->t->want_ix, rec->seq);
    if (w != NONE && p->t->want[w].tid == NONE) {
        p->t->want[w].tid = rec->tid;
        p->left--;
    }
    return p->left == 0;
}

static void read_tids(struct tnames *t)
{
    if (!t->path)
        return;
    struct tids_pass p = {t, t->nwant};
    struct hv_run_opts o = {.records_only = 1,
                            .ctx = &p,
                            .begin = tids_begin,
                            .record = tids_record,
                            .record_types = 1ull << HV_REC_CALL};
    struct hv_run r;
    hv_run_file(t->path, NULL, &o, &r);
}

/* ---- regions: one sweep over marks and wanted ops in seq order ---- */

struct ev {
    uint64_t seq;
    uint32_t idx;              /* mark or want index */
    uint8_t is_mark;
    uint32_t order;
};

static int ev_cmp(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    /* A mark with seq S was made after call S: the op at S comes first. */
    if (x->is_mark != y->is_mark)
        return x->is_mark ? 1 : -1;
    return x->order < y->order ? -1 : x->order > y->order;
}

#define MAX_DEPTH 16u

struct tstack {
    uint32_t tid, n;
    uint32_t name[MAX_DEPTH];
    uint64_t range_id[MAX_DEPTH];   /* START/END ranges: their id; 0 for push/pop */
};

static struct tstack *tstack_of(struct tstack **v, uint32_t *n, uint32_t *cap, uint32_t tid)
{
    for (uint32_t i = 0; i < *n; i++)
        if ((*v)[i].tid == tid)
            return &(*v)[i];
    if (!HV_GROW(*v, *n, *cap, 8))
        return NULL;
    struct tstack *s = &(*v)[(*n)++];
    memset(s, 0, sizeof *s);
    s->tid = tid;
    return s;
}

static void regions(struct hv_names_index *x, struct tnames *t)
{
    uint32_t nev = t->nmarks + t->nwant;
    struct ev *ev = nev ? malloc(nev * sizeof *ev) : NULL;
    if (!ev)
        return;
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->nmarks; i++)
        ev[k++] = (struct ev){t->marks[i].seq, i, 1, t->marks[i].order};
    for (uint32_t i = 0; i < t->nwant; i++)
        ev[k++] = (struct ev){t->want[i].seq, i, 0, i};
    qsort(ev, nev, sizeof *ev, ev_cmp);
    struct tstack *st = NULL;
    uint32_t nst = 0, capst = 0;
    struct hv_u64map counts;   /* mark text -> how many so far */
    hv_u64map_init(&counts);
    uint32_t last_mark = NONE;
    uint64_t last_n = 0, skipped = 0;
    for (uint32_t i = 0; i < nev; i++) {
        if (ev[i].is_mark) {
            const struct mark *m = &t->marks[ev[i].idx];
            struct tstack *s = tstack_of(&st, &nst, &capst, m->tid);
            switch (m->kind) {
            case HV_MARK_PUSH:
            case HV_MARK_START:
                if (s && s->n < MAX_DEPTH) {
                    s->name[s->n] = m->name;
                    s->range_id[s->n++] = m->kind == HV_MARK_START ? m->id : 0;
                }
                break;
            case HV_MARK_POP:
                for (uint32_t d = s ? s->n : 0; d > 0; d--)   /* innermost push/pop range */
                    if (!s->range_id[d - 1]) {
                        memmove(&s->name[d - 1], &s->name[d], (s->n - d) * sizeof s->name[0]);
                        memmove(&s->range_id[d - 1], &s->range_id[d], (s->n - d) * sizeof s->range_id[0]);
                        s->n--;
                        break;
                    }
                break;
            case HV_MARK_END:
                /* A start/end range may end on another thread: look everywhere. */
                for (uint32_t j = 0; j < nst; j++)
                    for (uint32_t d = 0; d < st[j].n; d++)
                        if (st[j].range_id[d] == m->id) {
                            memmove(&st[j].name[d], &st[j].name[d + 1], (st[j].n - d - 1) * sizeof st[j].name[0]);
                            memmove(&st[j].range_id[d], &st[j].range_id[d + 1],
                                    (st[j].n - d - 1) * sizeof st[j].range_id[0]);
                            st[j].n--;
                            j = nst;
                            break;
                        }
                break;
            case HV_MARK_POINT: {
                uint32_t c = m->name == NONE ? NONE : hv_u64map_get(&counts, m->name);
                uint32_t nc = c == NONE ? 1 : c + 1;
                if (m->name != NONE)
                    hv_u64map_put(&counts, m->name, nc);
                last_mark = m->name;
                last_n = nc;
                break;
            }
            default:
                skipped = m->skipped;
                break;
            }
            continue;
        }
        struct want *w = &t->want[ev[i].idx];
        w->mark = last_mark;
        w->mark_n = last_n;
        w->skipped_before = skipped;
        struct tstack *s = NULL;
        for (uint32_t j = 0; j < nst && w->tid != NONE; j++)
            if (st[j].tid == w->tid)
                s = &st[j];
        if (s && s->n) {
            char buf[512];
            size_t o = 0;
            buf[0] = '\0';
            for (uint32_t d = 0; d < s->n && o < sizeof buf - 1; d++) {
                const char *nm = S(x, s->name[d]);
                int r = snprintf(buf + o, sizeof buf - o, "%s%s", d ? " > " : "", nm ? nm : "?");
                o = r < 0 ? sizeof buf : o + (size_t)r;
            }
            w->region = intern(x, buf);
        }
    }
    hv_u64map_free(&counts);
    free(st);
    free(ev);
}

static int use_cmp(const void *a, const void *b)
{
    const struct use *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The latest stack recorded for (why, target) at or before `seq` (the
 * earliest one when `seq` is 0); NONE when none. */
static uint32_t use_at(const struct tnames *t, unsigned why, uint64_t target, uint64_t seq)
{
    uint64_t key = first_key(why, target);
    size_t lo = 0, hi = t->nuses;
    while (lo < hi) {   /* first entry with (key, seq) > (key, seq or 0) */
        size_t mid = (lo + hi) / 2;
        const struct use *u = &t->uses[mid];
        if (u->key < key || (u->key == key && seq && u->seq <= seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!seq)
        return lo < t->nuses && t->uses[lo].key == key ? t->uses[lo].stack : NONE;
    return lo > 0 && t->uses[lo - 1].key == key ? t->uses[lo - 1].stack : NONE;
}

/* Stack for each wanted op: its own, else the latest recorded for the same
 * target before it (a call that repeats its site's previous Python frames
 * records none). */
static void stacks(struct tnames *t, const struct hv_findings *s)
{
    if (t->nuses)  /* qsort(NULL, 0, ...) is undefined */
        qsort(t->uses, t->nuses, sizeof *t->uses, use_cmp);
    for (size_t g = 0; g < s->ngroups; g++) {
        const struct hv_finding *f = &s->groups[g].f;
        if (f->pid != t->pid)
            continue;
        const struct hv_fside *sides[2] = {&f->a, &f->b};
        for (int k = 0; k < 2; k++) {
            const struct hv_fside *sd = sides[k];
            uint32_t w = sd->seq ? hv_u64map_get(&t->want_ix, sd->seq) : NONE;
            if (w == NONE)
                continue;
            uint32_t st = hv_u64map_get(&t->seq_stack, sd->seq);
            t->want[w].inherited = st == NONE;
            if (st == NONE) {
                switch (sd->kind) {
                case HV_SIDE_COPY:
                case HV_SIDE_MEMSET: st = use_at(t, HV_PY_AT_WRITE, sd->dst, sd->seq); break;
                case HV_SIDE_REPLAY: st = use_at(t, HV_PY_AT_REPLAY, sd->exec, sd->seq); break;
                default: break;
                }
            }
            t->want[w].stack = st;
        }
    }
}

static void tnames_free(struct tnames *t)
{
    hv_u64map_free(&t->str_ix);
    hv_u64map_free(&t->want_ix);
    hv_u64map_free(&t->seq_stack);
    hv_u64map_free(&t->id_stack);
    hv_u64map_free(&t->kan_last);
    HV_FREE_ALL(t->uses, t->want, t->stk, t->names, t->marks, t->kans, t->path);
}

void hv_names_free(struct hv_names_index *x)
{
    if (!x)
        return;
    for (uint32_t i = 0; i < x->nt; i++)
        tnames_free(&x->t[i]);
    hv_strset_free(&x->strs);
    HV_FREE_ALL(x->t, x->fr, x->ka, x);
}

struct hv_names_index *hv_names_new(void)
{
    return calloc(1, sizeof(struct hv_names_index));
}

/* Forgets the last trace begun. */
static void tnames_free_last(struct hv_names_index *x)
{
    tnames_free(&x->t[--x->nt]);
}

int hv_names_begin(struct hv_names_index *x, const char *path, const struct hv_file_header *h)
{
    x->cur = NULL;
    if (!HV_GROW(x->t, x->nt, x->capt, 4))
        return -1;
    struct tnames *t = &x->t[x->nt++];
    memset(t, 0, sizeof *t);
    t->pid = h->pid;
    t->regions_gated = (h->flags & HV_HDR_REGIONS) != 0;
    t->pyframes_first = (h->flags & HV_HDR_PYFRAMES_FIRST) != 0;
    t->path = strdup(path);
    hv_u64map_init(&t->str_ix);
    hv_u64map_init(&t->want_ix);
    hv_u64map_init(&t->seq_stack);
    hv_u64map_init(&t->id_stack);
    hv_u64map_init(&t->kan_last);
    if (!t->path) {
        tnames_free_last(x);
        return -1;
    }
    x->cur = t;
    return 0;
}

void hv_names_end(struct hv_names_index *x, uint64_t seen)
{
    /* A trace that held none of the records collected is left out, as if it
     * had never been fed (lookups go by pid: the first trace of a pid that
     * has any wins). */
    if (x->cur && !hv_names_wanted(seen))
        tnames_free_last(x);
    x->cur = NULL;
}

int hv_names_resolve(struct hv_names_index *x, const struct hv_findings *s)
{
    int any = 0;
    x->cur = NULL;
    for (uint32_t i = 0; i < x->nt; i++) {
        struct tnames *t = &x->t[i];
        hv_findings_each_op(s, t->pid, want_seq, t);
        if (t->opens_regions && t->nwant)
            read_tids(t);
        stacks(t, s);
        regions(x, t);
        any |= t->nstk || t->nnames || t->nmarks || t->nkans;
    }
    return any;
}

/* ---- lookups ---- */

static const struct tnames *trace_of(const struct hv_names_index *x, uint64_t pid)
{
    for (uint32_t i = 0; i < x->nt; i++)
        if (x->t[i].pid == pid)
            return &x->t[i];
    return NULL;
}

static const struct want *want_of(const struct tnames *t, uint64_t seq)
{
    uint32_t w = t && seq ? hv_u64map_get(&t->want_ix, seq) : NONE;
    return w == NONE ? NULL : &t->want[w];
}

/* The name in force for [lo, hi) at the finding's later op: the latest
 * naming (before it) of a range holding lo. *off: lo's offset in it. */
static const struct bname *name_of(const struct tnames *t, const struct hv_finding *f, uint64_t *off)
{
    uint64_t at = f->b.seq ? f->b.seq : f->a.seq;
    const struct bname *best = NULL;
    for (uint32_t i = 0; t && i < t->nnames; i++) {
        const struct bname *n = &t->names[i];
        if (at && n->seq >= at)
            continue;
        uint64_t end = n->bytes ? n->ptr + n->bytes
                       : (f->alloc_bytes && n->ptr >= f->alloc_base && n->ptr < f->alloc_base + f->alloc_bytes)
                           ? f->alloc_base + f->alloc_bytes
                           : n->ptr + 1;
        uint64_t start = n->bytes ? n->ptr : (end == n->ptr + 1 ? n->ptr : f->alloc_base);
        if (f->lo >= start && f->lo < end && (!best || n->seq >= best->seq)) {
            best = n;
            *off = f->lo - start;
        }
    }
    return best && best->name != NONE ? best : NULL;
}

/* The named pointer argument through which op `sd` saw the buffer: its
 * kernel's latest argument names bound before it. Only pointer arguments
 * (a pointer found inside a by-value struct is not what that argument's
 * name means). */
static const struct kan_arg *arg_of_side(const struct hv_names_index *x, const struct tnames *t,
                                         const struct hv_fside *sd)
{
    if (!t || !sd->func || sd->arg_index < 0 || sd->origin == HV_ARG_INFERRED ||
        (sd->kind != HV_SIDE_REPLAY && sd->kind != HV_SIDE_LAUNCH && sd->kind != HV_SIDE_KERNEL))
        return NULL;
    /* Bindings arrive in seq order: walk back from the latest to the one in
     * force at the op. */
    const struct kan *best = NULL;
    for (uint32_t i = hv_u64map_get(&t->kan_last, sd->func); i != NONE && !best; i = t->kans[i].prev)
        if (!sd->seq || t->kans[i].seq <= sd->seq)
            best = &t->kans[i];
    for (uint32_t i = 0; best && i < best->n; i++) {
        const struct kan_arg *a = &x->ka[best->first + i];
        if (a->index == (uint16_t)sd->arg_index)
            return a->name != NONE && a->kind == HV_KARG_POINTER ? a : NULL;
    }
    return NULL;
}

/* The finding's buffer as a kernel argument: the later op's (the reader)
 * first, else the earlier one's (a kernel that wrote it). */
static const struct kan_arg *arg_of(const struct hv_names_index *x, const struct tnames *t,
                                    const struct hv_finding *f, const struct hv_fside **side)
{
    const struct kan_arg *a = arg_of_side(x, t, &f->b);
    *side = &f->b;
    if (!a) {
        a = arg_of_side(x, t, &f->a);
        *side = &f->a;
    }
    return a;
}

static const char *kernel_of(const struct hv_fside *sd) { return sd->name ? sd->name : "?"; }

/* Where the buffer came from when it has no name: the stack of its
 * allocation, else of its first write. */
static const struct pystk *origin_of(const struct tnames *t, const struct hv_finding *f, const char **what)
{
    if (!t)
        return NULL;
    if (f->alloc_base) {
        uint32_t s = use_at(t, HV_PY_AT_ALLOC, f->alloc_base ^ (f->alloc_bytes << 40), 0);
        if (s != NONE && t->stk[s].n) {
            *what = "allocated";
            return &t->stk[s];
        }
    }
    uint32_t s = use_at(t, HV_PY_AT_WRITE, f->lo, 0);
    if (s != NONE && t->stk[s].n) {
        *what = "first written";
        return &t->stk[s];
    }
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "?";
}

/* The frame that tells two stacks apart: the innermost one where they
 * differ (both may come through the same helper, e.g. a ctypes wrapper),
 * the innermost of each when they do not. */
static uint32_t telling_depth(const struct hv_names_index *x, const struct pystk *a, const struct pystk *b)
{
    if (!a || !b)
        return 0;
    uint32_t n = a->n < b->n ? a->n : b->n;
    for (uint32_t d = 0; d < n; d++) {
        const struct pyfr *p = &x->fr[a->first + d], *q = &x->fr[b->first + d];
        if (p->file != q->file || p->line != q->line)
            return d;
    }
    return 0;
}

static void frame_text(const struct hv_names_index *x, FILE *out, const struct pystk *s, uint32_t d)
{
    if (d >= s->n)
        d = s->n - 1;
    const struct pyfr *fr = &x->fr[s->first + d];
    fprintf(out, "%s:%d in %s", base_name(S(x, fr->file)), fr->line, S(x, fr->func) ? S(x, fr->func) : "?");
}

static void frame_json(const struct hv_names_index *x, struct hv_json *w, const struct pyfr *fr)
{
    hv_json_obj(w);
    hv_json_kstr(w, "file", S(x, fr->file) ? S(x, fr->file) : "?");
    hv_json_ki64(w, "line", fr->line);
    hv_json_kstr(w, "function", S(x, fr->func) ? S(x, fr->func) : "?");
    hv_json_obj_end(w);
}

static const struct pystk *stack_of(const struct tnames *t, const struct want *w)
{
    return t && w && w->stack != NONE ? &t->stk[w->stack] : NULL;
}

/* Whether w's Python lines are not its own but the first call's on its
 * target (HIPVIS_PYFRAMES=first, the op recorded none): they may differ. */
static int first_calls(const struct tnames *t, const struct want *w)
{
    return t && w && t->pyframes_first && w->inherited;
}

static const char *status_text(unsigned st)
{
    switch (st) {
    case HV_PY_NO_THREAD: return "not a Python thread";
    case HV_PY_UNSUPPORTED: return "CPython version not supported";
    case HV_PY_UNREADABLE: return "frames unreadable";
    case HV_PY_SITES_FULL: return "site table full";
    default: return "ok";
    }
}

/* ---- report hooks ---- */

static void side_json(void *ctx, struct hv_json *out, const struct hv_finding *f, const struct hv_fside *sd)
{
    const struct hv_names_index *x = ctx;
    if (x->prev.side_json)
        x->prev.side_json(x->prev.side_ctx, out, f, sd);
    const struct tnames *t = trace_of(x, f->pid);
    const struct want *w = want_of(t, sd->seq);
    const struct pystk *s = stack_of(t, w);
    const struct kan_arg *ka = arg_of_side(x, t, sd);
    if (ka)
        hv_json_kstr(out, "arg_name", S(x, ka->name));
    if (s && s->status == HV_PY_OK && s->n) {
        hv_json_karr(out, "python");
        for (uint32_t i = 0; i < s->n; i++)
            frame_json(x, out, &x->fr[s->first + i]);
        hv_json_arr_end(out);
        if (first_calls(t, w))
            hv_json_kstr(out, "python_from", "first_call");
    } else if (s) {
        hv_json_knull(out, "python");
        hv_json_kstr(out, "python_status", status_text(s->status));
    }
    if (w && w->region != NONE)
        hv_json_kstr(out, "region", S(x, w->region));
    if (w && w->mark != NONE) {
        hv_json_kobj(out, "mark");
        hv_json_kstr(out, "name", S(x, w->mark));
        hv_json_ku64(out, "count", w->mark_n);
        hv_json_obj_end(out);
    }
}

static void side_text(void *ctx, FILE *out, const struct hv_finding *f, const struct hv_fside *sd)
{
    const struct hv_names_index *x = ctx;
    if (x->prev.side_text)
        x->prev.side_text(x->prev.side_ctx, out, f, sd);
    const struct tnames *t = trace_of(x, f->pid);
    const struct want *w = want_of(t, sd->seq);
    const struct pystk *s = stack_of(t, w);
    if (s && s->status == HV_PY_OK && s->n) {
        /* The innermost frames, up to the one that tells this op apart. */
        const struct hv_fside *other = sd == &f->a ? &f->b : &f->a;
        uint32_t d = telling_depth(x, s, stack_of(t, want_of(t, other->seq)));
        fprintf(out, "           python   ");
        frame_text(x, out, s, d);
        for (uint32_t i = d + 1; i < s->n && i < d + 3; i++) {
            fprintf(out, " < ");
            frame_text(x, out, s, i);
        }
        fputc('\n', out);
        if (first_calls(t, w))
            fprintf(out, "                    (the lines of the first call on this target: HIPVIS_PYFRAMES=first; "
                         "=1 records every site)\n");
    } else if (s && s->status != HV_PY_OK) {
        fprintf(out, "           python   (no Python frames: %s", status_text(s->status));
        if (s->status == HV_PY_UNSUPPORTED && s->version)
            fprintf(out, ", %u.%u", s->version >> 24, (s->version >> 16) & 0xff);
        fprintf(out, ")\n");
    }
    if (w && (w->region != NONE || w->mark != NONE)) {
        fprintf(out, "           region   %s", w->region != NONE ? S(x, w->region) : "-");
        if (w->mark != NONE)
            fprintf(out, ", after mark \"%s\" #%" PRIu64, S(x, w->mark), w->mark_n);
        fputc('\n', out);
    }
}

static void kernel_arg_json(const struct hv_names_index *x, struct hv_json *out, const struct kan_arg *a,
                            const struct hv_fside *sd)
{
    hv_json_kobj(out, "kernel_arg");
    hv_json_kstr(out, "name", S(x, a->name));
    hv_json_ku64(out, "index", a->index);
    hv_json_ku64(out, "offset", a->offset);
    hv_json_kstr(out, "kernel", kernel_of(sd));
    hv_json_kstr(out, "op", sd->kind == HV_SIDE_KERNEL ? "written" : "read");
    hv_json_obj_end(out);
}

static void buffer_json(void *ctx, struct hv_json *out, const struct hv_finding *f)
{
    const struct hv_names_index *x = ctx;
    const struct tnames *t = trace_of(x, f->pid);
    uint64_t off = 0;
    const struct bname *n = name_of(t, f, &off);
    const struct hv_fside *sd = NULL;
    const struct kan_arg *ka = arg_of(x, t, f, &sd);
    if (ka)
        kernel_arg_json(x, out, ka, sd);
    if (n) {
        hv_json_kstr(out, "name", S(x, n->name));
        hv_json_ku64(out, "name_offset", off);
        hv_json_kstr(out, "name_source", "hipvis_name");
        if (n->stack != NONE && t->stk[n->stack].n) {
            hv_json_key(out, "named_at");
            const struct pystk *s = &t->stk[n->stack];
            /* Past the hipvis module's own frame, when it is the innermost. */
            uint32_t d = s->n > 1 && strstr(S(x, x->fr[s->first].file) ? S(x, x->fr[s->first].file) : "",
                                            "hipvis/__init__.py") ? 1 : 0;
            frame_json(x, out, &x->fr[s->first + d]);
        }
        return;
    }
    const char *what = NULL;
    const struct pystk *s = origin_of(t, f, &what);
    if (ka) {
        hv_json_kstr(out, "name", S(x, ka->name));
        hv_json_kstr(out, "name_source", "kernel_arg");
    } else {
        hv_json_knull(out, "name");
    }
    if (s) {
        hv_json_key(out, strcmp(what, "allocated") ? "first_written_at" : "allocated_at");
        frame_json(x, out, &x->fr[s->first]);
    }
}

static void buffer_text(void *ctx, FILE *out, const struct hv_finding *f)
{
    const struct hv_names_index *x = ctx;
    const struct tnames *t = trace_of(x, f->pid);
    uint64_t off = 0;
    const struct bname *n = name_of(t, f, &off);
    const struct hv_fside *sd = NULL;
    const struct kan_arg *ka = arg_of(x, t, f, &sd);
    if (n) {
        fprintf(out, "\"%s\"", S(x, n->name));
        if (off)
            fprintf(out, "+%" PRIu64, off);
        if (ka)
            fprintf(out, ", %s as %s (kernel arg %u of %s)", sd->kind == HV_SIDE_KERNEL ? "written" : "read",
                    S(x, ka->name), (unsigned)ka->index, kernel_of(sd));
        fputc(' ', out);
        return;
    }
    const char *what = NULL;
    const struct pystk *s = origin_of(t, f, &what);
    if (ka)
        fprintf(out, "%s (kernel arg %u of %s%s", S(x, ka->name), (unsigned)ka->index, kernel_of(sd), s ? "; " : ") ");
    if (s) {
        fprintf(out, "%s%s at ", ka ? "" : "(", what);
        frame_text(x, out, s, 0);
        fprintf(out, ") ");
    }
}

/* "written at X:172 in run, replayed at X:178 in run": the two Python
 * lines of a finding on one line. */
static const char *verb(int kind)
{
    switch (kind) {
    case HV_SIDE_COPY:
    case HV_SIDE_MEMSET:
    case HV_SIDE_KERNEL: return "written";
    case HV_SIDE_REPLAY: return "replayed";
    case HV_SIDE_LAUNCH: return "read";
    case HV_SIDE_FREE: return "released";
    case HV_SIDE_SYNC: return "observed";
    default: return NULL;
    }
}

static void finding_text(void *ctx, FILE *out, const struct hv_finding *f)
{
    const struct hv_names_index *x = ctx;
    const struct tnames *t = trace_of(x, f->pid);
    const struct pystk *a = stack_of(t, want_of(t, f->a.seq)), *b = stack_of(t, want_of(t, f->b.seq));
    if (a && (a->status != HV_PY_OK || !a->n))
        a = NULL;
    if (b && (b->status != HV_PY_OK || !b->n))
        b = NULL;
    if (!a && !b) {
        if (t && t->unsupported && t->unsupported_version)
            fprintf(out, "  python   no Python frames: CPython %u.%u is not supported (3.11, 3.12, 3.13 are)\n",
                     t->unsupported_version >> 24, (t->unsupported_version >> 16) & 0xff);
        else if (t && t->unsupported)
            fprintf(out, "  python   no Python frames: CPython before 3.11 is not supported (3.11, 3.12, 3.13 are)\n");
        return;
    }
    uint32_t d = telling_depth(x, a, b);
    fprintf(out, "  python   ");
    if (a && verb(f->a.kind)) {
        fprintf(out, "%s at ", verb(f->a.kind));
        frame_text(x, out, a, d);
    }
    if (b && verb(f->b.kind)) {
        fprintf(out, "%s%s at ", a && verb(f->a.kind) ? ", " : "", verb(f->b.kind));
        frame_text(x, out, b, d);
    }
    fputc('\n', out);
}

static void trace_text(void *ctx, FILE *out, uint64_t pid)
{
    const struct hv_names_index *x = ctx;
    const struct tnames *t = trace_of(x, pid);
    if (t && t->regions_gated)
        fprintf(out, "   HIPVIS_START: data calls outside the recorded window were not recorded (%" PRIu64
                     " counted up to the last window change)\n",
                t->skipped_total);
}

void hv_names_install(struct hv_names_index *x, struct hv_report_opts *o)
{
    x->prev = *o;
    o->side_json = side_json;
    o->side_text = side_text;
    o->side_ctx = x;
    o->buffer_json = buffer_json;
    o->buffer_text = buffer_text;
    o->finding_text = finding_text;
    o->trace_text = trace_text;
    o->names_ctx = x;
}
