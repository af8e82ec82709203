/*
 * decide: from runs to a decision.
 *
 * A run shows the symptom when the job failed (non-zero exit, a signal, a
 * hang killed after --timeout, --fail-pattern in its output), a probe
 * snapshot differed from the copied bytes, or HIPVIS_HOSTCHECK caught the
 * host touching memory an in-flight copy used. Per arm: the symptom rate
 * over runs with its 95% Wilson interval. An arm REMOVED the symptom when
 * none of its runs showed it and its interval lies wholly below its
 * reference's (0 of n against k of m: enough runs that chance cannot
 * explain the difference); it PERSISTS when any of its runs showed it. The
 * reference is the baseline, except for the arms run with the check when
 * the baseline showed nothing and the hostcheck arm caught host accesses:
 * those are judged against the hostcheck arm. Runs stop early once every
 * arm is one or the other.
 *
 * The check sees a host access only to memory it protected. A run with the
 * check that shows nothing, where the check protected no operation, lost
 * accesses, or left no counts record (ex_hc_blind), cannot show "no host
 * access": for the arms judged against the hostcheck arm such runs are left
 * out of the rate (they never count toward REMOVED), and with a clean
 * baseline they keep the verdict from "no-symptom" (it is "undetermined",
 * and the why says where and why the check did not look). Operations it
 * left unprotected beside protected ones are named in the why: the result
 * holds for the protected ones only.
 *
 * The verdict reads the A/B table of docs/case-study-rocm-hip-3902.md:
 *   observed    a probe recorded the stale buffer and --diagnose called it
 *               (H2 or host-race) in some run; or the hostcheck arm caught
 *               host accesses (host-race): with a clean baseline that is
 *               the whole verdict, and the why says which of copy-sync,
 *               stream-sync and event-sync removed the accesses
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
 *   no-symptom  no symptom in any run of any arm, and the check (where it
 *               ran) looked in every run
 * Several can hold at once (two causes); each is listed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/coverage.h"
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

const char *ex_hc_blind(const struct ex_arm *arm, const struct ex_run *r)
{
    if (!arm->hostcheck)
        return NULL;
    if (!r->hc.traces)
        return "not run";
    if (!r->hc.traces_counted)
        return "no counts";
    if (!r->hc.protected_ops)
        return "none protected";
    if (r->hc.lost)
        return "accesses lost";
    return NULL;
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
            s->host_accesses += r->host_accesses;
            s->host_access_runs += r->host_accesses != 0;
            if (arms[a].hostcheck) {
                hv_hostcheck_cov_add(&s->hc, &r->hc);
                int blind = ex_hc_blind(&arms[a], r) != NULL;
                s->hc_blind_runs += blind && !r->symptom;
                s->hc_partial_runs +=
                    !blind && (hv_hostcheck_unprotected(&r->hc) || r->hc.traces_counted < r->hc.traces);
            }
            add_word(s->runtimes, sizeof s->runtimes, r->runtime);
            add_word(s->verdicts, sizeof s->verdicts, r->verdict);
            if (wall)
                wall[nw++] = r->wall_s;
            if (iv && r->replay_interval_us > 0)
                iv[ni++] = r->replay_interval_us;
        }
        s->judged_runs = s->runs;
        s->rate = ex_wilson(s->symptom_runs, s->runs);
        s->median_wall_s = wall ? median(wall, nw) : 0;
        s->median_interval_us = iv && ni == s->runs ? median(iv, ni) : 0;
    }
    free(wall);
    free(iv);
    /* The hostcheck arm, and whether it is the reference of the arms run
     * with the check: it caught what the baseline could not show. */
    int hc = -1;
    for (int a = 1; a < narms; a++)
        if (arms[a].hostcheck && !strcmp(arms[a].name, "hostcheck"))
            hc = a;
    int hc_ref = hc > 0 && !st[0].symptom_runs && st[hc].symptom_runs;
    for (int a = 0; a < narms; a++) {
        /* Judged on the host accesses the check catches: a run where it did
         * not look shows neither their presence nor their absence. */
        struct ex_arm_stats *s = &st[a];
        s->ref = hc_ref && arms[a].hostcheck ? hc : 0;
        if (s->ref) {
            s->judged_runs = s->runs - s->hc_blind_runs;
            s->rate = ex_wilson(s->symptom_runs, s->judged_runs);
        }
    }
    for (int a = 0; a < narms; a++) {
        struct ex_arm_stats *s = &st[a];
        s->cost_ref = hc > 0 && a != hc && arms[a].hostcheck ? hc : 0;
        const struct ex_arm_stats *b = &st[s->ref], *c = &st[s->cost_ref];
        if (a == 0 || a == s->ref) {
            s->outcome = EX_REFERENCE;
        } else if (s->symptom_runs) {
            s->outcome = EX_PERSISTS;
        } else if (s->judged_runs && b->symptom_runs && s->rate.hi < b->rate.lo) {
            s->outcome = EX_REMOVED;
        } else {
            s->outcome = EX_UNDECIDED;
        }
        /* Cost against the baseline (an arm run with the check: against the
         * hostcheck arm, so the check's own cost is not the fix's): the
         * launch interval when every run of both has one (the step time of
         * a graph loop), else wall time. */
        if (s->median_interval_us > 0 && c->median_interval_us > 0) {
            s->cost_ratio = s->median_interval_us / c->median_interval_us;
            s->cost_basis = "median interval between graph launches";
        } else if (s->median_wall_s > 0 && c->median_wall_s > 0) {
            s->cost_ratio = s->median_wall_s / c->median_wall_s;
            s->cost_basis = "median wall time of the job";
        } else {
            s->cost_basis = "not measurable";
        }
    }
}

