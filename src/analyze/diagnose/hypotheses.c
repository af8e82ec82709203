/*
 * hypotheses: what --diagnose knows independently of any trace — each
 * hypothesis's name, the observables that would confirm or refute it, the
 * cheapest next run that decides it, and the fix patterns with what was
 * measured about each. Sources: ../shared/research/rocm-runtime-facts.md and
 * public-cases.md (ROCm CLR, ATOM and rocm-systems issues cited there).
 */
#include "analyze/diagnose/diag_int.h"

struct hyp {
    const char *id, *title, *confirm, *refute, *next;
    const struct dx_fix *fixes;
    int nfixes;
};

/*
 * Fix patterns. "removes" / "does not remove" are measurements: the fault
 * models of the runtime double (tests/runtime-double, HIPDOUBLE_FAULT) with
 * tests/apps/decode_loop, each guard mode run by tests/diagnose/diagnose.py
 * (case_guards) and each knob arm by `hipvis experiment` in
 * tests/experiment. Costs are the H200 step-time ratios of
 * tests/gpu/fix_patterns.py (docs/case-study-rocm-hip-3902.md, section 6):
 * guard ratios against guard-off blocks of a traced process, pattern ratios
 * against the untraced loop. Untested patterns come from the public cases
 * and are never ranked as fixes.
 */
#define DOUBLE(f) "runtime double, HIPDOUBLE_FAULT=" f " (decode_loop; tests/diagnose, tests/experiment)"
/* A guard's measured cost and the setting that applies it: one measurement
 * each, whichever hypothesis's fix it is. */
#define STREAM_SYNC "H200 guard ratio 1.190 (1.150 .. 1.467)", "HIPVIS_GUARD=stream-sync"
#define EVENT_SYNC "H200 guard ratio 1.251 (1.115 .. 1.416)", "HIPVIS_GUARD=event-sync"
#define COPY_SYNC(f) \
    {"host wait at each pinned H2D copy", "H200 guard ratio 1.368 (1.205 .. 1.565)", "HIPVIS_GUARD=copy-sync", \
     DX_FIX_REMOVES, DOUBLE(f)}
#define RELEASE_EVENT(f) \
    {"hipEventReleaseToSystem event after the copy, no host wait", "-", "HIPVIS_GUARD=release-event", \
     DX_FIX_DOES_NOT, DOUBLE(f)}

static const struct dx_fix h1_fixes[] = {
    {"hipStreamSynchronize on the launch stream between the copy and the replay", STREAM_SYNC, DX_FIX_REMOVES,
     DOUBLE("h1")},
    {"record an event after the copy and wait for it on the host before the replay", EVENT_SYNC, DX_FIX_REMOVES,
     DOUBLE("h1")},
    COPY_SYNC("h1"),
    {"event wait without the system-scope fence (ordering alone)", "not measured on a GPU (HIP only)",
     "HIPVIS_GUARD=event-sync-nofence", DX_FIX_REMOVES, DOUBLE("h1")},
    {"DEBUG_HIP_FORCE_GRAPH_QUEUES=1 (one graph queue)", "not measured on a GPU (HIP debug flag)", NULL,
     DX_FIX_REMOVES, DOUBLE("h1")},
    RELEASE_EVENT("h1"),
    {"capture the H2D copy into the graph as a memcpy node ahead of its readers", "H200 pattern ratio 1.002", NULL,
     DX_FIX_UNTESTED, NULL},
    {"ROCm 7.2.4: DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0; a runtime with rocm-systems PR #3131 / #11501", "-", NULL,
     DX_FIX_UNTESTED, NULL},
};

