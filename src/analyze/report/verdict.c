/*
 * verdict — the conclusion and its exit status, in one place (verdict.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/verdict.h"

/* Bugs (clusters of groups, hv_findings_bugs) at or above fail_on, as the
 * text report lists them. */
static size_t bugs_at(const struct hv_findings *s, int fail_on)
{
    const struct hv_group **v = hv_findings_sorted(s);
    if (!v)
        return hv_findings_count_at(s, fail_on, NULL);
    struct hv_bug *bugs = NULL;
    size_t nb = hv_findings_bugs(v, s->ngroups, &bugs);
    size_t n = 0;
    if (nb == (size_t)-1) {   /* out of memory for the clustering: one bug per group */
        n = hv_findings_count_at(s, fail_on, NULL);
    } else {
        for (size_t b = 0; b < nb; b++)
            n += v[bugs[b].first]->f.severity >= fail_on;
    }
    free(bugs);
    free(v);
    return n;
}

void hv_verdict_of(struct hv_verdict *v, const struct hv_findings *s, const struct hv_report_opts *o)
{
    memset(v, 0, sizeof *v);
    hv_coverage_sum(s, &v->cov);
    v->unusable = hv_findings_unusable(s);
    v->analyzed = !v->unusable && !o->nerrors;
    if (o->fail_on > HV_SEV_NONE) {
        v->groups = hv_findings_count_at(s, o->fail_on, NULL);
        v->groups_inferred = hv_findings_count_inferred(s, o->fail_on);
        v->bugs = v->groups ? bugs_at(s, o->fail_on) : 0;
    }
    if (!v->analyzed)
        v->exit_status = HV_EXIT_UNUSABLE;
    else if (v->groups)
        v->exit_status = HV_EXIT_FINDINGS;
    else if (o->fail_on_unchecked && (hv_coverage_unchecked(&v->cov) || hv_hostcheck_unchecked(&v->cov.hostcheck)))
        v->exit_status = HV_EXIT_UNCHECKED;
    else
        v->exit_status = HV_EXIT_CLEAN;
}

