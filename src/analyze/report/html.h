/*
 * html — `hipvis-analyze --html FILE`: one self-contained page (no network:
 * scripts, styles and data inline, a Content-Security-Policy that forbids
 * fetching anything) with a timeline per process and stream, the findings
 * drawn as arrows from the write to the op that read it, each exec's graph
 * and the input-health figures. The script and style are
 * src/analyze/report/html/report.{js,css}, compiled in by the build
 * (embed.py). docs/analysis.md describes the page.
 *
 * Collected while the engines run, in bounded memory: the first
 * `max_detail` ops are kept one by one; after that only the ops around the
 * first occurrences of new finding groups, and every op is counted into a
 * per-track density histogram of fixed size, which is what the page draws
 * for the rest (it says how many ops that is). --window picks another
 * stretch for detail.
 */
#ifndef HV_ANALYZE_REPORT_HTML_H
#define HV_ANALYZE_REPORT_HTML_H

#include <stdio.h>

#include "analyze/engine.h"
#include "analyze/report/report.h"
#include "analyze/report/view.h"

#define HV_HTML_MAX_DETAIL 150000u   /* ops kept one by one by default: ~3 MB of page */

struct hv_html;
/* store: the findings the page reports (install hv_html_on_finding as its
 * observer); view: window and clock (NULL: everything, monotonic);
 * max_detail: 0 = default. */
struct hv_html *hv_html_open(const struct hv_findings *store, const struct hv_view *view, uint64_t max_detail);
/* string: the trace's string table (region and mark names); may be NULL. */
void hv_html_begin_trace(struct hv_html *h, const struct hv_file_header *hdr, const char *path,
                         const char *(*string)(void *ctx, uint32_t id), void *string_ctx);
/* Calls and complete graph inventories. */
struct hv_engine_observer hv_html_observer(struct hv_html *h);
void hv_html_on_graph(struct hv_html *h, const struct hv_model *m, uint32_t exec);
/* Every record as read: guard insertions, epoch advances, regions and marks. */
void hv_html_record(struct hv_html *h, const struct hv_rec_header *rec);
/* The trace's footer (drops by cause); NULL when it has none. */
void hv_html_footer(struct hv_html *h, const struct hv_file_footer *ft);
void hv_html_on_finding(void *ctx, const struct hv_finding *f, const struct hv_group *g, int is_new);
/* Writes the page. Returns 0 or -1 on a write error. */
int hv_html_write(struct hv_html *h, FILE *out, const struct hv_findings *s, const struct hv_report_opts *o);
void hv_html_free(struct hv_html *h);

/* The embedded assets (generated from html/). */
extern const char hv_html_css[], hv_html_js[];

#endif
