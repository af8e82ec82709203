/* model: construction, teardown and name lookup. See model.h. */
#include "analyze/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "common/free_all.h"

int hv_model_init(struct hv_model *m, uint64_t pid, struct hv_findings *out, struct hv_trace_summary *sum,
                  const struct hv_model_hooks *hooks)
{
    memset(m, 0, sizeof *m);
    m->pid = pid;
    m->out = out;
    m->sum = sum;
    if (hooks)
        m->hooks = *hooks;
    m->stream_free = m->event_free = m->exec_free = HV_NO_INDEX;
    m->hot_stream = m->hot_event = HV_NO_INDEX;
    m->barrier_gen = m->legacy_gen = 1;
    hv_u64map_init(&m->stream_ix);
    hv_u64map_init(&m->event_ix);
    hv_u64map_init(&m->exec_ix);
    hv_u64map_init(&m->kernel_names);
    hv_u64map_init(&m->kernel_layouts);
    hv_imap_init(&m->allocs, sizeof(struct hv_alloc));
    hv_imap_init(&m->writers, sizeof(struct hv_writer));
    m->blit_max_bytes = 16u * 1024u;
    m->last_group = SIZE_MAX;
    return 0;
}

void hv_model_free(struct hv_model *m)
{
    for (uint32_t i = 0; i < m->nstreams; i++)
        hv_vc_free(&m->streams[i].vc);
    free(m->streams);
    for (uint32_t i = 0; i < m->nevents; i++)
        hv_vc_free(&m->events[i].vc);
    free(m->events);
    for (uint32_t i = 0; i < m->nexecs; i++) {
        struct hv_exec *x = &m->execs[i];
        hv_u64map_free(&x->node_ix);
        HV_FREE_ALL(x->nodes, x->args, x->args_node, x->edges, x->ranges, x->maxhi);
    }
    HV_FREE_ALL(m->execs, m->pending);
    hv_u64map_free(&m->stream_ix);
    hv_u64map_free(&m->event_ix);
    hv_u64map_free(&m->exec_ix);
    hv_u64map_free(&m->kernel_names);
    hv_u64map_free(&m->kernel_layouts);
    hv_imap_free(&m->allocs);
    hv_imap_free(&m->writers);
    memset(m, 0, sizeof *m);
}

int hv_model_no_layout(const struct hv_model *m, uint64_t func, uint32_t kernarg_bytes)
{
    return kernarg_bytes == 0 && hv_u64map_get(&m->kernel_layouts, func) == HV_U64MAP_NONE;
}

const char *hv_model_name(const struct hv_model *m, uint32_t name_id, uint64_t func)
{
    if (!m->hooks.string)
        return NULL;
    if (name_id == 0 && func) {
        uint32_t id = hv_u64map_get(&m->kernel_names, func);
        if (id != HV_U64MAP_NONE)
            name_id = id;
    }
    return name_id ? m->hooks.string(m->hooks.string_ctx, name_id) : NULL;
}
