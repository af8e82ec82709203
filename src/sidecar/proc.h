/*
 * One traced process as the sidecar handles it: its segment, its trace
 * files, its streaming analysis, and the drain cycle that moves records from
 * the first to the other two.
 *
 * A drain cycle reads every ring from the sidecar's read position to head
 * (copying each record out, converting its timestamp, appending it to the
 * trace and staging it for analysis), flushes the trace, and only then
 * releases the ring space and advances the segment's `released` count: a
 * record leaves the ring only once it is in the file.
 *
 * A process whose trace file cannot be created (output directory gone,
 * read-only, full) is "stalled": its rings are not read at all, so its
 * records stay in the segment, the producer counts what no longer fits as
 * ring drops, and the segment is never finalized or unlinked. The open is
 * retried every SC_OUTPUT_RETRY_NS; a sidecar that stops leaves the segment
 * for the next one.
 */
#ifndef HV_SIDECAR_PROC_H
#define HV_SIDECAR_PROC_H

#include <stdint.h>

#include "ring/clock.h"
#include "sidecar/metrics.h"
#include "sidecar/output.h"
#include "sidecar/segment.h"

struct sc_stream;
struct sc_alerts;

struct sc_proc_cfg {
    struct sc_output_cfg out;
    int analyze;                  /* streaming analysis on */
    uint32_t rules_disabled;
    uint64_t closed_grace_ns;     /* a CLOSED segment of a live pid is final after this */
    struct sc_alerts *alerts;
};

struct sc_proc {
    const struct sc_proc_cfg *cfg;
    struct sc_segment seg;
    struct sc_output out;
    struct sc_stream *an;
    struct hv_clock_cal cal;
    uint64_t *pos;                /* [nslots] read position per ring, UINT64_MAX before first use */
    uint32_t *state_before;       /* [nslots] ring state read before this cycle's read */
    uint8_t *scratch;             /* one record, when analysis is off or out of memory */
    uint64_t cycle_records, cycle_bytes;
    uint64_t fill_max;            /* fullest ring of the last cycle, bytes */
    struct sc_counts last;        /* the segment's counters at the last drain */
    uint64_t closed_since_ns;
    int faulted;                  /* SIGBUS while reading: segment abandoned */
    int stalled;                  /* no trace file could be opened: the rings are left unread */
    int final;
    char exe[128];                /* basename, for labels */
    struct sc_proc_metrics m;
};

/* Takes over an opened segment (on failure the segment is closed). */
struct sc_proc *sc_proc_new(const struct sc_proc_cfg *cfg, struct sc_segment *seg);
/* One drain cycle. Returns records drained; raises *fill to the fullest
 * ring's fill ratio found (0..1), which sets the next wait. */
uint64_t sc_proc_cycle(struct sc_proc *p, double *fill);
/* 1 when the process is over: its pid is gone and the last cycle drained
 * nothing, or its segment has been CLOSED for the grace period. */
int sc_proc_is_over(struct sc_proc *p, uint64_t now_ns);
/* Rotates the trace file when it is due. Returns 1 when it rotated. */
int sc_proc_maybe_rotate(struct sc_proc *p, uint64_t now_ns);
/* Last drain, footer, analysis finish. `final`: the process is gone (the
 * segment is then unlinked); else (sidecar shutting down) the segment stays
 * for the next sidecar. A stalled process is never final: its segment
 * stays, undrained. */
void sc_proc_end(struct sc_proc *p, int final);
/* Fresh counters for metrics. */
const struct sc_proc_metrics *sc_proc_metrics(struct sc_proc *p);
const char *sc_proc_trace_path(const struct sc_proc *p);
void sc_proc_free(struct sc_proc *p);

#endif
