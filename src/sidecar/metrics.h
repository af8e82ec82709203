/*
 * Counters for node_exporter's textfile collector (Prometheus text format,
 * version 0.0.4). The file is written whole to a temporary name in the same
 * directory and renamed over the old one, so the collector never reads half
 * a file. Per-process series carry pid and exe labels; a process's series
 * stay for --metrics-keep seconds after it ended, then disappear.
 */
#ifndef HV_SIDECAR_METRICS_H
#define HV_SIDECAR_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/rules/rules.h"
#include "hipvis/trace.h"

struct sc_proc_metrics {
    uint64_t pid;
    char exe[128];
    int active;                         /* 0: ended, kept for a while */
    uint64_t ended_ns;
    uint64_t calls, made;
    uint64_t dropped[HV_DROP__COUNT];   /* counted in the rings (process lifetime) */
    uint64_t write_lost;                /* records this sidecar could not write (HV_DROP_WRITE_ERROR) */
    uint64_t written, bytes, files;     /* this sidecar's */
    uint64_t analyzed, late;
    uint64_t launches_undrawn;          /* analyzed launches without kernel and arguments (HIPVIS_LAUNCH_EVERY) */
    /* Coverage of the analyzed replays (src/analyze/coverage.h). */
    uint64_t replays, replays_unchecked, unknown_layout_nodes, inferred_args;
    uint64_t groups[HV_RULE__COUNT], occurrences[HV_RULE__COUNT];
    uint64_t groups_sev[HV_SEV_ERROR + 1];  /* distinct finding groups by their severity (info..error) */
};

struct sc_node_metrics {
    uint64_t refused, corrupt, busy;    /* segments skipped, by reason */
    uint64_t files_deleted, bytes_deleted, disk_bytes;
    uint64_t alerts;
    uint64_t cycles;
    uint64_t cycle_gap_max_ns;          /* longest time between two drain cycles */
    uint64_t cycle_work_max_ns;         /* longest time one cycle's work took */
    double ring_fill_max;               /* fullest any ring was found at a drain, 0..1 */
    double cpu_user_s, cpu_system_s;
    uint64_t start_realtime_s;
};

/* 0, or -errno (the old file stays). */
int sc_metrics_write(const char *path, const struct sc_node_metrics *n, const struct sc_proc_metrics *const *p,
                     size_t np);

#endif
