/* findings: grouping store for rule output. See findings.h. */
#include "analyze/findings.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/u64map.h"
#include "hipvis/trace.h"

static const char *const sev_names[] = {"none", "info", "warning", "error"};

const char *hv_severity_name(int sev)
{
    return (sev >= 0 && sev <= HV_SEV_ERROR) ? sev_names[sev] : "?";
}

int hv_severity_parse(const char *s)
{
    for (int i = 0; i <= HV_SEV_ERROR; i++)
        if (strcmp(s, sev_names[i]) == 0)
            return i;
    return -1;
}

const char *hv_hint_text(int hint)
{
    switch (hint) {
    case HV_HINT_BLIT: return "blit kernel on the stream's queue";
    case HV_HINT_SDMA: return "SDMA engine";
    case HV_HINT_BLIT_NO_SDMA: return "blit kernel on the stream's queue (HSA_ENABLE_SDMA=0)";
    case HV_HINT_FILL_KERNEL: return "fill kernel on the stream's queue";
    case HV_HINT_KERNEL: return "kernel on the stream's queue";
    default: return NULL;
    }
}

void hv_findings_init(struct hv_findings *s)
{
    memset(s, 0, sizeof *s);
}

void hv_findings_free(struct hv_findings *s)
{
    for (size_t i = 0; i < s->ngroups; i++)
        free(s->groups[i].occ);
    free(s->groups);
    hv_u64map_free(&s->index);
    for (size_t i = 0; i < s->ntraces; i++)
        free(s->traces[i].path);
    free(s->traces);
    hv_strset_free(&s->strings);
    hv_findings_init(s);
}

const char *hv_findings_intern(struct hv_findings *s, const char *str)
{
    uint32_t i = str ? hv_strset_intern(&s->strings, str) : HV_U64MAP_NONE;
    return i == HV_U64MAP_NONE ? NULL : s->strings.v[i];
}

/* ---- grouping ---- */

/* The fields that make two occurrences "the same finding". */
#define SIDE_KEY(X, side) \
    X(side.api) X(side.stream) X(side.src) X(side.dst) X(side.exec) X(side.node_index) X(side.arg_index) \
    X(side.arg_offset)

#define ALL_KEY(X) X(rule) X(pid) X(lo) X(hi) SIDE_KEY(X, a) SIDE_KEY(X, b)

static uint64_t key_hash(const struct hv_finding *f)
{
    uint64_t h = 0x6a09e667f3bcc908ull;
#define HASH_FIELD(fld) h = hv_mix64(h ^ (uint64_t)(int64_t)f->fld);
    ALL_KEY(HASH_FIELD)
#undef HASH_FIELD
    if (f->note)
        h = hv_mix64(h ^ hv_str_hash(f->note));
    return h;
}

static int key_equal(const struct hv_finding *x, const struct hv_finding *y)
{
#define EQ_FIELD(fld) if (x->fld != y->fld) return 0;
    ALL_KEY(EQ_FIELD)
#undef EQ_FIELD
    /* The note qualifies the finding ("freed" vs "re-allocated"). */
    if (!x->note || !y->note)
        return x->note == y->note;
    return strcmp(x->note, y->note) == 0;
}

static void intern_side(struct hv_findings *s, struct hv_fside *side)
{
    side->name = hv_findings_intern(s, side->name);
}

static struct hv_group *new_group(struct hv_findings *s, const struct hv_finding *f, uint64_t h)
{
    if (!HV_GROW(s->groups, s->ngroups, s->capgroups, 16) || hv_u64map_add(&s->index, h, (uint32_t)s->ngroups) != 0)
        return NULL;
    struct hv_group *g = &s->groups[s->ngroups++];
    memset(g, 0, sizeof *g);
    g->f = *f;
    intern_side(s, &g->f.a);
    intern_side(s, &g->f.b);
    g->f.note = hv_findings_intern(s, f->note);
    g->f.detail = hv_findings_intern(s, f->detail);
    return g;
}

