/*
 * errata: the table (see errata.h). The threads were read in stored copies
 * of their public pages; "open" is their state when read.
 */
#include "analyze/errata/errata.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/engine.h"

const char *hv_erratum_verdict_name(int v)
{
    return v == HV_ERRATUM_AFFECTED ? "affected" : v == HV_ERRATUM_UNAFFECTED ? "unaffected" : "unknown";
}

int hv_rocm_release(const char *version, unsigned *major, unsigned *minor, unsigned *patch)
{
    unsigned a = 0, b = 0, c = 0;
    int n;
    if (!version || !version[0])
        return 0;
    const char *rocm = strstr(version, "ROCm ");
    if (rocm)
        n = sscanf(rocm + 5, "%u.%u.%u", &a, &b, &c);
    else
        n = sscanf(version, "%u.%u.%u", &a, &b, &c);
    if (n < 1)
        return 0;
    /* The soname's third field is the release as MMmmpp (70204 = 7.2.4). */
    if (!rocm && n == 3 && c >= 10000 && c / 10000 == a) {
        b = c / 100 % 100;
        c %= 100;
    }
    *major = a;
    *minor = n >= 2 ? b : 0;
    *patch = n >= 3 ? c : 0;
    return 1;
}

void hv_errata_rt_parse(struct hv_errata_rt *rt, const char *version, const char *knobs, int cuda)
{
    uint64_t kib;
    memset(rt, 0, sizeof *rt);
    rt->cuda = cuda;
    rt->known = !cuda && hv_rocm_release(version, &rt->major, &rt->minor, &rt->patch);
    rt->queues = hv_knob_graph_queues(knobs);
    /* Either generation's knob selects the classic executor (7.2.x:
     * DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0, later: DEBUG_HIP_GRAPH_CLASSIC_PATH=1). */
    if (hv_knob_is(knobs, "DEBUG_HIP_GRAPH_CLASSIC_PATH", "1"))
        rt->classic = "DEBUG_HIP_GRAPH_CLASSIC_PATH=1";
    else if (hv_knob_is(knobs, "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING", "0"))
        rt->classic = "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0";
    rt->sdma_disabled = hv_knob_is(knobs, "HSA_ENABLE_SDMA", "0");
    rt->blit_max_bytes = hv_knob_u64(knobs, "GPU_FORCE_BLIT_COPY_SIZE", &kib) ? kib * 1024u : 16u * 1024u;
}

static int release_is(const struct hv_errata_rt *rt, unsigned major, unsigned minor)
{
    return rt->known && rt->major == major && rt->minor == minor;
}

static int release_after(const struct hv_errata_rt *rt, unsigned major, unsigned minor)
{
    return rt->known && (rt->major > major || (rt->major == major && rt->minor > minor));
}

static int release_before(const struct hv_errata_rt *rt, unsigned major, unsigned minor)
{
    return rt->known && (rt->major < major || (rt->major == major && rt->minor < minor));
}

static void hit(struct hv_erratum_hit *hits, size_t cap, long n, uint32_t node, uint32_t from, uint32_t via,
                uint32_t edge)
{
    if ((size_t)n < cap)
        hits[n] = (struct hv_erratum_hit){node, from, via, edge};
}

/* ---- rocm-systems#11501: waits dropped past out-edge index Q ---- */

