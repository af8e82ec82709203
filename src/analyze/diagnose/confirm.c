/* confirm: inferred pointer arguments against the kernel's code (confirm.h). */
#include "analyze/diagnose/confirm.h"
#include "common/grow.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/diagnose/diag_int.h"
#include "codeobj/scalar.h"
#include "hipvis/reader.h"

/* One side to check; sides of one kernel are adjacent after sorting (kernel
 * names are interned by the store: one name, one pointer). */
struct req {
    struct hv_finding *f;
    struct hv_fside *side;
};

static int req_cmp(const void *pa, const void *pb)
{
    const struct req *a = pa, *b = pb;
    uintptr_t x = (uintptr_t)a->side->name, y = (uintptr_t)b->side->name;
    return x < y ? -1 : x > y;
}

static int needs_check(const struct hv_fside *s)
{
    return (s->kind == HV_SIDE_REPLAY || s->kind == HV_SIDE_LAUNCH) && s->origin == HV_ARG_INFERRED && s->name &&
           s->deref == HV_DEREF_UNCHECKED;
}

/* The sides of pid's groups to check (NULL when none, or out of memory). */
static struct req *requests(struct hv_findings *s, uint64_t pid, size_t *n)
{
    struct req *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < s->ngroups; i++) {
        struct hv_finding *f = &s->groups[i].f;
        struct hv_fside *sides[] = {&f->a, &f->b};
        for (size_t k = 0; k < 2; k++) {
            if (f->pid != pid || !needs_check(sides[k]))
                continue;
            if (!HV_GROW(v, *n, cap, 16))
                return v;
            v[(*n)++] = (struct req){f, sides[k]};
        }
    }
    qsort(v, *n, sizeof *v, req_cmp);
    return v;
}

#define USES (HV_CO_USE_SLOAD | HV_CO_USE_VLOAD | HV_CO_USE_SSTORE | HV_CO_USE_VSTORE | HV_CO_USE_ATOMIC)

/* HV_CO_USE_* in the findings' terms. */
static uint8_t uses_of(uint32_t co)
{
    return (uint8_t)((co & HV_CO_USE_SLOAD ? HV_DEREF_USE_SCALAR_LOAD : 0) |
                     (co & HV_CO_USE_VLOAD ? HV_DEREF_USE_VECTOR_LOAD : 0) |
                     (co & (HV_CO_USE_SSTORE | HV_CO_USE_VSTORE) ? HV_DEREF_USE_STORE : 0) |
                     (co & HV_CO_USE_ATOMIC ? HV_DEREF_USE_ATOMIC : 0) |
                     (co & HV_CO_USE_ESCAPE ? HV_DEREF_USE_PASSED_ON : 0));
}

/* What an unanswered lookup means for the report's next step. */
static uint8_t missing(int status, uint64_t stored_hash)
{
    if (status == HV_SX_NO_CODE_OBJECT)
        return stored_hash ? HV_DEREF_NOT_STORED : HV_DEREF_NO_CODE;
    return HV_DEREF_NO_DISASM;
}

/* The verdict for one side, from its word's answer. */
static int settle(struct req *q, const struct hv_sx_word *x, int status, uint64_t hash)
{
    struct hv_fside *s = q->side;
    if (status != HV_SX_OK) {
        s->deref = missing(status, hash);
    } else if (!x->found) {
        /* A params array read past its end: the kernel takes no such
         * argument, so the "pointer" is not one of its. */
        s->deref = HV_DEREF_NO_ARG;
        q->f->severity = HV_SEV_INFO;
    } else if (x->flags & USES) {
        s->deref = HV_DEREF_SEEN;
        s->deref_uses = uses_of(x->flags);
        s->origin = HV_ARG_CONFIRMED;
        return 1;
    } else {
        s->deref = HV_DEREF_NOT_SEEN;
        s->deref_uses = uses_of(x->flags);
    }
    return 0;
}

