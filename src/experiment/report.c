/*
 * report: the decision report of `hipvis experiment`, as text (stdout and
 * DIR/report.txt) and JSON (DIR/report.json; schema in docs/experiment.md).
 */
#include <inttypes.h>
#include <string.h>

#include "experiment/ex_int.h"
#include "analyze/errata/errata.h"
#include "common/json_str.h"

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

void ex_report_text(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d)
{
    fputs("hipvis experiment:", out);
    for (char **a = m->argv; *a; a++)
        fprintf(out, " %s", *a);
    fprintf(out, "\n  runtime %s%s; %d round%s of at most %d%s; traces and logs in %s\n", m->rt.text,
            m->rt.cuda ? " (CUDA)" : "", m->rounds, m->rounds == 1 ? "" : "s", m->max_runs,
            m->stopped_early ? " (stopped early: every arm decided)" : "", m->dir);
    fprintf(out, "  symptom = exit status != 0, a signal, a hang (> %.0f s)%s%s, or a probe snapshot differing "
                 "from the copied bytes\n",
            m->timeout_s, m->fail_pattern ? ", --fail-pattern " : "", m->fail_pattern ? m->fail_pattern : "");
    if (m->skipped && m->skipped[0])
        fprintf(out, "  arms left out: %s\n", m->skipped);
    fprintf(out, "\n  %-19s %5s %8s %-15s %-10s %-9s %s\n", "arm", "runs", "symptom", "rate (95% CI)", "outcome",
            "cost", "environment");
    for (int a = 0; a < narms; a++) {
        const struct ex_arm_stats *s = &st[a];
        char rate[32], cost[24], env[400] = "";
        snprintf(rate, sizeof rate, "%.2f (%.2f-%.2f)", s->runs ? (double)s->symptom_runs / (double)s->runs : 0.0,
                 s->rate.lo, s->rate.hi);
        cost_text(cost, sizeof cost, s);
        for (int i = 0; i < arms[a].nenv; i++) {
            size_t u = strlen(env);
            snprintf(env + u, sizeof env - u, "%s%s", i ? " " : "", arms[a].env[i]);
        }
        fprintf(out, "  %-19s %5" PRIu64 " %8" PRIu64 " %-15s %-10s %-9s %s\n", arms[a].name, s->runs, s->symptom_runs,
                rate, outcome_name(s->outcome), cost, env[0] ? env : "(traced, nothing changed)");
        if (s->hangs || s->probe_mismatch || s->unreadable || s->verdicts[0])
            fprintf(out, "  %-19s       %" PRIu64 " hangs, %" PRIu64 " of %" PRIu64 " probes differ, %" PRIu64
                         " unreadable traces%s%s\n",
                    "", s->hangs, s->probe_mismatch, s->probed, s->unreadable,
                    s->verdicts[0] ? ", --diagnose observed " : "", s->verdicts);
    }
    fprintf(out, "  cost: %s relative to the baseline's\n", narms > 1 ? st[1].cost_basis : "-");
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
                arms[d->cheapest].name, s->runs, s->runs, s->rate.hi, cost, s->cost_basis);
    } else if (!d->clean) {
        fputs("  fix       no arm removed the symptom on this job (undecided arms need more runs: -n)\n", out);
    }
}

static void jstr(FILE *out, const char *k, const char *v, int comma)
{
    fprintf(out, "%s\"%s\":", comma ? "," : "", k);
    hv_json_str(out, v);
}