static int affects_fanout(const struct hv_errata_rt *rt, const char **why)
{
    if (rt->classic) {
        *why = "the process selected the classic graph executor (rocm-systems#11501: affected whenever it runs)";
        return HV_ERRATUM_AFFECTED;
    }
    if (release_is(rt, 7, 2)) {
        *why = "ROCm 7.2: its segment scheduler falls back to the classic executor for complex graphs, so the "
               "defect is reachable at default flags (rocm-systems#11501)";
        return HV_ERRATUM_AFFECTED;
    }
    if (release_after(rt, 7, 2)) {
        *why = "after 7.2 the segmented executor, the Linux default, is unaffected; it would hit with "
               "DEBUG_HIP_GRAPH_CLASSIC_PATH=1, or on ROCm 7.2 (rocm-systems#11501)";
        return HV_ERRATUM_UNAFFECTED;
    }
    *why = rt->known ? "the threads do not say whether this release is affected; it would hit on ROCm 7.2 or with "
                       "the classic executor selected (rocm-systems#11501)"
                     : "no ROCm release recorded; it would hit on ROCm 7.2 or with the classic executor selected "
                       "(rocm-systems#11501)";
    return HV_ERRATUM_UNKNOWN;
}

static long match_fanout(const struct hv_model *m, const struct hv_exec *x, const struct hv_topo *t,
                         const struct hv_errata_rt *rt, struct hv_erratum_hit *hits, size_t cap)
{
    (void)m;
    (void)x;
    uint32_t q = rt->queues;
    if (rt->cuda || q <= 1 || !hv_topo_branchy(t))
        return 0;
    long n = 0;
    /* wait = (i < Q) || (child has several dependencies); child i runs on
     * (parent + i) mod Q, its parent's stream when i mod Q == 0. */
    for (uint32_t v = 0; v < t->size; v++)
        for (uint32_t i = q; t->slot[v] != UINT32_MAX && i < t->outdeg[v]; i++) {
            uint32_t w = t->adj[t->first[v] + i];
            if (i % q != 0 && t->indeg[w] == 1)
                hit(hits, cap, n++, t->slot[w], t->slot[v], UINT32_MAX, i);
        }
    return n;
}

/* ---- rocm-systems#11357: edges through a disabled node dropped ---- */

static int affects_disabled(const struct hv_errata_rt *rt, const char **why)
{
    if (rt->classic) {
        *why = "the process selected the classic graph executor, which drops the edges (rocm-systems#11359)";
        return HV_ERRATUM_AFFECTED;
    }
    if (release_after(rt, 7, 2)) {
        *why = "the segmented executor, the Linux default after 7.2, keeps the barrier packets around a disabled "
               "node and masks it; it would hit with DEBUG_HIP_GRAPH_CLASSIC_PATH=1 (rocm-systems#11359)";
        return HV_ERRATUM_UNAFFECTED;
    }
    if (release_is(rt, 7, 2)) {
        *why = "ROCm 7.2 falls back to the classic executor for complex graphs (rocm-systems#11501); whether this "
               "graph is one is not recorded";
        return HV_ERRATUM_UNKNOWN;
    }
    *why = "the threads name no release; it hits wherever the classic executor runs the graph "
           "(DEBUG_HIP_GRAPH_CLASSIC_PATH=1) (rocm-systems#11359)";
    return HV_ERRATUM_UNKNOWN;
}

/* Is `to` reachable from `from` without passing `skip` (another path that
 * still orders them)? seen[] and queue[] are scratch of t->size entries. */
static int reaches(const struct hv_topo *t, uint32_t from, uint32_t to, uint32_t skip, uint8_t *seen,
                   uint32_t *queue)
{
    memset(seen, 0, t->size);
    uint32_t head = 0, tail = 0;
    queue[tail++] = from;
    seen[from] = 1;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t i = t->first[v]; i < t->first[v + 1]; i++) {
            uint32_t w = t->adj[i];
            if (w == skip || seen[w])
                continue;
            if (w == to)
                return 1;
            seen[w] = 1;
            queue[tail++] = w;
        }
    }
    return 0;
}

