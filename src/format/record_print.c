/*
 * Record printer; see record_print.h. The only mode-dependent code is in the
 * small "emitter" at the top (keys, scalars, strings, nesting); everything
 * after it describes *what* to print once for both modes.
 */
#include <inttypes.h>
#include <string.h>

#include "format/fields.h"
#include "common/json.h"
#include "format/names.h"
#include "format/rec_layout.h"
#include "format/record_print.h"

/* ---- emitter ------------------------------------------------------------ */

/* Both modes write values through one JSON writer. JSON mode opens its
 * objects and arrays in it, so it places the commas. Text mode prints its
 * own keys, brackets and separators and never opens a container in the
 * writer: its values are top-level there, so numbers, booleans and quoted
 * strings come out as in JSON, without separators. */
struct em {
    const struct hv_printer *p;
    FILE *o;
    int json;
    int first;              /* text: nothing printed yet in the current group */
    struct hv_json w;
};

static void em_init(struct em *e, const struct hv_printer *p)
{
    e->p = p;
    e->o = p->out;
    e->json = p->mode == HV_PRINT_JSON;
    e->first = 1;
    hv_json_init(&e->w, p->out, 0);
}

/* Text: before an element of the current group, `c` unless it is the first. */
static void item(struct em *e, char c)
{
    if (e->json)
        return;
    if (!e->first)
        fputc(c, e->o);
    e->first = 0;
}

static void key(struct em *e, const char *name)
{
    if (e->json) {
        hv_json_key(&e->w, name);
    } else {
        item(e, ' ');
        fprintf(e->o, "%s=", name);
    }
}

/* An object's or array's bracket, '{' '[' opening, '}' ']' closing it. */
static void bracket(struct em *e, char c)
{
    if (!e->json) {
        fputc(c, e->o);
        e->first = c == '{' || c == '[';
        return;
    }
    switch (c) {
    case '{': hv_json_obj(&e->w); break;
    case '[': hv_json_arr(&e->w); break;
    case '}': hv_json_obj_end(&e->w); break;
    default: hv_json_arr_end(&e->w); break;
    }
}

/* A string value. JSON: always quoted, escaped, invalid UTF-8 as U+FFFD.
 * Text: bare when it is one plain token, else quoted the same way. */
static void str(struct em *e, const char *s, size_t n)
{
    int bare = !e->json && n > 0;
    for (size_t i = 0; bare && i < n; i++)
        bare = s[i] > ' ' && s[i] < 0x7f && s[i] != '"' && s[i] != '\\';
    if (bare)
        fwrite(s, 1, n, e->o);
    else
        hv_json_strn(&e->w, s, n);
}

static void cstr(struct em *e, const char *s) { str(e, s, strlen(s)); }

static void null_(struct em *e)
{
    if (e->json)
        hv_json_null(&e->w);
    else
        fputc('?', e->o);
}

/* JSON: a "0x..." string; text: bare. */
static void hex(struct em *e, uint64_t v)
{
    if (e->json)
        hv_json_hex(&e->w, v);
    else
        fprintf(e->o, "0x%" PRIx64, v);
}

static void u64(struct em *e, uint64_t v) { hv_json_u64(&e->w, v); }

/* ---- fields ------------------------------------------------------------- */

static void value(struct em *e, const struct hv_field *f, const void *base, unsigned i)
{
    uint64_t v = hv_field_get(f, base, i);
    const char *name;
    switch (f->fmt) {
    case HV_FMT_I:
        hv_json_i64(&e->w, hv_field_get_signed(f, base, i));
        return;
    case HV_FMT_HEX:
        hex(e, v);
        return;
    case HV_FMT_EPOCH:
        if (v == HV_EPOCH_UNKNOWN)
            null_(e);
        else
            u64(e, v);
        return;
    case HV_FMT_BIT:
        hv_json_bool(&e->w, (v & f->mask) != 0);
        return;
    case HV_FMT_ENUM:
        name = f->names((unsigned)v);
        break;
    case HV_FMT_API:
        name = hv_api_name((uint16_t)v);
        break;
    case HV_FMT_OP:
        name = hv_op_name(hv_api_op((uint16_t)v));
        break;
    case HV_FMT_STRID:
        name = v && e->p->strings ? hv_reader_string(e->p->strings, (uint32_t)v) : NULL;
        if (name)
            cstr(e, name);
        else
            null_(e);
        return;
    case HV_FMT_CHARS: {
        const char *s = (const char *)base + f->off;
        str(e, s, strnlen(s, f->count));
        return;
    }
    default:
        u64(e, v);
        return;
    }
    if (name)
        cstr(e, name);
    else
        u64(e, v);
}

