/*
 * view — which stretch of a trace the timeline exports (--perfetto,
 * --html) show, and on which clock. Shared by both writers so that a window
 * or clock given once means the same in both.
 *
 *   --window SEQ_A:SEQ_B       calls with seq in [A, B]
 *   --window T_A:T_B           T = number + unit (ns|us|ms|s), relative to each
 *                              trace's start (header start_ns), e.g. 1.5s:2s
 *   --clock monotonic          CLOCK_MONOTONIC as recorded (default)
 *   --clock realtime           Unix time (ts - start_ns + start_realtime_ns)
 *   --clock offset=NS          monotonic + NS (signed)
 *   --clock base=NS            Unix time - NS: torch.profiler's Chrome trace
 *                              counts ts (us) from its "baseTimeNanoseconds"
 *   --clock torch=FILE         base= read from that torch.profiler trace
 *
 * The analysis itself always sees the whole trace: a window only cuts what
 * the timeline draws (a finding needs the writes before it).
 */
#ifndef HV_ANALYZE_REPORT_VIEW_H
#define HV_ANALYZE_REPORT_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"

enum hv_view_clock { HV_VIEW_MONOTONIC = 0, HV_VIEW_REALTIME, HV_VIEW_OFFSET, HV_VIEW_BASE };

struct hv_view {
    uint64_t seq_lo, seq_hi;     /* inclusive; 0..UINT64_MAX: everything */
    int64_t t_lo, t_hi;          /* ns from the trace's start, when has_time */
    int has_time;
    int clock;                   /* enum hv_view_clock */
    int64_t clock_arg;           /* offset=NS / base=NS */
};

void hv_view_init(struct hv_view *v);
/* Parse --window / --clock values. Return 0, or -1 with why in err. */
int hv_view_parse_window(struct hv_view *v, const char *s, char *err, size_t errlen);
int hv_view_parse_clock(struct hv_view *v, const char *s, char *err, size_t errlen);
/* Nanoseconds to add to a recorded ts_ns of this trace to get the output
 * clock. */
int64_t hv_view_offset(const struct hv_view *v, const struct hv_file_header *h);
/* Is a call (seq, recorded ts) of a trace that started at start_ns inside
 * the window? */
static inline int hv_view_in(const struct hv_view *v, uint64_t seq, uint64_t ts, uint64_t start_ns)
{
    if (seq < v->seq_lo || seq > v->seq_hi)
        return 0;
    if (v->has_time) {
        int64_t rel = (int64_t)(ts - start_ns);
        return rel >= v->t_lo && rel <= v->t_hi;
    }
    return 1;
}
/* One line describing the window and clock, for the outputs. */
const char *hv_view_text(const struct hv_view *v, char *buf, size_t len);

#endif