int ex_all_decided(const struct ex_arm_stats *st, int narms)
{
    /* A reference without the symptom (a clean baseline: its rate is the
     * point), or references alone, get every run. */
    int judged = 0;
    for (int a = 1; a < narms; a++) {
        if (st[a].outcome == EX_REFERENCE)
            continue;
        if (st[a].outcome == EX_UNDECIDED || !st[st[a].ref].symptom_runs)
            return 0;
        judged++;
    }
    return judged > 0;
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

static void add_verdict(struct ex_decision *d, const char *h)
{
    size_t used = strlen(d->verdict);
    if (!strstr(d->verdict, h) && used + strlen(h) + 2 < sizeof d->verdict)
        snprintf(d->verdict + used, sizeof d->verdict - used, "%s%s", used ? "+" : "", h);
}

/* Appends to the why (truncated when full). */
static void say(struct ex_decision *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct ex_decision *d, const char *fmt, ...)
{
    size_t used = strlen(d->why);
    if (used + 1 >= sizeof d->why)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why + used, sizeof d->why - used, fmt, ap);
    va_end(ap);
}

/* Runs where the check did not look, over the arms run with it. */
static uint64_t blind_runs(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st)
{
    uint64_t n = 0;
    for (int a = 0; a < narms; a++)
        n += arms[a].hostcheck ? st[a].hc_blind_runs : 0;
    return n;
}

/* For each arm run with the check where it did not see everything:
 * "hostcheck: the host-access check protected 0 of 4 operations in 4 runs
 * (4 other: ...): it did not look in 4 of 4 runs; ", then what that means
 * for the result. */
static void check_gaps(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, struct ex_decision *d)
{
    uint64_t blind = 0, partial = 0;
    int nothing = 0;   /* an arm whose runs held no operation the check protects */
    for (int a = 0; a < narms; a++) {
        const struct ex_arm_stats *s = &st[a];
        const struct hv_hostcheck_cov *h = &s->hc;
        uint64_t k = hv_hostcheck_unprotected(h), n = k + h->protected_ops, uncounted = h->traces - h->traces_counted;
        if (!arms[a].hostcheck || (!s->hc_blind_runs && !k && !h->lost && !uncounted))
            continue;
        blind += s->hc_blind_runs;
        partial += s->hc_partial_runs;
        nothing |= h->traces_counted && !n;
        say(d, "%s: the host-access check protected %llu of %llu operations in %llu run%s", arms[a].name,
            (unsigned long long)h->protected_ops, (unsigned long long)n, (unsigned long long)s->runs,
            s->runs == 1 ? "" : "s");
        const char *sep = " (";
        if (h->skipped_managed) {
            say(d, "%s%llu managed memory without protection keys", sep, (unsigned long long)h->skipped_managed);
            sep = ", ";
        }
        if (h->skipped_full) {
            say(d, "%s%llu with its table full", sep, (unsigned long long)h->skipped_full);
            sep = ", ";
        }
        if (h->skipped_other) {
            say(d, "%s%llu other: HIP registered memory, a 3D copy, or a range mprotect refused", sep,
                (unsigned long long)h->skipped_other);
            sep = ", ";
        }
        if (h->skipped_graph)
            say(d, "%s%llu in graph replays the check could not describe", sep, (unsigned long long)h->skipped_graph);
        if (k)
            say(d, ")");
        if (h->lost)
            say(d, ", lost %llu host access%s", (unsigned long long)h->lost, h->lost == 1 ? "" : "es");
        if (uncounted)
            say(d, ", %llu trace%s without its counts record (the process did not reach exit)",
                (unsigned long long)uncounted, uncounted == 1 ? "" : "s");
        if (s->hc_blind_runs)
            say(d, ": it did not look in %llu of %llu run%s", (unsigned long long)s->hc_blind_runs,
                (unsigned long long)s->runs, s->runs == 1 ? "" : "s");
        say(d, "; ");
    }
    if (blind)
        say(d, "a run where the check did not look (no operation protected, accesses lost, or no counts record) "
               "cannot show that the host left in-flight memory alone: it counts for no arm's removal and no clean "
               "verdict%s; ",
            nothing ? " (it protects the host side of async copies, memsets, kernels and graph replays' nodes "
                      "in pinned, registered and managed memory: docs/hostcheck.md)"
                    : "");
    if (partial)
        say(d, "where it looked but left operations unprotected, the result holds only for those it protected; ");
}

