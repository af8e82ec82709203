/*
 * decide: from runs to a decision.
 *
 * A run shows the symptom when the job failed (non-zero exit, a signal, a
 * hang killed after --timeout, --fail-pattern in its output) or a probe
 * snapshot differed from the copied bytes. Per arm: the symptom rate over
 * runs with its 95% Wilson interval. An arm REMOVED the symptom when none
 * of its runs showed it and its interval lies wholly below the baseline's
 * (0 of n against k of m: enough runs that chance cannot explain the
 * difference); it PERSISTS when any of its runs showed it. Runs stop early
 * once every arm is one or the other.
 *
 * The verdict reads the A/B table of docs/case-study-rocm-hip-3902.md:
 *   observed    a probe recorded the stale buffer and --diagnose called it
 *               (H2 or host-race) in some run
 *   H1          one queue, or a host wait without the system fence, removes it
 *   H3          a system-scope host wait removes it, the fence-less one not
 *   host-race   only the wait at the copy removes it (launch-point waits do
 *               not), the copy's readers on its own stream
 *   race        the same, but the baseline traces show the copy on another
 *               stream unordered with its reader (unordered-write): a
 *               missing wait in the program
 *   H4          the classic executor removes it, host waits do not
 *   H2          no host-side arm removes it (or only running copies as
 *               blit kernels does)
 * Several can hold at once (two causes); each is listed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/errata/errata.h"
#include "experiment/ex_int.h"

struct ex_interval ex_wilson(uint64_t k, uint64_t n)
{
    struct ex_interval r = {0, 1};
    if (!n)
        return r;
    const double z = 1.959964, z2 = z * z;
    double p = (double)k / (double)n, nn = (double)n;
    double c = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double h = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    r.lo = k == 0 ? 0 : c - h;
    r.hi = k == n ? 1 : c + h;
    if (r.lo < 0)
        r.lo = 0;
    if (r.hi > 1)
        r.hi = 1;
    return r;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void add_word(char *buf, size_t len, const char *w)
{
    if (!w[0] || strstr(buf, w))
        return;
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", w);
}

void ex_stats(const struct ex_arm *arms, int narms, const struct ex_run *runs, size_t nruns, struct ex_arm_stats *st)
{
    double *wall = malloc((nruns ? nruns : 1) * sizeof *wall), *iv = malloc((nruns ? nruns : 1) * sizeof *iv);
    for (int a = 0; a < narms; a++) {
        struct ex_arm_stats *s = &st[a];
        memset(s, 0, sizeof *s);
        size_t nw = 0, ni = 0;
        for (size_t i = 0; i < nruns; i++) {
            const struct ex_run *r = &runs[i];
            if (r->arm != a)
                continue;
            s->runs++;
            s->symptom_runs += r->symptom != 0;
            s->failures += r->exit_code != 0 || r->signal;
            s->hangs += r->timed_out != 0;
            s->pattern_hits += r->pattern_hit != 0;
            s->probe_mismatch += r->probe_mismatch;
            s->probed += r->probed;
            s->unreadable += r->unreadable;
            add_word(s->runtimes, sizeof s->runtimes, r->runtime);
            add_word(s->verdicts, sizeof s->verdicts, r->verdict);
            if (wall)
                wall[nw++] = r->wall_s;
            if (iv && r->replay_interval_us > 0)
                iv[ni++] = r->replay_interval_us;
        }
        s->rate = ex_wilson(s->symptom_runs, s->runs);
        s->median_wall_s = wall ? median(wall, nw) : 0;
        s->median_interval_us = iv && ni == s->runs ? median(iv, ni) : 0;
    }
    free(wall);
    free(iv);
    const struct ex_arm_stats *b = &st[0];
    for (int a = 0; a < narms; a++) {
        struct ex_arm_stats *s = &st[a];
        if (a == 0) {
            s->outcome = EX_REFERENCE;
        } else if (s->symptom_runs) {
            s->outcome = EX_PERSISTS;
        } else if (s->runs && b->symptom_runs && s->rate.hi < b->rate.lo) {
            s->outcome = EX_REMOVED;
        } else {
            s->outcome = EX_UNDECIDED;
        }
        /* Cost against the baseline: the launch interval when every run of
         * both has one (the step time of a graph loop), else wall time. */
        if (s->median_interval_us > 0 && b->median_interval_us > 0) {
            s->cost_ratio = s->median_interval_us / b->median_interval_us;
            s->cost_basis = "median interval between graph launches";
        } else if (s->median_wall_s > 0 && b->median_wall_s > 0) {
            s->cost_ratio = s->median_wall_s / b->median_wall_s;
            s->cost_basis = "median wall time of the job";
        } else {
            s->cost_basis = "not measurable";
        }
        (void)arms;
    }
}

