/*
 * placement — which nodes of a graph exec the HIP runtime would start on a
 * parallel queue, and which of those are not ordered after the work already
 * queued on the launch stream (the H1 hypothesis of ROCm/hip#3902).
 *
 * What the runtime does (../shared/research/rocm-runtime-facts.md, read in
 * ROCm CLR): a linear graph runs on the launch queue only. A graph with
 * several roots or a branch is spread over up to DEBUG_HIP_FORCE_GRAPH_QUEUES
 * (default 4) parallel streams. Two ways a node there can start before the
 * launch stream's preceding copy completed:
 *  - ROCm 7.2.4's backported segment scheduler (early revision) assigns
 *    level-0 segments round-robin to parallel streams with no wait on the
 *    launch stream (PR #3131 adds the wait) -> every root may start early;
 *  - the classic executor drops the cross-stream wait of a child that has a
 *    single dependency and sits at out-edge index >= the queue count
 *    (rocm-systems#11499 / PR #11501) -> that child may start early.
 * A node all of whose dependencies may start early may too (it waits only
 * for them). RCCL inside capture (side streams, event nodes) is what makes a
 * tensor-parallel graph branchy; collective kernels are marked.
 *
 * This is a prediction from the recorded topology and knobs, not an
 * observation: the runtime version decides which of the two mechanisms
 * exists. CUDA traces have neither (the driver orders a graph's roots after
 * the stream's prior work), so nothing is predicted there.
 */
#ifndef HV_ANALYZE_PLACEMENT_H
#define HV_ANALYZE_PLACEMENT_H

#include <stdint.h>

#include "analyze/model/model.h"

enum {
    HV_PLACE_PARALLEL = 1u << 0,   /* may run on one of the runtime's parallel queues */
    HV_PLACE_ROOT = 1u << 1,       /* a root of a graph spread over parallel queues: level 0, no wait (7.2.4) */
    HV_PLACE_DROPPED = 1u << 2,    /* one dependency, out-edge index >= queues: wait dropped (rocm-systems#11499) */
    HV_PLACE_INHERITED = 1u << 3,  /* every dependency may start early */
    HV_PLACE_COLLECTIVE = 1u << 4, /* ncclDevKernel*, ncclKernel*, rccl* */
};
#define HV_PLACE_UNORDERED (HV_PLACE_ROOT | HV_PLACE_DROPPED | HV_PLACE_INHERITED)

struct hv_place_cfg {
    uint32_t queues;         /* DEBUG_HIP_FORCE_GRAPH_QUEUES (default 4; 1 = no parallel queues) */
    uint8_t root_nowait;     /* level-0 segments may skip the wait (0 with DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0) */
    uint8_t cuda;            /* CUDA runtime: no prediction */
};

/* From the trace header's knobs string ("NAME=value;...") and the model's
 * runtime kind. */
void hv_place_config(struct hv_place_cfg *c, const char *knobs, int cuda);

struct hv_place {
    uint32_t nodes, roots, branches, max_out, collectives;
    uint8_t uses_parallel;   /* the runtime spreads this graph over parallel queues */
    uint8_t *flags;          /* HV_PLACE_* per node, in exec->nodes order */
};

/* Placement of every node of x. Returns 0, or -1 out of memory (p zeroed). */
int hv_place_compute(const struct hv_model *m, const struct hv_exec *x, const struct hv_place_cfg *c,
                     struct hv_place *p);
void hv_place_free(struct hv_place *p);

/* One line saying why a node with these flags may start early ("" if it
 * cannot): a static string, so findings that carry it group together. */
const char *hv_place_reason(uint8_t flags);

/* Collective-communication kernel name (RCCL / NCCL). */
int hv_place_is_collective(const char *kernel_name);

#endif