/* Appends printf-style text to buf[cap] at *used. */
static void put(char *buf, size_t cap, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w < cap - *used ? (size_t)w : cap - *used - 1;
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* "C of M replays checked; U unchecked (why)", "M of M replays fully
 * checked", or nothing without replays. */
static void replays_part(const struct hv_coverage *c, const char *lead, char *buf, size_t cap, size_t *used)
{
    uint64_t unchecked = hv_coverage_unchecked(c);
    if (!c->replays)
        return;
    if (!unchecked) {
        put(buf, cap, used, "%s%" PRIu64 " of %" PRIu64 " replay%s fully checked", lead, c->replays, c->replays,
            plural(c->replays));
        return;
    }
    char why[1024];
    hv_coverage_why(c, why, sizeof why);
    put(buf, cap, used, "%s%" PRIu64 " of %" PRIu64 " replay%s checked; %" PRIu64 " unchecked (%s)", lead,
        c->replays_checked, c->replays, plural(c->replays), unchecked, why);
}

/* "; host-access check: K of N in-flight operations not protected, L
 * accesses lost" when it did not see everything (the coverage line under
 * the verdict says why and what to do). */
static void hostcheck_part(const struct hv_coverage *c, char *buf, size_t cap, size_t *used)
{
    const struct hv_hostcheck_cov *h = &c->hostcheck;
    if (!hv_hostcheck_unchecked(h))
        return;
    uint64_t k = hv_hostcheck_unprotected(h), n = k + h->protected_ops;
    put(buf, cap, used, "; host-access check: %" PRIu64 " of %" PRIu64 " in-flight operation%s not protected, %" PRIu64
        " access%s lost", k, n, plural(n), h->lost, h->lost == 1 ? "" : "es");
}

void hv_verdict_line(const struct hv_verdict *v, const struct hv_report_opts *o, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    if (v->unusable) {
        put(buf, cap, &used, "not analyzed (UNUSABLE RUN: every traced process failed before doing device work)");
        return;
    }
    if (!v->analyzed) {
        const struct hv_report_error *e = &o->errors[0];
        put(buf, cap, &used, "not analyzed (%zu input%s could not be used; first %s: %s)", o->nerrors,
            plural(o->nerrors), e->path ? e->path : "?", e->what ? e->what : "?");
        return;
    }
    if (o->fail_on <= HV_SEV_NONE) {
        put(buf, cap, &used, "no verdict (--fail-on none)");
        replays_part(&v->cov, "; ", buf, cap, &used);
        hostcheck_part(&v->cov, buf, cap, &used);
        return;
    }
    put(buf, cap, &used, "%zu bug%s (%zu finding group%s) at or above %s", v->bugs, plural(v->bugs), v->groups,
        plural(v->groups), hv_severity_name(o->fail_on));
    if (v->groups_inferred)
        put(buf, cap, &used, ", %zu of them on pointers only inferred (each group's pointer line says how to confirm)",
            v->groups_inferred);
    replays_part(&v->cov, hv_coverage_unchecked(&v->cov) ? " found in the " : "; ", buf, cap, &used);
    hostcheck_part(&v->cov, buf, cap, &used);
}

/* The input could not support a verdict: say so, and what was read. */
static void not_analyzed_text(FILE *out, const struct hv_findings *s, const struct hv_verdict *v, const char *line)
{
    fprintf(out, "verdict: %s", line);
    if (!v->unusable && s->ntraces)
        fprintf(out, "; the findings above cover the %zu trace%s read", s->ntraces, plural(s->ntraces));
    fprintf(out, ": exit status %d\n", HV_EXIT_UNUSABLE);
}

void hv_verdict_text(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o)
{
    struct hv_verdict v;
    hv_verdict_of(&v, s, o);
    char line[2048];
    hv_verdict_line(&v, o, line, sizeof line);
    if (!v.analyzed) {
        not_analyzed_text(out, s, &v, line);
        return;
    }
    if (o->fail_on > HV_SEV_NONE) {
        fprintf(out, "verdict: %s\n", line);
    } else if (hv_coverage_unchecked(&v.cov)) {
        /* No verdict line to carry it: the replays it could not check. */
        size_t used = 0;
        line[0] = '\0';
        replays_part(&v.cov, "", line, sizeof line, &used);
        fprintf(out, "coverage: %s\n", line);
    }
    /* Eager launches HIPVIS_LAUNCH_EVERY left without their kernel and
     * arguments (one in 16 carries them past each thread's first 4096, by
     * default): under the verdict, so that "0 bugs" is never read as
     * covering launches the trace does not describe. */
    if (v.cov.launches_unsampled)
        fprintf(out, "coverage: %" PRIu64 " of %" PRIu64 " launches were recorded without their kernel and arguments "
                     "(HIPVIS_LAUNCH_EVERY): a hazard whose only reader or writer is one of them is not seen; "
                     "to see every launch, trace again with HIPVIS_LAUNCH_EVERY=1\n",
                v.cov.launches_unsampled, v.cov.launches);
    /* HIPVIS_HOSTCHECK sees a host access only to memory it protected:
     * "0 bugs" must not read as "the host never touched in-flight memory"
     * where it protected not all of it, or lost accesses. */
    const struct hv_hostcheck_cov *h = &v.cov.hostcheck;
    if (hv_hostcheck_unchecked(h)) {
        hv_coverage_hostcheck_why(h, line, sizeof line);
        fprintf(out, "coverage: host-access check: %s\n", line);
    }
    if (h->traces_counted < h->traces)
        fprintf(out, "coverage: host-access check: %" PRIu64 " of %" PRIu64 " trace%s with the check hold no counts "
                     "record (the process did not reach exit): what it left unprotected there is not known\n",
                h->traces - h->traces_counted, h->traces, plural(h->traces));
}

void hv_verdict_json(struct hv_json *w, const struct hv_findings *s, const struct hv_report_opts *o)
{
    struct hv_verdict v;
    hv_verdict_of(&v, s, o);
    char line[2048];
    hv_verdict_line(&v, o, line, sizeof line);
    hv_json_kobj(w, "verdict");
    hv_json_kbool(w, "analyzed", v.analyzed);
    hv_json_ki64(w, "exit_status", v.exit_status);
    hv_json_ku64(w, "unchecked_replays", hv_coverage_unchecked(&v.cov));
    /* No count where none was made: a reader must not take null for 0. */
    if (v.analyzed && o->fail_on > HV_SEV_NONE)
        hv_json_ku64(w, "bugs", v.bugs);
    else
        hv_json_knull(w, "bugs");
    hv_json_kstr(w, "text", line);
    hv_json_obj_end(w);
    hv_coverage_json(w, &v.cov);
}
