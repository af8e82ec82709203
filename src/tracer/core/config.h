/*
 * HIPVIS_* environment configuration, read once at start, through the one
 * table of variables (src/common/envtab.c: names, defaults, accepted
 * values); every feature of the tracer takes its settings from here, none
 * reads the environment itself. A bad value never aborts the traced
 * program: it is reported on stderr naming the variable and the accepted
 * values, and tracing is switched off (a guard's: guards only).
 */
#ifndef HIPVIS_CONFIG_H
#define HIPVIS_CONFIG_H

#include <stdint.h>

#include "hipvis/api.h"   /* HV_API__MAX */

/* HIPVIS_PYFRAMES: off ("0"); every site ("1": every call reads the
 * positions of its innermost Python frames, and a stack is recorded whenever
 * a target's call comes from other lines than its previous one); the first
 * call on each target only ("first": later calls read no frame, ~70-80 ns less
 * a call in situ on the GPU decode loop, docs/performance.md). */
enum hv_pyframes_mode { HV_PYFRAMES_OFF = 0, HV_PYFRAMES_ALL = 1, HV_PYFRAMES_FIRST = 2 };   /* in envtab.c's word order */

struct hv_config {
    int enabled;                 /* HIPVIS_ENABLE: 0|1 (default 1) */
    char output[512];            /* HIPVIS_OUTPUT: path template, %p pid, %h host */
    uint64_t ring_bytes;         /* HIPVIS_RING_KB: per-thread ring, KiB, 16..1048576, power of two */
    uint32_t flush_ms;           /* HIPVIS_FLUSH_MS: 1..100 (default 50) */
    int zstd_level;              /* HIPVIS_ZSTD_LEVEL: 1..19 (default 3) */
    int quiet;                   /* HIPVIS_QUIET: 0|1 — no start/end line on stderr */
    int end_line;                /* HIPVIS_END_LINE: 0|1 (default 1) — the end line; hipvis run sets 0 and
                                    prints one per trace itself */
    int writer_stats;            /* HIPVIS_WRITER_STATS: 0|1 — the writer thread's drain figures at exit */
    int sidecar;                 /* HIPVIS_SIDECAR: 0|1 — shared-memory segment for hipvis-sidecar
                                    instead of a writer thread and HIPVIS_OUTPUT (docs/sidecar.md) */
    uint64_t codeobj_bytes;      /* HIPVIS_CODEOBJ_MB: code-object bytes stored per process,
                                    MiB, 0..65536 (default 128; 0 stores none), docs/kernel-args.md */
    char sidecar_dir[256];       /* HIPVIS_SIDECAR_DIR: absolute directory of the segments (default /dev/shm) */
    /* Evidence collection (docs/evidence.md). */
    uint32_t payload_bytes;      /* HIPVIS_PAYLOAD_BYTES: source bytes recorded per H2D copy, 0..16384
                                    (default 0: payloads can hold user data such as token ids, and cost
                                    the writer their size per copy) */
    uint32_t rewrite_check_bytes;/* HIPVIS_REWRITE_CHECK_KB: async H2D copies from pinned memory up to
                                    this size are hashed at enqueue and when first observed complete,
                                    KiB, 0..1024 (default 16; 0 off) */
    uint32_t rewrite_every;      /* HIPVIS_REWRITE_EVERY: check one eligible copy in this many per
                                    thread, 1..65536 (default 256; 1 every copy) */
    uint32_t rewrite_first;      /* HIPVIS_REWRITE_FIRST: each thread's first this many turns of the
                                    rewrite check (eligible copies; with argument records, async H2D
                                    copies) are all taken before HIPVIS_REWRITE_EVERY samples,
                                    0..1048576 (default 4096) */
    uint32_t launch_every;       /* HIPVIS_LAUNCH_EVERY: an eager launch looks its kernel up and records
                                    its evidence (pointer arguments, Python site, code-object check) with
                                    probability 1 in this many, drawn per launch, 1..65536 (default 16;
                                    1: every launch); launches on a capturing stream always */
    uint32_t launch_first;       /* HIPVIS_LAUNCH_FIRST: each thread's first this many kernel launches
                                    (a capture's too) all carry their evidence before HIPVIS_LAUNCH_EVERY draws,
                                    0..1048576 (default 4096) */
    int stacks;                  /* HIPVIS_STACKS: 0|1 — caller stacks at writes and graph launches */
    int pyframes;                /* HIPVIS_PYFRAMES: enum hv_pyframes_mode (default first) — Python
                                    stacks at writes, replays, captures,
                                    instantiations, allocations (docs/names.md) */
    int record_argv;             /* HIPVIS_RECORD_ARGV: 0|1 (default 1) — the command line in the trace
                                    header, for the analyzer's `hipvis experiment` suggestion (docs/output-files.md) */
    int start;                   /* HIPVIS_START: enum hv_start_mode (default all) */
    uint64_t start_delay_ms;     /* HIPVIS_START_DELAY_MS: data calls recorded from this long after the launch */
    uint64_t duration_ms;        /* HIPVIS_DURATION_MS: ... for this long (0: to the end); both on top of
                                    HIPVIS_START, applied in regions.c */
    uint64_t launch_time_ns;     /* HIPVIS_LAUNCH_TIME_NS: the launch, CLOCK_REALTIME ns (0: this process's start) */
    int record;                  /* HIPVIS_RECORD: enum hv_record_mode (default args; full when a setting needs it) */
    int guard;                   /* HIPVIS_GUARD: enum hv_guard_mode (default off; a bad value: off, tracing
                                    goes on), src/tracer/guard */
    int guard_always;            /* HIPVIS_GUARD_WHEN: 1 for always, 0 for flagged (the default; a bad value) */
    int hostcheck;               /* HIPVIS_HOSTCHECK: enum hv_hostcheck_mode (default off), src/tracer/hostcheck */
    int names_checked;           /* HIPVIS_NAMES_CHECKED: 0|1 — hipvis run named the unknown HIPVIS_* names */
    /* HIPVIS_FLOOR_APIS: read only by a measurement build (make ... -DHV_RECORD_FLOOR=3, 4 or 5,
       src/tracer/intercept/common/intercept.h): the APIs whose calls record at the floor, one bit per
       api id. "A+B" those, "all" every one, "all-A-B" all but those; unset or empty none. */
    uint8_t floor_apis[HV_API__MAX / 8];
    int floor_apis_set;
    struct hv_probe_spec {       /* HIPVIS_PROBE: off (default) | auto | ADDR:LEN[,ADDR:LEN...] */
        int mode;                /* enum hv_probe_mode */
        uint32_t n;
        struct { uint64_t addr; uint32_t len; } r[16];
    } probe;
};

