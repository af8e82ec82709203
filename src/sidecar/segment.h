/*
 * The sidecar's view of one process's segment (record/shm_layout.h):
 * opening it safely, validating it, mapping its rings as threads publish
 * them, reading its counters, and removing it at the end.
 *
 * Trust: only segments of the sidecar's own uid, mode 0600, regular files
 * with one link are opened (O_NOFOLLOW, checks on the opened descriptor).
 * Every value read from the segment is validated before it is used to
 * address memory: the immutable header fields are copied once and checked
 * against the geometry the sidecar computes itself; ring headers are checked
 * at every drain. A segment that fails is reported and skipped.
 */
#ifndef HV_SIDECAR_SEGMENT_H
#define HV_SIDECAR_SEGMENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hipvis/trace.h"
#include "ring/ring.h"
#include "ring/shm_layout.h"

enum sc_open_status {
    SC_SEG_OK = 0,
    SC_SEG_NOT_READY,     /* header not complete yet (just created): retry later */
    SC_SEG_REFUSED,       /* another uid, wrong mode, not a regular file... */
    SC_SEG_CORRUPT,       /* header fails validation */
    SC_SEG_BUSY,          /* another sidecar holds it */
    SC_SEG_GONE,          /* vanished before we could open it */
};

/* Validated copy of the header's immutable fields. */
struct sc_seg_info {
    uint64_t pid, ppid, uid, proc_start_ticks;
    uint64_t tsc0, ns0;
    uint32_t clock, nslots;
    uint64_t ring_bytes, ring_stride, rings_offset, collector_offset;
    struct hv_file_header file;
};

struct sc_segment {
    char path[512];
    int fd;
    dev_t dev;
    ino_t ino;
    struct sc_seg_info info;
    struct hv_shm_header *hdr;          /* shared: state, slot table, consumer area */
    size_t hdr_bytes;                   /* mapped: header + collector */
    const struct hv_collector *col;     /* shared: seq and no-ring counters only */
    struct hv_ring **rings;             /* [nslots], mapped once published */
    uint8_t *bad;                       /* [nslots], 1: found corrupt, skipped from then on */
    uint32_t hi;                        /* slots below this may be mapped */
};

/* Opens dir/name. On anything but SC_SEG_OK, `why` says why (for the log)
 * and nothing is left open. */
enum sc_open_status sc_segment_open(struct sc_segment *s, const char *dir, const char *name, char *why,
                                    size_t whylen);
void sc_segment_close(struct sc_segment *s);

/* Ring of `slot`, mapping it on first sight; NULL when not published yet,
 * marked bad, or unusable (then *why is set once, for the log). */
struct hv_ring *sc_segment_ring(struct sc_segment *s, uint32_t slot, const char **why);
/* Slots published so far (an upper bound for the loops). */
uint32_t sc_segment_slots(const struct sc_segment *s);
/* A mapped ring still has the geometry we validated (scribbles are caught). */
int sc_segment_ring_sane(const struct sc_segment *s, const struct hv_ring *r);

/* Process-lifetime counters, read from the segment. */
struct sc_counts {
    uint64_t made;                      /* records the producer tried to emit */
    uint64_t dropped[HV_DROP__COUNT];   /* of them, not delivered (ring full, no ring...) */
    uint64_t calls;                     /* intercepted calls (the seq counter, or the final count) */
    uint64_t released;                  /* records handed back by consumers, all sidecars together */
    uint64_t consumer_lost;             /* of them, held by a sidecar killed before it wrote them */
};
void sc_segment_counts(const struct sc_segment *s, struct sc_counts *c);
/* Records made but neither handed back by a consumer nor counted as dropped:
 * reserved and not (yet) committed. Final only once the process is gone
 * (a thread killed mid-call): HV_DROP_IN_FLIGHT_AT_EXIT. */
uint64_t sc_counts_in_flight(const struct sc_counts *c);

/* 1 while the process that made the segment runs (same pid and start time,
 * not a zombie), else 0. */
int sc_segment_pid_alive(const struct sc_segment *s);

/* Removes the file if the name still refers to our segment. */
void sc_segment_unlink(struct sc_segment *s);

#endif
