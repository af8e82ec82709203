/*
 * verdict: one same-epoch-write group -> what the recorded facts say about
 * each hypothesis.
 *
 * Each piece of recorded evidence becomes an item. An item can be the
 * recorded symptom of a hypothesis (`symptom`: a probe snapshot that differs
 * from the source at the point the hypothesis predicts, a rewritten source
 * byte that reached the device copy), can rule hypotheses out (`excludes`:
 * an unpinned source cannot be rewritten under the copy, a probe that saw
 * the copied bytes at every point in N replays, the classic executor has no
 * segment scheduler), and carries weights (docs/case-study-rocm-hip-3902.md)
 * that only order the hypotheses left open.
 *
 * Status per hypothesis: observed (a symptom item), excluded (an excluding
 * item and no symptom), else consistent. The verdict is the best-scored
 * observed hypothesis; with none it is "undetermined", and the report lists
 * the open hypotheses with the next run that decides each. Predictions
 * (placement, scalar loads, version priors) never make a verdict: they say
 * what is worth testing first. Nothing here knows which program or fault
 * produced the trace.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze/coverage.h"
#include "analyze/diagnose/diag_int.h"
#include "analyze/engine.h"
#include "analyze/rules/rules.h"
#include "codeobj/scalar.h"

#define OBS(h) DX_HYP(HV_HYP_##h)
#define NONE 0u

/* Adds an item: the hypotheses whose symptom it records, those it rules
 * out, and weights for H1, host-race, H2, H3, H4. */
static void item(struct dx_diag *d, unsigned symptom, unsigned excludes, int h1, int host, int h2, int h3, int h4,
                 const char *fmt, ...)
{
    if (d->nitems >= DX_MAX_ITEMS)
        return;
    struct dx_item *it = &d->items[d->nitems++];
    const int w[HV_HYP__N] = {[HV_HYP_H1] = h1, [HV_HYP_HOST] = host, [HV_HYP_H2] = h2, [HV_HYP_H3] = h3,
                              [HV_HYP_H4] = h4};
    for (int h = 0; h < HV_HYP__N; h++)
        it->w[h] = (int8_t)w[h];
    it->symptom = (uint8_t)symptom;
    it->excludes = (uint8_t)excludes;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->text, sizeof it->text, fmt, ap);
    va_end(ap);
}

static const char *point_name(int p)
{
    return p == DX_PROBE_AFTER_COPY ? "right after the copy" : p == DX_PROBE_PRE_REPLAY ? "right before the replay"
                                                                                        : "right after the replay";
}

/* Host-source hashes: did the host rewrite the pinned source while the copy
 * was pending? A rewrite alone is not the symptom: the copy may have run
 * before it (the host only saw completion later); the probe says whether
 * the changed bytes reached the device. Returns 1 when it rewrote. */
static int ev_host_source(struct dx_diag *d, const struct dx_trace *t)
{
    const struct dx_source *s = dx_source_of(t, d->f.a.src);
    if (d->f.a.src_mem == HV_MEM_HOST_PAGEABLE) {
        item(d, NONE, OBS(HOST), 0, -3, 0, 0, 0, "the copy's source is not pinned: the runtime stages it at "
                                                 "enqueue, so a later host rewrite cannot reach the copy");
        return 0;
    }
    if (!s || !(s->enqueued + s->rewritten + s->unchecked)) {
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "host-source hashes not recorded for source 0x%llx "
                                           "(HIPVIS_PAYLOAD_BYTES=0 / HIPVIS_REWRITE_CHECK_KB=0)",
             (unsigned long long)d->f.a.src);
        return 0;
    }
    if (s->rewritten) {
        item(d, NONE, NONE, 0, 3, 0, 0, 0, "the host rewrote pinned source 0x%llx before it saw the copy complete: "
                                           "%llu of %llu copies hashed differently when first observed complete "
                                           "(first at seq %llu); whether the copy had already run is not recorded "
                                           "without a probe",
             (unsigned long long)d->f.a.src, (unsigned long long)s->rewritten, (unsigned long long)s->enqueued,
             (unsigned long long)s->first_rewrite_seq);
        return 1;
    }
    /* Not an exclusion: the check samples copies (HIPVIS_REWRITE_EVERY) and
     * a full pending list skips some, so unchecked copies may be rewritten. */
    item(d, NONE, NONE, 0, -3, 0, 0, 0, "pinned source 0x%llx hashed the same at enqueue and at completion for "
                                        "the %llu copies checked%s",
         (unsigned long long)d->f.a.src, (unsigned long long)s->enqueued,
         s->unchecked ? " (some were not: pending list full)" : "");
    return 0;
}