/* One more occurrence of g: (a_seq, b_seq) are the earlier and exposed ops. */
static void count(struct hv_findings *s, struct hv_group *g, uint64_t a_seq, uint64_t b_seq)
{
    g->count++;
    g->last_seq = b_seq;
    g->last_a_seq = a_seq;
    s->total++;
    if (!s->keep_all)
        return;
    if (!HV_GROW_TO(g->occ, g->nocc + 2, g->capocc, 16))
        return;
    g->occ[g->nocc++] = a_seq;
    g->occ[g->nocc++] = b_seq;
}

static uint64_t exposed_seq(const struct hv_finding *f)
{
    return f->b.kind != HV_SIDE_NONE ? f->b.seq : f->a.seq;
}

const struct hv_group *hv_findings_add(struct hv_findings *s, const struct hv_finding *f)
{
    uint64_t h = key_hash(f);
    struct hv_group *g = NULL;
    size_t pos = 0;
    for (uint32_t i; !g && (i = hv_u64map_next(&s->index, h, &pos)) != HV_U64MAP_NONE;)
        if (key_equal(&s->groups[i].f, f))
            g = &s->groups[i];
    int is_new = 0;
    if (!g) {
        g = new_group(s, f, h);
        if (!g)
            return NULL;
        g->first_seq = exposed_seq(f);
        is_new = 1;
    }
    if (f->severity > g->f.severity)  /* a group keeps the worst severity seen */
        g->f.severity = f->severity;
    count(s, g, f->a.seq, exposed_seq(f));
    if (s->observer)
        s->observer(s->observer_ctx, f, g, is_new);
    return g;
}

static int group_cmp(const void *pa, const void *pb)
{
    const struct hv_group *a = *(const struct hv_group *const *)pa;
    const struct hv_group *b = *(const struct hv_group *const *)pb;
    if (a->f.severity != b->f.severity)
        return a->f.severity > b->f.severity ? -1 : 1;
    if (a->f.pid != b->f.pid)
        return a->f.pid < b->f.pid ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->first_seq != b->first_seq)
        return a->first_seq < b->first_seq ? -1 : 1;
    /* Then by site, so findings that differ only in the graph node are
     * adjacent (the text report folds them). */
    const uint64_t ka[] = {a->f.rule, a->f.lo, a->f.b.exec, (uint64_t)(int64_t)a->f.b.arg_index,
                           a->f.a.src, (uint64_t)(int64_t)a->f.b.node_index};
    const uint64_t kb[] = {b->f.rule, b->f.lo, b->f.b.exec, (uint64_t)(int64_t)b->f.b.arg_index,
                           b->f.a.src, (uint64_t)(int64_t)b->f.b.node_index};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