/* Sides v[0..n) of one kernel: one word per distinct (argument, offset),
 * asked HV_SX_WORDS_MAX at a time (one pass over the kernel's code each). */
static size_t check_kernel(struct hv_sx *code, const struct dx_trace *t, struct req *v, size_t n)
{
    const char *name = v[0].side->name;
    uint64_t hash = dx_kernel_hash(t, name);
    struct hv_sx_word *w = calloc(n, sizeof *w);
    size_t *slot = calloc(n, sizeof *slot), nw = 0, confirmed = 0;
    if (!w || !slot) {
        free(w);
        free(slot);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const struct hv_fside *s = v[i].side;
        size_t j = 0;
        while (j < nw && !(w[j].arg == (uint32_t)s->arg_index && w[j].offset == s->arg_offset))
            j++;
        if (j == nw)
            w[nw++] = (struct hv_sx_word){(uint32_t)s->arg_index, s->arg_offset, 0, 0};
        slot[i] = j;
    }
    int status = HV_SX_OK;
    for (size_t k = 0; k < nw; k += HV_SX_WORDS_MAX) {
        struct hv_sx_result r;
        hv_sx_words(code, name, hash, w + k, nw - k < HV_SX_WORDS_MAX ? nw - k : HV_SX_WORDS_MAX, &r);
        if (r.status != HV_SX_OK)
            status = r.status;
    }
    for (size_t i = 0; i < n; i++)
        confirmed += (size_t)settle(&v[i], &w[slot[i]], status, hash);
    free(w);
    free(slot);
    return confirmed;
}

static const char *string_cb(void *ctx, uint32_t id)
{
    return hv_reader_string(ctx, id);
}

static int has_requests(const struct hv_findings *s, uint64_t pid)
{
    for (size_t i = 0; i < s->ngroups; i++) {
        const struct hv_finding *f = &s->groups[i].f;
        if (f->pid == pid && (needs_check(&f->a) || needs_check(&f->b)))
            return 1;
    }
    return 0;
}

/* One trace: its kernel records and code objects, then its groups. */
static size_t confirm_trace(struct hv_sx *code, struct hv_findings *s, const char *path)
{
    struct hv_reader *rd;
    struct hv_read_error err;
    if (hv_reader_open(path, &rd, &err) != 0)
        return 0;
    const struct hv_file_header *hdr = hv_reader_header(rd);
    size_t confirmed = 0;
    if (has_requests(s, hdr->pid)) {
        struct dx_trace t;
        dx_trace_init(&t, hdr, path, 0, string_cb, rd);
        const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
        long got;
        /* A damaged trace is read as far as it goes (the analysis said so). */
        while ((got = hv_reader_next_batch(rd, recs, HV_READER_BATCH_MAX)) > 0 ||
               (got < 0 && hv_reader_error(rd)->status == HV_READ_CORRUPT))
            for (long i = 0; i < got; i++)
                if (recs[i]->type == HV_REC_KERNEL || recs[i]->type == HV_REC_CODEOBJ)
                    dx_trace_feed(&t, recs[i]);
        dx_trace_objects(&t, code);
        size_t n;
        struct req *v = requests(s, hdr->pid, &n);
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && v[j].side->name == v[i].side->name;)
                j++;
            confirmed += check_kernel(code, &t, v + i, j - i);
        }
        free(v);
        hv_sx_drop_origin(code, "trace");
        dx_trace_free(&t);
    }
    hv_reader_close(rd);
    return confirmed;
}

size_t hv_confirm_findings(struct hv_sx *code, struct hv_findings *s, const char *const *traces, int ntraces)
{
    size_t confirmed = 0;
    if (!code || !hv_findings_count_inferred(s, HV_SEV_NONE))
        return 0;
    for (int i = 0; i < ntraces; i++)
        confirmed += confirm_trace(code, s, traces[i]);
    return confirmed;
}