static long match_disabled(const struct hv_model *m, const struct hv_exec *x, const struct hv_topo *t,
                           const struct hv_errata_rt *rt, struct hv_erratum_hit *hits, size_t cap)
{
    (void)m;
    if (rt->cuda || rt->queues <= 1 || !hv_topo_branchy(t))
        return 0;
    int any = 0;
    for (uint32_t d = 0; d < t->size && !any; d++)
        any = t->slot[d] != UINT32_MAX && x->nodes[t->slot[d]].disabled;
    if (!any)
        return 0;
    size_t sz = t->size ? t->size : 1;
    uint32_t *stream = malloc(sz * sizeof *stream), *queue = malloc(sz * sizeof *queue);
    uint8_t *seen = malloc(sz);
    long n = 0;
    if (!stream || !queue || !seen || hv_topo_classic_streams(t, rt->queues, stream) != 0) {
        n = -1;
        goto out;
    }
    for (uint32_t d = 0; d < t->size; d++) {
        uint8_t was = t->slot[d] != UINT32_MAX ? x->nodes[t->slot[d]].disabled : 0;
        /* The threads name disabled kernel and memcpy nodes. */
        if (was != HV_NODE_KERNEL && was != HV_NODE_MEMCPY)
            continue;
        for (uint32_t a = t->rfirst[d]; a < t->rfirst[d + 1]; a++)
            for (uint32_t b = t->first[d]; b < t->first[d + 1]; b++) {
                uint32_t p = t->radj[a], r = t->adj[b];
                /* One stream's in-order queue keeps the edge; so does a
                 * path that does not go through the disabled node. */
                if (stream[p] == stream[r] || reaches(t, p, r, d, seen, queue))
                    continue;
                hit(hits, cap, n++, t->slot[r], t->slot[p], t->slot[d], UINT32_MAX);
            }
    }
out:
    free(stream);
    free(queue);
    free(seen);
    return n;
}

/* ---- rocm-systems#11403: an SDMA memcpy node that waits on no signal ---- */

static int affects_sdma(const struct hv_errata_rt *rt, const char **why)
{
    if (rt->classic) {
        *why = "the process selected the classic graph executor; the defect is in the segmented one "
               "(GraphExecSegmented, rocm-systems#11403)";
        return HV_ERRATUM_UNAFFECTED;
    }
    if (release_before(rt, 7, 2)) {
        *why = "releases before 7.2 have no segmented graph executor (segment scheduling came to 7.2 as a "
               "backport, rocm-systems#5520)";
        return HV_ERRATUM_UNAFFECTED;
    }
    *why = "the pull request names no release; it hits where the segmented executor runs the graph "
           "(rocm-systems#11403)";
    return HV_ERRATUM_UNKNOWN;
}

/* Host or device side of a copy operand, from the allocation map: 1
 * device, 0 host, -1 unknown (memory allocated outside the trace). */
static int device_side(const struct hv_model *m, uint64_t addr)
{
    struct hv_imap_seg seg;
    if (!hv_alloc_find(m, addr, &seg))
        return -1;
    uint8_t mem = ((const struct hv_alloc *)seg.val)->mem;
    return mem == HV_MEM_DEVICE || mem == HV_MEM_MANAGED;
}

/* A memcpy node's direction: as recorded, else from its kind (HIP and CUDA
 * number them alike: 1 H2D, 2 D2H, 3 D2D), else (default) from where its
 * operands live. */
static int node_dir(const struct hv_model *m, const struct hv_gnode *g)
{
    if (g->dir)
        return g->dir;
    switch (g->kind) {
    case 0: return HV_DIR_H2H;
    case 1: return HV_DIR_H2D;
    case 2: return HV_DIR_D2H;
    case 3: return HV_DIR_D2D;
    default: break;
    }
    int d = device_side(m, g->dst), s = device_side(m, g->src);
    if (d < 0 || s < 0)
        return HV_DIR_UNKNOWN;
    return d ? (s ? HV_DIR_D2D : HV_DIR_H2D) : (s ? HV_DIR_D2H : HV_DIR_H2H);
}

