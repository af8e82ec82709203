/*
 * One process's trace files as the sidecar writes them: the trace writer
 * (format/trace_writer.h) under a per-process name, rotation by size and
 * age, and the accounting that makes every file's footer add up.
 *
 * Files: <dir>/hipvis.<pid>.<start>.zst, then .1.zst, .2.zst ... on rotation
 * or when a restarted sidecar continues a process (<start>: the process's
 * start, UTC seconds). Each file has its own header (transport shm) and its
 * own footer that accounts for the interval it covers:
 *
 *   records_written + sum(dropped) == records_made        (every file)
 *   dropped = ring drops since the previous footer + this file's write losses
 *   calls   = calls since the previous footer
 *
 * and the last file of a process that ended also charges the records that
 * were reserved but never committed (a thread killed mid-call) to
 * HV_DROP_IN_FLIGHT_AT_EXIT. The baseline (counts at the previous footer)
 * lives in the segment (struct hv_shm_consumer), so a restarted sidecar
 * continues it: summed over all files of a process, written + dropped ==
 * records made, with nothing counted twice.
 */
#ifndef HV_SIDECAR_OUTPUT_H
#define HV_SIDECAR_OUTPUT_H

#include <stdint.h>

#include "hipvis/trace.h"
#include "ring/shm_layout.h"
#include "sidecar/segment.h"

struct hv_trace_writer;

struct sc_output_cfg {
    const char *dir;
    int level;                 /* zstd level */
    uint64_t rotate_bytes;     /* 0: no size rotation */
    uint64_t rotate_ns;        /* 0: no age rotation */
};

struct sc_output {
    const struct sc_output_cfg *cfg;
    struct hv_file_header hdr;
    char tmpl[600];
    struct hv_trace_writer *w;
    uint64_t opened_ns;
    uint64_t base_calls, base_dropped[HV_DROP__COUNT];   /* counts at the previous footer */
    uint64_t unfiled_lost;     /* records lost while no file could be opened */
    uint64_t base_consumer_lost;   /* sc_counts.consumer_lost at the previous footer */
    int open_errno;            /* the last open failed (logged once); 0 once one opens */
    uint64_t retry_ns;         /* when the open was last tried */
    char last_path[4096];      /* the file opened last (open or closed since) */
    /* For metrics, this sidecar's lifetime. */
    uint64_t written, lost, bytes, files;
};

void sc_output_init(struct sc_output *o, const struct sc_output_cfg *cfg, const struct hv_file_header *hdr,
                    const struct hv_shm_consumer *acc);
/* How often a process whose trace file cannot be created tries again. */
#define SC_OUTPUT_RETRY_NS (1000ull * 1000000ull)
/* 0 when a trace file is open (opening one if needed), else -errno: then
 * the caller must not read the process's rings, so its records stay in the
 * segment for a later attempt or a later sidecar. After a failure the open
 * is retried at most every SC_OUTPUT_RETRY_NS (-errno meanwhile); the first
 * failure and the recovery are logged. */
int sc_output_ready(struct sc_output *o, struct hv_shm_consumer *acc, uint64_t now_ns);
/* Appends a record (opening a file if none is open). */
void sc_output_add(struct sc_output *o, struct hv_shm_consumer *acc, const struct hv_rec_header *rec);
/* Writes the open chunk, so what was read can be released to the producer. */
void sc_output_flush(struct sc_output *o);
int sc_output_rotate_due(const struct sc_output *o, uint64_t now_ns);
/* Writes the footer and closes; `final` when the process is gone. Updates the
 * baseline in `acc`. A final close with something to account for and no open
 * file opens one for the footer; -errno when it cannot (nothing was
 * accounted: the segment must be kept), else 0. */
int sc_output_close(struct sc_output *o, struct hv_shm_consumer *acc, const struct sc_counts *now, int final);
/* Records and bytes written by this sidecar so far, open file included. */
void sc_output_totals(const struct sc_output *o, uint64_t *written, uint64_t *lost, uint64_t *bytes);
/* Path of the open file, NULL when none. */
const char *sc_output_path(const struct sc_output *o);
/* The open file, or the one closed last ("" before any). */
const char *sc_output_last_path(const struct sc_output *o);

#endif
