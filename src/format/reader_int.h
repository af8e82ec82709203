/*
 * Reader internals shared by its parts (not for other modules):
 *   reader_input.c   the input buffer over the FILE*
 *   reader_frames.c  header, frames, chunk validation, resynchronisation
 *   reader_slots.c   decompressed chunk buffers pinned by the reorder window
 *   reader_pipe.c    decode workers: frames decompressed in parallel
 *   reader.c         the public API: open, next (windowed), next_raw, close
 */
#ifndef HV_FORMAT_READER_INT_H
#define HV_FORMAT_READER_INT_H

#include <stdint.h>
#include <stdio.h>
#include <zstd.h>

#include "format/codec_int.h"
#include "format/frame_int.h"
#include "format/derive.h"
#include "format/reader_merge_int.h"
#include "format/reorder.h"
#include "format/strtab.h"
#include "hipvis/reader.h"

/* At each frame start the reader tries to have this much buffered so that
 * zstd can decode the whole frame in one pass (its fast path needs the
 * complete frame in the input; a longer frame is decoded in steps, or, with
 * decode workers, buffered whole). Frames of a writer's 1 MiB chunks
 * compress to tens of KiB. The input buffer starts at four times that, so
 * that making room moves at most a quarter of what is read, and it stays
 * small enough to stay in cache. */
#define HV_RD_READAHEAD   (128u << 10)
#define HV_RD_IN_INITIAL  (4 * HV_RD_READAHEAD)     /* input buffer to start with */
/* The window releases its oldest record past this many bytes as well as past
 * HV_READER_WINDOW records, so huge records cannot make memory unbounded. */
#define HV_RD_WINDOW_BYTES (64u << 20)
/* Chunk buffers kept alive by window records; past this the oldest buffer's
 * remaining records are copied out ("evacuated") so it can be reused. */
#define HV_RD_PIN_BYTES   (128u << 20)
#define HV_RD_SLOT_NONE   UINT32_MAX      /* no current chunk */
#define HV_RD_SLOT_EVAC   (UINT32_MAX - 1) /* record copied to its own allocation */
/* Idle chunk buffers are kept for reuse up to this many bytes: the steady
 * state re-uses the same few buffers instead of mapping fresh ones (page
 * faults) for every chunk. */
#define HV_RD_IDLE_BYTES  (32u << 20)
#define HV_RD_KEEP_NONE   UINT64_MAX
#define HV_RD_MAX_THREADS 8               /* decode workers at most */
#define HV_RD_DEFAULT_THREADS 3           /* by default: online CPUs - 1, at most this */
#define HV_RD_PIPE_DEPTH  (2 * HV_RD_MAX_THREADS + 1)   /* jobs in flight at most */
/* The input buffer grows to hold one whole compressed frame of the largest
 * chunk accepted (plus the readahead); past that the frame start is let go. */
#define HV_RD_IN_MAX      (ZSTD_COMPRESSBOUND(HV_CHUNK_MAX_BYTES) + HV_RD_READAHEAD)

struct hv_slot {
    uint8_t *buf;
    size_t cap;
    uint32_t live;          /* records of this chunk in the window or handed out */
    uint8_t busy;           /* holds (or is being filled with) a chunk */
    uint8_t inflight;       /* a decode worker is filling it */
    uint64_t age;           /* load order, for evacuating the oldest first */
    /* While the sorted suffix (struct hv_reader, "sorted suffix") runs on
     * past this chunk: the chunk's records and the next chunk it holds
     * records of. */
    const uint8_t *rbeg, *rend;
    uint32_t rnext;
};

enum hv_src {
    HV_SRC_MORE,            /* frames may follow */
    HV_SRC_END,             /* clean end of input */
    HV_SRC_FAILED,          /* r->err waits to be reported once the window drains */
    HV_SRC_DEAD,            /* terminal error, reported */
};

struct hv_reader {
    FILE *f;
    int own_f;

    /* Bytes [in_off, in_off + in_len) of the input are in[0..in_len). in_pos
     * is the parse position. While a frame is decoded, keep_off is its start,
     * which stays buffered so that a damaged frame can be rescanned from its
     * second byte; HV_RD_KEEP_NONE otherwise. */
    uint8_t *in;
    size_t in_cap, in_len, in_pos;
    uint64_t in_off, keep_off;
    int eof;
    ZSTD_DCtx *dctx;

    struct hv_file_header hdr;
    struct hv_file_footer footer;
    int have_footer;

    struct hv_slot *slots;
    uint32_t nslots, slots_cap;
    uint32_t *idle;         /* stack of slot ids not busy */
    uint32_t nidle;
    uint64_t pinned, idle_bytes, next_age;
    uint32_t cur;           /* slot the cursor walks */
    const uint8_t *cur_p, *cur_end;