static long match_sdma(const struct hv_model *m, const struct hv_exec *x, const struct hv_topo *t,
                       const struct hv_errata_rt *rt, struct hv_erratum_hit *hits, size_t cap)
{
    if (rt->cuda || rt->sdma_disabled)
        return 0;
    long n = 0;
    for (uint32_t v = 0; v < t->size; v++) {
        if (t->slot[v] == UINT32_MAX || !t->indeg[v])
            continue;
        const struct hv_gnode *g = &x->nodes[t->slot[v]];
        /* The engine choice the analyzer makes for eager copies (engine
         * hints): host<->device copies above the blit size go to SDMA. */
        if (g->type != HV_NODE_MEMCPY || g->disabled || g->bytes <= rt->blit_max_bytes)
            continue;
        int dir = node_dir(m, g);
        if (dir != HV_DIR_H2D && dir != HV_DIR_D2H)
            continue;
        hit(hits, cap, n++, t->slot[v], t->slot[t->radj[t->rfirst[v]]], UINT32_MAX, UINT32_MAX);
    }
    return n;
}

/* ---- the table ---- */

const struct hv_erratum hv_errata[] = {
    {
        .id = "rocm-systems#11501",
        .threads = "ROCm/rocm-systems#11499 (issue, open), ROCm/rocm-systems#11501 (fix, open)",
        .title = "the classic graph executor drops cross-stream waits once the stream round robin wraps",
        .note = "rocm-systems#11501: the classic graph executor drops the cross-stream wait of a "
                "single-dependency child at out-edge index i >= DEBUG_HIP_FORCE_GRAPH_QUEUES (i mod Q != 0)",
        .runtimes = "HIP (ROCm CLR), the classic graph executor, any architecture: ROCm 7.2 at default flags (its "
                    "segment scheduler \"still fell back\" to the classic path for complex graphs); otherwise only "
                    "where DEBUG_HIP_GRAPH_CLASSIC_PATH=1 selects it (on Linux the segmented executor is the "
                    "default and is unaffected; that releases after 7.2 no longer fall back is read from that "
                    "\"still\"); the classic path is what PAL and Windows use. Releases before 7.2: not stated",
        .trigger = "a node's out-edge i with i >= Q and i mod Q != 0 (Q = DEBUG_HIP_FORCE_GRAPH_QUEUES, default "
                   "4) to a child that has a single dependency, in a graph the runtime spreads over parallel "
                   "queues (several roots or a node with several successors). The parent sets "
                   "wait = (i < Q) || (dependencies > 1) while the child runs on stream (parent + i) mod Q",
        .effect = "the child's cross-stream wait list is built and not installed: it can run concurrently with "
                  "its parent. Nothing is returned or logged: a data race with nondeterministic results",
        .workaround = "fewer successors per node (out-degree <= Q, or fan out through intermediate nodes); a "
                      "queue count the fan-out does not reach, or one graph queue (DEBUG_HIP_FORCE_GRAPH_QUEUES=1: "
                      "every child on its parent's stream) (both inferred from the wait formula of the thread); "
                      "after 7.2, leave DEBUG_HIP_GRAPH_CLASSIC_PATH unset",
        .fixed_in = "not public (the fix is an open pull request)",
        .arm = "one-queue",
        .arm_env = "DEBUG_HIP_FORCE_GRAPH_QUEUES=1",
        .arm_note = "one graph queue: every child runs on its parent's stream, whose order keeps the edge",
        .fault = "rs11501",
        .affects = affects_fanout,
        .match = match_fanout,
    },
    {
        .id = "rocm-systems#11357",
        .threads = "ROCm/rocm-systems#11359 (issue, open), ROCm/rocm-systems#11357 (fix, open)",
        .title = "edges through a disabled graph node are dropped",
        .note = "rocm-systems#11357: a disabled kernel/memcpy node drops the edges through it when its "
                "successor runs on another stream than its predecessor (classic graph executor)",
        .runtimes = "HIP (ROCm CLR), the classic graph executor (DEBUG_HIP_GRAPH_CLASSIC_PATH=1; what PAL and "
                    "Windows use): disabled kernel and memcpy nodes. The segmented executor, the Linux default, "
                    "keeps the barrier packets around a disabled node and masks it. Releases: not stated",
        .trigger = "a kernel or memcpy node disabled with hipGraphNodeSetEnabled(exec, node, 0) between a "
                   "predecessor and a successor the classic schedule puts on different streams (roots round "
                   "robin in creation order; out-edge i of a node on stream s: stream (s + i) mod Q), with no "
                   "other path from the predecessor to the successor, in a graph spread over parallel queues",
        .effect = "every edge through the disabled node is dropped (it reports no commands, so the successor's "
                  "wait list gets nothing from it): the successor can run concurrently with the predecessor it "
                  "was ordered after. Nothing is returned or logged",
        .workaround = "keep the node enabled, or add direct edges from its predecessors to its successors: "
                      "program changes, no knob named. One graph queue "
                      "(DEBUG_HIP_FORCE_GRAPH_QUEUES=1) puts every node on one stream, whose in-order queue keeps "
                      "the edges (inferred from the thread: nodes sharing a stream keep the edge)",
        .fixed_in = "not public (the fix is an open pull request)",
        .arm = "one-queue",
        .arm_env = "DEBUG_HIP_FORCE_GRAPH_QUEUES=1",
        .arm_note = "tests the mechanism (all nodes on one stream); the fix is a program change",
        .fault = "rs11357",
        .affects = affects_disabled,
        .match = match_disabled,
    },
    {
        .id = "rocm-systems#11403",
        .threads = "ROCm/rocm-systems#11403 (fix, open)",
        .title = "an SDMA memcpy node outside the captured packet batch can wait on no signal",
        .note = "rocm-systems#11403: a memcpy node that runs on an SDMA engine can start before its producer "
                "(segmented graph executor: it waits on a pool signal taken by position, or none)",
        .runtimes = "HIP (ROCm CLR), the segmented graph executor (GraphExecSegmented): a memcpy node that runs "
                    "on an SDMA engine (not the staging-blit path) and is the first node of a segment. Releases: "
                    "not stated",
        .trigger = "a memcpy node with at least one dependency whose copy runs on an SDMA engine: host to device "
                   "or device to host, larger than GPU_FORCE_BLIT_COPY_SIZE (default 16 KiB), HSA_ENABLE_SDMA "
                   "not 0. Segment boundaries are not in a trace: every such node matches, not only the first "
                   "of a segment",
        .effect = "the copy is dispatched outside the captured batch, onto a copy engine the producer's compute "
                  "queue does not order; it takes one signal from the stream's pool by position and drops it "
                  "when already retired, so it can wait on nothing and read its source before the producer "
                  "wrote it",
        .workaround = "run the copy as a blit kernel on the compute queue: HSA_ENABLE_SDMA=0, or "
                      "GPU_FORCE_BLIT_COPY_SIZE above the copy's size (inferred: the hazard the pull request "
                      "describes is a copy on an engine the producer's queue does not order); the classic "
                      "executor has no segments",
        .fixed_in = "not public (the fix is an open pull request)",
        .arm = "no-sdma",
        .arm_env = "HSA_ENABLE_SDMA=0",
        .arm_note = "copies as blit kernels on the compute queue",
        .fault = "rs11403",
        .affects = affects_sdma,
        .match = match_sdma,
    },
};
const size_t hv_nerrata = sizeof hv_errata / sizeof hv_errata[0];
_Static_assert(sizeof hv_errata / sizeof hv_errata[0] <= HV_ERRATA_MAX, "HV_ERRATA_MAX");

