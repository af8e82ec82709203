/*
 * Streaming analysis of one process: the analyzer's engine
 * (analyze/engine.h) fed record by record as the sidecar drains the rings.
 *
 * The engine needs records in seq order, but rings are per thread: a drain
 * cycle yields one sorted run per ring. Records staged in drain cycle k are
 * fed at the end of cycle k+1, once they are all below the highest seq seen
 * by the end of cycle k: a thread takes its seq and commits its record
 * within one call, so by then every smaller seq has been drained, unless
 * its thread was preempted mid-call for a whole cycle. Such a record is fed
 * late (out of order) and counted, like the reader's reorder window does.
 * Memory: two cycles of one process's records.
 */
#ifndef HV_SIDECAR_STREAM_H
#define HV_SIDECAR_STREAM_H

#include <stdint.h>

#include "analyze/engine.h"
#include "hipvis/trace.h"

struct sc_stream;

/* A finding group appeared for the first time. */
typedef void (*sc_new_group_fn)(void *ctx, const struct hv_group *g);

/* cycle_bytes: the usual volume of one drain cycle (the ring size), to size
 * the staging buffers up front. */
struct sc_stream *sc_stream_new(const struct hv_file_header *hdr, const char *label, uint32_t rules_disabled,
                                size_t cycle_bytes, sc_new_group_fn on_new, void *ctx);
/* Copies a drained record into the current cycle; the copy is what the
 * engine will see, so the caller may fix it up (timestamps). NULL when out of
 * memory (the record then goes unanalyzed, counted). */
struct hv_rec_header *sc_stream_stage(struct sc_stream *s, const struct hv_rec_header *rec);
/* End of a drain cycle: feeds what is now in order. */
void sc_stream_cycle(struct sc_stream *s);
/* End of input: feeds everything and runs the input-health rules. */
void sc_stream_finish(struct sc_stream *s, const struct hv_input_health *in);
const struct hv_findings *sc_stream_findings(const struct sc_stream *s);

struct sc_stream_stats {
    uint64_t fed, late, unanalyzed;
    uint64_t launches_undrawn;   /* fed eager launches without kernel and arguments (HIPVIS_LAUNCH_EVERY) */
    uint64_t replays, replays_unchecked, unknown_layout_nodes, inferred_args;   /* analyze/coverage.h */
};
void sc_stream_stats(const struct sc_stream *s, struct sc_stream_stats *out);
void sc_stream_free(struct sc_stream *s);

#endif