static void ev_probe(struct dx_diag *d, const struct dx_trace *t, int host_rewrote)
{
    const struct dx_probe *p = dx_probe_of(t, d->f.lo, d->f.hi);
    uint64_t n = p ? p->by_point[0] + p->by_point[1] + p->by_point[2] + p->by_point[3] : 0;
    if (!n) {
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "%s", (t->hdr_flags & HV_HDR_PROBES) || p
                                                     ? "three-point probes recorded nothing usable for this buffer"
                                                     : "three-point probes not recorded (HIPVIS_PROBE off)");
        return;
    }
    uint64_t bad = n - p->by_point[DX_PROBE_MATCH];
    if (!bad) {
        /* Memory held the copied bytes at every point: no symptom of H2 or
         * of the host race in these replays. H1 and H3 stay open: their
         * stale value is in the read, which no snapshot sees. */
        item(d, NONE, OBS(H2) | OBS(HOST), 1, -3, -3, 1, 0,
             "the buffer held the copied bytes right after the copy, right before and right after the replay in "
             "all %llu probed replays%s: no late write and no rewritten byte reached it; a stale read would come "
             "from the graph's read path (H1 or H3), which no snapshot sees",
             (unsigned long long)n, host_rewrote ? " although the host rewrote the source before it saw the copy "
                                                   "complete (the copy had already run)" : "");
        return;
    }
    char first[160];
    snprintf(first, sizeof first, "first at replay seq %llu, byte +%u: 0x%02x copied, 0x%02x seen %s",
             (unsigned long long)p->first_seq, p->first_off, p->want, p->got, point_name(p->first_point));
    const uint64_t *ac = p->after_copy_by;
    if (ac[DX_AC_HOST])
        item(d, OBS(HOST), NONE, -2, 6, 0, -2, 0, "a rewritten source byte reached the device copy: in %llu of %llu "
                                                  "probed replays the buffer right after the copy held what the "
                                                  "host wrote into the pinned source after enqueuing it (%s)",
             (unsigned long long)ac[DX_AC_HOST], (unsigned long long)n, first);
    int pageable = d->f.a.src_mem == HV_MEM_HOST_PAGEABLE;
    uint64_t device = ac[DX_AC_DEVICE] + (pageable ? ac[DX_AC_UNKNOWN] : 0);
    if (device)
        item(d, OBS(H2), NONE, -2, 0, 5, -2, 0, "the copy's result itself was stale: %llu of %llu probed replays "
                                                "differ from the source right after the copy, in bytes the host did "
                                                "not write (%s)",
             (unsigned long long)device, (unsigned long long)n, first);
    if (!pageable && ac[DX_AC_UNKNOWN])
        item(d, NONE, NONE, -2, 2, 3, -2, 0, "%llu of %llu probed replays differ from the source right after the copy, "
                                             "but the pinned source was not hash-checked, so a late device write "
                                             "(H2) and a host rewrite (host-race) both fit (%s)",
             (unsigned long long)ac[DX_AC_UNKNOWN], (unsigned long long)n, first);
    if (p->by_point[DX_PROBE_PRE_REPLAY])
        item(d, OBS(H2), NONE, -1, 0, 4, -1, 0, "another write changed the buffer between the copy and the replay "
                                                "in %llu of %llu probed replays (%s)",
             (unsigned long long)p->by_point[DX_PROBE_PRE_REPLAY], (unsigned long long)n, first);
    if (p->by_point[DX_PROBE_POST_REPLAY])
        item(d, NONE, NONE, 0, 0, 2, 0, 0, "the buffer changed while the graph ran in %llu of %llu probed replays "
                                           "(%s)",
             (unsigned long long)p->by_point[DX_PROBE_POST_REPLAY], (unsigned long long)n, first);
}

