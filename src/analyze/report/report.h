/*
 * report — renderers of the findings store: human text, JSON (schema in
 * docs/analysis.md), Perfetto/Chrome trace-event JSON, and the --graphs
 * inventory. Rules never print; these are the only writers of output.
 */
#ifndef HV_ANALYZE_REPORT_REPORT_H
#define HV_ANALYZE_REPORT_REPORT_H

#include <stdio.h>

#include "analyze/engine.h"
#include "analyze/findings.h"
#include "analyze/report/view.h"
#include "common/json.h"

/* An input that could not be read (or read fully): the JSON report's
 * "errors" array, so that --json output says why the exit status is 2. */
struct hv_report_error {
    const char *path;
    const char *status;   /* reader status name, or "unusable" for an operand */
    uint64_t offset;      /* byte offset of the problem, 0 when not applicable */
    const char *what;
};

struct hv_report_opts {
    int fail_on;        /* enum hv_severity threshold, for the verdict line */
    int fail_on_unchecked;  /* unchecked replays make the verdict's exit status 3 (verdict.h) */
    int all;            /* list every occurrence of each group */
    int verbose;
    /* Optional: more about one side of a finding (its caller stack, from
     * src/analyze/forensics/stacks_index.c). JSON: write members (key and
     * value) into the side's object; text: write whole lines. NULL: nothing. */
    void (*side_json)(void *ctx, struct hv_json *w, const struct hv_finding *f, const struct hv_fside *s);
    void (*side_text)(void *ctx, FILE *out, const struct hv_finding *f, const struct hv_fside *s);
    void *side_ctx;
    /* Optional: what the program calls the finding's buffer (names_index.c):
     * JSON members inside "buffer", text before its address range; a line
     * after the ops ("python   written at ..., replayed at ..."); lines
     * after a trace's summary. NULL: nothing. */
    void (*buffer_json)(void *ctx, struct hv_json *w, const struct hv_finding *f);
    void (*buffer_text)(void *ctx, FILE *out, const struct hv_finding *f);
    void (*finding_text)(void *ctx, FILE *out, const struct hv_finding *f);
    void (*trace_text)(void *ctx, FILE *out, uint64_t pid);
    void *names_ctx;
    /* Optional: called before the JSON document closes, to append members
     * (--diagnose: "diagnoses":[...]). NULL: none. */
    void (*json_extra)(struct hv_json *w, const void *ctx);
    const void *json_extra_ctx;
    const struct hv_report_error *errors;
    size_t nerrors;
};

void hv_report_text(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o);
/* The JSON document, then a newline. */
void hv_report_json(FILE *out, const struct hv_findings *s, const struct hv_report_opts *o);
/* The same document as a value of `w` (the HTML page's data holds it). */
void hv_report_json_write(struct hv_json *w, const struct hv_findings *s, const struct hv_report_opts *o);
/* The members of one group's object in the "findings" array, without the
 * report-level "bug" index, into the object open in `w` (the sidecar's
 * alert lines add theirs). */
void hv_report_json_group(struct hv_json *w, const struct hv_group *g, const struct hv_report_opts *o);

/* --graphs: one exec's inventory (nodes, edges, roots, longest path, max
 * out-degree, host/event nodes, collective kernels). */
void hv_report_graph(FILE *out, const struct hv_model *m, uint32_t exec);

/* Perfetto export, streamed while the engines run: install
 * hv_perfetto_observer() on each engine and hv_perfetto_on_finding as the
 * findings observer. One process track per traced pid, one thread track
 * per stream (plus one for host syncs). */
struct hv_perfetto;
/* view: window and clock (NULL: everything, monotonic). */
struct hv_perfetto *hv_perfetto_open(FILE *out, const struct hv_view *view);
/* Starts the next trace (process): names it, sets its clock offset. */
void hv_perfetto_begin_trace(struct hv_perfetto *p, const struct hv_file_header *hdr,
                             const char *(*string)(void *ctx, uint32_t id), void *string_ctx);
struct hv_engine_observer hv_perfetto_observer(struct hv_perfetto *p);
/* Every record as read (guard insertions, regions and marks are records, not calls). */
void hv_perfetto_record(struct hv_perfetto *p, const struct hv_rec_header *rec);
void hv_perfetto_on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new);
/* Closes the JSON document; returns 0 or -1 on a write error. Frees p. */
int hv_perfetto_close(struct hv_perfetto *p);

/* Opens an export for writing; a name ending in ".gz" is gzip-compressed
 * (gzout.c; links zlib). */
FILE *hv_report_fopen(const char *path);

#endif
