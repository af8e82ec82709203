/*
 * scenarios — the acceptance scenarios of issue 3 as synthetic traces,
 * modelled on what the tracer records for the decode loop of ROCm/hip#3902:
 * a pinned H2D copy of cu_seqlens_q (513 x int32) into a device buffer,
 * then hipGraphLaunch of an exec whose kernel node reads that buffer through
 * argument 0. Shared by the rule tests, the file/CLI tests and the bench.
 */
#ifndef HV_TESTS_ANALYZE_SCENARIOS_H
#define HV_TESTS_ANALYZE_SCENARIOS_H

#include "tbuild.h"

#define SC_POOL       0x7f0000000000ull  /* 1 MiB device allocation (a pool segment) */
#define SC_POOL_BYTES (1ull << 20)
#define SC_BUF        (SC_POOL + 0x1000) /* cu_seqlens_q */
#define SC_BUF_BYTES  2052ull            /* 513 x int32 */
#define SC_TOKENS     (SC_POOL + 0x10000)
#define SC_OUT        (SC_POOL + 0x20000)
#define SC_ELSEWHERE  0x7c0000000000ull  /* device memory no graph argument reaches */
#define SC_PINNED     0x7e0000000000ull  /* hipHostMalloc'ed source */
#define SC_EXEC       0x5500ull
#define SC_MAIN       0x9100ull          /* explicit streams */
#define SC_SIDE       0x9200ull
#define SC_EVENT      0xe100ull
#define SC_KERNEL_ID  1u                 /* name id of the reading kernel */
#define SC_KERNEL     "_convert_req_index_to_global_index_kernel"

/* Allocations, kernel name, and the exec (one kernel node reading SC_BUF as
 * arg 0, SC_TOKENS as arg 1, writing SC_OUT as arg 2). */
void sc_setup(struct tb *t);

/* Decode loop on one stream: copy then replay, `steps` times; with
 * `sync_between`, a stream synchronize between copy and replay. */
void sc_decode_loop(struct tb *t, uint64_t stream, int steps, int sync_between);

/* The copy runs on a second stream; with `wait`, an event recorded after it
 * is waited on by the replay's stream. */
void sc_side_stream_copy(struct tb *t, int steps, int wait);

/* Replay, then the captured buffer's allocation is freed and allocated
 * again at the same address, then replay again. With `reinstantiate`, the
 * exec is instantiated again after the re-allocation (the fix). */
void sc_stale_capture(struct tb *t, int reinstantiate);

/* One step of a busy decode loop (~14 records): pinned H2D copies, an eager
 * kernel, a replay of exec (exec0 + i % nexec) on the legacy stream, an
 * event hand-off to SC_SIDE with a D2D and a D2H copy, an event sync; every
 * 16th step a stream sync, every 64th a temp alloc/free. The analyzer
 * bench and the HTML report's trace generator share it. */
void sc_busy_step(struct tb *t, uint64_t i, uint64_t exec0, int nexec);

#endif