static void ev_placement(struct dx_diag *d, const struct dx_trace *t)
{
    const struct dx_place *p = dx_place_of(t, d->f.b.exec, d->first_seq);
    if (!p) {
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "no graph inventory for exec 0x%llx: placement unknown",
             (unsigned long long)d->f.b.exec);
        return;
    }
    uint8_t f = 0;
    for (uint32_t k = 0; k < p->nnodes; k++)
        if (p->node[k] == d->f.b.node)
            f = p->flags[k];
    if (f & HV_PLACE_UNORDERED)
        item(d, NONE, NONE, 4, 0, 0, 0, 0, "the reader (node %d %s) would start on a parallel queue without waiting for the "
                                  "launch stream: %s (%u roots, %u branching nodes)",
             d->f.b.node_index, d->kernel, hv_place_reason(f), p->roots, p->branches);
    else if (p->uses_parallel)
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "the graph uses parallel queues (%u roots, %u branching nodes) but the reader is "
                                  "ordered after the launch stream's earlier work",
             p->roots, p->branches);
    else
        item(d, NONE, NONE, -3, 0, 0, 0, 0, "%s: the runtime runs it on the launch queue in stream order",
             t->cuda ? "CUDA runtime" : p->roots <= 1 && !p->branches ? "linear graph (one root, no branch)"
                                                                       : "one graph queue (DEBUG_HIP_FORCE_GRAPH_QUEUES)");
    if (p->collectives)
        item(d, NONE, NONE, 1, 0, 0, 0, 0, "%u collective kernels in the graph: RCCL inside capture adds side streams and "
                                  "event nodes (the TP-only symptom)",
             p->collectives);
}

static void ev_scalar(struct dx_diag *d, struct hv_sx *sx, const struct dx_trace *t)
{
    if (d->f.b.arg_index < 0 || !d->kernel[0]) {
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "the reader is not a kernel argument: no load path to classify");
        return;
    }
    hv_sx_classify(sx, d->kernel, dx_kernel_hash(t, d->kernel), (uint32_t)d->f.b.arg_index, &d->sx);
    const struct hv_sx_result *r = &d->sx;
    if (r->status != HV_SX_OK) {
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "load path of %s arg %d unknown: %s", d->kernel, d->f.b.arg_index,
             hv_sx_status_text(r->status));
        return;
    }
    switch (r->read_path) {
    case HV_CO_READ_SCALAR:
    case HV_CO_READ_BOTH:
        item(d, NONE, NONE, 0, 0, 0, 3, 0, "%s reads arg %d through scalar loads%s (s_load*: scalar data cache), %s code "
                                  "object from %s",
             d->kernel, d->f.b.arg_index, r->read_path == HV_CO_READ_BOTH ? " and vector loads" : "", r->arch,
             r->origin);
        break;
    case HV_CO_READ_VECTOR:
        item(d, NONE, NONE, 0, 0, 0, -1, 0, "%s reads arg %d with vector loads only (%s, from %s): no scalar cache; a stale "
                                   "non-local L2 line is still possible on multi-XCD parts",
             d->kernel, d->f.b.arg_index, r->arch, r->origin);
        break;
    default:
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "%s arg %d: %s load path (%s, from %s)", d->kernel, d->f.b.arg_index,
             hv_sx_path_name(r->read_path), r->arch, r->origin);
    }
}