/* Whether HIPVIS_FLOOR_APIS names `api` (its bit in cfg->floor_apis). */
static inline int hv_config_floor_picked(const struct hv_config *cfg, unsigned api)
{
    return (cfg->floor_apis[api >> 3] >> (api & 7)) & 1;
}

/* HIPVIS_START: when data calls (copies, memsets, launches, graph launches)
 * are recorded. State calls (allocations, modules, graphs, streams, events,
 * syncs) are always recorded so that findings inside a region stay exact. */
enum hv_start_mode {             /* in envtab.c's word order */
    HV_START_ALL = 0,            /* "all": from the start */
    HV_START_PROFILER = 1,       /* "profiler": between hip/cuda/cuProfilerStart and ...Stop */
    HV_START_SIGNAL = 2,         /* "signal": SIGUSR2 toggles, starting paused */
};

/* HIPVIS_RECORD: what a call of the serving step (async copy, graph launch,
 * stream / device / event synchronize) writes on the calling thread.
 * "args" (the default): its argument words, flagged HV_CALL_ARGS, and its
 * Python site; the reader derives the rest from the merged records
 * (src/format/derive.h, docs/trace-format.md "Argument records"), and the
 * rewrite check's sampled calls still take the full path. "full": the
 * record as the analyzer reads it, derived in the process. Unset, a setting
 * that needs the full record at the call (payloads, stacks, the probe,
 * guards, HIPVIS_START windows) selects "full"; "args" set with one of them
 * is an error naming it. */
enum hv_record_mode {            /* in envtab.c's word order */
    HV_RECORD_FULL = 0,          /* "full" */
    HV_RECORD_ARGS = 1,          /* "args" */
};

/* HIPVIS_HOSTCHECK (docs/hostcheck.md): off; host-visible pinned and
 * registered memory of in-flight async copies and memsets ("1"); and
 * managed memory of in-flight kernels and memsets too ("managed": UVM
 * refuses the GPU's own faults on a range the host protected, so only for
 * trying a driver). */
enum hv_hostcheck_mode {         /* in envtab.c's word order */
    HV_HOSTCHECK_OFF = 0,
    HV_HOSTCHECK_ON = 1,
    HV_HOSTCHECK_MANAGED = 2,
};

enum hv_probe_mode { HV_PROBE_OFF = 0, HV_PROBE_AUTO = 1, HV_PROBE_RANGES = 2 };
#define HV_PROBE_MAX_LEN 4096u   /* bytes per probed range (one snapshot) */

/* Fills *cfg from `getenv_fn` (getenv in production, a table in tests).
 * Returns 0, or -1 after writing one message per bad variable to `err`
 * (NUL-terminated, truncated to errlen). */
int hv_config_load(struct hv_config *cfg, const char *(*getenv_fn)(const char *), char *err, unsigned errlen);

/* Appends to out[cap] one warning per HIPVIS_* name of `envp` (environ)
 * that is no setting, with the nearest one (common/envtab.h); nothing under
 * HIPVIS_QUIET=1, or when hipvis run said it already (HIPVIS_NAMES_CHECKED). */
void hv_config_check_names(const struct hv_config *cfg, char *const *envp, char *out, unsigned cap);

#endif
