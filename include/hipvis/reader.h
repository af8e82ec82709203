/*
 * hipvis/reader.h — the one reader of the trace format. hipvis-dump, the
 * analyzer and the sidecar's streaming rules all read through this, so a
 * format change is made (and tested) in one place.
 *
 * The reader streams: memory is one decompressed chunk plus the reorder
 * window, independent of trace length.
 */
#ifndef HV_HIPVIS_READER_H
#define HV_HIPVIS_READER_H

#include <stdint.h>
#include <stdio.h>

#include "hipvis/trace.h"

enum hv_read_status {
    HV_READ_OK = 0,
    HV_READ_TRUNCATED,     /* file ends inside a frame (process killed, copy cut short) */
    HV_READ_CORRUPT,       /* a frame or record is malformed */
    HV_READ_FOREIGN,       /* not a hipvis trace */
    HV_READ_VERSION,       /* a hipvis trace of an unsupported format version */
    HV_READ_IO,            /* read(2) failed */
    HV_READ_NOMEM,
};

struct hv_read_error {
    enum hv_read_status status;
    uint64_t offset;           /* byte offset in the file where the problem starts */
    uint64_t records_salvaged; /* valid records delivered before the problem */
    char what[256];            /* what was expected / found, for humans */
};

struct hv_reader;

/* Opens a trace. On failure returns -1 with *err filled and *out NULL. */
int hv_reader_open(const char *path, struct hv_reader **out, struct hv_read_error *err);
/* Same over an already-open stream (the sidecar, stdin); the reader does not close it. */
int hv_reader_open_file(FILE *f, const char *name, struct hv_reader **out, struct hv_read_error *err);

const struct hv_file_header *hv_reader_header(const struct hv_reader *r);

/*
 * Next record, in seq order (records of equal seq keep their file order, so
 * a call's auxiliary records follow it). Returns 1 with *rec set (valid until
 * the next call), 0 at a clean end, -1 on a problem: hv_reader_error() says
 * what and where; every record before it has been delivered.
 *
 * Writer threads drain per-thread rings, so the file is only nearly sorted;
 * the reader restores seq order within a window of `HV_READER_WINDOW`
 * records and counts anything that arrives later than that.
 */
#define HV_READER_WINDOW 65536u
int hv_reader_next(struct hv_reader *r, const struct hv_rec_header **rec);

/*
 * The same records as hv_reader_next, up to `max` (1 to
 * HV_READER_BATCH_MAX; 0 counts as 1) at a time into recs[]: returns how many (> 0; every
 * one valid until the next call on the reader), or what hv_reader_next
 * would have returned next (0 at the end, -1 on a problem) once there are
 * none. Cheaper per record: an in-order trace is delivered in a tight loop.
 */
#define HV_READER_BATCH_MAX 256u
long hv_reader_next_batch(struct hv_reader *r, const struct hv_rec_header **recs, size_t max);

/*
 * Decompressing and checking frames (most of the cost of reading) runs on `n`
 * worker threads, the frames being independent; the calling thread only
 * frames the input and orders records. Records, errors, offsets and recovery
 * are identical for every n. 0 decodes on the calling thread. The default is
 * one fewer than the online CPUs, at most 3. Takes effect from the next chunk
 * read when no workers are running yet; returns the number in effect.
 */
unsigned hv_reader_set_decode_threads(struct hv_reader *r, unsigned n);

/* Records in exact file order, no reordering (hipvis-dump --raw). */
int hv_reader_next_raw(struct hv_reader *r, const struct hv_rec_header **rec);

const struct hv_read_error *hv_reader_error(const struct hv_reader *r);
/* The footer, once the reader has reached it; NULL for a trace without one
 * (the process died or is still running). */
const struct hv_file_footer *hv_reader_footer(const struct hv_reader *r);
/* The footer of the trace at `path` read from the file's last bytes, no
 * record decompressed (src/format/reader_tail.c): 0 with *out; 1 for a
 * hipvis trace that does not end in this version's footer (its process is
 * still running or died: hv_reader_open reads what it holds); -1 for a
 * file that is no hipvis trace or cannot be read. */
int hv_reader_footer_peek(const char *path, struct hv_file_footer *out);
/* String table lookup over strings seen so far; NULL when unknown. */
const char *hv_reader_string(const struct hv_reader *r, uint32_t id);

struct hv_reader_stats {
    uint64_t records, chunks, bytes_read;
    uint64_t late_records;     /* arrived after the reorder window had passed them */
    uint64_t chunk_gaps;       /* chunk_index jumps (lost frames) */
    uint64_t corrupt_frames;   /* frames rejected as HV_READ_CORRUPT (reading resumed after each) */
    uint64_t skipped_bytes;    /* bytes passed over while resynchronising to the next frame magic */
    /* Traces with per-thread sequences (HV_HDR_THREAD_SEQ) only: */
    uint64_t seq_gaps;         /* gaps in a thread's call numbers: records lost (crash, damage, ...) */
    uint64_t seq_missing;      /* calls those gaps cover */
    uint64_t seq_unresolved;   /* same-thread seq references (and auxiliary records) whose call was not
                                  found among the thread's recent calls: set to 0 */
};
void hv_reader_stats(const struct hv_reader *r, struct hv_reader_stats *out);

/*
 * Per-thread seq gaps (HV_HDR_THREAD_SEQ traces): calls first..last of
 * thread tid never reached the file. The first HV_READER_GAPS_LISTED gaps
 * are listed (all are counted in the stats); valid until hv_reader_close().
 * A gap can only be seen once a later call of the same thread arrives, so a
 * thread's final calls lost in a crash show only in the drop counters.
 */
#define HV_READER_GAPS_LISTED 32u
struct hv_seq_gap {
    uint32_t tid;
    uint64_t first, last;      /* per-thread seqs missing, inclusive */
};
uint32_t hv_reader_seq_gaps(const struct hv_reader *r, const struct hv_seq_gap **gaps);

void hv_reader_close(struct hv_reader *r);

const char *hv_read_status_name(enum hv_read_status s);

#endif