int ex_all_decided(const struct ex_arm_stats *st, int narms)
{
    if (!st[0].symptom_runs || narms < 2)
        return 0;   /* a clean baseline, or the baseline alone (its rate is the point), gets every run */
    for (int a = 1; a < narms; a++)
        if (st[a].outcome == EX_UNDECIDED)
            return 0;
    return 1;
}

static int arm_of(const struct ex_arm *arms, int narms, const char *name)
{
    for (int a = 0; a < narms; a++)
        if (!strcmp(arms[a].name, name))
            return a;
    return -1;
}

/* Outcome of a named arm; EX_UNDECIDED when it did not run. */
static enum ex_outcome out_of(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, const char *n)
{
    int a = arm_of(arms, narms, n);
    return a < 0 ? EX_UNDECIDED : st[a].outcome;
}

static void say(struct ex_decision *d, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(d->why);
    if (used < sizeof d->why)
        snprintf(d->why + used, sizeof d->why - used, fmt, a, b);
}

static void add_verdict(struct ex_decision *d, const char *h)
{
    size_t used = strlen(d->verdict);
    if (!strstr(d->verdict, h) && used + strlen(h) + 2 < sizeof d->verdict)
        snprintf(d->verdict + used, sizeof d->verdict - used, "%s%s", used ? "+" : "", h);
}

