/*
 * hipvis-sidecar: one process per node (per user) that drains every traced
 * process's shared-memory segment into per-process zstd traces, runs the
 * analyzer's rules on the records as they arrive, appends new finding groups
 * to an alerts file, and keeps Prometheus counters. docs/sidecar.md has the
 * operator's view; this is the main loop:
 *
 *   wait (inotify or --interval-ms) -> discover segments -> one drain cycle
 *   per process -> end processes that are over -> rotation, disk cap,
 *   metrics -> again; SIGTERM/SIGINT: drain everything, footers, exit 0.
 *
 * Single-threaded on purpose: one core drains many processes' rings (the
 * producers never wait for it), and nothing needs a lock.
 */
#ifndef HV_SIDECAR_SIDECAR_H
#define HV_SIDECAR_SIDECAR_H

#include <stdint.h>

struct sc_options {
    const char *segment_dir;     /* --dir: where processes put segments (HIPVIS_SIDECAR_DIR) */
    const char *output_dir;      /* --output-dir: trace files */
    const char *alerts;          /* --alerts FILE, NULL: none */
    const char *metrics;         /* --metrics FILE (.prom), NULL: none */
    uint64_t rotate_bytes;       /* --rotate-size */
    uint64_t rotate_s;           /* --rotate-age */
    uint64_t cap_bytes;          /* --disk-cap, 0: none */
    int level;                   /* --zstd-level */
    int interval_ms;             /* --interval-ms: drain period when idle */
    int scan_ms;                 /* --scan-ms: full directory scan period */
    int metrics_ms;              /* --metrics-interval-ms */
    int metrics_keep_s;          /* --metrics-keep: series of ended processes */
    int closed_grace_ms;         /* --closed-grace-ms */
    int nice;                    /* --nice: scheduling priority asked for at start (default -10) */
    int analyze;                 /* 0: --no-analysis */
    uint32_t rules_disabled;     /* --disable RULE */
    int quiet;
};

void sc_options_default(struct sc_options *o);
/* Runs until SIGTERM/SIGINT. Returns the exit status: 0 after a clean
 * shutdown, 1 when it could not start. */
int sc_run(const struct sc_options *o);

#endif
