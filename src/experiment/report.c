/*
 * report: the decision report of `hipvis experiment`, as text (stdout and
 * DIR/report.txt) and JSON (DIR/report.json; schema in docs/experiment.md).
 */
#include <inttypes.h>
#include <string.h>

#include "experiment/ex_int.h"
#include "analyze/coverage.h"
#include "analyze/errata/errata.h"
#include "common/json.h"

static const char *outcome_name(enum ex_outcome o)
{
    switch (o) {
    case EX_REMOVED: return "removed";
    case EX_PERSISTS: return "persists";
    case EX_REFERENCE: return "reference";
    default: return "undecided";
    }
}

static void cost_text(char *buf, size_t len, const struct ex_arm_stats *s)
{
    if (s->cost_ratio > 0)
        snprintf(buf, len, "x%.3f", s->cost_ratio);
    else
        snprintf(buf, len, "-");
}

/* An arm run with the check: what it protected, did not, lost, and the
 * runs where it did not look. */
static void hc_line(FILE *out, const struct ex_arm_stats *s)
{
    const struct hv_hostcheck_cov *h = &s->hc;
    uint64_t k = hv_hostcheck_unprotected(h);
    fprintf(out, "  %-19s       host-access check: protected %" PRIu64 " of %" PRIu64 " operations", "",
            h->protected_ops, k + h->protected_ops);
    if (k)
        fprintf(out, " (not: %" PRIu64 " managed, %" PRIu64 " table full, %" PRIu64 " other, %" PRIu64 " graph)",
                h->skipped_managed, h->skipped_full, h->skipped_other, h->skipped_graph);
    fprintf(out, ", %" PRIu64 " access%s lost", h->lost, h->lost == 1 ? "" : "es");
    if (h->traces_counted < h->traces)
        fprintf(out, ", %" PRIu64 " of %" PRIu64 " traces without counts", h->traces - h->traces_counted, h->traces);
    if (s->hc_blind_runs)
        fprintf(out, "; did not look in %" PRIu64 " of %" PRIu64 " runs", s->hc_blind_runs, s->runs);
    fputc('\n', out);
}

void ex_report_text(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d)
{
    fputs("hipvis experiment:", out);
    for (char **a = m->argv; *a; a++)
        fprintf(out, " %s", *a);
    fprintf(out, "\n  runtime %s%s; %d round%s of at most %d%s; traces and logs in %s\n", m->rt.text,
            m->rt.cuda ? " (CUDA)" : "", m->rounds, m->rounds == 1 ? "" : "s", m->max_runs,
            m->stopped_early ? " (stopped early: every arm decided)" : "", m->dir);
    fprintf(out, "  symptom = exit status != 0, a signal, a hang (> %.0f s)%s%s, a probe snapshot differing "
                 "from the copied bytes, or a host access to memory an in-flight copy used (HIPVIS_HOSTCHECK)\n",
            m->timeout_s, m->fail_pattern ? ", --fail-pattern " : "", m->fail_pattern ? m->fail_pattern : "");
    if (m->skipped && m->skipped[0])
        fprintf(out, "  arms left out: %s\n", m->skipped);
    fprintf(out, "\n  %-19s %5s %8s %-15s %-10s %-9s %s\n", "arm", "runs", "symptom", "rate (95% CI)", "outcome",
            "cost", "environment");
    for (int a = 0; a < narms; a++) {
        const struct ex_arm_stats *s = &st[a];
        char rate[32], cost[24], env[400] = "";
        snprintf(rate, sizeof rate, "%.2f (%.2f-%.2f)",
                 s->judged_runs ? (double)s->symptom_runs / (double)s->judged_runs : 0.0, s->rate.lo, s->rate.hi);
        cost_text(cost, sizeof cost, s);
        for (int i = 0; i < arms[a].nenv; i++) {
            size_t u = strlen(env);
            snprintf(env + u, sizeof env - u, "%s%s", i ? " " : "", arms[a].env[i]);
        }
        fprintf(out, "  %-19s %5" PRIu64 " %8" PRIu64 " %-15s %-10s %-9s %s\n", arms[a].name, s->runs, s->symptom_runs,
                rate, outcome_name(s->outcome), cost, env[0] ? env : "(traced, nothing changed)");
        if (s->hangs || s->probe_mismatch || s->unreadable || s->verdicts[0] || s->host_accesses)
            fprintf(out, "  %-19s       %" PRIu64 " hangs, %" PRIu64 " of %" PRIu64 " probes differ, %" PRIu64
                         " host accesses caught in %" PRIu64 " runs, %" PRIu64 " unreadable traces%s%s\n",
                    "", s->hangs, s->probe_mismatch, s->probed, s->host_accesses, s->host_access_runs, s->unreadable,
                    s->verdicts[0] ? ", --diagnose observed " : "", s->verdicts);
        if (arms[a].hostcheck)
            hc_line(out, s);
    }
    /* What the check could not see over all its runs, and what to do, in
     * the analyzer's words. */
    struct hv_hostcheck_cov all = {0};
    for (int a = 0; a < narms; a++)
        if (arms[a].hostcheck)
            hv_hostcheck_cov_add(&all, &st[a].hc);
    char why[1024];
    hv_coverage_hostcheck_why(&all, why, sizeof why);
    if (why[0])
        fprintf(out, "  coverage: host-access check, all runs with it: %s\n", why);
    int judged = 0, costed = 0;   /* arms run with the check, judged / costed against the hostcheck arm */
    for (int a = 1; a < narms; a++) {
        judged |= st[a].ref != 0 && st[a].outcome != EX_REFERENCE;
        costed |= st[a].cost_ref != 0;
    }
    fprintf(out, "  cost: %s relative to the baseline's%s\n", narms > 1 ? st[1].cost_basis : "-",
            costed ? " (arms run with HIPVIS_HOSTCHECK: the hostcheck arm's)" : "");
    if (judged)
        fputs("  the baseline showed no symptom: the arms run with HIPVIS_HOSTCHECK are judged against the hostcheck "
              "arm\n", out);
    fprintf(out, "\n  verdict   %s [%s]\n", d->verdict, d->basis);
    fprintf(out, "  why       %s\n", d->why);
    fprintf(out, "  trace     %s\n", d->cause);
    if (d->erratum >= 0)
        fprintf(out, "  erratum   %s (%s): workaround arm %s removed the symptom; fix: %s (docs/errata.md)\n",
                hv_errata[d->erratum].id, hv_errata[d->erratum].title, arms[d->erratum_arm].name,
                hv_errata[d->erratum].workaround);
    if (d->cheapest >= 0) {
        const struct ex_arm_stats *s = &st[d->cheapest];
        char cost[24];
        cost_text(cost, sizeof cost, s);
        fprintf(out, "  fix       %s removed the symptom in %" PRIu64 " of %" PRIu64 " runs (0 symptoms; rate "
                     "< %.2f at 95%%) at cost %s (%s): the cheapest removing arm measured on this job\n",
                arms[d->cheapest].name, s->judged_runs, s->judged_runs, s->rate.hi, cost, s->cost_basis);
    } else if (!d->clean) {
        fputs("  fix       no arm removed the symptom on this job (undecided arms need more runs: -n)\n", out);
    }
}