int hv_erratum_find(const char *key)
{
    for (size_t i = 0; key && i < hv_nerrata; i++)
        if (strcmp(hv_errata[i].id, key) == 0 || strcmp(hv_errata[i].fault, key) == 0)
            return (int)i;
    return -1;
}

/* ---- printing ---- */

void hv_errata_print(FILE *out)
{
    fprintf(out, "hipvis knows %zu runtime errata of the ordering class (rule runtime-erratum; docs/errata.md)\n",
            hv_nerrata);
    for (size_t i = 0; i < hv_nerrata; i++) {
        const struct hv_erratum *e = &hv_errata[i];
        fprintf(out, "\n%s  %s\n", e->id, e->title);
        fprintf(out, "  threads     %s\n", e->threads);
        fprintf(out, "  runtimes    %s\n", e->runtimes);
        fprintf(out, "  trigger     %s\n", e->trigger);
        fprintf(out, "  effect      %s\n", e->effect);
        fprintf(out, "  workaround  %s\n", e->workaround);
        fprintf(out, "  fixed in    %s\n", e->fixed_in);
        if (e->arm)
            fprintf(out, "  experiment  hipvis experiment --arms %s -- PROGRAM  (%s: %s)\n", e->arm, e->arm_env,
                    e->arm_note);
        fprintf(out, "  reproduced  HIPDOUBLE_FAULT=%s on the runtime double (tests/errata)\n", e->fault);
    }
}

