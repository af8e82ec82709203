/*
 * The sidecar transport's shared-memory segment: the one contract between a
 * traced process (producer, record/shm_transport.c) and hipvis-sidecar
 * (consumer, sidecar/segment.c). One segment per process image:
 *
 *   <dir>/hipvis.<uid>.<pid>.<nonce>.ring   (<dir>: HIPVIS_SIDECAR_DIR, default /dev/shm)
 *
 * <nonce>: 16 lowercase hex digits from getrandom(2), new for every image
 * (an exec'd image of the same pid gets another). The directory is shared
 * (sticky /dev/shm): a name derived from the pid alone could be created
 * first by another user, and O_EXCL would then switch tracing off. Nobody
 * can pre-create a name they cannot predict; the sidecar finds segments by
 * scanning and still refuses any it does not trust (sidecar/segment.h).
 *
 * created O_EXCL, mode 0600, owned by the process's user. Layout, every
 * offset page aligned:
 *
 *   0                 struct hv_shm_header   identity, clock pair, geometry,
 *                                            slot table, consumer state
 *   collector_offset  struct hv_collector    the producer's collector (seq,
 *                                            no-ring drops; its ring pointers
 *                                            are producer addresses: a
 *                                            consumer never follows them)
 *   rings_offset + i * ring_stride           ring of slot i (record/ring.h)
 *
 * The file grows one ring at a time (fallocate) as threads claim slots. A
 * ring is position independent (no pointers), so the sidecar maps it at any
 * address. The segment outlives its process: after a crash or SIGKILL the
 * sidecar still finds every committed record in it, drains it, and unlinks
 * the file once the process is gone.
 *
 * Compatibility: HV_SHM_VERSION changes whenever this layout does; a sidecar
 * refuses (reports and skips) a segment of another version.
 */
#ifndef HV_RING_SHM_LAYOUT_H
#define HV_RING_SHM_LAYOUT_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"
#include "ring/collector_layout.h"

/* "HVSHM" 0x01 ...: the first 8 bytes, stored last (release) once the header
 * is complete, so a consumer never reads a half-written header. */
#define HV_SHM_MAGIC 0x0000014D48535648ull
#define HV_SHM_VERSION 3u   /* 2: struct hv_file_header grew argv; 3: struct hv_ring's producer line at HV_RING_PRODUCER_AT */

enum hv_shm_state {
    HV_SHM_LIVE = 1,        /* the producer may still emit */
    HV_SHM_CLOSED = 2,      /* the image ended (exit, exec): calls/end_ns are final,
                               other threads may still finish a record */
    HV_SHM_FINALIZED = 3,   /* the consumer wrote the last footer; about to unlink */
};

/* What the consumer has accounted for in trace files, kept in the segment so
 * a restarted sidecar continues the accounting where the killed one left it:
 * nothing is counted twice and nothing silently vanishes. Written by the
 * consumer only. */
struct hv_shm_consumer {
    alignas(64) _Atomic uint64_t released;     /* records handed back to the producer */
    _Atomic uint64_t footer_calls;             /* calls accounted in footers so far */
    _Atomic uint64_t footer_dropped[HV_DROP__COUNT]; /* drops accounted in footers so far */
    _Atomic uint64_t files;                    /* trace files opened for this segment */
    _Atomic uint64_t consumer_pid;             /* the sidecar that last drained it (informational) */
    /* A drain cycle releases what it read (copied out) before it writes the
     * frame, so a sidecar killed in between cannot make its successor read
     * those records again (duplicates in two files). `filed` is advanced
     * once the frame is written: released - filed is what a killed sidecar
     * held, lost and counted (write_error) in its successor's next footer;
     * footer_lost is how much of that footers have counted. filed_valid: set
     * by the first sidecar that keeps `filed` (an older one left it 0). */
    _Atomic uint64_t filed;
    _Atomic uint64_t footer_lost;
    _Atomic uint64_t filed_valid;
};
/* The fields above live in the struct's padding: the layout did not change. */
_Static_assert(sizeof(struct hv_shm_consumer) == 128, "hv_shm_consumer keeps its size");

struct hv_shm_header {
    _Atomic uint64_t magic;          /* HV_SHM_MAGIC, stored last */
    uint32_t version;                /* HV_SHM_VERSION */
    uint32_t header_bytes;           /* sizeof(struct hv_shm_header) */
    uint64_t pid, ppid;
    uint64_t uid;                    /* the producer's real uid, = the file's owner */
    uint64_t proc_start_ticks;       /* /proc/<pid>/stat starttime: tells a reused pid apart */
    uint64_t tsc0, ns0;              /* calibration pair taken at creation (ticks -> ns) */
    uint32_t clock;                  /* enum hv_clock: what record ts_ns holds */
    uint32_t nslots;                 /* HV_MAX_RINGS */
    uint64_t ring_bytes;             /* data bytes per ring (power of two) */
    uint64_t ring_stride;            /* bytes per ring slot in the file (page multiple) */
    uint64_t collector_offset, collector_bytes;
    uint64_t rings_offset;
    /* The trace header the producer would have written itself (exe, knobs,
     * runtime, host...): the sidecar copies it into every file it writes. */
    struct hv_file_header file;
    alignas(64) _Atomic uint32_t state;  /* enum hv_shm_state */
    uint32_t pad;
    _Atomic uint64_t calls;          /* at close: intercepted calls of the image */
    _Atomic uint64_t end_ns;         /* at close: CLOCK_MONOTONIC */
    struct hv_shm_consumer consumer;
    /* Slot i's ring is at slot_offset[i] (= rings_offset + i * ring_stride)
     * once published (release), 0 before. */
    alignas(64) _Atomic uint64_t slot_offset[HV_MAX_RINGS];
};

#define HV_SHM_PREFIX "hipvis."
#define HV_SHM_SUFFIX ".ring"
#define HV_SHM_NONCE_DIGITS 16

/* Page-rounded layout for a ring size, the same on both sides. */
struct hv_shm_geometry {
    uint64_t collector_offset, collector_bytes, rings_offset, ring_stride;
};
void hv_shm_geometry(uint64_t ring_bytes, struct hv_shm_geometry *g);

/* "<dir>/hipvis.<uid>.<pid>.<nonce as 16 hex digits>.ring". Returns the
 * length, or -1 when it does not fit. */
int hv_shm_path(char *buf, size_t cap, const char *dir, uint64_t uid, uint64_t pid, uint64_t nonce);
/* Parses a directory entry name; 0 with uid/pid set, -1 when the name is
 * not a segment's. */
int hv_shm_parse_name(const char *name, uint64_t *uid, uint64_t *pid);

/* Whether the filesystem holding `fd` (the segment, or its directory) keeps
 * its files in memory only: tmpfs (/dev/shm), ramfs, hugetlbfs. Rings on
 * any other (a disk filesystem such as /tmp on ext4) are written back to
 * disk by the kernel about every 30 s (vm.dirty_expire_centisecs), and the
 * next record on each page written back then takes a write fault (measured
 * on the runtime double: ~1,090 faults per 4 MiB ring every 20-30 s on ext4,
 * none on tmpfs; docs/sidecar.md). Returns 1 in memory, 0 not (the type's
 * name, or its number in hex, in `name`), -errno when it cannot tell. */
int hv_shm_fs_in_memory(int fd, char *name, size_t cap);

/* Process start time (field 22 of /proc/<pid>/stat, clock ticks since boot)
 * and state letter; 0 on success, -1 when the process does not exist. */
int hv_shm_proc_start(uint64_t pid, uint64_t *start_ticks, char *state);

#endif
