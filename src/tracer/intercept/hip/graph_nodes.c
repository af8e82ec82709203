/*
 * Graph memcpy nodes added explicitly (hipGraphAddMemcpyNode, ...1D,
 * ...ToSymbol, ...FromSymbol) and hipGraphNodeGetEnabled: the calls are
 * recorded so a trace says which API made each memcpy node (captured from a
 * stream or added by the program) and what the program read back of a
 * node's enabled state (docs/semantics.md G8). Their copies run only when
 * an exec of the graph is launched; the walk at instantiate records them.
 */
#include "tracer/intercept/common/graph_build.h"
#include "tracer/intercept/hip/hip_int.h"

/* ROCm 6+ (the HIP 5.2 headers lack it). */
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int *isEnabled);

#define ADD(pn, g, nd) hv_trace_graph_add(t_, api_, r_, HV_PTR(g), HV_OUT(pn, r_), (nd))

HV_HIP_WRAP(hipGraphAddMemcpyNode,
            (hipGraphNode_t *pn, hipGraph_t g, const hipGraphNode_t *deps, size_t nd, const hipMemcpy3DParms *p),
            (pn, g, deps, nd, p), ADD(pn, g, nd))
HV_HIP_WRAP(hipGraphAddMemcpyNode1D,
            (hipGraphNode_t *pn, hipGraph_t g, const hipGraphNode_t *deps, size_t nd, void *dst, const void *src,
             size_t count, hipMemcpyKind k),
            (pn, g, deps, nd, dst, src, count, k), ADD(pn, g, nd))
HV_HIP_WRAP(hipGraphAddMemcpyNodeToSymbol,
            (hipGraphNode_t *pn, hipGraph_t g, const hipGraphNode_t *deps, size_t nd, const void *sym,
             const void *src, size_t count, size_t off, hipMemcpyKind k),
            (pn, g, deps, nd, sym, src, count, off, k), ADD(pn, g, nd))
HV_HIP_WRAP(hipGraphAddMemcpyNodeFromSymbol,
            (hipGraphNode_t *pn, hipGraph_t g, const hipGraphNode_t *deps, size_t nd, void *dst, const void *sym,
             size_t count, size_t off, hipMemcpyKind k),
            (pn, g, deps, nd, dst, sym, count, off, k), ADD(pn, g, nd))
HV_HIP_WRAP(hipGraphNodeGetEnabled, (hipGraphExec_t e, hipGraphNode_t n, unsigned *on), (e, n, on),
            hv_trace_get_enabled(t_, api_, r_, HV_PTR(e), HV_PTR(n), on))