void ex_report_json(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d, const struct ex_run *runs,
                    size_t nruns)
{
    fputs("{\"command\":[", out);
    for (char **a = m->argv; *a; a++) {
        if (a != m->argv)
            fputc(',', out);
        hv_json_str(out, *a);
    }
    fputc(']', out);
    jstr(out, "runtime", m->rt.text, 1);
    fprintf(out, ",\"cuda\":%s,\"rounds\":%d,\"max_runs\":%d,\"stopped_early\":%s,\"timeout_s\":%.1f",
            m->rt.cuda ? "true" : "false", m->rounds, m->max_runs, m->stopped_early ? "true" : "false", m->timeout_s);
    if (m->fail_pattern)
        jstr(out, "fail_pattern", m->fail_pattern, 1);
    else
        fputs(",\"fail_pattern\":null", out);
    jstr(out, "skipped", m->skipped ? m->skipped : "", 1);
    fputs(",\"arms\":[", out);
    for (int a = 0; a < narms; a++) {
        const struct ex_arm_stats *s = &st[a];
        fputs(a ? ",{" : "{", out);
        jstr(out, "name", arms[a].name, 0);
        jstr(out, "what", arms[a].what, 1);
        fputs(",\"env\":[", out);
        for (int i = 0; i < arms[a].nenv; i++) {
            if (i)
                fputc(',', out);
            hv_json_str(out, arms[a].env[i]);
        }
        fprintf(out, "],\"fix\":%s,\"runs\":%" PRIu64 ",\"symptom_runs\":%" PRIu64 ",\"rate\":%.4f,\"ci95\":[%.4f,%.4f]"
                     ",\"failures\":%" PRIu64 ",\"hangs\":%" PRIu64 ",\"pattern_hits\":%" PRIu64
                     ",\"probe_mismatches\":%" PRIu64 ",\"probed\":%" PRIu64 ",\"unreadable_traces\":%" PRIu64,
                arms[a].fix ? "true" : "false", s->runs, s->symptom_runs,
                s->runs ? (double)s->symptom_runs / (double)s->runs : 0.0, s->rate.lo, s->rate.hi, s->failures, s->hangs,
                s->pattern_hits, s->probe_mismatch, s->probed, s->unreadable);
        jstr(out, "outcome", outcome_name(s->outcome), 1);
        fprintf(out, ",\"median_wall_s\":%.4f,\"median_launch_interval_us\":%.3f", s->median_wall_s,
                s->median_interval_us);
        if (s->cost_ratio > 0)
            fprintf(out, ",\"cost_ratio\":%.4f", s->cost_ratio);
        else
            fputs(",\"cost_ratio\":null", out);
        jstr(out, "cost_basis", s->cost_basis ? s->cost_basis : "", 1);
        jstr(out, "runtime_versions", s->runtimes, 1);
        jstr(out, "observed_verdicts", s->verdicts, 1);
        fputc('}', out);
    }
    fputs("],\"decision\":{", out);
    jstr(out, "verdict", d->verdict, 0);
    jstr(out, "basis", d->basis, 1);
    jstr(out, "why", d->why, 1);
    jstr(out, "trace", d->cause, 1);
    fprintf(out, ",\"no_symptom\":%s", d->clean ? "true" : "false");
    if (d->clean)
        fprintf(out, ",\"rate_upper_bound_rule_of_three\":%.4f,\"rate_upper_bound_wilson\":%.4f",
                st[0].runs ? 3.0 / (double)st[0].runs : 1.0, st[0].rate.hi);
    if (d->cheapest >= 0) {
        jstr(out, "cheapest_fix", arms[d->cheapest].name, 1);
        if (st[d->cheapest].cost_ratio > 0)
            fprintf(out, ",\"cheapest_fix_cost_ratio\":%.4f", st[d->cheapest].cost_ratio);
        else
            fputs(",\"cheapest_fix_cost_ratio\":null", out);
    } else {
        fputs(",\"cheapest_fix\":null,\"cheapest_fix_cost_ratio\":null", out);
    }
    if (d->erratum >= 0) {
        jstr(out, "erratum", hv_errata[d->erratum].id, 1);
        jstr(out, "erratum_arm", arms[d->erratum_arm].name, 1);
        jstr(out, "erratum_fix", hv_errata[d->erratum].workaround, 1);
    } else {
        fputs(",\"erratum\":null,\"erratum_arm\":null,\"erratum_fix\":null", out);
    }
    fputs(",\"removed_by\":[", out);
    for (int a = 1, k = 0; a < narms; a++)
        if (st[a].outcome == EX_REMOVED) {
            if (k++)
                fputc(',', out);
            hv_json_str(out, arms[a].name);
        }
    fputs("]},\"runs\":[", out);
    for (size_t i = 0; i < nruns; i++) {
        const struct ex_run *r = &runs[i];
        fprintf(out, "%s{\"arm\":", i ? ",\n" : "\n");
        hv_json_str(out, arms[r->arm].name);
        fprintf(out, ",\"index\":%d,\"exit\":%d,\"signal\":%d,\"timed_out\":%s,\"pattern_hit\":%s,\"wall_s\":%.4f"
                     ",\"traces\":%d,\"replays\":%" PRIu64 ",\"launch_interval_us\":%.3f,\"probed\":%" PRIu64
                     ",\"probe_mismatches\":%" PRIu64 ",\"same_epoch_write\":%" PRIu64 ",\"unordered_write\":%" PRIu64
                     ",\"records_dropped\":%" PRIu64 ",\"symptom\":%s",
                r->index, r->exit_code, r->signal, r->timed_out ? "true" : "false", r->pattern_hit ? "true" : "false",
                r->wall_s, r->traces, r->replays, r->replay_interval_us, r->probed, r->probe_mismatch, r->same_epoch,
                r->unordered, r->dropped_records, r->symptom ? "true" : "false");
        jstr(out, "runtime", r->runtime, 1);
        jstr(out, "diagnose_observed", r->verdict, 1);
        jstr(out, "diagnose_lead", r->lead, 1);
        fputs(",\"errata\":[", out);
        for (size_t k = 0, n = 0; k < hv_nerrata && k < 32; k++)
            if (r->errata >> k & 1) {
                fputs(n++ ? "," : "", out);
                hv_json_str(out, hv_errata[k].id);
            }
        fputc(']', out);
        fputc('}', out);
    }
    fputs("]}\n", out);
}