/* Text mode's terse rule: leave out fields at their "nothing to say" value
 * (and, in every mode, an HV_FLD_IFSET field at 0). */
static int skip_field(const struct em *e, const struct hv_field *f, const void *base)
{
    if ((f->flags & HV_FLD_IFSET) && f->count == 1 &&
        (f->fmt == HV_FMT_BIT ? ((uint64_t)hv_field_get_signed(f, base, 0) & f->mask) == 0
                              : hv_field_get_signed(f, base, 0) == 0))
        return 1;
    if (e->json)
        return 0;
    if (f->flags & HV_FLD_NOTEXT)
        return 1;
    if (!(f->flags & (HV_FLD_TERSE | HV_FLD_TERSE_M1)) || f->fmt == HV_FMT_CHARS)
        return 0;
    for (unsigned i = 0; i < f->count; i++) {
        int64_t v = hv_field_get_signed(f, base, i);
        if (f->fmt == HV_FMT_BIT)
            v = (uint64_t)v & f->mask;
        if (!((f->flags & HV_FLD_TERSE) && v == 0) && !((f->flags & HV_FLD_TERSE_M1) && v == -1))
            return 0;
    }
    return 1;
}

static void fields(struct em *e, struct hv_field_list l, const void *base)
{
    for (size_t k = 0; k < l.n; k++) {
        const struct hv_field *f = &l.f[k];
        if (skip_field(e, f, base))
            continue;
        key(e, f->name);
        if (f->count > 1 && f->fmt != HV_FMT_CHARS) {
            bracket(e, '[');
            for (unsigned i = 0; i < f->count; i++) {
                item(e, ',');
                value(e, f, base, i);
            }
            bracket(e, ']');
        } else {
            value(e, f, base, 0);
        }
    }
}

/* {"name":count,...} of the drop counters, by cause name. */
static void drops(struct em *e, const uint64_t *dropped)
{
    key(e, "dropped");
    bracket(e, '{');
    for (unsigned c = 0; c < HV_DROP__COUNT; c++) {
        key(e, hv_drop_cause_name(c));
        u64(e, dropped[c]);
    }
    bracket(e, '}');
}

/* ---- variable tails ----------------------------------------------------- */

static void tail_string(struct em *e, const struct hv_string *s)
{
    key(e, "text");
    str(e, (const char *)(s + 1), s->len);
}

static void tail_edges(struct em *e, const struct hv_graph_edges *g)
{
    const uint32_t *pairs = (const uint32_t *)(g + 1);
    key(e, "pairs");
    bracket(e, '[');
    for (uint32_t i = 0; i < g->count; i++) {
        item(e, ',');
        bracket(e, '[');
        for (int k = 0; k < 2; k++) {
            item(e, ',');
            u64(e, pairs[2 * i + k]);
        }
        bracket(e, ']');
    }
    bracket(e, ']');
}

/* "args": one object per struct of a record's tail (kargs, karg names). */
static void tail_structs(struct em *e, const void *first, uint32_t count, size_t size, struct hv_field_list l)
{
    key(e, "args");
    bracket(e, '[');
    for (uint32_t i = 0; i < count; i++) {
        item(e, ' ');
        bracket(e, '{');
        fields(e, l, (const char *)first + i * size);
        bracket(e, '}');
    }
    bracket(e, ']');
}

/* Quoted hex digits in both modes. */
static void tail_bytes(struct em *e, const char *name, const void *bytes, uint32_t len)
{
    key(e, name);
    hv_json_hexbytes(&e->w, bytes, len);
}

/* "pcs": return addresses (stacks, host accesses), quoted in text mode too. */
static void tail_pcs(struct em *e, const uint64_t *pc, uint32_t n)
{
    key(e, "pcs");
    bracket(e, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(e, ',');
        hv_json_hex(&e->w, pc[i]);
    }
    bracket(e, ']');
}

/* "frames": Python frames as string ids and lines (stacks, host accesses). */
static void tail_pyframes(struct em *e, const struct hv_pyframe *fr, uint32_t n)
{
    key(e, "frames");
    bracket(e, '[');
    for (uint32_t i = 0; i < n; i++) {
        item(e, ',');
        if (e->json) {
            hv_json_arr(&e->w);
            hv_json_u64(&e->w, fr[i].file_id);
            hv_json_u64(&e->w, fr[i].func_id);
            hv_json_i64(&e->w, fr[i].line);
            hv_json_arr_end(&e->w);
        } else {
            fprintf(e->o, "%" PRIu32 ":%" PRIu32 ":%" PRId32, fr[i].file_id, fr[i].func_id, fr[i].line);
        }
    }
    bracket(e, ']');
}