const struct hv_group **hv_findings_sorted(const struct hv_findings *s)
{
    const struct hv_group **v = malloc((s->ngroups + 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < s->ngroups; i++)
        v[i] = &s->groups[i];
    qsort(v, s->ngroups, sizeof *v, group_cmp);
    return v;
}

/* ---- bugs: groups that are one bug across execs and processes ---- */

static int per_trace(const struct hv_finding *f)
{
    return f->a.kind == HV_SIDE_TRACE || f->b.kind == HV_SIDE_TRACE;
}

/* The fields that make two groups one bug. Strings are interned by the
 * store, so their pointers compare as the strings do. A released
 * allocation is one bug however many arguments of the exec point into it,
 * so the reader's argument does not count there. */
#define BUG_NKEY 15
static void bug_key(const struct hv_finding *f, uint64_t k[BUG_NKEY])
{
    int freed = f->a.kind == HV_SIDE_FREE;
    size_t i = 0;
    k[i++] = f->rule;
    k[i++] = f->severity;
    k[i++] = (uint64_t)(uintptr_t)f->note;
    k[i++] = f->a.kind;
    k[i++] = f->a.api;
    k[i++] = f->a.dir;
    k[i++] = (uint64_t)(int64_t)f->a.arg_index;
    k[i++] = (uint64_t)(uintptr_t)f->a.name;
    k[i++] = f->b.kind;
    k[i++] = f->b.api;
    k[i++] = freed ? 0 : (uint64_t)(int64_t)f->b.arg_index;
    k[i++] = freed ? 0 : f->b.node_type;
    k[i++] = (uint64_t)(uintptr_t)f->b.name;
    /* Findings about the input itself stay per trace; a free, per allocation. */
    k[i++] = per_trace(f) || freed ? f->pid : 0;
    k[i++] = freed ? f->a.dst : 0;
}

static uint64_t bug_hash(const struct hv_finding *f)
{
    uint64_t k[BUG_NKEY], h = 0xbb67ae8584caa73bull;
    bug_key(f, k);
    for (size_t i = 0; i < BUG_NKEY; i++)
        h = hv_mix64(h ^ k[i]);
    return h;
}

static int bug_equal(const struct hv_finding *x, const struct hv_finding *y)
{
    uint64_t a[BUG_NKEY], b[BUG_NKEY];
    bug_key(x, a);
    bug_key(y, b);
    return memcmp(a, b, sizeof a) == 0;
}

/* Distinct values among n 64-bit keys (sorts a scratch copy). */
static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, u64_cmp);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

size_t hv_findings_bugs(const struct hv_group **sorted, size_t n, struct hv_bug **bugs)
{
    *bugs = NULL;
    uint32_t *bug_of = malloc((n + 1) * sizeof *bug_of);
    size_t *first = malloc((n + 1) * sizeof *first), *members = calloc(n + 1, sizeof *members);
    const struct hv_group **order = malloc((n + 1) * sizeof *order);
    uint64_t *keys = malloc((2 * n + 1) * sizeof *keys);
    struct hv_u64map map;
    hv_u64map_init(&map);
    size_t nb = 0;
    int ok = bug_of && first && members && order && keys;
    /* Assign each group its bug (by the bug's hash; a colliding, different
     * bug is another entry under the same hash). */
    for (size_t i = 0; ok && i < n; i++) {
        uint64_t h = bug_hash(&sorted[i]->f);
        size_t pos = 0;
        uint32_t b;
        while ((b = hv_u64map_next(&map, h, &pos)) != HV_U64MAP_NONE &&
               !bug_equal(&sorted[first[b]]->f, &sorted[i]->f))
            ;
        if (b == HV_U64MAP_NONE) {
            first[nb] = i;
            b = (uint32_t)nb++;
            ok = hv_u64map_add(&map, h, b) == 0;
        }
        bug_of[i] = b;
    }
    struct hv_bug *v = ok ? calloc(nb + 1, sizeof *v) : NULL;
    if (!v) {
        nb = (size_t)-1;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        members[bug_of[i]]++;
    for (size_t b = 0, at = 0; b < nb; b++) {
        v[b].first = at;
        at += members[b];
    }
    /* Stable within a bug: the most severe, most frequent member first. */
    for (size_t i = 0; i < n; i++) {
        struct hv_bug *b = &v[bug_of[i]];
        order[b->first + b->n++] = sorted[i];
        b->count += sorted[i]->count;
    }
    memcpy(sorted, order, n * sizeof *sorted);
    for (size_t b = 0; b < nb; b++) {
        for (size_t i = 0; i < v[b].n; i++) {
            const struct hv_finding *f = &sorted[v[b].first + i]->f;
            keys[i] = f->pid;
            keys[n + i] = f->b.kind == HV_SIDE_REPLAY ? hv_mix64(f->pid) ^ f->b.exec : 0;
        }
        v[b].npids = distinct(keys, v[b].n);
        v[b].nexecs = 0;
        for (size_t i = 0; i < v[b].n; i++)
            if (sorted[v[b].first + i]->f.b.kind == HV_SIDE_REPLAY)
                keys[v[b].nexecs++] = keys[n + i];
        v[b].nexecs = v[b].nexecs ? distinct(keys, v[b].nexecs) : 0;
    }
    *bugs = v;
out:
    hv_u64map_free(&map);
    free(bug_of);
    free(first);
    free(members);
    free(order);
    free(keys);
    return nb;
}

int hv_findings_add_trace(struct hv_findings *s, const struct hv_trace_summary *t)
{
    if (!HV_GROW(s->traces, s->ntraces, s->captraces, 4))
        return -1;
    struct hv_trace_summary *d = &s->traces[s->ntraces];
    *d = *t;
    d->path = t->path ? strdup(t->path) : NULL;
    if (t->path && !d->path)
        return -1;
    s->ntraces++;
    return 0;
}

void hv_findings_arg_coverage(const struct hv_findings *s, struct hv_arg_coverage *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < s->ntraces; i++) {
        const struct hv_trace_summary *t = &s->traces[i];
        c->unknown_layout_nodes += t->unknown_layout_nodes;
        c->inferred_args += t->inferred_args;
        c->unknown_layout_launches += t->unknown_layout_launches;
        c->inferred_launch_args += t->inferred_launch_args;
    }
}