static const struct dx_fix host_fixes[] = {
    {"host wait on an event recorded after the copy before the host rewrites the pinned source",
     "waits for the copy only (not measured on a GPU)", NULL, DX_FIX_REMOVES,
     DOUBLE("h2b") ", decode_loop --event-sync-before-rewrite"},
    COPY_SYNC("h2b"),
    {"host wait on the copy's stream (or an event after the copy) before the line a host-access-in-flight "
     "finding names (HIPVIS_HOSTCHECK=1) touches the pinned buffer",
     "waits for the copy only (not measured on a GPU)", NULL, DX_FIX_UNTESTED, NULL},
    {"host wait before the replay (the eager readers still see the rewrite)", "-",
     "HIPVIS_GUARD=stream-sync / event-sync / event-sync-nofence / release-event", DX_FIX_DOES_NOT, DOUBLE("h2b")},
    {"one pinned source buffer per in-flight step (a ring), reused after its copy's event completed",
     "H200 pattern ratio 1.327", NULL, DX_FIX_UNTESTED, NULL},
};

static const struct dx_fix h2_fixes[] = {
    {"run the copy as a blit kernel instead of on the SDMA engine: HSA_ENABLE_SDMA=0, or GPU_FORCE_BLIT_COPY_SIZE "
     "(KiB) over the copy size",
     "not measured on a GPU", NULL, DX_FIX_REMOVES,
     DOUBLE("h2a") " where the double models the late write as the copy engine's"},
    {"host synchronization of any kind: the late write lands after the copy whatever the host waits for", "-",
     "HIPVIS_GUARD=stream-sync / event-sync / event-sync-nofence / release-event / copy-sync", DX_FIX_DOES_NOT,
     DOUBLE("h2a")},
    {"order the other writer before the replay (event after it, hipStreamWaitEvent on the launch stream); find it "
     "with hipvis-analyze --find-value",
     "-", NULL, DX_FIX_UNTESTED, NULL},
    {"a separate destination per in-flight step (ring + hipGraphExecKernelNodeSetParams)", "-", NULL,
     DX_FIX_UNTESTED, NULL},

};

static const struct dx_fix h3_fixes[] = {
    {"hipStreamSynchronize on the launch stream before the replay (system-scope host wait)", STREAM_SYNC,
     DX_FIX_REMOVES, DOUBLE("h3")},
    {"event recorded after the copy, host waits (default flags: system-scope release)", EVENT_SYNC, DX_FIX_REMOVES,
     DOUBLE("h3")},
    COPY_SYNC("h3"),
    RELEASE_EVENT("h3"),
    {"host wait without the system-scope fence", "-", "HIPVIS_GUARD=event-sync-nofence", DX_FIX_DOES_NOT,
     DOUBLE("h3")},
    {"read the argument with vector loads in the kernel (ROCm/ATOM#1434)", "kernel change", NULL, DX_FIX_UNTESTED,
     NULL},
    {"fine-grained / uncached allocation of the small buffer; AMD_OPT_FLUSH=0 (diagnostic)", "-", NULL,
     DX_FIX_UNTESTED, NULL},
};

static const struct dx_fix h4_fixes[] = {
    {"the classic graph executor: DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 (ROCm 7.2.x), DEBUG_HIP_GRAPH_CLASSIC_PATH=1 "
     "(newer)",
     "not measured on a GPU", NULL, DX_FIX_REMOVES, DOUBLE("h4")},
    {"host synchronization: the dropped nodes stay dropped", "-", "HIPVIS_GUARD=stream-sync / event-sync",
     DX_FIX_DOES_NOT, DOUBLE("h4")},
    {"a runtime with the segment-scheduler fix of rocm-systems#6888 (PR #6241); build graphs from one thread", "-",
     NULL, DX_FIX_UNTESTED, NULL},
};

#define FIXES(a) a, (int)(sizeof a / sizeof a[0])