/* ---- records ------------------------------------------------------------ */

static void call_body(struct em *e, const struct hv_call *c)
{
    fields(e, hv_call_fields(), c);
    fields(e, hv_call_op_fields(hv_api_op(c->api)), c);
}

static void aux_body(struct em *e, const struct hv_rec_header *h)
{
    fields(e, hv_rec_fields(h->type), h);
    switch (h->type) {
    case HV_REC_STRING:
        tail_string(e, (const struct hv_string *)h);
        break;
    case HV_REC_GRAPH_NODE:
        fields(e, hv_graph_node_fields(((const struct hv_graph_node *)h)->type), h);
        break;
    case HV_REC_GRAPH_EDGES:
        tail_edges(e, (const struct hv_graph_edges *)h);
        break;
    case HV_REC_KARGS:
        tail_structs(e, (const struct hv_kargs *)h + 1, ((const struct hv_kargs *)h)->count, sizeof(struct hv_karg),
                     hv_karg_fields());
        break;
    case HV_REC_KARG_NAMES:
        tail_structs(e, (const struct hv_karg_names *)h + 1, ((const struct hv_karg_names *)h)->count,
                     sizeof(struct hv_karg_name), hv_karg_name_fields());
        break;
    case HV_REC_DROPS:
        drops(e, ((const struct hv_drops *)h)->dropped);
        break;
    case HV_REC_PAYLOAD: {
        const struct hv_payload *pl = (const struct hv_payload *)h;
        tail_bytes(e, "data", pl + 1, pl->len);
        break;
    }
    case HV_REC_STACK: {
        const struct hv_stack *st = (const struct hv_stack *)h;
        tail_pcs(e, (const uint64_t *)(st + 1), st->nframes);
        break;
    }
    case HV_REC_PYSTACK: {
        const struct hv_pystack *ps = (const struct hv_pystack *)h;
        tail_pyframes(e, (const struct hv_pyframe *)(ps + 1), ps->nframes);
        break;
    }
    case HV_REC_HOST_ACCESS: {
        const struct hv_host_access *ha = (const struct hv_host_access *)h;
        const uint64_t *pc = (const uint64_t *)(ha + 1);
        tail_pcs(e, pc, ha->nframes);
        tail_pyframes(e, (const struct hv_pyframe *)(pc + ha->nframes), ha->npy);
        break;
    }
    case HV_REC_MAPS: {
        const struct hv_map *mp = (const struct hv_map *)h;
        key(e, "path");
        str(e, (const char *)(mp + 1), mp->path_len);
        break;
    }
    case HV_REC_PROBE: {
        static const char *const point[HV_PROBE__POINTS] = {"source", "after_copy", "pre_replay", "post_replay"};
        const struct hv_probe *pr = (const struct hv_probe *)h;
        for (unsigned i = 0; i < HV_PROBE__POINTS; i++)
            if (pr->have & HV_PROBE_HAVE(i))
                tail_bytes(e, point[i], (const unsigned char *)(pr + 1) + (size_t)i * pr->len, pr->len);
        break;
    }
    default:
        break;
    }
}

void hv_print_record(const struct hv_printer *p, const struct hv_rec_header *h)
{
    struct em e;
    em_init(&e, p);
    const char *type = hv_rec_type_name(h->type);
    const struct hv_call *c = (const struct hv_call *)h;
    if (e.json) {
        bracket(&e, '{');
        key(&e, "seq");
        u64(&e, h->seq);
        key(&e, "ts_ns");
        u64(&e, h->ts_ns);
        key(&e, "tid");
        u64(&e, h->tid);
        key(&e, "type");
        cstr(&e, type ? type : "unknown");
    } else {
        fprintf(e.o, "#%" PRIu64 " %" PRIu64 " %" PRIu32 " ", h->seq, h->ts_ns, h->tid);
        if (h->type == HV_REC_CALL && strcmp(hv_api_name(c->api), "?"))
            fprintf(e.o, "%s(%" PRId32 ")", hv_api_name(c->api), c->result);
        else if (h->type == HV_REC_CALL)
            fprintf(e.o, "api#%u(%" PRId32 ")", c->api, c->result);
        else if (type)
            fputs(type, e.o);
        else
            fprintf(e.o, "type#%u", h->type);
        e.first = 0;
    }
    if (h->type == HV_REC_CALL) {
        call_body(&e, c);
    } else if (hv_rec_fixed_size(h->type)) {
        aux_body(&e, h);
    } else {
        /* No layout known (a newer writer, or a reserved type): opaque. */
        if (e.json && !type) {
            key(&e, "type_id");
            u64(&e, h->type);
        }
        key(&e, "size");
        u64(&e, h->size);
    }
    if (e.json)
        bracket(&e, '}');
    hv_json_eol(&e.w);
}

