/*
 * verdict — what the analysis concludes, and the exit status that says it.
 *
 * One place decides it, from the findings store and the report options,
 * so that the text report's verdict line, the JSON report's "verdict" and
 * "coverage" members and hipvis-analyze's exit status cannot disagree:
 *
 *   not analyzed   an input could not be read, or no traced process did any
 *                  device work (UNUSABLE RUN): no "N bugs" claim at all; 2
 *   bugs           finding groups at or above --fail-on: 1
 *   unchecked      no such finding, but some replays could not be checked,
 *                  or the host-access check left in-flight operations
 *                  unprotected or lost accesses (coverage.h says why):
 *                  never a bare "0 bugs"; 3 unless --no-fail-on-unchecked
 *   clean          0
 */
#ifndef HV_ANALYZE_REPORT_VERDICT_H
#define HV_ANALYZE_REPORT_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/coverage.h"
#include "analyze/report/report.h"

/* hipvis-analyze's exit statuses (hipvis-analyze(1), docs/triage.md). */
enum {
    HV_EXIT_CLEAN = 0,
    HV_EXIT_FINDINGS = 1,      /* finding groups at or above --fail-on */
    HV_EXIT_UNUSABLE = 2,      /* unreadable input, an unusable run, a bad option, a failed write */
    HV_EXIT_UNCHECKED = 3,     /* no finding at or above --fail-on, but replays not checked or host-access
                                  check gaps (--fail-on-unchecked) */
};

struct hv_verdict {
    int analyzed;               /* 0: the inputs cannot support a verdict */
    int unusable;               /* no traced process did device work */
    size_t bugs, groups;        /* at or above fail_on (fail_on > none) */
    size_t groups_inferred;     /* of those groups, resting on a pointer only inferred */
    struct hv_coverage cov;
    int exit_status;            /* HV_EXIT_* */
};

/* The verdict on store s under o (fail_on, fail_on_unchecked, errors). */
void hv_verdict_of(struct hv_verdict *v, const struct hv_findings *s, const struct hv_report_opts *o);

/* The verdict in words, without "verdict: " (buf NUL-terminated, truncated):
 * "0 bugs (0 finding groups) at or above warning; 88 of 88 replays fully
 * checked", "not analyzed (...)". With --fail-on none and everything
 * analyzed: the bug count and the coverage, "no verdict (--fail-on none)". */
void hv_verdict_line(const struct hv_verdict *v, const struct hv_report_opts *o, char *buf, size_t cap);

/* The text report's tail: the verdict line (none with --fail-on none, unless
 * it says "not analyzed"), then the coverage lines of what it could not see. */
void hv_verdict_text(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o);

/* The JSON report's members `"verdict":{...},"coverage":{...}` (no comma before). */
struct hv_json;
void hv_verdict_json(struct hv_json *w, const struct hv_findings *s, const struct hv_report_opts *o);

#endif
