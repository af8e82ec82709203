/*
 * LTTng-UST tracepoint provider for bench_intercept's comparison arm: one
 * event per hipMemcpyAsync with what hipvis's call record holds for it (the
 * arguments and the result; LTTng adds its own timestamp, and the bench
 * adds the vtid context), so both tracers record the same facts per call.
 * Built only where liblttng-ust-dev is installed (tests/bench/module.mk).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER hipvis_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_tp.h"

#if !defined(HIPVIS_BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define HIPVIS_BENCH_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(
    hipvis_bench, memcpy_async,
    LTTNG_UST_TP_ARGS(const void *, dst, const void *, src, uint64_t, bytes, int, kind, const void *, stream,
                      int, result),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer_hex(uintptr_t, dst, (uintptr_t)dst)
        lttng_ust_field_integer_hex(uintptr_t, src, (uintptr_t)src)
        lttng_ust_field_integer(uint64_t, bytes, bytes)
        lttng_ust_field_integer(int, kind, kind)
        lttng_ust_field_integer_hex(uintptr_t, stream, (uintptr_t)stream)
        lttng_ust_field_integer(int, result, result)
    )
)

#endif

#include <lttng/tracepoint-event.h>