static const struct hyp hyps[HV_HYP__N] = {
    [HV_HYP_H1] = {"H1", "a graph node on a parallel queue is not ordered after the launch stream's copy",
                   "the stale read disappears with DEBUG_HIP_FORCE_GRAPH_QUEUES=1, DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 "
                   "or HIPVIS_GUARD=event-sync-nofence (ordering alone suffices); AMD_LOG_LEVEL=4 AMD_LOG_MASK=0x4000 "
                   "prints 'GraphExec::Run max_streams' > 1; all three probe snapshots match the source",
                   "the stale read persists with one graph queue; a probe shows the buffer already stale right after "
                   "the copy",
                   "hipvis experiment -n 10 --arms baseline,one-queue,event-sync-nofence,event-sync -o DIR -- JOB "
                   "(H1 if one-queue or event-sync-nofence removes the symptom)",
                   FIXES(h1_fixes)},
    [HV_HYP_HOST] = {"host-race", "the host rewrote the pinned source before the copy executed (H2b)",
                     "host-source hashes differ between enqueue and completion (HIPVIS_PAYLOAD_BYTES); the after-copy "
                     "probe equals the next step's data; HIPVIS_HOSTCHECK=1 catches the host writing the pinned "
                     "source while the copy is in flight (host-access-in-flight); --event-sync-before-rewrite "
                     "style waiting removes it",
                     "the source hashes the same at enqueue and completion for every copy",
                     "HIPVIS_PROBE=ADDR:LEN (or auto) on the job with the default payload/rewrite check: observed "
                     "when a rewritten source byte is what the after-copy snapshot holds; HIPVIS_HOSTCHECK=1 names "
                     "the host line that touched the in-flight buffer; or hipvis experiment --arms "
                     "baseline,hostcheck,copy-sync,stream-sync -o DIR -- JOB",
                     FIXES(host_fixes)},
    [HV_HYP_H2] = {"H2", "the copied result itself is stale: an older or another write lands after the copy",
                   "the after-copy or pre-replay probe differs from the copied bytes while the host source did not "
                   "change; hipvis-analyze --find-value V --at ADDR names the write that put the stale value; host "
                   "synchronization does not remove it",
                   "all three probe snapshots match the source",
                   "HIPVIS_PROBE=ADDR:LEN (or auto) on the job: observed when the after-copy or pre-replay "
                   "snapshot differs from a source the host did not rewrite; then hipvis-analyze --find-value",
                   FIXES(h2_fixes)},
    [HV_HYP_H3] = {"H3", "cache scope: the reader loads the value through a scalar-cache (K$) or non-local L2 line "
                         "not invalidated after the copy",
                   "the reader uses s_load on the argument; the stale read disappears with HIPVIS_GUARD=stream-sync "
                   "or event-sync but not with event-sync-nofence, and with AMD_OPT_FLUSH=0 or a vector load",
                   "vector-only reads; the stale read persists under AMD_OPT_FLUSH=0",
                   "hipvis experiment -n 10 --arms baseline,event-sync,event-sync-nofence,flush -o DIR -- JOB "
                   "(H3 if event-sync removes the symptom and event-sync-nofence does not)",
                   FIXES(h3_fixes)},
    [HV_HYP_H4] = {"H4", "graph truncation by ROCm 7.2.4's segment scheduler (node-id collisions)",
                   "fewer kernel dispatches per replay than kernel nodes (rocprofv3 --kernel-trace); "
                   "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 restores them",
                   "every node's kernel is dispatched at each replay; a one-epoch lag (not missing work) is the "
                   "symptom",
                   "hipvis experiment -n 10 --arms baseline,classic,one-queue -o DIR -- JOB (H4 if classic removes "
                   "the symptom and one-queue does not); rocprofv3 --kernel-trace counts dispatches per replay",
                   FIXES(h4_fixes)},
};

static const struct hyp *get(int h)
{
    return h >= 0 && h < HV_HYP__N ? &hyps[h] : &hyps[HV_HYP_H4];
}

const char *dx_hyp_id(int h) { return h < 0 ? "undetermined" : get(h)->id; }
const char *dx_hyp_title(int h)
{
    return h < 0 ? "no recorded symptom singles out a cause; the open hypotheses and the run that decides each follow"
                 : get(h)->title;
}
const char *dx_hyp_next_run(int h) { return get(h)->next; }

const char *dx_status_name(int s)
{
    return s == DX_OBSERVED ? "observed" : s == DX_EXCLUDED ? "excluded" : "consistent";
}
const char *dx_hyp_confirm(int h) { return get(h)->confirm; }
const char *dx_hyp_refute(int h) { return get(h)->refute; }

const struct dx_fix *dx_hyp_fixes(int h, int *n)
{
    *n = get(h)->nfixes;
    return get(h)->fixes;
}
