/* graph_build: the records of graph-building calls (graph_build.h). */
#include "tracer/intercept/common/graph_build.h"

void hv_trace_graph_add(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t graph, uint64_t node,
                        size_t ndeps)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.graph = graph;
    c->a.graph.node = r == 0 ? node : 0;
    c->a.graph.nnodes = ndeps > UINT32_MAX ? UINT32_MAX : (uint32_t)ndeps;
    hv_call_commit(t, c);
}

void hv_trace_get_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                          const unsigned *enabled)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    c->a.graph.exec = exec;
    c->a.graph.node = node;
    if (r == 0 && enabled) {
        c->a.graph.rec_flags = HV_GRAPH_ENABLED_RECORDED;
        c->a.graph.flags = *enabled != 0;
    }
    hv_call_commit(t, c);
}
