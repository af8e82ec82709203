/*
 * run — the one loop from a trace file to the analyzer: opens the trace
 * through the format reader, feeds every record to a fresh engine (or only
 * to the caller, for an index that needs no model), reads on after a
 * corrupt frame as the reader allows, finishes the engine with what the
 * input was like (footer drops, read problems, reader-inferred loss) and
 * adds the trace's summary to the findings. hipvis-analyze, `hipvis
 * experiment` and the forensics indexes (value search, names, stacks) all
 * read traces through it, so they see the same records the same way.
 *
 *     struct hv_run_opts o = {.out = &findings, .ctx = me, .record = on_rec,
 *                             .record_types = HV_RUN_EVERY_RECORD};
 *     struct hv_run r;
 *     int status = hv_run_file(path, name, &o, &r);   // 0, or 2: unreadable
 *
 * The hooks see the trace through `struct hv_run` while it is read: the
 * reader (strings), the header, the engine (its model).
 */
#ifndef HV_ANALYZE_RUN_H
#define HV_ANALYZE_RUN_H

#include <stdint.h>

#include "analyze/engine.h"
#include "analyze/findings.h"
#include "hipvis/reader.h"

/* record_types: every record, each right after the engine applied it. */
#define HV_RUN_EVERY_RECORD UINT64_MAX

/* One trace as it is read, then what came of it. */
struct hv_run {
    const char *path;                 /* what is opened */
    const char *name;                 /* what findings and reports call it */
    struct hv_reader *rd;             /* NULL when the trace could not be opened */
    const struct hv_file_header *hdr; /* valid while rd is open */
    struct hv_engine *e;              /* NULL with records_only */
    /* The result (complete when `end` runs, except status). */
    int status;                       /* 0, or 2: unusable input (not a trace, corrupt, I/O, memory) */
    int damaged;                      /* a read problem met (truncation included) */
    uint64_t records;                 /* records delivered (the engine's count when it runs) */
    uint64_t seen;                    /* record types delivered: bit type % 64 */
    struct hv_input_health health;    /* what hv_engine_finish was told */
    struct hv_reader_stats stats;
    char first_what[sizeof((struct hv_read_error *)0)->what];   /* health.what */
};

struct hv_run_opts {
    /* Findings of the engine and the trace's summary; NULL: a private store
     * dropped at the end (a pass that only wants the model). */
    struct hv_findings *out;
    int records_only;                 /* no engine: the hooks see the records alone */
    uint32_t rules_disabled;          /* bit (1u << enum hv_rule_id) turns a rule off */
    struct hv_engine_observer obs;    /* the engine's observers (obs.ctx their own) */
    void *ctx;                        /* for the hooks below */
    /* After the engine is made, before the first record. Nonzero: read no
     * record (a look at the header alone). */
    int (*begin)(void *ctx, struct hv_run *r);
    /* A delivered record whose type is in record_types (bit type, < 64).
     * With HV_RUN_EVERY_RECORD each comes right after the engine applied
     * it; with fewer types the engine may take a whole batch first (the
     * fast path: the hook must look at the record, not at the model).
     * Nonzero: stop reading. */
    int (*record)(void *ctx, struct hv_run *r, const struct hv_rec_header *rec);
    uint64_t record_types;
    /* Each read problem, as it is met; r->rd is NULL when the trace could
     * not be opened at all. */
    void (*problem)(void *ctx, const struct hv_run *r, const struct hv_read_error *e);
    /* The last record read and the engine finished (health findings in),
     * the reader still open; the summary is added to `out` after it. */
    void (*end)(void *ctx, struct hv_run *r);
};

/* Reads one trace (path; name labels it, NULL: the path). Fills *r and
 * returns r->status. */
int hv_run_file(const char *path, const char *name, const struct hv_run_opts *o, struct hv_run *r);

/* The reader's string table as the model's and the exports' string hook
 * (ctx: the struct hv_reader). */
const char *hv_run_string(void *rd, uint32_t id);

#endif
