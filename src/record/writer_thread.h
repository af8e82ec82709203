/*
 * The in-process consumer: a thread that drains every ring into the trace
 * file at least every HIPVIS_FLUSH_MS, so a process that dies loses at most
 * that much. All file I/O happens here, never on an application thread
 * (except the final drain at exit/exec, which runs on the exiting thread).
 */
#ifndef HIPVIS_WRITER_THREAD_H
#define HIPVIS_WRITER_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "record/clock.h"
#include "record/collector.h"

struct hv_trace_writer;

struct hv_writer_thread {
    struct hv_collector *col;
    struct hv_clock_cal cal;
    struct hv_trace_writer *out;
    struct hv_file_header hdr;
    char path_template[512];
    int level;
    uint32_t flush_ms;
    int quiet;
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
};

void hv_writer_init(struct hv_writer_thread *w, struct hv_collector *col, const char *path_template,
                    int level, uint32_t flush_ms, int quiet);
/* Opens the trace and starts the thread. Returns 0 or -errno (tracing should
 * then stay off: nothing could be written anyway). */
int hv_writer_start(struct hv_writer_thread *w, const struct hv_file_header *hdr);
/* Stops the thread, drains everything, writes the footer and closes. */
void hv_writer_stop(struct hv_writer_thread *w, uint64_t calls);
/* In a fork child: the thread does not exist there and the file is the
 * parent's; forget both without writing. */
void hv_writer_forget_after_fork(struct hv_writer_thread *w);

#endif