/* unordered-write / write-during-replay groups of this trace on the buffer. */
static void ev_writers(struct dx_diag *d, const struct hv_findings *out, const struct dx_trace *t)
{
    size_t first = t->first_group;
    uint64_t unordered = 0, during = 0;
    for (size_t i = first; i < out->ngroups; i++) {
        const struct hv_finding *f = &out->groups[i].f;
        if (f->pid != d->f.pid || f->hi <= d->f.lo || f->lo >= d->f.hi)
            continue;
        if (f->rule == HV_RULE_UNORDERED_WRITE)
            unordered += out->groups[i].count;
        else if (f->rule == HV_RULE_WRITE_DURING_REPLAY)
            during += out->groups[i].count;
    }
    if (unordered)
        item(d, NONE, NONE, 0, 0, 3, 0, 0, "%llu reads of this buffer race with a write on another stream (unordered-write)",
             (unsigned long long)unordered);
    if (during)
        item(d, NONE, NONE, 0, 0, 2, 0, 0, "%llu writes land on it while a replay that uses it may still run "
                                  "(write-during-replay)",
             (unsigned long long)during);
    /* Launches HIPVIS_LAUNCH_EVERY left without arguments are writers no
     * rule could see: then the absence of another writer excludes nothing. */
    if (!unordered && !during && t->launches_undrawn)
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "no other recorded writer reaches this buffer unordered, but %llu eager "
                                           "launches were recorded without their arguments (HIPVIS_LAUNCH_EVERY): a "
                                           "kernel among them that writes it is not excluded (HIPVIS_LAUNCH_EVERY=1 "
                                           "sees every one)",
             (unsigned long long)t->launches_undrawn);
    else if (!unordered && !during)
        item(d, NONE, NONE, 0, 0, -1, 0, 0, "no other recorded writer reaches this buffer unordered: only the copy writes it");
    if (d->f.a.hint == HV_HINT_SDMA)
        item(d, NONE, NONE, 0, 0, 1, 0, 0, "the copy runs on an SDMA engine (over GPU_FORCE_BLIT_COPY_SIZE), completing apart "
                                  "from the stream's kernels");
}

static void ev_knobs(struct dx_diag *d, const struct dx_trace *t)
{
    char v[32];
    if ((hv_knob(t->knobs, "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING", v, sizeof v) && strcmp(v, "0") == 0) ||
        (hv_knob(t->knobs, "DEBUG_HIP_GRAPH_CLASSIC_PATH", v, sizeof v) && strcmp(v, "1") == 0))
        item(d, NONE, OBS(H4), 0, 0, 0, 0, -3, "%s: the classic graph executor, no segment-scheduler truncation",
             strcmp(v, "1") == 0 ? "DEBUG_HIP_GRAPH_CLASSIC_PATH=1" : "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0");
    if (hv_knob(t->knobs, "AMD_OPT_FLUSH", v, sizeof v) && strcmp(v, "0") == 0)
        item(d, NONE, NONE, 0, 0, 0, -2, 0, "AMD_OPT_FLUSH=0: every kernel dispatch uses system-scope fences");
    if (hv_knob(t->knobs, "AMD_SERIALIZE_KERNEL", v, sizeof v) || hv_knob(t->knobs, "AMD_SERIALIZE_COPY", v, sizeof v))
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "AMD_SERIALIZE_KERNEL/COPY set (may not apply to pre-built graph packets)");
}

/* ROCm release from the header: "ROCm X.Y.Z" when the install says, else
 * the HIP library's major.minor. */
