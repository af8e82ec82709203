/*
 * coverage — what the analysis could not check (coverage.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/coverage.h"
#include "common/json.h"

void hv_coverage_kernel(struct hv_model *m, const struct hv_kernel_sym *k)
{
    /* A code object's metadata (its hash), the driver's parameter sizes
     * (nargs without a hash: every word of the block is scanned), or a
     * known argument block size. */
    if (!k->func || (!k->code_object_hash && !k->nargs && !k->kernarg_bytes) ||
        hv_u64map_get(&m->kernel_layouts, k->func) == 1)
        return;
    if (hv_u64map_put(&m->kernel_layouts, k->func, 1) != 0)
        m->oom = 1;
    m->layout_gen++;
}

void hv_coverage_exec(const struct hv_model *m, struct hv_exec *x)
{
    uint32_t unknown = 0, inferred = 0;
    /* A node with an argument taken from metadata had a layout, whatever
     * else the trace says of its kernel. Out of memory: none is assumed to
     * (more nodes counted unknown, never fewer). */
    uint8_t *meta = x->nnodes ? calloc(x->nnodes, 1) : NULL;
    for (uint32_t i = 0; i < x->nargs; i++) {
        uint32_t k = x->args_node[i];
        if (k >= x->nnodes || x->nodes[k].type != HV_NODE_KERNEL)
            continue;
        if (x->args[i].origin == HV_ARG_INFERRED)
            inferred++;
        else if (x->args[i].origin == HV_ARG_METADATA && meta)
            meta[k] = 1;
    }
    for (uint32_t k = 0; k < x->nnodes; k++) {
        const struct hv_gnode *g = &x->nodes[k];
        if (g->type != HV_NODE_KERNEL || g->kernarg_bytes || (meta && meta[k]))
            continue;
        if (!g->func || hv_u64map_get(&m->kernel_layouts, g->func) != 1)
            unknown++;
    }
    free(meta);
    x->cov_unknown = unknown;
    x->cov_inferred = inferred;
    x->cov_site = x->site;
    x->cov_gen = m->layout_gen;
}

void hv_coverage_hostcheck(struct hv_trace_summary *t, const struct hv_hostcheck *r)
{
    struct hv_hostcheck_cov *h = &t->hostcheck;
    if (!r) {
        h->traces = (t->flags & HV_HDR_HOSTCHECK) != 0;
        return;
    }
    h->traces = h->traces_counted = 1;
    /* Cumulative counts: the largest is the latest, whatever order the
     * records were read in. */
#define LATEST(f) h->f = r->f > h->f ? r->f : h->f
    LATEST(protected_ops);
    LATEST(skipped_managed);
    LATEST(skipped_full);
    LATEST(skipped_other);
    LATEST(skipped_graph);
    LATEST(accesses);
    LATEST(lost);
#undef LATEST
}

void hv_coverage_hostcheck_why(const struct hv_hostcheck_cov *h, char *buf, size_t cap)
{
    uint64_t k = hv_hostcheck_unprotected(h), n = k + h->protected_ops;
    if (!cap)
        return;
    buf[0] = '\0';
    if (!k && !h->lost)
        return;
    snprintf(buf, cap,
             "%" PRIu64 " of %" PRIu64 " in-flight operation%s not protected (%" PRIu64 " managed, %" PRIu64
             " table full, %" PRIu64 " other, %" PRIu64 " graph), %" PRIu64 " access%s lost: %s%s%s%s%s%s",
             k, n, n == 1 ? "" : "s", h->skipped_managed, h->skipped_full, h->skipped_other, h->skipped_graph,
             h->lost,
             h->lost == 1 ? "" : "es",
             !h->lost ? "a host access to them is not seen"
             : k      ? "a host access to the unprotected ones is not seen, and the lost ones are not reported"
                      : "each lost one was a host access to in-flight memory, not reported",
             h->skipped_managed ? "; managed memory is protected only where the CPU has protection keys (grep -w "
                                  "pku /proc/cpuinfo); HIPVIS_HOSTCHECK=managed uses mprotect instead, which the "
                                  "driver may refuse (docs/hostcheck.md)"
                                : "",
             h->skipped_full ? "; the table of in-flight ranges was full: keep fewer operations in flight at once"
                             : "",
             h->skipped_other ? "; registered memory on ROCm (hipHostRegister) is never protected, pinned memory "
                                "(hipHostMalloc) is; a 3D async copy is not protected; otherwise mprotect refused the range "
                                "(docs/hostcheck.md)"
                              : "",
             h->skipped_graph ? "; graph replays: an exec instantiated before tracing, a node whose kind or "
                                "parameters were not read, a memcpy node's pageable host side, or a graph with a "
                                "host or event-record node (docs/hostcheck.md, Graphs)"
                              : "",
             h->lost ? "; the queue of accesses was full: fix the accesses reported and trace again" : "");
}

