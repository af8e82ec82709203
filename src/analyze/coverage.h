/*
 * coverage — what the analysis could not check, counted per replay.
 *
 * "0 bugs" means something only for the ops the rules could see. A graph
 * replay is checked against its exec's recorded nodes and their pointer
 * arguments; it is not (fully) checked when
 *   - its exec was never instantiated in the trace (tracing started late),
 *   - the exec was instantiated without a recorded node inventory, or
 *   - a kernel node of it ran with an argument layout hipvis did not know
 *     (the code object could not be decoded: docs/kernel-args.md), so none of
 *     that node's pointer arguments were seen.
 * Arguments known as pointers by inference only (a word of the argument
 * block equal to a tracked allocation: CUDA's parameter sizes, a packed
 * HIP block) are counted as well, but leave the replay checked: every word
 * of the block was looked at.
 *
 * The engine asks here at every replay (hv_coverage_replay, cached per exec
 * until its inventory or what is known of a kernel changes); the reports,
 * the verdict and the sidecar's metrics read the sums (hv_coverage_sum).
 * What makes a kernel node "unknown" is decided in hv_coverage_exec alone.
 *
 * The host-access check (HIPVIS_HOSTCHECK) sees a host access to an
 * in-flight operation's memory only where it protected that memory: the
 * operations it could not protect (managed memory without a protection
 * key, its table full, ROCm registered memory, a 3D copy or a range mprotect refused,
 * the nodes of graph replays it could not read or follow)
 * and the accesses its queue lost are counted from its HV_REC_HOSTCHECK
 * record (hv_coverage_hostcheck) and worded in hv_coverage_hostcheck_why,
 * for the verdict and the rule's own note alike.
 */
#ifndef HV_ANALYZE_COVERAGE_H
#define HV_ANALYZE_COVERAGE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/findings.h"
#include "analyze/model/model.h"

/* The sums over every trace of a findings store; the JSON report's
 * "coverage" object (and the HTML page's) holds the first six. */
struct hv_coverage {
    uint64_t replays;                 /* graph launches */
    uint64_t replays_checked;         /* of an exec with an inventory whose kernel nodes' layouts were all known */
    uint64_t unknown_layout_nodes;    /* kernel nodes run with an unknown argument layout, summed over replays */
    uint64_t inferred_args;           /* kernel-node arguments known by inference only, summed over replays */
    uint64_t launches_unsampled;      /* eager launches HIPVIS_LAUNCH_EVERY did not draw */
    uint64_t records_lost;            /* dropped by the tracer, chunk gaps, late records */
    /* Why the other replays were not checked (they add up to replays - replays_checked). */
    uint64_t replays_unknown_exec, replays_no_inventory, replays_unknown_layout;
    uint64_t launches;                /* eager launches, all */
    struct hv_hostcheck_cov hostcheck;   /* the host-access check; traces 0: it did not run */
};

/* An HV_REC_KERNEL record: remembers whether it gives its function a layout
 * (metadata, or the driver's parameter sizes). */
void hv_coverage_kernel(struct hv_model *m, const struct hv_kernel_sym *k);

/* Counts exec x's kernel nodes of unknown layout and its inferred arguments
 * into x->cov_unknown and x->cov_inferred (as of its current inventory). */
void hv_coverage_exec(const struct hv_model *m, struct hv_exec *x);

/* A replay of exec x (NULL: an exec the trace never instantiated) into the
 * trace's summary. */
static inline void hv_coverage_replay(struct hv_model *m, struct hv_exec *x, struct hv_trace_summary *sum)
{
    if (!x) {
        sum->replays_unknown_exec++;
        return;
    }
    if (x->no_inventory) {
        sum->replays_no_inventory++;
        return;
    }
    if (x->cov_site != x->site || x->cov_gen != m->layout_gen)
        hv_coverage_exec(m, x);
    sum->unknown_layout_nodes += x->cov_unknown;
    sum->inferred_args += x->cov_inferred;
    if (x->cov_unknown)
        sum->replays_unknown_layout++;
    else
        sum->replays_checked++;
}

/* The host-access check of trace t: r NULL at the start (the header's
 * HV_HDR_HOSTCHECK in t->flags says whether it ran), then each
 * HV_REC_HOSTCHECK (cumulative: the last one holds the process's totals). */
void hv_coverage_hostcheck(struct hv_trace_summary *t, const struct hv_hostcheck *r);

/* In-flight operations the check did not protect. */
static inline uint64_t hv_hostcheck_unprotected(const struct hv_hostcheck_cov *h)
{
    return h->skipped_managed + h->skipped_full + h->skipped_other + h->skipped_graph;
}

/* What the check could not see while it ran: operations it did not protect
 * and accesses it lost. --fail-on-unchecked counts them (verdict.c). */
static inline uint64_t hv_hostcheck_unchecked(const struct hv_hostcheck_cov *h)
{
    return hv_hostcheck_unprotected(h) + h->lost;
}

/* Adds the counts of h into to (traces summed, or runs of a job). */
void hv_hostcheck_cov_add(struct hv_hostcheck_cov *to, const struct hv_hostcheck_cov *h);

/* The members of h into the object w has open: traces, traces_counted,
 * then operations, protected_ops, unprotected_ops, skipped_managed,
 * skipped_full, skipped_other, accesses and lost (each null when no trace
 * holds its counts record: not measured is null, never 0). */
struct hv_json;
void hv_hostcheck_cov_members(struct hv_json *w, const struct hv_hostcheck_cov *h);

/* What the check could not see, in words, or "" when nothing: "K of N
 * in-flight operations not protected (a managed, b table full, c other, d graph),
 * L accesses lost: ...; what to do" (buf NUL-terminated, truncated). */
void hv_coverage_hostcheck_why(const struct hv_hostcheck_cov *h, char *buf, size_t cap);

/* Sums the traces of s into *c. */
void hv_coverage_sum(const struct hv_findings *s, struct hv_coverage *c);

/* Replays that were not fully checked. */
static inline uint64_t hv_coverage_unchecked(const struct hv_coverage *c)
{
    return c->replays - c->replays_checked;
}

/* Why the unchecked replays were not checked, as words for the verdict:
 * "35 with kernel argument layouts unknown (...); 2 of execs never
 * instantiated in the trace", into buf (NUL-terminated, truncated). */
void hv_coverage_why(const struct hv_coverage *c, char *buf, size_t cap);

/* The member "coverage":{...} of the object w is writing. */
void hv_coverage_json(struct hv_json *w, const struct hv_coverage *c);

#endif