/* "key": v, or null when v <= 0 (not measured). */
static void kratio(struct hv_json *w, const char *k, double v)
{
    if (v > 0)
        hv_json_kfixed(w, k, v, 4);
    else
        hv_json_knull(w, k);
}

static void arm_json(struct hv_json *w, const struct ex_arm *arms, int a, const struct ex_arm_stats *s)
{
    const struct ex_arm *arm = &arms[a], *ref = &arms[s->ref], *cost_ref = &arms[s->cost_ref];
    hv_json_obj(w);
    hv_json_kstr(w, "name", arm->name);
    hv_json_kstr(w, "what", arm->what);
    hv_json_karr(w, "env");
    for (int i = 0; i < arm->nenv; i++)
        hv_json_str(w, arm->env[i]);
    hv_json_arr_end(w);
    hv_json_kbool(w, "fix", arm->fix);
    HV_JSON_COUNTS(w, {"runs", s->runs}, {"judged_runs", s->judged_runs}, {"symptom_runs", s->symptom_runs});
    hv_json_kfixed(w, "rate", s->judged_runs ? (double)s->symptom_runs / (double)s->judged_runs : 0.0, 4);
    hv_json_karr(w, "ci95");
    hv_json_fixed(w, s->rate.lo, 4);
    hv_json_fixed(w, s->rate.hi, 4);
    hv_json_arr_end(w);
    HV_JSON_COUNTS(w, {"failures", s->failures}, {"hangs", s->hangs}, {"pattern_hits", s->pattern_hits},
                   {"probe_mismatches", s->probe_mismatch}, {"probed", s->probed},
                   {"host_accesses", s->host_accesses}, {"host_access_runs", s->host_access_runs},
                   {"unreadable_traces", s->unreadable});
    if (arm->hostcheck) {
        hv_json_kobj(w, "hostcheck");
        hv_hostcheck_cov_members(w, &s->hc);
        HV_JSON_COUNTS(w, {"blind_runs", s->hc_blind_runs}, {"partial_runs", s->hc_partial_runs});
        hv_json_obj_end(w);
    } else {
        hv_json_knull(w, "hostcheck");
    }
    hv_json_kstr(w, "outcome", outcome_name(s->outcome));
    hv_json_kstr(w, "judged_against", ref->name);
    hv_json_kstr(w, "cost_against", cost_ref->name);
    hv_json_kfixed(w, "median_wall_s", s->median_wall_s, 4);
    hv_json_kfixed(w, "median_launch_interval_us", s->median_interval_us, 3);
    kratio(w, "cost_ratio", s->cost_ratio);
    hv_json_kstr(w, "cost_basis", s->cost_basis ? s->cost_basis : "");
    hv_json_kstr(w, "runtime_versions", s->runtimes);
    hv_json_kstr(w, "observed_verdicts", s->verdicts);
    hv_json_obj_end(w);
}

