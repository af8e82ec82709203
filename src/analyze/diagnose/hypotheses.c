/*
 * hypotheses: what --diagnose knows independently of any trace — each
 * hypothesis's name, the observables that would confirm or refute it, and
 * the synchronization / fix patterns that address it, cheapest first.
 * Sources: ../shared/research/rocm-runtime-facts.md (ROCm CLR, ATOM and
 * rocm-systems issues cited there); costs are relative (host round trip per
 * step > one extra packet > nothing) until the H200 measurements of
 * tests/gpu/fix_patterns.py are in docs/case-study-rocm-hip-3902.md.
 */
#include "analyze/diagnose/diag_int.h"

struct hyp {
    const char *id, *title, *confirm, *refute;
    const struct dx_fix *fixes;
    int nfixes;
};

static const struct dx_fix h1_fixes[] = {
    {"capture the H2D copy into the graph as a memcpy node ahead of its readers (graph edges then order the read)",
     "small: one more node per replay", NULL},
    {"record an event after the copy and wait for it on the host before the replay", "one host round trip per step",
     "HIPVIS_GUARD=event-sync (or event-sync-nofence: ordering alone)"},
    {"hipStreamSynchronize on the launch stream between the copy and the replay", "one host round trip per step",
     "HIPVIS_GUARD=stream-sync"},
    {"DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 (ROCm 7.2.4: classic executor) or DEBUG_HIP_FORCE_GRAPH_QUEUES=1 (one "
     "queue)",
     "debug flags: more launch CPU / no in-graph overlap", NULL},
    {"a runtime with the level-0 wait of the parallel streams (PR #3131) and rocm-systems PR #11501", "upgrade", NULL},
};

static const struct dx_fix host_fixes[] = {
    {"one pinned source buffer per in-flight step (a ring), reused only after its copy's event completed",
     "small: memory for the ring", NULL},
    {"hipEventSynchronize on an event recorded after the copy before the host rewrites the pinned buffer",
     "waits for the copy only", NULL},
    {"host wait before the replay (only helps when the rewrite comes after the launch)",
     "one host round trip per step", "HIPVIS_GUARD=event-sync or stream-sync"},
};

static const struct dx_fix h2_fixes[] = {
    {"order the other writer before the replay: event recorded after it, hipStreamWaitEvent on the launch stream",
     "negligible", NULL},
    {"capture the copy into the graph as a memcpy node (graph edges order it against in-graph writers)",
     "small: one more node per replay", NULL},
    {"a separate destination per in-flight step (ring + hipGraphExecKernelNodeSetParams) so a late older write "
     "lands in a retired slot",
     "a parameter update per step", NULL},
    {"host synchronization does NOT help: the late write lands after the copy whatever the host waits for", "-",
     NULL},
};

static const struct dx_fix h3_fixes[] = {
    {"read the argument with vector loads in the kernel (ROCm/ATOM#1434: tl.load(ptr + tl.arange(0, 1)) then "
     "reduce)",
     "negligible; kernel change", NULL},
    {"record an event created with hipEventReleaseToSystem after the copy (system-scope release/acquire)", "low",
     "HIPVIS_GUARD=release-event"},
    {"allocate the small buffer fine-grained / uncached (hipExtMallocWithFlags)", "slower access to one small buffer",
     NULL},
    {"host wait with a system-scope fence before the replay", "one host round trip per step",
     "HIPVIS_GUARD=event-sync or stream-sync (event-sync-nofence must NOT fix it)"},
    {"AMD_OPT_FLUSH=0 (every kernel system scope)", "diagnostic only: slows every kernel", NULL},
};

static const struct dx_fix h4_fixes[] = {
    {"DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 on ROCm 7.2.4 (classic executor)", "more launch CPU", NULL},
    {"a runtime with the segment-scheduler fix of rocm-systems#6888", "upgrade", NULL},
};

#define FIXES(a) a, (int)(sizeof a / sizeof a[0])

static const struct hyp hyps[HV_HYP__N] = {
    [HV_HYP_H1] = {"H1", "a graph node on a parallel queue is not ordered after the launch stream's copy",
                   "the stale read disappears with DEBUG_HIP_FORCE_GRAPH_QUEUES=1, DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 "
                   "or HIPVIS_GUARD=event-sync-nofence (ordering alone suffices); AMD_LOG_LEVEL=4 AMD_LOG_MASK=0x4000 "
                   "prints 'GraphExec::Run max_streams' > 1; all three probe snapshots match the source",
                   "the stale read persists with one graph queue; a probe shows the buffer already stale right after "
                   "the copy",
                   FIXES(h1_fixes)},
    [HV_HYP_HOST] = {"host-race", "the host rewrote the pinned source before the copy executed (H2b)",
                     "host-source hashes differ between enqueue and completion (HIPVIS_PAYLOAD_BYTES); the after-copy "
                     "probe equals the next step's data; --event-sync-before-rewrite style waiting removes it",
                     "the source hashes the same at enqueue and completion for every copy",
                     FIXES(host_fixes)},
    [HV_HYP_H2] = {"H2", "the copied result itself is stale: an older or another write lands after the copy",
                   "the after-copy or pre-replay probe differs from the copied bytes while the host source did not "
                   "change; hipvis-analyze --find-value V --at ADDR names the write that put the stale value; host "
                   "synchronization does not remove it",
                   "all three probe snapshots match the source", FIXES(h2_fixes)},
    [HV_HYP_H3] = {"H3", "cache scope: the reader loads the value through a scalar-cache (K$) or non-local L2 line "
                         "not invalidated after the copy",
                   "the reader uses s_load on the argument; the stale read disappears with HIPVIS_GUARD=stream-sync "
                   "or event-sync but not with event-sync-nofence, and with AMD_OPT_FLUSH=0 or a vector load",
                   "vector-only reads; the stale read persists under AMD_OPT_FLUSH=0", FIXES(h3_fixes)},
    [HV_HYP_H4] = {"H4", "graph truncation by ROCm 7.2.4's segment scheduler (node-id collisions)",
                   "fewer kernel dispatches per replay than kernel nodes (rocprofv3 --kernel-trace); "
                   "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 restores them",
                   "every node's kernel is dispatched at each replay; a one-epoch lag (not missing work) is the "
                   "symptom",
                   FIXES(h4_fixes)},
};

static const struct hyp *get(int h)
{
    return h >= 0 && h < HV_HYP__N ? &hyps[h] : &hyps[HV_HYP_H4];
}

const char *dx_hyp_id(int h) { return h < 0 ? "undetermined" : get(h)->id; }
const char *dx_hyp_title(int h) { return h < 0 ? "no recorded evidence supports a hypothesis" : get(h)->title; }
const char *dx_hyp_confirm(int h) { return get(h)->confirm; }
const char *dx_hyp_refute(int h) { return get(h)->refute; }

const struct dx_fix *dx_hyp_fixes(int h, int *n)
{
    *n = get(h)->nfixes;
    return get(h)->fixes;
}
