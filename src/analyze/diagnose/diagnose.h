/*
 * diagnose — `hipvis-analyze --diagnose`: for each same-epoch-write group,
 * combine what the trace recorded into a ranked verdict among the
 * hypotheses of ROCm/hip#3902 (H1 parallel-queue ordering, host-race, H2
 * late or other writer, H3 cache scope, H4 graph truncation), with the
 * evidence for and against each, the observables that would confirm or
 * refute the leader, and the fix patterns that apply, cheapest first.
 *
 * Evidence used (each degrades to "not recorded" when absent):
 *  - three-point probes (HV_REC_PROBE, HIPVIS_PROBE) and host-source hashes
 *    (HV_REC_PAYLOAD, HIPVIS_PAYLOAD_BYTES): direct observations;
 *  - writers of the buffer on other streams or during a replay (the
 *    unordered-write / write-during-replay groups of the same trace);
 *  - the reader's placement on the runtime's queues (placement.h);
 *  - whether the reader loads the argument through the scalar cache
 *    (scalar_exposure.h, from the trace's code objects or --code-object);
 *  - the scheduling/cache knobs and the runtime version in the header;
 *  - guarded replays (HV_REC_GUARD, HIPVIS_GUARD).
 * Verdicts are computed from these records only; nothing here knows what
 * the traced program or a test double did.
 *
 * Driven by the tool alongside the engine: begin_trace, feed every record,
 * on_graph from the engine's graph observer, end_trace after
 * hv_engine_finish (the findings are complete then) and before the engine
 * is freed.
 */
#ifndef HV_ANALYZE_DIAGNOSE_DIAGNOSE_H
#define HV_ANALYZE_DIAGNOSE_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/findings.h"
#include "analyze/model/model.h"
#include "hipvis/trace.h"

struct hv_diag;
struct hv_sx;

/* `code`: where kernels are looked up (the --code-object files), borrowed
 * until hv_diag_free; each trace's own code objects join it while that
 * trace is read, and leave it at hv_diag_end_trace. */
struct hv_diag *hv_diag_new(struct hv_findings *out, struct hv_sx *code);
void hv_diag_free(struct hv_diag *d);

void hv_diag_begin_trace(struct hv_diag *d, const struct hv_file_header *hdr, const char *path,
                         const char *(*string)(void *, uint32_t), void *string_ctx);
void hv_diag_feed(struct hv_diag *d, const struct hv_rec_header *rec);
void hv_diag_on_graph(struct hv_diag *d, const struct hv_model *m, uint32_t exec);
/* `sum`: the engine's summary of the trace, finished (its counts, such as
 * the launches HIPVIS_LAUNCH_EVERY left without arguments, are read there,
 * not counted again). */
void hv_diag_end_trace(struct hv_diag *d, const struct hv_trace_summary *sum);

/* Number of diagnoses so far. */
size_t hv_diag_count(const struct hv_diag *d);
/* Diagnosis i in brief (hipvis experiment): the verdict's id ("H2", ...,
 * "undetermined"), whether it was observed, and the leading open
 * hypothesis's id (NULL when none is open). */
struct hv_diag_brief {
    const char *verdict, *lead;
    int observed;
    uint64_t pid, lo, hi;
};
void hv_diag_brief(const struct hv_diag *d, size_t i, struct hv_diag_brief *out);
/* Human report (after the findings). */
void hv_diag_text(FILE *out, const struct hv_diag *d);
/* The "diagnose" and "diagnoses" members of the JSON report, into its
 * open object (docs/analysis.md). */
struct hv_json;
void hv_diag_json(struct hv_json *w, const struct hv_diag *d);

#endif
