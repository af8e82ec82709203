/*
 * TEST-ONLY LTTng-UST tracepoint provider for the format benchmark: one
 * event with what a hipvis copy record's core carries (addresses, size,
 * kind, stream), so babeltrace2 counts comparable events (lttng_loop.c).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER hvbench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(HV_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define HV_LTTNG_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(hvbench, call,
                 TP_ARGS(uint64_t, dst, uint64_t, src, uint64_t, bytes, int, kind, uint64_t, stream),
                 TP_FIELDS(ctf_integer_hex(uint64_t, dst, dst) ctf_integer_hex(uint64_t, src, src)
                               ctf_integer(uint64_t, bytes, bytes) ctf_integer(int, kind, kind)
                                   ctf_integer_hex(uint64_t, stream, stream)))

#endif

#include <lttng/tracepoint-event.h>