void hv_errata_markdown(FILE *out)
{
    fputs("# Known runtime errata\n\n"
          "Generated from the table in `src/analyze/errata/errata.c` by `make errata-doc` (the same text as\n"
          "`hipvis-analyze --errata`); `make check-errata` fails when this file is stale. Do not edit by hand.\n\n"
          "Each entry is a published bug of a GPU runtime that changes the order work runs in. The rule\n"
          "`runtime-erratum` (docs/triage.md#runtime-erratum) reports a traced graph that matches an entry's\n"
          "trigger: a **warning** when the threads say the traced runtime (its release in the trace header,\n"
          "and the knobs the process ran with) has the bug, **info** when the graph has the trigger but the\n"
          "runtime is not, or not known to be, affected (\"would hit rocm-systems#11501 on ROCm 7.2\").\n"
          "Every statement below is read from the threads named; what they do not say is \"not stated\" /\n"
          "\"not public\", and an inference from a thread is marked so. `hipvis experiment --arms ARM` tests\n"
          "the workaround on the program; the runtime double's fault model reproduces the effect in the\n"
          "tests (`tests/errata`).\n\n",
          out);
    fputs("| erratum | runtimes | fixed in | experiment arm | double's fault model |\n|---|---|---|---|---|\n", out);
    for (size_t i = 0; i < hv_nerrata; i++) {
        const struct hv_erratum *e = &hv_errata[i];
        fprintf(out, "| [%s](#%s) %s | %s | %s | %s | `%s` |\n", e->id, e->fault, e->title, e->runtimes,
                e->fixed_in, e->arm ? e->arm : "none", e->fault);
    }
    for (size_t i = 0; i < hv_nerrata; i++) {
        const struct hv_erratum *e = &hv_errata[i];
        fprintf(out, "\n<a id=\"%s\"></a>\n## %s: %s\n\n", e->fault, e->id, e->title);
        fprintf(out, "- **Threads:** %s.\n", e->threads);
        fprintf(out, "- **Runtimes:** %s.\n", e->runtimes);
        fprintf(out, "- **Trigger in a trace:** %s.\n", e->trigger);
        fprintf(out, "- **Effect:** %s.\n", e->effect);
        fprintf(out, "- **Workaround:** %s.\n", e->workaround);
        fprintf(out, "- **Fixed in:** %s.\n", e->fixed_in);
        if (e->arm)
            fprintf(out, "- **Experiment arm:** `%s` (`%s`): %s.\n", e->arm, e->arm_env, e->arm_note);
        fprintf(out, "- **Finding note:** %s.\n", e->note);
        fprintf(out, "- **Runtime double:** `HIPDOUBLE_FAULT=%s` (tests/runtime-double/README.md).\n", e->fault);
    }
}
