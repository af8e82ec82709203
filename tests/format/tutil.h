/* Helpers shared by the format tests: temp files, writing a record list as
 * a trace, reading a trace from memory, and an independent frame map. */
#ifndef HV_TESTS_FORMAT_TUTIL_H
#define HV_TESTS_FORMAT_TUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen.h"
#include "hipvis/reader.h"

/* A per-run temporary directory (removed at exit) and a path inside it. */
const char *tu_dir(void);
const char *tu_path(const char *name);   /* static buffer: copy it if kept */

/* Writes records [0, n) of l as a trace at `path` with the given chunk size;
 * with a footer when `footer`. Returns 0. */
int tu_write_trace(const char *path, const struct hv_reclist *l, size_t n, size_t chunk_bytes, int footer);

/* A tool built next to hipvis-dump (hv_t_dump_path), e.g. "hipvis-analyze"; static buffer. */
const char *tu_tool(const char *name);

uint8_t *tu_slurp(const char *path, size_t *len);
int tu_spit(const char *path, const void *buf, size_t len);

/* Opens a reader over memory (fmemopen). The FILE is closed by tu_close. */
int tu_open_mem(const void *buf, size_t len, struct hv_reader **r, struct hv_read_error *err);
void tu_close(struct hv_reader *r);

/* Reads everything; returns the records delivered, the first error (if any)
 * in *first_err with the count of -1 returns in *nerr. Records are appended
 * to `out` when non-NULL. `raw` uses hv_reader_next_raw. */
size_t tu_read_all(struct hv_reader *r, int raw, struct hv_reclist *out, struct hv_read_error *first_err,
                   int *nerr);

/* The frames of a trace file, found without the reader: skippable frames by
 * their size field, zstd frames by ZSTD_findFrameCompressedSize. */
enum tu_frame_kind { TU_HEADER, TU_DATA, TU_FOOTER, TU_OTHER };
struct tu_frame {
    size_t off, end;
    enum tu_frame_kind kind;
    uint64_t nrecords;     /* TU_DATA: from the chunk header */
};
/* Returns the number of frames, or -1 if the bytes do not parse. */
int tu_frames(const uint8_t *buf, size_t len, struct tu_frame *out, int max);

/* Raw file building, to make damaged traces on purpose. */
struct tu_buf {
    uint8_t *b;
    size_t len, cap;
};
void tu_put(struct tu_buf *t, const void *p, size_t n);
void tu_put_header(struct tu_buf *t, uint32_t version);
/* A zstd frame (with checksum) of arbitrary content. */
void tu_put_frame(struct tu_buf *t, const void *raw, size_t n);
void tu_put_skippable(struct tu_buf *t, uint32_t magic, const void *p, uint32_t n);
/* A data frame holding a chunk: header fields as given, then `payload`. */
void tu_put_chunk(struct tu_buf *t, uint32_t magic, uint32_t index, uint64_t nrecords, const void *payload,
                  size_t len);
/* A well-formed chunk of records [from, to) of l. */
void tu_put_records(struct tu_buf *t, uint32_t index, const struct hv_reclist *l, size_t from, size_t to);
void tu_put_footer(struct tu_buf *t);

#endif