/* Header, footer and stats lines: a JSON object with a "type", or a
 * "# type k=v ..." comment line in text mode. */
static void meta_open(struct em *e, const struct hv_printer *p, const char *type)
{
    em_init(e, p);
    if (e->json) {
        bracket(e, '{');
        key(e, "type");
        cstr(e, type);
    } else {
        fprintf(e->o, "# %s", type);
        e->first = 0;
    }
}

static void meta_close(struct em *e)
{
    if (e->json)
        bracket(e, '}');
    hv_json_eol(&e->w);
}

void hv_print_header(const struct hv_printer *p, const struct hv_file_header *h)
{
    struct em e;
    meta_open(&e, p, "header");
    fields(&e, hv_header_fields(), h);
    /* The command line, in headers written since it was appended (older
     * files print as they always did); sanitized on reading. */
    if (h->header_size < offsetof(struct hv_file_header, argv)) {
        meta_close(&e);
        return;
    }
    fields(&e, hv_header_argv_fields(), h);
    key(&e, "argv");
    bracket(&e, '[');
    for (uint32_t o = 0; o < h->argv_bytes && o < sizeof h->argv;) {
        size_t n = strnlen(h->argv + o, sizeof h->argv - o);
        item(&e, ' ');
        str(&e, h->argv + o, n);
        o += (uint32_t)n + 1;
    }
    bracket(&e, ']');
    meta_close(&e);
}

void hv_print_footer(const struct hv_printer *p, const struct hv_file_footer *f)
{
    struct em e;
    meta_open(&e, p, "footer");
    fields(&e, hv_footer_fields(), f);
    drops(&e, f->dropped);
    meta_close(&e);
}

static void counters(struct em *e, const struct hv_json_count *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        key(e, v[i].k);
        u64(e, v[i].v);
    }
}

void hv_print_stats(const struct hv_printer *p, const struct hv_reader_stats *s)
{
    struct em e;
    const struct hv_json_count v[] = {
        { "records", s->records },         { "chunks", s->chunks },
        { "bytes_read", s->bytes_read },   { "late_records", s->late_records },
        { "chunk_gaps", s->chunk_gaps },   { "corrupt_frames", s->corrupt_frames },
        { "skipped_bytes", s->skipped_bytes }, { "seq_gaps", s->seq_gaps },
        { "seq_missing", s->seq_missing }, { "seq_unresolved", s->seq_unresolved },
    };
    meta_open(&e, p, "stats");
    counters(&e, v, sizeof v / sizeof v[0]);
    meta_close(&e);
}

void hv_print_loss(const struct hv_printer *p, const struct hv_reader_stats *s, const struct hv_seq_gap *gaps,
                   uint32_t ngaps)
{
    struct em e;
    const struct hv_json_count v[] = {
        { "calls_missing", s->seq_missing }, { "gaps", s->seq_gaps }, { "unresolved_refs", s->seq_unresolved },
    };
    meta_open(&e, p, "loss");
    counters(&e, v, sizeof v / sizeof v[0]);
    if (e.json) {
        hv_json_karr(&e.w, "listed");
        for (uint32_t i = 0; i < ngaps; i++) {
            hv_json_obj(&e.w);
            hv_json_ku64(&e.w, "tid", gaps[i].tid);
            hv_json_ku64(&e.w, "first", gaps[i].first);
            hv_json_ku64(&e.w, "last", gaps[i].last);
            hv_json_obj_end(&e.w);
        }
        hv_json_arr_end(&e.w);
    } else {
        for (uint32_t i = 0; i < ngaps; i++)
            fprintf(e.o, "\n# loss tid=%" PRIu32 " seqs=%" PRIu64 "..%" PRIu64 " (%" PRIu64 " calls missing)",
                    gaps[i].tid, gaps[i].first, gaps[i].last, gaps[i].last - gaps[i].first + 1);
    }
    meta_close(&e);
}