uint64_t hv_findings_launches_unsampled(const struct hv_findings *s, uint64_t *launches)
{
    uint64_t all = 0, unsampled = 0;
    for (size_t i = 0; i < s->ntraces; i++) {
        all += s->traces[i].launches;
        unsampled += s->traces[i].launches_unsampled;
    }
    if (launches)
        *launches = all;
    return unsampled;
}

static int did_work(const struct hv_trace_summary *t)
{
    return t->copies || t->memsets || t->launches || t->replays;
}

int hv_trace_unusable(const struct hv_trace_summary *t)
{
    return t->failed_calls > 0 && !did_work(t);
}

int hv_findings_unusable(const struct hv_findings *s)
{
    int failed = 0;
    for (size_t i = 0; i < s->ntraces; i++) {
        if (did_work(&s->traces[i]))
            return 0;
        failed |= s->traces[i].failed_calls > 0;
    }
    return failed;
}

int hv_findings_max_severity(const struct hv_findings *s)
{
    int m = HV_SEV_NONE;
    for (size_t i = 0; i < s->ngroups; i++)
        if (s->groups[i].f.severity > m)
            m = s->groups[i].f.severity;
    return m;
}

size_t hv_findings_count_at(const struct hv_findings *s, int sev, uint64_t *occurrences)
{
    size_t n = 0;
    uint64_t occ = 0;
    for (size_t i = 0; i < s->ngroups; i++)
        if (s->groups[i].f.severity >= sev) {
            n++;
            occ += s->groups[i].count;
        }
    if (occurrences)
        *occurrences = occ;
    return n;
}

const struct hv_fside *hv_finding_inferred(const struct hv_finding *f)
{
    const struct hv_fside *sides[] = {&f->b, &f->a};
    for (size_t i = 0; i < 2; i++)
        if ((sides[i]->kind == HV_SIDE_REPLAY || sides[i]->kind == HV_SIDE_LAUNCH) &&
            sides[i]->origin == HV_ARG_INFERRED)
            return sides[i];
    return NULL;
}

size_t hv_findings_count_inferred(const struct hv_findings *s, int sev)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ngroups; i++)
        n += s->groups[i].f.severity >= sev && hv_finding_inferred(&s->groups[i].f);
    return n;
}

const char *hv_deref_name(int deref)
{
    static const char *const t[] = {"unchecked", "no-code-object", "code-object-not-stored", "no-disassembler",
                                    "not-dereferenced", "dereferenced", "no-such-argument"};
    return deref >= 0 && deref < (int)(sizeof t / sizeof t[0]) ? t[deref] : "?";
}