void ex_decide(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, const struct ex_run *runs,
               size_t nruns, struct ex_decision *d)
{
    memset(d, 0, sizeof *d);
    d->cheapest = d->erratum = d->erratum_arm = -1;
    const struct ex_arm_stats *b = &st[0];
    /* What the baseline traces say. */
    uint64_t unordered = 0, same = 0, rewrites = 0;
    uint32_t errata = 0;
    char leads[64] = "", observed[64] = "";
    for (size_t i = 0; i < nruns; i++) {
        if (runs[i].arm == 0) {
            errata |= runs[i].errata;
            unordered += runs[i].unordered;
            same += runs[i].same_epoch;
            rewrites += runs[i].rewrites;
            add_word(leads, sizeof leads, runs[i].lead);
        }
        add_word(observed, sizeof observed, runs[i].verdict);
    }
    /* Truncation is acceptable (a long word list is cut); using the result
     * keeps -Wformat-truncation quiet at -O1 (the sanitizer build). */
    if (snprintf(d->cause, sizeof d->cause, "baseline traces: %llu same-epoch-write, %llu unordered-write, %llu "
                                        "host-source-rewritten occurrences; --diagnose leads: %s; observed in any arm: %s",
             (unsigned long long)same, (unsigned long long)unordered, (unsigned long long)rewrites,
             leads[0] ? leads : "none", observed[0] ? observed : "none") < 0)
        d->cause[0] = '\0';
    if (!b->symptom_runs) {
        int any = 0;
        for (int a = 1; a < narms; a++)
            any |= st[a].symptom_runs != 0;
        d->clean = !any;
        snprintf(d->verdict, sizeof d->verdict, "%s", any ? "undetermined" : "no-symptom");
        snprintf(d->basis, sizeof d->basis, "none");
        snprintf(d->why, sizeof d->why,
                 "no symptom in %llu baseline runs: the per-run rate is below %.3f (95%%, rule of three: 3/%llu) "
                 "and below %.3f (Wilson)%s",
                 (unsigned long long)b->runs, b->runs ? 3.0 / (double)b->runs : 1.0, (unsigned long long)b->runs,
                 b->rate.hi, any ? "; some other arm showed it: see the table" : "");
        return;
    }
    /* A published runtime erratum the baseline traces match, whose
     * workaround arm removes the symptom: the runtime drops the edge, and
     * the hypotheses about the program's own ordering are not weighed. */
    for (size_t i = 0; i < hv_nerrata && i < 32; i++) {
        int a = (errata >> i) & 1 && hv_errata[i].arm ? arm_of(arms, narms, hv_errata[i].arm) : -1;
        if (a < 0 || st[a].outcome != EX_REMOVED)
            continue;
        if (d->erratum < 0) {
            d->erratum = (int)i;
            d->erratum_arm = a;
        }
        add_verdict(d, "erratum");
        say(d, "erratum: the baseline traces match %s and its workaround arm %s removes the symptom; ",
            hv_errata[i].id, hv_errata[i].arm);
    }
    if (d->erratum >= 0) {
        snprintf(d->basis, sizeof d->basis, "experiment");
        goto fixes;
    }
    /* Direct observation first. */
    if (strstr(observed, "H2"))
        add_verdict(d, "H2");
    if (strstr(observed, "host-race"))
        add_verdict(d, "host-race");
    if (d->verdict[0]) {
        snprintf(d->basis, sizeof d->basis, "observed");
        say(d, "a probe recorded the stale buffer and --diagnose observed %s%s; ", d->verdict, "");
    }
#define R(n) (out_of(arms, narms, st, n) == EX_REMOVED)
#define P(n) (out_of(arms, narms, st, n) == EX_PERSISTS)
    int host_wait = R("stream-sync") || R("event-sync");
    if (R("one-queue") || R("event-sync-nofence")) {
        add_verdict(d, "H1");
        say(d, "H1: %s removes it (ordering alone suffices)%s; ",
            R("one-queue") ? "one graph queue" : "a host wait without the system fence", "");
    }
    if (host_wait && P("event-sync-nofence")) {
        add_verdict(d, "H3");
        say(d, "H3: %s removes it, the same wait without the system fence does not%s; ",
            R("stream-sync") ? "stream-sync" : "event-sync", "");
    }
    if (R("copy-sync") && !host_wait && !R("one-queue")) {
        if (unordered) {
            add_verdict(d, "race");
            say(d, "race: only the wait at the copy removes it and the baseline traces show the copy unordered "
                   "with its reader on another stream (unordered-write)%s%s; ", "", "");
        } else {
            add_verdict(d, "host-race");
            say(d, "host-race: only the wait at the copy removes it, waits before the launch do not%s%s; ", "", "");
        }
    }
    if (R("classic") && !host_wait && !R("copy-sync")) {
        add_verdict(d, "H4");
        say(d, "H4: the classic graph executor removes it, host waits do not%s%s; ", "", "");
    }
    int any_host = host_wait || R("copy-sync") || R("event-sync-nofence") || R("one-queue") || R("classic");
    if ((R("no-sdma") || R("blit")) && !any_host) {
        add_verdict(d, "H2");
        say(d, "H2: only running the copy as a blit kernel (%s) removes it: the copy engine's write lands late%s; ",
            R("no-sdma") ? "no-sdma" : "blit", "");
    } else if (!any_host && P("stream-sync") && P("copy-sync") && !R("serialize")) {
        add_verdict(d, "H2");
        say(d, "H2 (consistent): no host-side arm removes it: a write lands after the copy whatever the host waits "
               "for; find it with hipvis-analyze --find-value%s%s; ", "", "");
    }
#undef R
#undef P
    if (!d->basis[0])
        snprintf(d->basis, sizeof d->basis, d->verdict[0] ? "experiment" : "none");
    if (!d->verdict[0]) {
        snprintf(d->verdict, sizeof d->verdict, "undetermined");
        say(d, "no arm's outcome matches a hypothesis yet (undecided arms need more runs: -n)%s%s", "", "");
    }
fixes:
    /* Each clause ends in "; " so the next can follow; the last one ends the sentence. */
    size_t n = strlen(d->why);
    if (n >= 2 && d->why[n - 2] == ';' && d->why[n - 1] == ' ')
        d->why[n - 2] = '\0';
    /* The cheapest removing fix, by its measured cost. */
    for (int a = 1; a < narms; a++) {
        if (!arms[a].fix || st[a].outcome != EX_REMOVED)
            continue;
        if (d->cheapest < 0 || (st[a].cost_ratio > 0 && (st[d->cheapest].cost_ratio <= 0 ||
                                                          st[a].cost_ratio < st[d->cheapest].cost_ratio)))
            d->cheapest = a;
    }
}