/* The baseline showed nothing and the hostcheck arm `hc` caught the host
 * touching memory an in-flight copy used: the race is observed; the waits
 * run with the same check say which one removes it. */
static void host_race_caught(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, int hc,
                             struct ex_decision *d)
{
    const struct ex_arm_stats *h = &st[hc];
    add_verdict(d, "host-race");
    snprintf(d->basis, sizeof d->basis, "observed");
    snprintf(d->why, sizeof d->why,
             "host-race: the hostcheck arm caught the host touching pinned memory an in-flight copy used in %llu of "
             "%llu runs (%llu accesses; no symptom in %llu baseline runs)",
             (unsigned long long)h->host_access_runs, (unsigned long long)h->runs,
             (unsigned long long)h->host_accesses, (unsigned long long)st[0].runs);
    /* "copy-sync removes the host accesses the check caught (0 of 4 runs
     * with accesses), stream-sync does not (4 of 4)" */
    static const char *const waits[] = {"copy-sync", "stream-sync", "event-sync"};
    static const char *const first_verb[] = {
        [EX_REMOVED] = "removes the host accesses the check caught",
        [EX_PERSISTS] = "does not remove the host accesses the check caught",
        [EX_UNDECIDED] = "is undecided on the host accesses the check caught (more runs: -n)",
    };
    static const char *const next_verb[] = {
        [EX_REMOVED] = "removes them", [EX_PERSISTS] = "does not", [EX_UNDECIDED] = "is undecided"};
    int first = 1;
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; i++) {
        int a = arm_of(arms, narms, waits[i]);
        if (a < 0 || st[a].ref != hc || st[a].outcome == EX_REFERENCE)
            continue;
        const struct ex_arm_stats *s = &st[a];
        say(d, "%s %s %s (%llu of %llu runs with accesses", first ? ";" : ",", waits[i],
            (first ? first_verb : next_verb)[s->outcome], (unsigned long long)s->host_access_runs,
            (unsigned long long)s->runs);
        if (s->hc_blind_runs)
            say(d, "; the check did not look in %llu", (unsigned long long)s->hc_blind_runs);
        say(d, ")");
        first = 0;
    }
}

