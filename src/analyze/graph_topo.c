/* graph_topo: see graph_topo.h. */
#include "analyze/graph_topo.h"

#include <stdlib.h>
#include <string.h>

#include "common/free_all.h"

void hv_topo_free(struct hv_topo *t)
{
    HV_FREE_ALL(t->slot, t->indeg, t->outdeg, t->first, t->adj, t->rfirst, t->radj, t->pos);
    memset(t, 0, sizeof *t);
}

static uint64_t top_graph(const struct hv_exec *x)
{
    if (x->graph)
        return x->graph;
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (!x->nodes[k].parent)
            return x->nodes[k].graph;
    return 0;
}

static int edge_ok(const struct hv_topo *t, const struct hv_gedge *e, uint64_t top)
{
    return e->graph == top && e->from < t->size && e->to < t->size && t->slot[e->from] != UINT32_MAX &&
           t->slot[e->to] != UINT32_MAX;
}

int hv_topo_build(const struct hv_exec *x, struct hv_topo *t)
{
    memset(t, 0, sizeof *t);
    uint64_t top = top_graph(x);
    /* index comes from the trace: a position in the node list, so one past
     * the node count is not a node (and must not size the tables). */
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (!x->nodes[k].parent && x->nodes[k].index < x->nnodes && x->nodes[k].index >= t->size)
            t->size = x->nodes[k].index + 1;
    size_t n = t->size ? t->size : 1, ne = x->nedges ? x->nedges : 1;
    t->slot = malloc(n * sizeof *t->slot);
    t->indeg = calloc(n, sizeof *t->indeg);
    t->outdeg = calloc(n, sizeof *t->outdeg);
    t->first = calloc(n + 1, sizeof *t->first);
    t->rfirst = calloc(n + 1, sizeof *t->rfirst);
    t->pos = calloc(n, sizeof *t->pos);
    t->adj = malloc(ne * sizeof *t->adj);
    t->radj = malloc(ne * sizeof *t->radj);
    uint32_t *fill = calloc(n, sizeof *fill), *rfill = calloc(n, sizeof *rfill);
    if (!t->slot || !t->indeg || !t->outdeg || !t->first || !t->rfirst || !t->pos || !t->adj || !t->radj || !fill ||
        !rfill) {
        free(fill);
        free(rfill);
        return -1;
    }
    memset(t->slot, 0xff, n * sizeof *t->slot);
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (!x->nodes[k].parent && x->nodes[k].index < t->size)
            t->slot[x->nodes[k].index] = k;
    for (uint32_t i = 0; i < x->nedges; i++) {
        const struct hv_gedge *e = &x->edges[i];
        if (!edge_ok(t, e, top))
            continue;
        /* The runtime's out-edge index is the edge's rank among its
         * source's edges in edge-list order (as the double's h1 has it). */
        if (t->indeg[e->to] == 0)
            t->pos[e->to] = t->outdeg[e->from];
        t->outdeg[e->from]++;
        t->indeg[e->to]++;
    }
    for (uint32_t v = 0; v < t->size; v++) {
        t->first[v + 1] = t->first[v] + t->outdeg[v];
        t->rfirst[v + 1] = t->rfirst[v] + t->indeg[v];
    }
    for (uint32_t i = 0; i < x->nedges; i++) {
        const struct hv_gedge *e = &x->edges[i];
        if (!edge_ok(t, e, top))
            continue;
        t->adj[t->first[e->from] + fill[e->from]++] = e->to;
        t->radj[t->rfirst[e->to] + rfill[e->to]++] = e->from;
    }
    free(fill);
    free(rfill);
    return 0;
}

int hv_topo_branchy(const struct hv_topo *t)
{
    uint32_t roots = 0;
    for (uint32_t v = 0; v < t->size; v++) {
        if (t->slot[v] == UINT32_MAX)
            continue;
        if (t->outdeg[v] > 1)
            return 1;
        roots += t->indeg[v] == 0;
    }
    return roots > 1;
}

int hv_topo_classic_streams(const struct hv_topo *t, uint32_t queues, uint32_t *stream)
{
    size_t n = t->size ? t->size : 1;
    /* Iterative depth first: a node and the next of its out-edges to try. */
    uint32_t *node = malloc(n * sizeof *node), *next = malloc(n * sizeof *next);
    if (!node || !next) {
        free(node);
        free(next);
        return -1;
    }
    if (!queues)
        queues = 1;
    memset(stream, 0xff, n * sizeof *stream);
    uint32_t rr = 0;
    for (uint32_t v = 0; v < t->size; v++)
        if (t->slot[v] != UINT32_MAX && t->indeg[v] == 0)
            stream[v] = rr++ % queues;
    /* From each root in creation order, each child's whole branch before
     * the next child's: a node is placed by the first branch reaching it. */
    for (uint32_t r = 0; r < t->size; r++) {
        if (t->slot[r] == UINT32_MAX || t->indeg[r] != 0)
            continue;
        uint32_t sp = 0;
        node[sp] = r;
        next[sp++] = 0;
        while (sp) {
            uint32_t v = node[sp - 1], i = next[sp - 1]++;
            if (t->first[v] + i >= t->first[v + 1]) {
                sp--;
                continue;
            }
            uint32_t w = t->adj[t->first[v] + i];
            if (stream[w] != UINT32_MAX)
                continue;
            stream[w] = (stream[v] + i) % queues;
            node[sp] = w;
            next[sp++] = 0;
        }
    }
    free(node);
    free(next);
    return 0;
}
