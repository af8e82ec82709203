/*
 * forensics — evidence questions asked of a trace after the fact
 * (hipvis-analyze only; docs/evidence.md):
 *
 *   value search   --find-value V --at ADDR[:LEN] | kernel:NAME:ARG [--replay SEQ]
 *                  every recorded write that put V at that address, with
 *                  its epoch distance to a replay that reads it
 *   stacks         the caller stack of a finding's ops (HIPVIS_STACKS=1
 *                  traces), symbolized from the memory maps in the trace
 *                  and the ELF symbol tables of the files on disk
 *
 * Not part of libhvanalyze.a (the sidecar links that): symbolization needs
 * libelf.
 */
#ifndef HV_ANALYZE_FORENSICS_FORENSICS_H
#define HV_ANALYZE_FORENSICS_FORENSICS_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/findings.h"
#include "analyze/report/report.h"
#include "hipvis/reader.h"
#include "hipvis/trace.h"

/* ---- value search (value_*.c) ---- */

struct hv_value_query {
    const char *value;           /* --find-value V[:W], W in 1,2,4,8 bytes (default 4) */
    const char *at;              /* --at ADDR[:LEN] or kernel:NAME:ARG */
    const char *replay;          /* --replay SEQ, or NULL: the last replay reading the range */
    int json;
};

/* Runs the search over each trace and prints the report to `out`.
 * Returns 0 when V was found, 1 when not, 2 on a bad query or unreadable
 * input (after a message on stderr). */
int hv_value_search(const struct hv_value_query *q, const char *const *traces, int ntraces, FILE *out);

#include "common/grow.h"   /* HV_GROW */

/* Calls fn(ctx, seq) for both ops of every finding group of process `pid`
 * (each group's first occurrence; seqs 0 skipped). */
void hv_findings_each_op(const struct hv_findings *s, uint64_t pid, void (*fn)(void *ctx, uint64_t seq), void *ctx);

/* ---- stacks (stacks_*.c) ---- */

struct hv_stack_index;

/* Reads the stacks and memory maps of every trace that has them, for the
 * ops the findings name (first occurrence of each group), and symbolizes
 * them. NULL when no trace has stacks (or out of memory). */
struct hv_stack_index *hv_stacks_for_findings(const struct hv_findings *s, const char *const *traces, int ntraces);
/* Report hooks: a side's stack as a JSON member / text lines. */
void hv_stacks_install(struct hv_stack_index *x, struct hv_report_opts *o);
void hv_stacks_free(struct hv_stack_index *x);

/* ---- names, Python lines, regions (names_index.c) ---- */

struct hv_names_index;

/* Collects the names (hipvis_name), Python stacks, marks and kernel
 * argument names of every trace while the analyzer reads it (one read of the
 * trace serves both), then resolves them for the findings' buffers and ops:
 *   x = hv_names_new();
 *   per trace: hv_names_begin(x, path, header); hv_names_feed(x, rd, rec) for
 *              each delivered record whose type is in HV_NAMES_TYPES;
 *              hv_names_end(x, types seen);
 *   hv_names_resolve(x, findings): nonzero when any trace had any; then
 *   hv_names_install. A trace that opens regions is read once more, only
 *   when the findings name ops in it (their threads). */
struct hv_names_index *hv_names_new(void);
int hv_names_begin(struct hv_names_index *x, const char *path, const struct hv_file_header *h);  /* 0, -1 memory */
void hv_names_feed(struct hv_names_index *x, struct hv_reader *rd, const struct hv_rec_header *rec);
void hv_names_end(struct hv_names_index *x, uint64_t seen);
int hv_names_resolve(struct hv_names_index *x, const struct hv_findings *s);
#define HV_NAMES_TYPES (1ull << HV_REC_PYSTACK | 1ull << HV_REC_NAME | 1ull << HV_REC_MARK | 1ull << HV_REC_KARG_NAMES)
/* Whether a trace whose record types are `seen` (bit t set: a record of type
 * t, t < 64, was read) holds anything hv_names_feed collects. */
int hv_names_wanted(uint64_t seen);
/* Report hooks: buffer names, per-op Python lines and regions; chains the
 * side hooks installed before (caller stacks). */
void hv_names_install(struct hv_names_index *x, struct hv_report_opts *o);
void hv_names_free(struct hv_names_index *x);

#endif
