/*
 * graph_topo — the top-level graph of an exec's inventory as
 * index-addressed arrays: node index (the position in hipGraphGetNodes
 * order, the order the program created the nodes in) -> exec node, and the
 * edges in compressed (CSR) form both ways, kept in recorded order so each
 * edge knows its position in its source's out-edge list (the "out-edge
 * index" the HIP runtime's classic executor schedules by). Shared by the
 * placement prediction and the runtime-errata triggers.
 */
#ifndef HV_ANALYZE_GRAPH_TOPO_H
#define HV_ANALYZE_GRAPH_TOPO_H

#include <stdint.h>

#include "analyze/model/model.h"

struct hv_topo {
    uint32_t size;
    uint32_t *slot;       /* index -> exec node, UINT32_MAX absent */
    uint32_t *indeg, *outdeg;
    uint32_t *first;      /* CSR: out-edges of v are adj[first[v] .. first[v+1]) */
    uint32_t *adj;
    uint32_t *rfirst;     /* in-edges of v: radj[rfirst[v] .. rfirst[v+1]) (sources) */
    uint32_t *radj;
    uint32_t *pos;        /* for a node with one dependency: its out-edge index there */
};

/* The top level of x (child graphs' nodes are left out). 0, or -1 out of
 * memory (t can still be freed). */
int hv_topo_build(const struct hv_exec *x, struct hv_topo *t);
void hv_topo_free(struct hv_topo *t);

/* The graph the HIP runtime spreads over its parallel queues: several roots
 * or a node with several successors (a linear graph runs on the launch
 * queue alone). */
int hv_topo_branchy(const struct hv_topo *t);

/* Each node's stream in the classic executor's schedule, `queues` streams
 * (DEBUG_HIP_FORCE_GRAPH_QUEUES): roots round robin in creation order, then
 * from each root in that order, out-edge i of a node on stream s gives a
 * child not reached before stream (s + i) mod queues (rocm-systems#11499,
 * rocm-systems#11357). stream[] has t->size entries (UINT32_MAX for absent
 * indexes).
 * 0, or -1 out of memory. */
int hv_topo_classic_streams(const struct hv_topo *t, uint32_t queues, uint32_t *stream);

#endif
