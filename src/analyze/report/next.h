/*
 * next: what to do about a finding, from what the trace supports — the
 * command that ranks its causes (--diagnose), the A/B run that tests them
 * (hipvis experiment), the HIPVIS_GUARD pattern to try without editing the
 * program, the evidence the trace lacks (rerun with), and the change to
 * make in the program. Shared by the text and JSON reports so both say the
 * same thing; docs/triage.md explains each rule at length.
 */
#ifndef HV_ANALYZE_REPORT_NEXT_H
#define HV_ANALYZE_REPORT_NEXT_H

#include "analyze/findings.h"

struct hv_next {
    int diagnose;            /* hipvis-analyze --diagnose TRACE ranks its causes */
    int experiment;          /* hipvis experiment -o DIR -- CMD tests them by A/B runs */
    const char *guard;       /* HIPVIS_GUARD mode to try, or NULL */
    const char *guard_why;
    const char *rerun;       /* NAME=value to rerun with for missing evidence, or NULL */
    const char *rerun_why;
    const char *fix;         /* the change to make in the program, or NULL */
    /* A pointer argument only inferred, with no code object to confirm it
     * from (analyze/diagnose/confirm.h): hipvis-analyze --code-object FILE
     * TRACE, and/or a rerun that stores the kernel's code object. */
    int code_object;
    const char *confirm_why;
    const char *store;       /* NAME=value, or NULL */
    const char *store_why;
};

/* `t` is the finding's trace (NULL when unknown: no evidence advice). */
void hv_next_steps(const struct hv_finding *f, const struct hv_trace_summary *t, struct hv_next *n);

/* The trace of a pid in the store, or NULL. */
const struct hv_trace_summary *hv_trace_of(const struct hv_findings *s, uint64_t pid);

/* The shell-quoted form of a path, for commands the user pastes. */
const char *hv_shell_quote(const char *s, char *buf, size_t len);

/* The traced command line, each argument shell-quoted, or NULL when the
 * trace did not record it (older trace, HIPVIS_RECORD_ARGV=0) or it does not
 * fit in buf. *truncated: arguments past 4 KiB were not recorded. */
const char *hv_command_text(const struct hv_trace_summary *t, char *buf, size_t len, int *truncated);

/* The `hipvis experiment` command line for the trace's program: its
 * recorded command, else "EXE ARGS...". */
const char *hv_experiment_command(const struct hv_trace_summary *t, char *buf, size_t len);

#endif
