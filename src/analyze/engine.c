/*
 * engine: lifecycle and record dispatch. Calls are handled in
 * engine_calls.c, the replay/writer join in engine_join.c.
 */
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "analyze/engine_int.h"
#include "format/rec_layout.h"

const char *hv_knob(const char *knobs, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    for (const char *p = knobs; p && *p;) {
        const char *end = strchr(p, ';');
        size_t seg = end ? (size_t)(end - p) : strlen(p);
        if (seg > n && strncmp(p, name, n) == 0 && p[n] == '=') {
            size_t vl = seg - n - 1;
            if (vl >= len)
                vl = len - 1;
            memcpy(buf, p + n + 1, vl);
            buf[vl] = 0;
            return buf;
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

int hv_knob_is(const char *knobs, const char *name, const char *value)
{
    char buf[32];
    return hv_knob(knobs, name, buf, sizeof buf) && strcmp(buf, value) == 0;
}

int hv_knob_u64(const char *knobs, const char *name, uint64_t *v)
{
    char buf[64], *end;
    if (!hv_knob(knobs, name, buf, sizeof buf))
        return 0;
    unsigned long long x = strtoull(buf, &end, 0);
    if (end == buf)
        return 0;
    *v = x;
    return 1;
}

uint32_t hv_knob_graph_queues(const char *knobs)
{
    uint64_t q;
    if (!hv_knob_u64(knobs, "DEBUG_HIP_FORCE_GRAPH_QUEUES", &q))
        return 4;
    return q ? (uint32_t)q : 1;
}

/* What each api id means to the engine (op, kind, class), once per process
 * rather than once per engine (the sidecar and the fuzzer make many). */
static uint8_t api_op[HV_API__MAX], api_kind[HV_API__MAX], api_cls[HV_API__MAX];
static pthread_once_t api_tables_once = PTHREAD_ONCE_INIT;

static uint8_t class_of(uint8_t op, uint8_t kind)
{
    switch (op) {
    case HV_OP_COPY:
        return HV_C_COPY;
    case HV_OP_MEMSET:
        return HV_C_MEMSET;
    case HV_OP_LAUNCH:
        return HV_C_LAUNCH;
    case HV_OP_MEMOP:
        return HV_C_MEMOP;
    case HV_OP_GRAPH:
        return kind == HV_K_GRAPH_LAUNCH ? HV_C_REPLAY : HV_C_OTHER;
    case HV_OP_EVENT:
        return kind == HV_K_EVENT_RECORD ? HV_C_EVENT_RECORD
             : kind == HV_K_STREAM_WAIT  ? HV_C_STREAM_WAIT
                                         : HV_C_OTHER;
    default:
        return HV_C_OTHER;
    }
}

static void fill_api_tables(void)
{
    for (uint32_t api = 0; api < HV_API__MAX; api++) {
        api_op[api] = (uint8_t)hv_api_op((uint16_t)api);
        api_kind[api] = (uint8_t)hv_api_kind((uint16_t)api);
        api_cls[api] = class_of(api_op[api], api_kind[api]);
    }
}

static void configure(struct hv_engine *e, const struct hv_file_header *hdr)
{
    struct hv_model *m = &e->m;
    uint64_t kib;
    if (e->opt.blit_max_bytes) {
        m->blit_max_bytes = e->opt.blit_max_bytes;
    } else if (hdr && hv_knob_u64(hdr->knobs, "GPU_FORCE_BLIT_COPY_SIZE", &kib)) {
        /* The runtime reads this knob in KiB. */
        m->blit_max_bytes = kib * 1024u;
    }
    if (hdr)
        m->sdma_disabled = hv_knob_is(hdr->knobs, "HSA_ENABLE_SDMA", "0");
    if (hdr && (strstr(hdr->runtime_path, "cuda") || strstr(hdr->runtime_version, "CUDA") ||
                strstr(hdr->runtime_version, "cuda")))
        m->cuda = 1;
    e->sum.blit_max_bytes = m->blit_max_bytes;
}

struct hv_engine *hv_engine_new(const struct hv_file_header *hdr, const char *name, struct hv_findings *out,
                                const struct hv_engine_options *opt, const struct hv_model_hooks *hooks,
                                const struct hv_engine_observer *obs)
{
    struct hv_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->curp = &e->cur;
    if (opt)
        e->opt = *opt;
    if (obs)
        e->obs = *obs;
    struct hv_trace_summary *t = &e->sum;
    if (hdr) {
        t->pid = hdr->pid;
        t->ppid = hdr->ppid;
        t->flags = hdr->flags;
        memcpy(t->exe, hdr->exe, sizeof t->exe);
        t->exe[sizeof t->exe - 1] = 0;
        memcpy(t->runtime, hdr->runtime_version, sizeof t->runtime);
        t->runtime[sizeof t->runtime - 1] = 0;
        memcpy(t->knobs, hdr->knobs, sizeof t->knobs);
        t->knobs[sizeof t->knobs - 1] = 0;
        _Static_assert(sizeof t->argv == sizeof hdr->argv, "the summary holds the header's argv");
        memcpy(t->argv, hdr->argv, sizeof t->argv);   /* consistent: the reader sanitized it */
        t->argc = hdr->argc;
        t->argv_bytes = hdr->argv_bytes;
        t->argv_flags = hdr->argv_flags;
    }
    hv_coverage_hostcheck(t, NULL);
    t->path = name ? strdup(name) : NULL;
    hv_model_init(&e->m, t->pid, out, t, hooks);
    configure(e, hdr);
    for (int i = 0; i < HV_RULE__COUNT; i++) {
        const struct hv_rule *r = hv_rules[i];
        if (e->opt.rules_disabled & (1u << i))
            continue;
        /* The rule joins the list of each hook it has. */
#define JOIN(hook, list) \
    if (r->hook)         \
        e->list##_rules[e->n_##list++] = r
        JOIN(on_overlap, overlap);
        JOIN(on_replay, replay);
        JOIN(on_write, write);
        JOIN(on_finish, finish);
        JOIN(on_aux, aux);
        JOIN(on_launch_read, read);
#undef JOIN
    }
    pthread_once(&api_tables_once, fill_api_tables);
    memcpy(e->op, api_op, sizeof e->op);
    memcpy(e->kind, api_kind, sizeof e->kind);
    memcpy(e->cls, api_cls, sizeof e->cls);
    e->building = HV_NO_INDEX;
    e->cur_stream = HV_NO_INDEX;
    hv_u64map_init(&e->drop_ix);
    hv_u64map_init(&e->memo);
    hv_u64map_init(&e->sig_ix);
    /* An observer or --all wants every occurrence with its own context: no
     * memo then (an observer of new groups only is content with it). */
    e->memo_on = out && (!out->observer || out->observer_new_only) && !out->keep_all;
    return e;
}

void hv_engine_free(struct hv_engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < HV_RULE__COUNT; i++)
        if (hv_rules[i]->free_state && e->m.rule_state[i])
            hv_rules[i]->free_state(e->m.rule_state[i]);
    hv_model_free(&e->m);
    hv_u64map_free(&e->drop_ix);
    free(e->drops);
    hv_u64map_free(&e->memo);
    hv_engine_memop_free(e);
    free(e->memo_ent);
    free(e->memo_groups);
    hv_engine_join_free(e);
    free(e->sum.path);
    free(e);
}

const struct hv_trace_summary *hv_engine_summary(const struct hv_engine *e)
{
    return &e->sum;
}

const struct hv_model *hv_engine_model(const struct hv_engine *e)
{
    return &e->m;
}

static void on_drops(struct hv_engine *e, const struct hv_drops *d)
{
    uint64_t total = 0;
    for (int i = 0; i < HV_DROP__COUNT; i++)
        total += d->dropped[i];
    uint32_t i = hv_u64map_get(&e->drop_ix, d->h.tid);
    if (i == HV_U64MAP_NONE) {
        if (!HV_GROW(e->drops, e->ndrops, e->capdrops, 8))
            return;
        i = e->ndrops++;
        e->drops[i] = 0;
        if (hv_u64map_put(&e->drop_ix, d->h.tid, i) != 0)
            return;
    }
    if (total > e->drops[i])
        e->drops[i] = total;
}

static uint32_t exec_for_aux(struct hv_engine *e, uint64_t exec, uint64_t seq)
{
    if (e->building != HV_NO_INDEX && seq == e->building_seq &&
        (exec == 0 || e->m.execs[e->building].handle == exec))
        return e->building;
    /* Inventory records outside an instantiate/update we saw: attach by handle. */
    uint32_t x = exec ? hv_exec_find(&e->m, exec) : HV_NO_INDEX;
    if (x != HV_NO_INDEX) {
        e->building = x;
        e->building_seq = seq;
        e->building_fresh = 0;
    }
    return x;
}

static void on_graph_node(struct hv_engine *e, const struct hv_graph_node *n)
{
    uint32_t x = exec_for_aux(e, n->exec, n->h.seq);
    if (x == HV_NO_INDEX) {
        e->sum.orphan_records++;
        return;
    }
    if (e->building_fresh) {
        /* hipGraphExecUpdate re-sends the whole inventory. */
        struct hv_exec *ex = &e->m.execs[x];
        hv_exec_begin(&e->m, ex->handle, ex->graph, ex->inst_seq, ex->inst_api);
        e->building_fresh = 0;
    }
    hv_exec_add_node(&e->m, x, n);
}

static void on_edges(struct hv_engine *e, const struct hv_rec_header *rec)
{
    const struct hv_graph_edges *g = (const struct hv_graph_edges *)(const void *)rec;
    if (rec->size < sizeof *g || (uint64_t)g->count * 8u > rec->size - sizeof *g) {
        e->sum.orphan_records++;
        return;
    }
    uint32_t x = exec_for_aux(e, g->exec, rec->seq);
    if (x == HV_NO_INDEX) {
        e->sum.orphan_records++;
        return;
    }
    hv_exec_add_edges(&e->m, x, g->graph, (const uint32_t *)(const void *)(g + 1), g->count);
}

static void on_kargs(struct hv_engine *e, const struct hv_rec_header *rec)
{
    const struct hv_kargs *k = (const struct hv_kargs *)(const void *)rec;
    if (rec->size < sizeof *k || (uint64_t)k->count * sizeof(struct hv_karg) > rec->size - sizeof *k) {
        e->sum.orphan_records++;
        return;
    }
    const struct hv_karg *args = (const struct hv_karg *)(const void *)(k + 1);
    if (k->owner_node == 0) {
        hv_engine_eager_kargs(e, k, args);
        return;
    }
    uint32_t x = exec_for_aux(e, 0, rec->seq);
    if (x == HV_NO_INDEX) {
        e->sum.orphan_records++;
        return;
    }
    hv_exec_add_kargs(&e->m, x, k->owner_node, args, k->count);
}

/* Every record but a call (engine_calls.c applies those). */
void hv_engine_feed_other(struct hv_engine *e, const struct hv_rec_header *rec)
{
    switch (rec->type) {
    case HV_REC_GRAPH_NODE: {
        struct hv_graph_node local;
        on_graph_node(e, HV_REC_WIDEN(struct hv_graph_node, rec, local));
        break;
    }
    case HV_REC_GRAPH_EDGES:
        on_edges(e, rec);
        break;
    case HV_REC_KARGS:
        on_kargs(e, rec);
        break;
    case HV_REC_KERNEL: {
        struct hv_kernel_sym local;
        const struct hv_kernel_sym *k = HV_REC_WIDEN(struct hv_kernel_sym, rec, local);
        if (k->func && k->name_id)
            hv_u64map_put(&e->m.kernel_names, k->func, k->name_id);
        hv_coverage_kernel(&e->m, k);
        break;
    }
    case HV_REC_DROPS: {
        struct hv_drops local;
        on_drops(e, HV_REC_WIDEN(struct hv_drops, rec, local));
        break;
    }
    case HV_REC_EPOCH: {
        struct hv_epoch local;
        const struct hv_epoch *ep = HV_REC_WIDEN(struct hv_epoch, rec, local);
        uint32_t s = hv_stream_get(&e->m, ep->stream, -1);
        if (s != HV_NO_INDEX) {
            hv_stream_observed(&e->m, s, ep->completed_seq, &e->m.streams[s].vc);
            if (ep->epoch != HV_EPOCH_UNKNOWN && ep->epoch > e->m.streams[s].epoch)
                e->m.streams[s].epoch = ep->epoch;
        }
        break;
    }
    case HV_REC_HOSTCHECK: {
        struct hv_hostcheck local;
        hv_coverage_hostcheck(&e->sum, HV_REC_WIDEN(struct hv_hostcheck, rec, local));
        break;
    }
    case HV_REC_PAYLOAD:
    case HV_REC_PROBE:
    case HV_REC_HOST_ACCESS:
        for (int i = 0; i < e->n_aux; i++)
            e->aux_rules[i]->on_aux(&e->m, e->curp->h.seq == rec->seq ? e->curp : NULL, rec);
        break;
    default:
        break;  /* strings (the reader keeps them), code objects, stacks, maps: not needed here */
    }
}

void hv_engine_records_stable(struct hv_engine *e)
{
    e->stable = 1;
}

void hv_engine_keep(struct hv_engine *e)
{
    if (e->curp != &e->cur) {
        e->cur = *e->curp;
        e->curp = &e->cur;
    }
}

void hv_engine_feed(struct hv_engine *e, const struct hv_rec_header *rec)
{
    hv_engine_feed_batch(e, &rec, 1);
}

void hv_engine_sync_findings(struct hv_engine *e)
{
    hv_engine_memo_flush(e);
}

void hv_engine_finish(struct hv_engine *e, const struct hv_input_health *in)
{
    hv_engine_end_building(e);
    hv_engine_memo_flush(e);
    /* No input health given (records fed from memory): nothing to say about
     * the file, so no footer is missing either. */
    struct hv_input_health none = {.has_footer = 1};
    struct hv_input_health h = in ? *in : none;
    uint64_t dropped = 0;
    for (uint32_t i = 0; i < e->ndrops; i++)
        dropped += e->drops[i];
    if (dropped > h.dropped)
        h.dropped = dropped;
    struct hv_trace_summary *t = &e->sum;
    t->read_status = h.read_status;
    if (h.read_status_name)
        snprintf(t->read_status_name, sizeof t->read_status_name, "%s", h.read_status_name);
    t->read_offset = h.offset;
    t->records_salvaged = h.records_salvaged;
    if (h.what)
        snprintf(t->read_what, sizeof t->read_what, "%s", h.what);
    t->has_footer = h.has_footer;
    t->dropped = h.dropped;
    t->late_records = h.late_records;
    t->chunk_gaps = h.chunk_gaps;
    for (int i = 0; i < e->n_finish; i++)
        e->finish_rules[i]->on_finish(&e->m, &h);
}