static void ev_runtime(struct dx_diag *d, const struct dx_trace *t)
{
    unsigned a = 0, b = 0, c = 0;
    const char *r = strstr(t->runtime, "ROCm ");
    int rocm = r && sscanf(r + 5, "%u.%u.%u", &a, &b, &c) >= 2;
    if (!rocm && sscanf(t->runtime, "%u.%u", &a, &b) != 2)
        a = b = 0;
    if (t->cuda) {
        item(d, NONE, OBS(H3) | OBS(H4), -3, 0, 0, -3, -3, "CUDA runtime (%s): the HIP executor's parallel queues and segment "
                                     "scheduler, and the AMDGPU cache-scope gap, do not apply",
             t->runtime[0] ? t->runtime : "version not recorded");
    } else if (a == 7 && b == 2 && rocm && c == 4) {
        item(d, NONE, NONE, 1, 0, 0, 0, 2, "ROCm 7.2.4 backports the segment scheduler: level 0 without a launch-stream wait "
                                  "(H1), node-id collisions truncate graphs (rocm-systems#6888, H4)");
    } else if (a == 7 && b == 2 && rocm) {
        item(d, NONE, NONE, 1, 0, 0, 0, 0, "ROCm 7.2.%u: nondeterministic replay corruption reported on 7.2.0-7.2.3 "
                                  "(ROCm/clr#279)", c);
    } else if (a == 7 && b == 2) {
        item(d, NONE, NONE, 1, 0, 0, 0, 1, "HIP 7.2 (%s): the 7.2.x executors are implicated (ROCm/clr#279; 7.2.4 segment "
                                  "scheduler)", t->runtime);
    } else {
        item(d, NONE, NONE, 0, 0, 0, 0, -1, "runtime %s: not a 7.2.x release with the segment scheduler",
             t->runtime[0] ? t->runtime : "version not recorded");
    }
}

/* A runtime erratum whose trigger the reader's exec has (errata_rank.c
 * ranks them on their own): the runtime may drop an edge inside the
 * graph, an ordering cause like H1. */
static void ev_errata(struct dx_diag *d, const struct hv_findings *out, const struct dx_trace *t)
{
    for (size_t i = t->first_group; i < out->ngroups; i++) {
        const struct hv_finding *f = &out->groups[i].f;
        if (f->rule != HV_RULE_RUNTIME_ERRATUM || f->pid != d->f.pid || f->b.exec != d->f.b.exec || !f->note)
            continue;
        int affected = f->severity >= HV_SEV_WARNING;
        item(d, NONE, NONE, affected ? 2 : 0, 0, 0, 0, 0, "the reader's graph has the trigger of %.*s, which the "
                                                          "traced runtime %s (runtime errata below)",
             (int)strcspn(f->note, ":"), f->note, affected ? "has" : "is not known to have");
    }
}

static void ev_guards(struct dx_diag *d, const struct dx_trace *t)
{
    uint32_t modes;
    uint64_t n = dx_guarded(t, d->f.b.stream, &modes);
    if (n)
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "%llu launches on this stream were guarded by HIPVIS_GUARD (modes 0x%x); the "
                                  "replays reported here were not",
             (unsigned long long)n, modes);
}

static void rank(struct dx_diag *d)
{
    unsigned symptom = 0, excluded = 0;
    for (int h = 0; h < HV_HYP__N; h++) {
        d->score[h] = 0;
        d->order[h] = (uint8_t)h;
    }
    for (int i = 0; i < d->nitems; i++) {
        symptom |= d->items[i].symptom;
        excluded |= d->items[i].excludes;
        for (int h = 0; h < HV_HYP__N; h++)
            d->score[h] += d->items[i].w[h];
    }
    /* A symptom outweighs a fact that seemed to rule its hypothesis out
     * (the report shows both). */
    for (int h = 0; h < HV_HYP__N; h++)
        d->status[h] = symptom & DX_HYP(h) ? DX_OBSERVED : excluded & DX_HYP(h) ? DX_EXCLUDED : DX_CONSISTENT;
    /* Observed first, then consistent, then excluded; by score within;
     * ties keep the enum order (insertion sort, stable). */
    static const int tier[] = {[DX_OBSERVED] = 0, [DX_CONSISTENT] = 1, [DX_EXCLUDED] = 2};
    for (int i = 1; i < HV_HYP__N; i++)
        for (int j = i; j > 0; j--) {
            int a = d->order[j], b = d->order[j - 1];
            if (tier[d->status[a]] > tier[d->status[b]] ||
                (tier[d->status[a]] == tier[d->status[b]] && d->score[a] <= d->score[b]))
                break;
            d->order[j] = (uint8_t)b;
            d->order[j - 1] = (uint8_t)a;
        }
    d->verdict = d->status[d->order[0]] == DX_OBSERVED ? d->order[0] : -1;
}