    struct hv_reorder win;
    size_t win_bytes;       /* bytes held, window and sorted suffix */
    uint64_t ord;           /* arrival index of the next record */
    /* The newest records held, when they arrived in order, stay out of the
     * window as the "sorted suffix" (reader.c): a run of arrivals in file
     * order, each no smaller than the one before and than anything the
     * window holds, so it is delivered from its chunks as they lie once the
     * window is empty. rn records from (rslot, rp); rend: end of rp's chunk;
     * rtail_*: its newest record; rhead_idx: the head's arrival index;
     * rrun: with per-thread sequences (one tid, rtid), the thread's running
     * call key before the head, from which every held key follows. */
    uint32_t rn, rslot, rtail_slot, rtid;
    const uint8_t *rp, *rend;
    uint64_t rtail_key, rhead_idx, rrun;
    /* The largest (key, ord) pushed into the window since it was last empty. */
    uint64_t wmax_seq, wmax_ord;
    /* Records handed out by the last call, released by the next: runs of
     * n records of one chunk buffer (or one evacuated copy, rec). */
    struct hv_rel {
        uint32_t slot, n;
        const struct hv_rec_header *rec;
    } rel[HV_READER_BATCH_MAX];
    uint32_t nrel;
    int batch_rc;           /* hv_reader_next_batch: the end or problem that stopped the last batch */
    uint64_t last_seq, last_ord;    /* key of the last record delivered, for late_records */
    int emitted;
    struct hv_merge merge;  /* per-thread sequences (HV_HDR_THREAD_SEQ) */
    struct hv_derive derive;   /* HIPVIS_RECORD=args traces (HV_HDR_DERIVE): applied to records as delivered */

    struct hv_strtab strings;

    unsigned threads;       /* decode workers wanted (reader_pipe.c) */
    struct hv_pipe *pipe;   /* started on the first chunk needed */
    int pipe_failed, barrier;

    enum hv_src src;
    int err_resumable;      /* after reporting, continue at the next frame magic */
    int resync;             /* scanning for a frame magic */
    struct hv_read_error err;
    struct hv_reader_stats st;
    uint32_t next_chunk;
    int seen_chunk;

    struct hv_codec_ctx *codec_ctx;     /* v2 decoding scratch (HV_CODEC_CTX_MAX contexts) */
    _Alignas(8) uint8_t scratch[512];   /* zero-filled copy of a short record */
};

/* reader_input.c */
size_t hv_rd_avail(const struct hv_reader *r);
uint64_t hv_rd_offset(const struct hv_reader *r);           /* file offset of in_pos */
/* Buffers at least `want` bytes from in_pos (fewer only at end of input).
 * Returns the bytes available, or -1 with r->err set (I/O, memory). */
long hv_rd_fill(struct hv_reader *r, size_t want);
void hv_rd_error(struct hv_reader *r, enum hv_read_status st, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* reader_frames.c */
int hv_rd_read_header(struct hv_reader *r);   /* 0, or -1 with r->err set */
/* Loads the next chunk and points the cursor at it; at the end of input sets
 * r->src to HV_SRC_END, on a problem to HV_SRC_FAILED. */
void hv_rd_load_next(struct hv_reader *r);

/* Checks a decoded chunk without touching reader state (decode workers
 * call it too): 0 with *ch and *nstr (string records) filled, or -1 with the
 * reason in why[why_cap] (why_cap 0: no text wanted). */
int hv_rd_check_chunk(const uint8_t *b, size_t used, struct hv_chunk_header *ch, uint64_t *nstr, char *why,
                      size_t why_cap);
/* A decoded frame holding a v2 chunk (codec_int.h)? */
int hv_rd_is_v2(const uint8_t *b, size_t used);
/* Decodes the v2 chunk in slot *s into a fresh slot holding the equivalent
 * plain chunk, checked as hv_rd_check_chunk checks one (*ch and *nstr
 * filled); *s and *used then name that one, the old slot is dropped. 0, or
 * -1 with why (the old slot kept). Calling thread only. */
int hv_rd_expand_v2(struct hv_reader *r, uint32_t *s, size_t *used, struct hv_chunk_header *ch, uint64_t *nstr,
                    char *why, size_t why_cap);
/* Makes a checked chunk in slot s current: strings, gap count, cursor.
 * 1 with records, 0 empty, -1 out of memory (r->src set). */
int hv_rd_accept_chunk(struct hv_reader *r, uint32_t s, size_t used, uint64_t off,
                       const struct hv_chunk_header *ch, uint64_t nstr);

/* reader.c: moves the sorted suffix into the window (before evacuating
 * chunks, which only looks at window entries). 0, or -1 out of memory. */
int hv_rd_flush_sorted(struct hv_reader *r);

/* reader_pipe.c */
unsigned hv_rd_default_threads(void);
/* Loads the next chunk like hv_rd_load_next, through the decode workers when
 * there are any. */
void hv_rd_next_chunk(struct hv_reader *r);
/* File offset up to which frames have been handed over (stats). */
uint64_t hv_rd_consumed(const struct hv_reader *r);
void hv_rd_pipe_free(struct hv_reader *r);

/* reader_slots.c */
int hv_rd_slot_take(struct hv_reader *r, uint32_t *id);     /* 0, or -1 (memory) */
int hv_rd_slot_reserve(struct hv_reader *r, uint32_t id, size_t bytes);
void hv_rd_slot_drop(struct hv_reader *r, uint32_t id);     /* the slot holds nothing live */
void hv_rd_release(struct hv_reader *r, const struct hv_rel *e);
int hv_rd_evacuate(struct hv_reader *r);                    /* bring pinned under budget */
void hv_rd_slots_free(struct hv_reader *r);

#endif
