/* placement: see placement.h for the runtime behaviour this predicts. */
#include "analyze/placement.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/engine.h"
#include "analyze/graph_topo.h"

void hv_place_config(struct hv_place_cfg *c, const char *knobs, int cuda)
{
    c->queues = hv_knob_graph_queues(knobs);
    c->cuda = (uint8_t)(cuda != 0);
    /* 0 selects the classic executor, whose parallel streams wait for the
     * launch stream before their first root. */
    c->root_nowait = !hv_knob_is(knobs, "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING", "0");
}

/* Names arrive mangled (`_Z39ncclDevKernel_AllReduce_...`) or plain, so
 * the collective markers are looked for after an optional Itanium prefix
 * (`_Z` + length digits), not only at the start. */
int hv_place_is_collective(const char *name)
{
    if (!name)
        return 0;
    if (name[0] == '_' && name[1] == 'Z') {
        name += 2;
        while (*name >= '0' && *name <= '9')
            name++;
    }
    return strncmp(name, "ncclDevKernel", 13) == 0 || strncmp(name, "ncclKernel", 10) == 0 ||
           strncmp(name, "rccl", 4) == 0;
}

const char *hv_place_reason(uint8_t f)
{
    if (f & HV_PLACE_DROPPED)
        return "single dependency at out-edge index >= DEBUG_HIP_FORCE_GRAPH_QUEUES: the classic executor drops "
               "its cross-stream wait (rocm-systems#11499)";
    if (f & HV_PLACE_ROOT)
        return "a root of a graph the runtime spreads over parallel queues: ROCm 7.2.4's segment scheduler starts "
               "level 0 there without waiting for the launch stream";
    if (f & HV_PLACE_INHERITED)
        return "every dependency may itself start before the launch stream's earlier work";
    return "";
}

/* Kahn's order over the top-level graph; a node is decided when all its
 * dependencies are (a cycle, which is bad input, leaves its nodes at 0). */
static void place_top(const struct hv_topo *t, const struct hv_place_cfg *c,
                      struct hv_place *p, uint32_t *queue, uint32_t *left, uint32_t *unordered_deps)
{
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < t->size; v++) {
        left[v] = t->indeg[v];
        if (t->slot[v] != UINT32_MAX && t->indeg[v] == 0)
            queue[tail++] = v;
    }
    while (head < tail) {
        uint32_t v = queue[head++];
        uint8_t f = 0;
        if (!p->uses_parallel) {
            /* one queue, program order: nothing starts early */
        } else if (t->indeg[v] == 0) {
            f = HV_PLACE_PARALLEL | (c->root_nowait ? HV_PLACE_ROOT : 0);
        } else if (t->indeg[v] == 1 && t->pos[v] >= c->queues) {
            f = HV_PLACE_PARALLEL | HV_PLACE_DROPPED;
        } else {
            /* A later child of a fork continues on another stream, waiting
             * for its dependencies; it starts early only if all of them may. */
            if (t->indeg[v] == 1 && t->pos[v] > 0)
                f |= HV_PLACE_PARALLEL;
            if (unordered_deps[v] == t->indeg[v])
                f |= HV_PLACE_INHERITED | HV_PLACE_PARALLEL;
        }
        p->flags[t->slot[v]] |= f;
        for (uint32_t i = t->first[v]; i < t->first[v + 1]; i++) {
            uint32_t w = t->adj[i];
            if (f & HV_PLACE_UNORDERED)
                unordered_deps[w]++;
            if (--left[w] == 0)
                queue[tail++] = w;
        }
    }
}

/* Nodes inside child graphs run where their child-graph node runs. */
static void place_children(const struct hv_exec *x, struct hv_place *p)
{
    for (int depth = 0; depth < 8; depth++) {
        int changed = 0;
        for (uint32_t k = 0; k < x->nnodes; k++) {
            if (!x->nodes[k].parent)
                continue;
            for (uint32_t j = 0; j < x->nnodes; j++)
                if (x->nodes[j].handle == x->nodes[k].parent) {
                    uint8_t inh = p->flags[j] & (uint8_t)~HV_PLACE_COLLECTIVE;
                    if ((p->flags[k] | inh) != p->flags[k]) {
                        p->flags[k] |= inh;
                        changed = 1;
                    }
                    break;
                }
        }
        if (!changed)
            break;
    }
}

int hv_place_compute(const struct hv_model *m, const struct hv_exec *x, const struct hv_place_cfg *c,
                     struct hv_place *p)
{
    memset(p, 0, sizeof *p);
    struct hv_topo t = {0};
    p->flags = calloc(x->nnodes ? x->nnodes : 1, 1);
    int rc = p->flags ? hv_topo_build(x, &t) : -1;
    size_t n = t.size ? t.size : 1;
    uint32_t *queue = rc ? NULL : malloc(n * sizeof *queue);
    uint32_t *left = rc ? NULL : malloc(n * sizeof *left);
    uint32_t *unord = rc ? NULL : calloc(n, sizeof *unord);
    if (rc || !queue || !left || !unord) {
        hv_topo_free(&t);
        free(queue);
        free(left);
        free(unord);
        hv_place_free(p);
        return -1;
    }
    p->nodes = x->nnodes;
    for (uint32_t v = 0; v < t.size; v++) {
        if (t.slot[v] == UINT32_MAX)
            continue;
        p->roots += t.indeg[v] == 0;
        p->branches += t.outdeg[v] > 1;
        if (t.outdeg[v] > p->max_out)
            p->max_out = t.outdeg[v];
    }
    p->uses_parallel = !c->cuda && c->queues > 1 && (p->roots > 1 || p->branches > 0);
    place_top(&t, c, p, queue, left, unord);
    place_children(x, p);
    for (uint32_t k = 0; k < x->nnodes; k++) {
        const struct hv_gnode *g = &x->nodes[k];
        if (g->type == HV_NODE_KERNEL && hv_place_is_collective(hv_model_name(m, g->name_id, g->func))) {
            p->flags[k] |= HV_PLACE_COLLECTIVE;
            p->collectives++;
        }
    }
    hv_topo_free(&t);
    free(queue);
    free(left);
    free(unord);
    return 0;
}

void hv_place_free(struct hv_place *p)
{
    free(p->flags);
    p->flags = NULL;
}
