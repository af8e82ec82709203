/*
 * hipvis-analyze's work once its options are parsed (tools/hipvis-analyze.c
 * is the thin main): each input through hv_run_file (src/analyze/run.h)
 * into one findings store, with --diagnose, --graphs and the timeline
 * exports fed while it is read; then the names and stacks of the findings,
 * the text or JSON report, the Perfetto and HTML files, --stats; or the
 * --find-value search instead.
 *
 * Not part of libhvanalyze.a, which the sidecar links: this pulls in
 * --diagnose (code objects, libLLVM) and the forensics (libelf).
 */
#ifndef HV_ANALYZE_CMD_ANALYZE_H
#define HV_ANALYZE_CMD_ANALYZE_H

#include <stdint.h>

#include "analyze/report/view.h"
#include "cli/inputs.h"

struct hv_analyze_opts {
    int json, all, graphs, stats;
    int fail_on;
    int no_fail_on_unchecked;     /* --no-fail-on-unchecked: what was not checked leaves the exit status 0 */
    const char *perfetto, *html;
    struct hv_view view;          /* --window, --clock (timeline exports) */
    uint64_t html_max_ops;
    uint32_t rules_disabled;
    const char *find_value, *at, *replay;  /* value search (src/analyze/forensics) */
    int diagnose;
    int errata;                   /* --errata: print the runtime errata table and exit */                 /* ranked hypotheses per same-epoch-write group */
    const char **code_objects;    /* --code-object FILE (repeatable) */
    int ncode_objects;
    /* Inputs after expansion (src/cli/inputs.c): files to read, and the
     * name each is reported under ("-" is read from a private copy of stdin). */
    struct hv_inputs in;
};

/* Runs the analysis the options ask for; returns the exit status
 * (report/verdict.h): 0 no finding at or above --fail-on and every replay
 * checked, 1 findings (--find-value: not found), 2 unreadable input, an
 * unusable run or a failed write, 3 replays, or operations of the
 * host-access check, not checked (unless --no-fail-on-unchecked). */
int hv_analyze_cmd(const struct hv_analyze_opts *o);

#endif