void ex_decide(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, const struct ex_run *runs,
               size_t nruns, struct ex_decision *d)
{
    memset(d, 0, sizeof *d);
    d->cheapest = d->erratum = d->erratum_arm = -1;
    const struct ex_arm_stats *b = &st[0];
    /* What the baseline traces say. */
    uint64_t unordered = 0, same = 0, rewrites = 0, accesses = 0;
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
        accesses += runs[i].host_accesses;
    }
    /* Truncation is acceptable (a long word list is cut); using the result
     * keeps -Wformat-truncation quiet at -O1 (the sanitizer build). */
    if (snprintf(d->cause, sizeof d->cause, "baseline traces: %llu same-epoch-write, %llu unordered-write, %llu "
                                        "host-source-rewritten occurrences; --diagnose leads: %s; observed in any "
                                        "arm: %s; host accesses caught in any arm: %llu",
             (unsigned long long)same, (unsigned long long)unordered, (unsigned long long)rewrites,
             leads[0] ? leads : "none", observed[0] ? observed : "none", (unsigned long long)accesses) < 0)
        d->cause[0] = '\0';
    int hc = -1;   /* the hostcheck arm, when the arms run with the check are judged against it */
    for (int a = 1; a < narms; a++)
        if (st[a].outcome == EX_REFERENCE)
            hc = a;
    if (!b->symptom_runs && hc > 0) {
        host_race_caught(arms, narms, st, hc, d);
        say(d, "; ");
        goto fixes;
    }
    if (!b->symptom_runs) {
        /* No run showed it; where the check ran but did not look, a host
         * race it would have caught is not excluded. */
        int any = 0;
        uint64_t blind = blind_runs(arms, narms, st);
        for (int a = 1; a < narms; a++)
            any |= st[a].symptom_runs != 0;
        d->clean = !any && !blind;
        snprintf(d->verdict, sizeof d->verdict, "%s", d->clean ? "no-symptom" : "undetermined");
        snprintf(d->basis, sizeof d->basis, "none");
        snprintf(d->why, sizeof d->why,
                 "no symptom in %llu baseline runs: the per-run rate is below %.3f (95%%, rule of three: 3/%llu) "
                 "and below %.3f (Wilson)%s; ",
                 (unsigned long long)b->runs, b->runs ? 3.0 / (double)b->runs : 1.0, (unsigned long long)b->runs,
                 b->rate.hi, any ? "; some other arm showed it: see the table" : "");
        if (!any && blind)
            say(d, "but the host-access check did not look in %llu run%s, so a host race is not excluded; ",
                (unsigned long long)blind, blind == 1 ? "" : "s");
        goto fixes;
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
        say(d, "a probe recorded the stale buffer and --diagnose observed %s; ", d->verdict);
    }
    int h = arm_of(arms, narms, "hostcheck");
    if (h > 0 && st[h].host_accesses) {
        add_verdict(d, "host-race");
        snprintf(d->basis, sizeof d->basis, "observed");
        say(d, "host-race: the hostcheck arm caught the host touching pinned memory an in-flight copy used; ");
    }
#define R(n) (out_of(arms, narms, st, n) == EX_REMOVED)
#define P(n) (out_of(arms, narms, st, n) == EX_PERSISTS)
    int host_wait = R("stream-sync") || R("event-sync");
    if (R("one-queue") || R("event-sync-nofence")) {
        add_verdict(d, "H1");
        say(d, "H1: %s removes it (ordering alone suffices); ",
            R("one-queue") ? "one graph queue" : "a host wait without the system fence");
    }
    if (host_wait && P("event-sync-nofence")) {
        add_verdict(d, "H3");
        say(d, "H3: %s removes it, the same wait without the system fence does not; ",
            R("stream-sync") ? "stream-sync" : "event-sync");
    }
    if (R("copy-sync") && !host_wait && !R("one-queue")) {
        if (unordered) {
            add_verdict(d, "race");
            say(d, "race: only the wait at the copy removes it and the baseline traces show the copy unordered "
                   "with its reader on another stream (unordered-write); ");
        } else {
            add_verdict(d, "host-race");
            say(d, "host-race: only the wait at the copy removes it, waits before the launch do not; ");
        }
    }
    if (R("classic") && !host_wait && !R("copy-sync")) {
        add_verdict(d, "H4");
        say(d, "H4: the classic graph executor removes it, host waits do not; ");
    }
    int any_host = host_wait || R("copy-sync") || R("event-sync-nofence") || R("one-queue") || R("classic");
    if ((R("no-sdma") || R("blit")) && !any_host) {
        add_verdict(d, "H2");
        say(d, "H2: only running the copy as a blit kernel (%s) removes it: the copy engine's write lands late; ",
            R("no-sdma") ? "no-sdma" : "blit");
    } else if (!any_host && P("stream-sync") && P("copy-sync") && !R("serialize")) {
        add_verdict(d, "H2");
        say(d, "H2 (consistent): no host-side arm removes it: a write lands after the copy whatever the host waits "
               "for; find it with hipvis-analyze --find-value; ");
    }
#undef R
#undef P
    if (!d->basis[0])
        snprintf(d->basis, sizeof d->basis, d->verdict[0] ? "experiment" : "none");
    if (!d->verdict[0]) {
        snprintf(d->verdict, sizeof d->verdict, "undetermined");
        say(d, "no arm's outcome matches a hypothesis yet (undecided arms need more runs: -n); ");
    }
fixes:
    /* What the check did not see, after what the runs showed. */
    check_gaps(arms, narms, st, d);
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
