/*
 * hipvis run's end lines: the trace files the run made, each with the
 * totals its footer holds, and the hipvis-analyze command to run next.
 *
 *   hipvis: trace /t/hipvis.1234.zst: 1,013 calls, 82,114 records, 0 dropped; next: hipvis-analyze /t/hipvis.1234.zst
 *
 * A run's files are those that HIPVIS_OUTPUT's template can name (%p and %h
 * any text, the ".N" a taken name gets) and that were not there before the
 * launch: traces are created exclusively (src/format/trace_path.c), so a
 * name that existed is never a file of this run. The footers are read from
 * the files' last bytes (hv_reader_footer_peek), not by decompressing them.
 */
#ifndef HIPVIS_CLI_LAUNCH_SUMMARY_H
#define HIPVIS_CLI_LAUNCH_SUMMARY_H

#include <stdio.h>

struct hv_launch_traces;

/* The names the template `tmpl` matches now, before the launch; NULL when
 * the template's directory has a % in it (host or pid directories: nothing
 * one listing can follow) or memory ran out. */
struct hv_launch_traces *hv_launch_traces_before(const char *tmpl);

/* After the command: one line per new trace (for more than 8, those that
 * lost records or did not finish, and a total), the next command, on
 * `out`; frees t. NULL prints nothing. */
void hv_launch_summary(struct hv_launch_traces *t, FILE *out);

/* Frees t without a word (the command never ran). */
void hv_launch_traces_free(struct hv_launch_traces *t);

#endif