static void describe_group(struct dx_diag *d, const struct hv_group *g, size_t gi, const struct dx_trace *t)
{
    const struct hv_finding *f = &g->f;
    memset(d, 0, sizeof *d);
    d->f = *f;
    d->group = gi;
    d->count = g->count;
    d->first_seq = g->first_seq;
    d->last_seq = g->last_seq;
    snprintf(d->kernel, sizeof d->kernel, "%s", f->b.name ? f->b.name : "");
    snprintf(d->trace, sizeof d->trace, "%s", t->path);
    snprintf(d->runtime, sizeof d->runtime, "%s", t->runtime);
}

/* HIPVIS_HOSTCHECK: the host wrote the copy's pinned source while the copy
 * was in flight (host-access-in-flight). Like a changed hash, it says the
 * race happened, not that the new bytes reached the device. Seeing none
 * counts against the host race only where the check protected every
 * in-flight operation and lost no access (coverage.c). */
static void ev_host_access(struct dx_diag *d, const struct hv_findings *out, const struct dx_trace *t)
{
    uint64_t writes = 0;
    for (size_t i = t->first_group; i < out->ngroups; i++) {
        const struct hv_finding *f = &out->groups[i].f;
        if (f->pid == d->f.pid && f->rule == HV_RULE_HOST_ACCESS_IN_FLIGHT && f->a.dir == HV_DIR_H2D &&
            f->a.src <= d->f.a.src && d->f.a.src < f->a.src + f->a.bytes && f->b.access == HV_ACCESS_WRITE)
            writes += out->groups[i].count;
    }
    if (writes)
        item(d, NONE, NONE, 0, 4, 0, 0, 0, "the host wrote pinned source 0x%llx while a copy from it was in flight "
                                           "%llu times (host-access-in-flight, HIPVIS_HOSTCHECK)",
             (unsigned long long)d->f.a.src, (unsigned long long)writes);
    else if (!(t->hdr_flags & HV_HDR_HOSTCHECK))
        return;
    else if (!t->hostcheck.traces_counted)
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "HIPVIS_HOSTCHECK saw no host write to pinned source 0x%llx while a copy "
                                           "from it was in flight, but the trace holds no count of what it protected "
                                           "(the process did not reach exit): a host write is not excluded",
             (unsigned long long)d->f.a.src);
    else if (hv_hostcheck_unchecked(&t->hostcheck))
        item(d, NONE, NONE, 0, 0, 0, 0, 0, "HIPVIS_HOSTCHECK saw no host write to pinned source 0x%llx while a copy "
                                           "from it was in flight, but it did not protect %llu of %llu in-flight "
                                           "operations and lost %llu accesses: a host write is not excluded "
                                           "(docs/hostcheck.md)",
             (unsigned long long)d->f.a.src, (unsigned long long)hv_hostcheck_unprotected(&t->hostcheck),
             (unsigned long long)(hv_hostcheck_unprotected(&t->hostcheck) + t->hostcheck.protected_ops),
             (unsigned long long)t->hostcheck.lost);
    else
        item(d, NONE, NONE, 0, -2, 0, 0, 0, "HIPVIS_HOSTCHECK saw no host write to pinned source 0x%llx while a copy "
                                            "from it was in flight",
             (unsigned long long)d->f.a.src);
}

void dx_diagnose(struct hv_diag *dg, const struct hv_group *g, size_t gi, struct dx_diag *d)
{
    const struct dx_trace *t = &dg->cur;
    describe_group(d, g, gi, t);
    int rewrote = d->f.a.api && g->f.a.kind == HV_SIDE_COPY ? ev_host_source(d, t) : 0;
    if (d->f.a.api && g->f.a.kind == HV_SIDE_COPY && d->f.a.src_mem != HV_MEM_HOST_PAGEABLE)
        ev_host_access(d, dg->out, t);
    ev_probe(d, t, rewrote);
    ev_placement(d, t);
    ev_scalar(d, dg->sx, t);
    ev_writers(d, dg->out, t);
    ev_knobs(d, t);
    ev_runtime(d, t);
    ev_errata(d, dg->out, t);
    ev_guards(d, t);
    rank(d);
}
