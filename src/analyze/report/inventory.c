/*
 * inventory: --graphs prints each exec's inventory as it becomes complete:
 * nodes with their pointer arguments, and the shape facts that decide how
 * the HIP runtime schedules a replay (rocm-runtime-facts.md, H1): roots
 * (several roots or branches put nodes on parallel queues), longest path,
 * max out-degree (>= DEBUG_HIP_FORCE_GRAPH_QUEUES, default 4, matters), host
 * and event nodes and collective kernels (RCCL inside capture is what makes
 * a TP graph branchy).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/placement.h"
#include "analyze/report/describe.h"
#include "analyze/report/report.h"

#define is_collective hv_place_is_collective

struct shape {
    uint32_t roots, longest, max_out, edges;
};

/* Shape of the top-level graph: nodes with parent 0, edges of that graph.
 * Node `index` values are positions in the graph's node list. */
static void shape_of(const struct hv_exec *x, struct shape *sh)
{
    memset(sh, 0, sizeof *sh);
    uint32_t maxi = 0, n = 0;
    /* index comes from the trace: one beyond the node list is no node. */
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (!x->nodes[k].parent && x->nodes[k].index < x->nnodes) {
            n++;
            if (x->nodes[k].index > maxi)
                maxi = x->nodes[k].index;
        }
    if (n == 0)
        return;
    uint64_t top = x->graph;
    uint32_t size = maxi + 1;
    uint32_t *indeg = calloc(size, sizeof *indeg), *outdeg = calloc(size, sizeof *outdeg);
    uint32_t *depth = calloc(size, sizeof *depth), *queue = calloc(size, sizeof *queue);
    uint8_t *present = calloc(size, 1);
    if (!indeg || !outdeg || !depth || !queue || !present)
        goto out;
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (!x->nodes[k].parent && x->nodes[k].index < size) {
            present[x->nodes[k].index] = 1;
            if (!top)
                top = x->nodes[k].graph;
        }
    for (uint32_t i = 0; i < x->nedges; i++) {
        const struct hv_gedge *e = &x->edges[i];
        if (e->graph != top || e->from >= size || e->to >= size || !present[e->from] || !present[e->to])
            continue;
        outdeg[e->from]++;
        indeg[e->to]++;
        sh->edges++;
    }
    /* Kahn's order gives the longest path in nodes; a cycle (bad input)
     * just leaves its nodes out. */
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < size; v++)
        if (present[v]) {
            if (outdeg[v] > sh->max_out)
                sh->max_out = outdeg[v];
            if (indeg[v] == 0) {
                sh->roots++;
                depth[v] = 1;
                queue[tail++] = v;
            }
        }
    while (head < tail) {
        uint32_t v = queue[head++];
        if (depth[v] > sh->longest)
            sh->longest = depth[v];
        for (uint32_t i = 0; i < x->nedges; i++) {
            const struct hv_gedge *e = &x->edges[i];
            if (e->graph != top || e->from != v || e->to >= size || !present[e->to])
                continue;
            if (depth[v] + 1 > depth[e->to])
                depth[e->to] = depth[v] + 1;
            if (--indeg[e->to] == 0)
                queue[tail++] = e->to;
        }
    }
out:
    free(indeg);
    free(outdeg);
    free(depth);
    free(queue);
    free(present);
}

void hv_report_graph(FILE *out, const struct hv_model *m, uint32_t xi)
{
    const struct hv_exec *x = &m->execs[xi];
    struct shape sh;
    shape_of(x, &sh);
    uint32_t count[HV_NODE_OTHER + 1] = {0}, collectives = 0;
    for (uint32_t k = 0; k < x->nnodes; k++) {
        const struct hv_gnode *g = &x->nodes[k];
        count[g->type <= HV_NODE_OTHER ? g->type : HV_NODE_OTHER]++;
        if (g->type == HV_NODE_KERNEL && is_collective(hv_model_name(m, g->name_id, g->func)))
            collectives++;
    }
    fprintf(out, "graph exec 0x%" PRIx64 " (pid %" PRIu64 ", %s seq %" PRIu64 "): %u nodes, %u edges, %u roots, "
                 "longest path %u, max out-degree %u\n",
            x->handle, m->pid, hv_api_name(x->inst_api), x->inst_seq, x->nnodes, sh.edges, sh.roots, sh.longest,
            sh.max_out);
    fprintf(out, "  kernels %u (collective %u), memcpy %u, memset %u, host %u, event record %u, event wait %u, "
                 "child graphs %u\n",
            count[HV_NODE_KERNEL], collectives, count[HV_NODE_MEMCPY], count[HV_NODE_MEMSET], count[HV_NODE_HOST],
            count[HV_NODE_EVENT_RECORD], count[HV_NODE_EVENT_WAIT], count[HV_NODE_GRAPH]);
    if (sh.roots > 1 || sh.max_out >= 4)
        fprintf(out, "  shape: %s - %s\n", sh.roots > 1 ? "several roots" : "out-degree >= 4",
                m->cuda ? "branches run concurrently; only graph edges order them"
                        : "the HIP runtime may run nodes on parallel queues");
    /* Which nodes would start early (placement.h); none for a linear graph. */
    struct hv_place_cfg pc;
    struct hv_place pl;
    hv_place_config(&pc, m->sum ? m->sum->knobs : NULL, m->cuda);
    if (hv_place_compute(m, x, &pc, &pl) != 0)
        memset(&pl, 0, sizeof pl);
    if (pl.uses_parallel)
        fprintf(out, "  placement (DEBUG_HIP_FORCE_GRAPH_QUEUES=%u%s): nodes marked [early] may start before the "
                     "launch stream's earlier work\n",
                pc.queues, pc.root_nowait ? "" : ", DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0");
    for (uint32_t k = 0; k < x->nnodes; k++) {
        const struct hv_gnode *g = &x->nodes[k];
        const char *name = g->type == HV_NODE_KERNEL ? hv_model_name(m, g->name_id, g->func) : NULL;
        fprintf(out, "  node %u%s %s%s%s", g->index, g->parent ? " (child)" : "", hv_node_type_text(g->type),
                name ? " " : "", name ? name : "");
        if (is_collective(name))
            fputs(" [collective]", out);
        if (pl.flags && (pl.flags[k] & HV_PLACE_UNORDERED))
            fprintf(out, " [early: %s]", hv_place_reason(pl.flags[k]));
        else if (pl.flags && (pl.flags[k] & HV_PLACE_PARALLEL))
            fputs(" [parallel queue]", out);
        if (g->type == HV_NODE_MEMCPY || g->type == HV_NODE_MEMSET)
            fprintf(out, " dst 0x%" PRIx64 " bytes %" PRIu64, g->dst, g->bytes);
        fputc('\n', out);
        for (uint32_t a = 0; a < x->nargs; a++)
            if (x->args_node[a] == k)
                fprintf(out, "      arg %u = 0x%" PRIx64 " %s (%s)\n", x->args[a].index, x->args[a].value,
                        hv_access_text(x->args[a].access), hv_origin_text(x->args[a].origin));
    }
    hv_place_free(&pl);
}
