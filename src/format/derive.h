/*
 * The reader's derive stage (internal; derive.c): for traces written with
 * HIPVIS_RECORD=args (header flag HV_HDR_DERIVE), what the preload library
 * left out at the call, rebuilt from the records in merged order.
 *
 * - Argument records (HV_CALL_ARGS: a call of HV_ARGS_APIS written as its
 *   argument words) become the records the full fillers write: canonical
 *   stream and form, epoch, capture state, and per family the copy's sides
 *   and direction, the graph launch's exec, the synchronize's completed
 *   stream, seq and new epoch.
 * - Every stream epoch in the trace (a call's, a synchronize's new epoch, an
 *   event wait's record epoch, an HV_REC_EPOCH's) is the derived one: the
 *   process kept none once its synchronizes stopped advancing them.
 *
 * The rules are tests/observe/derive_streams.py's and derive_kinds.py's,
 * which check on every test trace that they give back what the shipped
 * library records; check-derive compares a program's trace in both modes
 * field by field. Exact for one calling thread; where two threads race a
 * synchronize and a call, the merged order stands for the order the
 * process's tables saw (docs/trace-format.md "Argument records").
 */
#ifndef HV_FORMAT_DERIVE_H
#define HV_FORMAT_DERIVE_H

#include <stdint.h>

#include "common/u64map.h"
#include "hipvis/api.h"
#include "hipvis/trace.h"

struct hv_derive_stream {
    int32_t device;            /* the calling thread's device where the stream was first named */
    uint32_t device_ix;        /* its entry in devices + 1 (0: not looked up since it was named) */
    uint8_t nonblocking;       /* created with the non-blocking flag */
    uint32_t capture;          /* capture id while capturing, 0 otherwise */
    uint64_t own;              /* observations of this stream itself */
};

struct hv_derive_device {
    uint64_t gen_device;       /* device synchronizes */
    uint64_t gen_legacy;       /* legacy-stream synchronizes (blocking streams) */
};

struct hv_derive_event {
    uint64_t stream, epoch;    /* where and at which epoch it was last recorded */
    uint64_t seq;              /* that record's call (merged numbering) */
    uint32_t tid;
};

struct hv_derive_alloc {
    uint64_t base, bytes;
    uint8_t mem;               /* enum hv_mem */
};

/* All zero is the empty state (the reader is calloc'd); `on` is set from the header. */
struct hv_derive {
    int on;                    /* the trace has HV_HDR_DERIVE */
    int oom;                   /* a table could not grow: the reader stops with HV_READ_NOMEM */
    struct hv_u64map stream_ix, device_ix, event_ix;
    /* The stream named last (a loop names one stream call after call): its
     * id and index + 1 (0: none yet). */
    uint64_t last_stream;
    uint32_t last_stream_ix;
    struct hv_derive_stream *streams;
    struct hv_derive_device *devices;
    /* Devices 0..HV_DERIVE_DEVICES-1 index by number (device + 1 into
     * device_slot, 0: none yet); others through device_ix. */
#define HV_DERIVE_DEVICES 64
    uint32_t device_slot[HV_DERIVE_DEVICES];
    struct hv_derive_event *events;
    uint32_t nstreams, cap_streams, ndevices, cap_devices, nevents, cap_events;
    struct hv_derive_alloc *allocs;   /* sorted by base */
    uint32_t nallocs, cap_allocs;
    uint32_t alloc_memo[2];    /* the last two allocations mem_at found, index + 1 (0: none) */
    uint32_t next_capture;
};

void hv_derive_free(struct hv_derive *d);
/* Derives record `h` (the reader's own copy, delivered in merged order) in
 * place. -1 once a table could not grow (out of memory): from then on the
 * records cannot be derived, and the caller stops reading. */
int hv_derive_record(struct hv_derive *d, struct hv_rec_header *h);

#endif
