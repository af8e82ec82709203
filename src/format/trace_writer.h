/*
 * Trace file writer: packs records into chunks (format v2: encoded, see
 * codec_int.h), one independent zstd frame per chunk, behind a skippable header
 * frame and before a skippable footer frame (include/hipvis/trace.h). Used by
 * the in-process writer thread and by the sidecar; no global state, and no
 * thread unless asked for one (hv_trace_writer_set_async).
 */
#ifndef HV_FORMAT_TRACE_WRITER_H
#define HV_FORMAT_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/trace.h"

struct hv_trace_writer;

/*
 * Creates the file named by `path_template` (%p pid, %h host, %% percent;
 * hdr->pid / hdr->host supply the values). The file is created with O_EXCL: when the
 * name is taken (an exec'd image of the same pid, a rotated file) ".1", ".2"...
 * is inserted before the extension, so no trace ever overwrites another.
 * Writes the header frame immediately so even an empty trace is readable.
 * The header is written as given except magic, format_version and
 * header_size, which the writer sets. compression_level is zstd's (0 = its
 * default). Returns 0, or -errno with *out NULL.
 */
int hv_trace_writer_open(const char *path_template, const struct hv_file_header *hdr,
                         int compression_level, struct hv_trace_writer **out);

/* Bytes of the header frame's payload for `hdr`: the struct up to the end
 * of its recorded command line (argv_bytes), padded to 8. The rest of
 * argv[] is not written; readers zero-fill it, as for an older writer's
 * shorter header, so a trace does not carry 4 KiB of zeros. */
size_t hv_trace_header_bytes(const struct hv_file_header *hdr);

/* The same, writing format `version` (1: plain chunks, which readers of
 * the previous release read too; 2: encoded chunks, codec_int.h). */
int hv_trace_writer_open_version(const char *path_template, const struct hv_file_header *hdr,
                                 int compression_level, unsigned version, struct hv_trace_writer **out);

/*
 * Moves encoding, compression and writing to a thread of the writer's own,
 * so that flushing a chunk only hands it over: the caller (the drain path)
 * goes on emptying rings while earlier chunks are compressed. Up to 4 full
 * chunks wait for that thread; a flush with 4 waiting blocks until one is
 * written (memory stays bounded at 5 chunk buffers). Stats then lag until
 * the thread gets to a chunk; close waits for all. 0 or -errno (the writer
 * stays synchronous).
 */
int hv_trace_writer_set_async(struct hv_trace_writer *w);
/*
 * Writes one byte per page of the chunk buffers (the open chunk and, in
 * async mode, the spares) for about `budget_ns`, so that the records later
 * copied into them do not each wait for a page's first write (7-100 us a
 * page on the firecracker VM this was measured on: a first drain of a full
 * 4 MiB ring took 26-35 ms there). Call from the thread that adds records,
 * a slice at a time between drains; returns 1 while some buffer is left,
 * 0 once each has been written (never again after a resize).
 */
int hv_trace_writer_warm(struct hv_trace_writer *w, uint64_t budget_ns);
/* 1 when the compression thread has finished its warm-up (the chunk
 * buffers populated, its own buffers written, zstd's tables sized), or the
 * writer is not async; 0 while it is still at it. Does not wait. */
int hv_trace_writer_ready(struct hv_trace_writer *w);
/* Flushes, and in async mode waits until every chunk handed over is written
 * or counted lost, so that the stats are final. Returns the flush's result. */
int hv_trace_writer_sync(struct hv_trace_writer *w);

/* Appends one record (its h.size bytes) to the open chunk. May flush.
 * Returns 0 when the record was accepted: from then on it is either written
 * or counted in records_lost (a failed flush on the way does not fail the
 * add; see hv_trace_writer_stats). -EINVAL: size not a multiple of 8, below
 * a record header or above HV_REC_MAX_BYTES; the record was not taken. */
int hv_trace_writer_add(struct hv_trace_writer *w, const struct hv_rec_header *rec);

/* Compresses and writes the open chunk, if it holds anything. 0 or -errno
 * (the chunk's records are then counted in records_lost). Once a frame has
 * failed to write, no further data frame is attempted: later chunks are
 * counted in records_lost as they fill (close still tries the footer). */
int hv_trace_writer_flush(struct hv_trace_writer *w);

/*
 * Chunk size: the open chunk is flushed once it holds this many bytes of
 * records (a single larger record still gets a chunk of its own). Smaller
 * chunks lose less on a crash and let readers start sooner; larger ones
 * compress better. Clamped to [HV_WRITER_MIN_CHUNK_BYTES,
 * HV_WRITER_MAX_CHUNK_BYTES]; returns the value in effect. Flushes first.
 */
#define HV_WRITER_DEFAULT_CHUNK_BYTES (1u << 20)
#define HV_WRITER_MIN_CHUNK_BYTES     256u
#define HV_WRITER_MAX_CHUNK_BYTES     (16u << 20)
size_t hv_trace_writer_set_chunk_bytes(struct hv_trace_writer *w, size_t bytes);

/*
 * What happened to the records handed to hv_trace_writer_add(). A chunk
 * whose frame cannot be written is discarded whole and its records counted
 * in records_lost (the caller adds them to HV_DROP_WRITE_ERROR); the partial
 * frame is cut off the file again where possible, so the file stays readable.
 * Its chunk_index is still used up, so readers see the loss as a gap.
 */
struct hv_trace_writer_stats {
    uint64_t records_written;  /* in frames completely written */
    uint64_t records_lost;     /* in chunks discarded on a write/compression error */
    uint64_t chunks_written;
    uint64_t file_bytes;
    uint64_t wait_ns;          /* async: time the adding thread waited for a chunk buffer */
    uint64_t max_wait_ns;      /* (compression 4 chunks behind), in all and the longest wait */
    int last_error;            /* -errno of the most recent failure, 0 if none */
    /* after the first failure no data frame is written again (see flush) */
};
void hv_trace_writer_stats(const struct hv_trace_writer *w, struct hv_trace_writer_stats *out);

/* Bytes of records waiting in the open chunk. */
size_t hv_trace_writer_pending(const struct hv_trace_writer *w);
/* Bytes that still fit in the open chunk before it is flushed for being full
 * (callers that must put a record into every frame check this first). */
size_t hv_trace_writer_room(const struct hv_trace_writer *w);
uint64_t hv_trace_writer_file_bytes(const struct hv_trace_writer *w);
const char *hv_trace_writer_path(const struct hv_trace_writer *w);

/* Flushes, writes the footer (when non-NULL) and closes. Frees w. The footer
 * is written as given except `chunks` and `records_written`, which the writer
 * knows exactly. Callers that account write losses in dropped[] call
 * hv_trace_writer_flush() and read the stats before building the footer.
 * Returns 0, or the first -errno of the final flush, footer write or close. */
int hv_trace_writer_close(struct hv_trace_writer *w, const struct hv_file_footer *footer);

/* Drops the writer without writing anything more (fork child discarding the
 * parent's file handle). Frees w. */
void hv_trace_writer_abandon(struct hv_trace_writer *w);

#endif