void hv_hostcheck_cov_add(struct hv_hostcheck_cov *to, const struct hv_hostcheck_cov *h)
{
    to->traces += h->traces;
    to->traces_counted += h->traces_counted;
    to->protected_ops += h->protected_ops;
    to->skipped_managed += h->skipped_managed;
    to->skipped_full += h->skipped_full;
    to->skipped_other += h->skipped_other;
    to->skipped_graph += h->skipped_graph;
    to->accesses += h->accesses;
    to->lost += h->lost;
}

void hv_coverage_sum(const struct hv_findings *s, struct hv_coverage *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < s->ntraces; i++) {
        const struct hv_trace_summary *t = &s->traces[i];
        c->replays += t->replays;
        c->replays_checked += t->replays_checked;
        c->unknown_layout_nodes += t->unknown_layout_nodes;
        c->inferred_args += t->inferred_args;
        c->launches_unsampled += t->launches_unsampled;
        c->records_lost += t->dropped + t->chunk_gaps + t->late_records;
        c->replays_unknown_exec += t->replays_unknown_exec;
        c->replays_no_inventory += t->replays_no_inventory;
        c->replays_unknown_layout += t->replays_unknown_layout;
        c->launches += t->launches;
        hv_hostcheck_cov_add(&c->hostcheck, &t->hostcheck);
    }
}

/* Appends a formatted piece to buf[cap] at *used. */
static void add(char *buf, size_t cap, size_t *used, const char *sep, uint64_t n, const char *what)
{
    if (!n || *used >= cap)
        return;
    int w = snprintf(buf + *used, cap - *used, "%s%" PRIu64 " %s", *used ? sep : "", n, what);
    if (w > 0)
        *used += (size_t)w < cap - *used ? (size_t)w : cap - *used - 1;
}

void hv_coverage_why(const struct hv_coverage *c, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    add(buf, cap, &used, "; ", c->replays_unknown_layout,
        "ran a kernel whose argument layout is unknown, so its pointer arguments were only inferred from a bounded "
        "scan: hipvis could not decode its code object (hipvis-dump TRACE | grep codeobj_note says why); "
        "hipvis-analyze --code-object FILE confirms what was inferred (docs/kernel-args.md)");
    add(buf, cap, &used, "; ", c->replays_no_inventory,
        "replayed an exec instantiated without a recorded node inventory");
    add(buf, cap, &used, "; ", c->replays_unknown_exec,
        "replayed an exec not instantiated in the trace (tracing started after it)");
}

void hv_hostcheck_cov_members(struct hv_json *w, const struct hv_hostcheck_cov *h)
{
    HV_JSON_COUNTS(w, {"traces", h->traces}, {"traces_counted", h->traces_counted});
    const struct hv_json_count counts[] = {
        {"operations", hv_hostcheck_unprotected(h) + h->protected_ops},
        {"protected_ops", h->protected_ops},
        {"unprotected_ops", hv_hostcheck_unprotected(h)},
        {"skipped_managed", h->skipped_managed},
        {"skipped_full", h->skipped_full},
        {"skipped_other", h->skipped_other},
        {"skipped_graph", h->skipped_graph},
        {"accesses", h->accesses},
        {"lost", h->lost},
    };
    size_t n = sizeof counts / sizeof counts[0];
    if (h->traces_counted)
        hv_json_kcounts(w, counts, n);
    else
        for (size_t i = 0; i < n; i++)
            hv_json_knull(w, counts[i].k);
}

void hv_coverage_json(struct hv_json *w, const struct hv_coverage *c)
{
    hv_json_kobj(w, "coverage");
    HV_JSON_COUNTS(w, {"replays", c->replays}, {"replays_checked", c->replays_checked},
                   {"unknown_layout_nodes", c->unknown_layout_nodes}, {"inferred_args", c->inferred_args},
                   {"launches_unsampled", c->launches_unsampled}, {"records_lost", c->records_lost},
                   {"replays_unknown_layout", c->replays_unknown_layout},
                   {"replays_no_inventory", c->replays_no_inventory},
                   {"replays_unknown_exec", c->replays_unknown_exec});
    /* Not measured is null, never 0: no object where the check did not
     * run, no counts where no trace holds its counts record. */
    const struct hv_hostcheck_cov *h = &c->hostcheck;
    if (!h->traces) {
        hv_json_knull(w, "hostcheck");
    } else {
        hv_json_kobj(w, "hostcheck");
        hv_hostcheck_cov_members(w, h);
        hv_json_obj_end(w);
    }
    hv_json_obj_end(w);
}
