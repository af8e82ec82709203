/*
 * engine — feeds trace records into the model and runs the rules.
 *
 * One engine per traced process. It is incremental: hv_engine_feed() takes
 * one record at a time, in the reader's seq order, and findings appear in
 * the shared `struct hv_findings` as soon as they are known. hipvis-analyze
 * drives it from a file reader; the sidecar drives it from shared
 * memory rings and may read findings/summary at any point:
 *
 *     struct hv_findings out;  hv_findings_init(&out);
 *     struct hv_engine *e = hv_engine_new(&hdr, "rank0", &out, NULL, &hooks, NULL);
 *     while (next record r)  hv_engine_feed(e, r);      // any time: out.groups
 *     hv_engine_finish(e, &health);                     // input-health findings,
 *     hv_findings_add_trace(&out, hv_engine_summary(e)); // summary for reports
 *     hv_engine_free(e);
 *
 * Records must arrive in seq order with a call's auxiliary records (graph
 * nodes, edges, kernel args) right after it, which is what hv_reader_next()
 * delivers. Records shorter than the current layout are zero-extended.
 */
#ifndef HV_ANALYZE_ENGINE_H
#define HV_ANALYZE_ENGINE_H

#include <stdint.h>

#include "analyze/findings.h"
#include "analyze/model/model.h"
#include "analyze/rules/rules.h"
#include "hipvis/trace.h"

struct hv_engine_options {
    uint32_t rules_disabled;     /* bit (1u << enum hv_rule_id) turns a rule off */
    uint64_t blit_max_bytes;     /* 0: GPU_FORCE_BLIT_COPY_SIZE from the header knobs, else 16 KiB */
};

/* Optional observers (Perfetto export, --graphs). Called after the model
 * has applied the record. */
struct hv_engine_observer {
    void *ctx;
    /* A successful, non-captured call was applied on stream index s
     * (HV_NO_INDEX when the call has no stream). */
    void (*call)(void *ctx, const struct hv_model *m, const struct hv_call *c, uint32_t s);
    /* A graph exec's inventory is complete (instantiate or update). */
    void (*graph)(void *ctx, const struct hv_model *m, uint32_t exec);
};

struct hv_engine;

/* hdr may be NULL (pid 0, default knobs). name labels the trace in reports. */
struct hv_engine *hv_engine_new(const struct hv_file_header *hdr, const char *name, struct hv_findings *out,
                                const struct hv_engine_options *opt, const struct hv_model_hooks *hooks,
                                const struct hv_engine_observer *obs);
void hv_engine_feed(struct hv_engine *e, const struct hv_rec_header *rec);
/* recs[0..n) in order, exactly as n hv_engine_feed calls: one call per
 * batch, so the per-record call overhead stays inside the engine. Returns
 * the batch's record types (bit type % 64 set for each). */
uint64_t hv_engine_feed_batch(struct hv_engine *e, const struct hv_rec_header *const *recs, size_t n);
/* The caller's promise that a record it feeds stays readable until it next
 * calls hv_engine_keep (e.g. a reader batch, until the next batch is asked
 * for): the engine then keeps the last call by pointer, not by a copy of
 * every call. hv_engine_keep copies what may still be needed. */
void hv_engine_records_stable(struct hv_engine *e);
void hv_engine_keep(struct hv_engine *e);
/* End of input: completes pending inventories and runs the input-health
 * rules. `in` may be NULL (clean end, nothing dropped). */
void hv_engine_finish(struct hv_engine *e, const struct hv_input_health *in);
/* Repeats of known findings are counted lazily (engine_join.c); call this
 * before reading group counts while the engine is still being fed. */
void hv_engine_sync_findings(struct hv_engine *e);
const struct hv_trace_summary *hv_engine_summary(const struct hv_engine *e);
const struct hv_model *hv_engine_model(const struct hv_engine *e);
void hv_engine_free(struct hv_engine *e);

/* Value of NAME in a "NAME=value;NAME=value" knobs string, copied to buf;
 * returns buf or NULL when absent. */
const char *hv_knob(const char *knobs, const char *name, char *buf, size_t len);
/* 1 when NAME is set to exactly `value`. */
int hv_knob_is(const char *knobs, const char *name, const char *value);
/* 1 and *v when NAME is set to a number (strtoull, any base prefix). */
int hv_knob_u64(const char *knobs, const char *name, uint64_t *v);
/* The parallel queues the HIP runtime spreads a graph over:
 * DEBUG_HIP_FORCE_GRAPH_QUEUES, 4 when unset, 0 read as 1. */
uint32_t hv_knob_graph_queues(const char *knobs);

#endif