static void run_json(struct hv_json *w, const struct ex_run *r, const struct ex_arm *arm)
{
    hv_json_obj(w);
    hv_json_kstr(w, "arm", arm->name);
    hv_json_ki64(w, "index", r->index);
    hv_json_ki64(w, "exit", r->exit_code);
    hv_json_ki64(w, "signal", r->signal);
    hv_json_kbool(w, "timed_out", r->timed_out);
    hv_json_kbool(w, "pattern_hit", r->pattern_hit);
    hv_json_kfixed(w, "wall_s", r->wall_s, 4);
    hv_json_ki64(w, "traces", r->traces);
    hv_json_ku64(w, "replays", r->replays);
    hv_json_kfixed(w, "launch_interval_us", r->replay_interval_us, 3);
    HV_JSON_COUNTS(w, {"probed", r->probed}, {"probe_mismatches", r->probe_mismatch},
                   {"same_epoch_write", r->same_epoch}, {"unordered_write", r->unordered},
                   {"host_accesses", r->host_accesses}, {"records_dropped", r->dropped_records});
    hv_json_kbool(w, "symptom", r->symptom);
    if (arm->hostcheck) {
        const char *blind = ex_hc_blind(arm, r);
        hv_json_kobj(w, "hostcheck");
        hv_hostcheck_cov_members(w, &r->hc);
        hv_json_kbool(w, "looked", !blind);
        hv_json_kstr(w, "not_looked", blind);
        hv_json_obj_end(w);
    } else {
        hv_json_knull(w, "hostcheck");
    }
    hv_json_kstr(w, "runtime", r->runtime);
    hv_json_kstr(w, "diagnose_observed", r->verdict);
    hv_json_kstr(w, "diagnose_lead", r->lead);
    hv_json_karr(w, "errata");
    for (size_t k = 0; k < hv_nerrata && k < 32; k++)
        if (r->errata >> k & 1)
            hv_json_str(w, hv_errata[k].id);
    hv_json_arr_end(w);
    hv_json_obj_end(w);
}

void ex_report_json(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d, const struct ex_run *runs,
                    size_t nruns)
{
    struct hv_json w;
    hv_json_init(&w, out, 0);
    hv_json_obj(&w);
    hv_json_karr(&w, "command");
    for (char **a = m->argv; *a; a++)
        hv_json_str(&w, *a);
    hv_json_arr_end(&w);
    hv_json_kstr(&w, "runtime", m->rt.text);
    hv_json_kbool(&w, "cuda", m->rt.cuda);
    hv_json_ki64(&w, "rounds", m->rounds);
    hv_json_ki64(&w, "max_runs", m->max_runs);
    hv_json_kbool(&w, "stopped_early", m->stopped_early);
    hv_json_kfixed(&w, "timeout_s", m->timeout_s, 1);
    hv_json_kstr(&w, "fail_pattern", m->fail_pattern);
    hv_json_kstr(&w, "skipped", m->skipped ? m->skipped : "");
    hv_json_karr(&w, "arms");
    for (int a = 0; a < narms; a++)
        arm_json(&w, arms, a, &st[a]);
    hv_json_arr_end(&w);
    hv_json_kobj(&w, "decision");
    hv_json_kstr(&w, "verdict", d->verdict);
    hv_json_kstr(&w, "basis", d->basis);
    hv_json_kstr(&w, "why", d->why);
    hv_json_kstr(&w, "trace", d->cause);
    hv_json_kbool(&w, "no_symptom", d->clean);
    if (d->clean) {
        hv_json_kfixed(&w, "rate_upper_bound_rule_of_three", st[0].runs ? 3.0 / (double)st[0].runs : 1.0, 4);
        hv_json_kfixed(&w, "rate_upper_bound_wilson", st[0].rate.hi, 4);
    }
    hv_json_kstr(&w, "cheapest_fix", d->cheapest >= 0 ? arms[d->cheapest].name : NULL);
    kratio(&w, "cheapest_fix_cost_ratio", d->cheapest >= 0 ? st[d->cheapest].cost_ratio : 0);
    hv_json_kstr(&w, "erratum", d->erratum >= 0 ? hv_errata[d->erratum].id : NULL);
    hv_json_kstr(&w, "erratum_arm", d->erratum >= 0 ? arms[d->erratum_arm].name : NULL);
    hv_json_kstr(&w, "erratum_fix", d->erratum >= 0 ? hv_errata[d->erratum].workaround : NULL);
    hv_json_karr(&w, "removed_by");
    for (int a = 1; a < narms; a++)
        if (st[a].outcome == EX_REMOVED)
            hv_json_str(&w, arms[a].name);
    hv_json_arr_end(&w);
    hv_json_obj_end(&w);
    hv_json_karr(&w, "runs");
    for (size_t i = 0; i < nruns; i++) {
        hv_json_nl(&w);
        run_json(&w, &runs[i], &arms[runs[i].arm]);
    }
    hv_json_arr_end(&w);
    hv_json_obj_end(&w);
    hv_json_eol(&w);
}
