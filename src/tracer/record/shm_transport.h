/*
 * The producer side of the sidecar transport (HIPVIS_SIDECAR=1): instead of
 * starting a writer thread, the traced process creates its own segment
 * (record/shm_layout.h), puts its collector in it, and lets the collector
 * claim rings from it. hipvis-sidecar drains the rings from outside the
 * process. The hot path is unchanged: the same inline reserve/commit on the
 * same ring layout; only where the ring memory lives differs.
 *
 * No file I/O after start except one fallocate + mmap per ring. One thread,
 * the preparer (shm_transport.c), asleep but for writing each next thread's
 * ring ahead; a thread that starts before its spare is ready makes its own
 * ring on its first traced call.
 */
#ifndef HV_TRACER_RECORD_SHM_TRANSPORT_H
#define HV_TRACER_RECORD_SHM_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/record/collector.h"
#include "ring/shm_layout.h"

struct hv_shm_transport {
    int fd;                          /* the segment, kept open to add rings */
    struct hv_shm_header *hdr;       /* mapping of header + collector, NULL when none */
    size_t map_bytes;
    uint64_t pid;                    /* the process that created it (vfork/fork guard) */
    struct hv_collector *col;        /* the collector in the segment (for the preparer) */
    _Atomic int preparer;            /* 1 while the preparer thread runs */
    char path[512];
};

/*
 * Creates the segment in `dir` for this process image and lays a collector
 * of `ring_bytes` rings in it (*col). `fh` is the trace header the sidecar
 * will copy into its files (transport is set to HV_TRANSPORT_SHM).
 * After a failed exec (the segment is CLOSED, not yet finalized by the
 * sidecar) the same segment is reopened instead. Returns 0, or -errno after
 * one line on stderr (tracing then stays off).
 */
int hv_shm_start(struct hv_shm_transport *t, const char *dir, uint64_t ring_bytes, const struct hv_file_header *fh,
                 int quiet, struct hv_collector **col);

/* The image ends (exit, _exit, exec): record the call count and mark the
 * segment CLOSED so the sidecar writes the footer. The mapping stays: other
 * threads may still be finishing a record. */
void hv_shm_close(struct hv_shm_transport *t, uint64_t calls);

/* In a fork child: the parent's segment is the parent's. Unmap it and its
 * rings (walking `col`, which lives in it) and close the descriptor, without
 * writing anything; the child creates its own at its first traced call. */
void hv_shm_forget_after_fork(struct hv_shm_transport *t, struct hv_collector *col);

#endif
