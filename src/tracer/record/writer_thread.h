/*
 * The in-process consumer: a thread that drains every ring into the trace
 * file at least every HIPVIS_FLUSH_MS, so a process that dies loses at most
 * that much. All file I/O happens here, never on an application thread
 * (except the final drain at exit/exec, which runs on the exiting thread).
 */
#ifndef HV_TRACER_RECORD_WRITER_THREAD_H
#define HV_TRACER_RECORD_WRITER_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "ring/clock.h"
#include "tracer/record/collector.h"

struct hv_trace_writer;

/* What the writer thread did, for diagnosing drops (HIPVIS_WRITER_STATS=1
 * prints it at exit, and so does a trace that lost records to full rings
 * unless HIPVIS_QUIET=1). Written by the writer thread only, read after it
 * is joined. A ring is lost to when a gap between two passes exceeds its
 * span (ring bytes / bytes per second its thread writes). */
struct hv_writer_stats {
    uint64_t passes;           /* drain passes */
    uint64_t first_pass_ns;    /* from the thread's start to its first pass */
    uint64_t max_gap_ns;       /* longest time from one pass's start to the next's */
    uint64_t max_pass_ns;      /* longest pass (drain, and the chunk handed to compression) */
    uint64_t max_records;      /* most records one pass found */
    uint64_t spares;           /* spare rings readied */
    uint64_t prep_ns;          /* time spent writing pages (own buffers, spare rings) */
    uint64_t max_prep_ns;      /* longest single slice of it */
    /* Set once, by the activating thread (hv_writer_activated): */
    uint64_t activation_ns;    /* the activating call's set-up, from the header's start_ns */
    int ready;                 /* the compression thread's warm-up was done by then (1) or not (0) */
};

struct hv_writer_thread {
    struct hv_collector *col;
    struct hv_clock_cal cal;
    struct hv_trace_writer *out;
    struct hv_file_header hdr;
    char path_template[512];
    int level;
    uint32_t flush_ms;
    int quiet;
    int print_stats;             /* HIPVIS_WRITER_STATS: print stats at stop */
    int no_end_line;             /* HIPVIS_END_LINE=0: hipvis run says what the trace holds instead */
    pthread_t thread;
    _Atomic int run;
    int running;                 /* thread exists (guarded by lock) */
    pthread_mutex_t lock;        /* serialises drains: the thread vs exit/exec/fork */
    uint64_t write_errors;       /* records the file writer refused (malformed size) */
    uint64_t last_drops_total;
    uint64_t own_records;        /* drop-total records the writer added itself */
    int said_write_error;        /* the stderr line about a failed write was printed */
    /* Collector totals and call count when this file was opened: after a
     * failed exec the process goes on into a second file whose footer must
     * count only what happened since (the collector's counters are for the
     * whole process). */
    uint64_t base_made, base_calls, last_calls;
    uint64_t base_dropped[HV_DROP__COUNT];
    struct hv_ring_prep prep;    /* the next spare ring, written a slice per pass */
    struct hv_writer_stats stats;
};

void hv_writer_init(struct hv_writer_thread *w, struct hv_collector *col, const char *path_template,
                    int level, uint32_t flush_ms, int quiet);
/* Opens the trace and starts the thread. Returns 0 or -errno (tracing should
 * then stay off: nothing could be written anyway). */
int hv_writer_start(struct hv_writer_thread *w, const struct hv_file_header *hdr);
/* At activation, once the activating thread's ring is written: notes in the
 * stats how long activation took and whether the compression thread's
 * warm-up, which ran in parallel, was done by then (HIPVIS_WRITER_STATS). */
void hv_writer_activated(struct hv_writer_thread *w);
/* Stops the thread, drains everything, writes the footer and closes. */
void hv_writer_stop(struct hv_writer_thread *w, uint64_t calls);
/* In a fork child: the thread does not exist there and the file is the
 * parent's; forget both without writing. */
void hv_writer_forget_after_fork(struct hv_writer_thread *w);

#endif
