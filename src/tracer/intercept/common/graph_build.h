/*
 * Graph building calls whose record the analyzer reads beside the walk at
 * instantiate (docs/semantics.md G8): which API made a node, and what the
 * program asked of an exec node's enabled state. Runtime-neutral fillers;
 * the front ends' wrappers are src/tracer/intercept/hip/graph_nodes.c.
 */
#ifndef HIPVIS_GRAPH_BUILD_H
#define HIPVIS_GRAPH_BUILD_H

#include "tracer/intercept/common/intercept.h"

/* hipGraphAdd*Node: the graph, the node made (0 when the call failed) and
 * how many dependencies it was given. Nothing runs: the node's parameters
 * are recorded when an exec of the graph is instantiated. */
void hv_trace_graph_add(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t graph, uint64_t node,
                        size_t ndeps);
/* hipGraphNodeGetEnabled: the exec, the node and what the runtime answered
 * (recorded only when the call succeeded). */
void hv_trace_get_enabled(struct hv_thread_ctx *t, uint16_t api, int32_t r, uint64_t exec, uint64_t node,
                          const unsigned *enabled);

#endif
