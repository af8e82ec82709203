/*
 * Trace file writer (src/format/trace_writer.h).
 *
 * Runs inside the traced process's writer thread: no stdio, no global state,
 * never aborts; every failure becomes a return value and a counter. Each
 * chunk is compressed by ZSTD_compress2 into an independent frame with a
 * content checksum and content size, so a reader can verify, size and skip
 * every frame on its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "format/frame.h"
#include "format/trace_path.h"
#include "format/trace_writer.h"

#define PATH_CAP 4096
#define MAX_SUFFIX 9999

struct hv_trace_writer {
    int fd;
    ZSTD_CCtx *cctx;
    uint8_t *chunk;            /* struct hv_chunk_header, then records */
    size_t chunk_cap;          /* fixed: header + max(limit, one largest record) */
    size_t used;               /* bytes of records after the header */
    size_t limit;              /* flush threshold */
    uint64_t nrecords, first_seq;
    uint32_t chunk_index;
    uint8_t *out;              /* one compressed frame */
    size_t out_cap;
    struct hv_trace_writer_stats st;
    int stopped;               /* a frame failed to write: no more data frames */
    char path[PATH_CAP];
};

static size_t chunk_cap_for(size_t limit)
{
    size_t body = limit > HV_REC_MAX_BYTES ? limit : HV_REC_MAX_BYTES;
    return sizeof(struct hv_chunk_header) + body;
}

/* Writes all of buf, through EINTR and short writes. 0 or -errno. */
static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (k == 0)
            return -EIO;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Appends one frame. On failure the partial frame is cut off again (the
 * file is a regular file we created) so later frames still line up. */
static int write_frame(struct hv_trace_writer *w, const void *buf, size_t n)
{
    int rc = write_all(w->fd, buf, n);
    if (rc < 0) {
        w->st.last_error = rc;
        if (ftruncate(w->fd, (off_t)w->st.file_bytes) == 0)
            lseek(w->fd, (off_t)w->st.file_bytes, SEEK_SET);
        return rc;
    }
    w->st.file_bytes += n;
    return 0;
}

/* A skippable frame: magic, 32-bit size, payload. Small (header, footer),
 * so it is assembled in the output buffer and written with one write(2). */
static int write_skippable(struct hv_trace_writer *w, uint32_t magic, const void *payload, uint32_t size)
{
    if (HV_SKIPPABLE_HDR_BYTES + (size_t)size > w->out_cap)
        return -EINVAL;
    hv_put_le32(w->out, magic);
    hv_put_le32(w->out + 4, size);
    memcpy(w->out + HV_SKIPPABLE_HDR_BYTES, payload, size);
    return write_frame(w, w->out, HV_SKIPPABLE_HDR_BYTES + (size_t)size);
}

/* (Re)allocates the chunk and output buffers for a flush threshold. */
static int size_buffers(struct hv_trace_writer *w, size_t limit)
{
    size_t cap = chunk_cap_for(limit);
    size_t out_cap = ZSTD_compressBound(cap);
    if (out_cap < HV_SKIPPABLE_HDR_BYTES + sizeof(struct hv_file_header))
        out_cap = HV_SKIPPABLE_HDR_BYTES + sizeof(struct hv_file_header);
    uint8_t *chunk = malloc(cap), *out = malloc(out_cap);
    if (!chunk || !out) {
        free(chunk);
        free(out);
        return -ENOMEM;
    }
    free(w->chunk);
    free(w->out);
    w->chunk = chunk;
    w->chunk_cap = cap;
    w->out = out;
    w->out_cap = out_cap;
    w->limit = limit;
    return 0;
}

static void free_writer(struct hv_trace_writer *w)
{
    ZSTD_freeCCtx(w->cctx);
    free(w->chunk);
    free(w->out);
    free(w);
}

int hv_trace_writer_open(const char *path_template, const struct hv_file_header *hdr,
                         int compression_level, struct hv_trace_writer **out)
{
    *out = NULL;
    struct hv_trace_writer *w = calloc(1, sizeof *w);
    if (!w)
        return -ENOMEM;
    w->fd = -1;
    w->cctx = ZSTD_createCCtx();
    if (!w->cctx || size_buffers(w, HV_WRITER_DEFAULT_CHUNK_BYTES) < 0) {
        free_writer(w);
        return -ENOMEM;
    }
    if (compression_level < ZSTD_minCLevel())
        compression_level = ZSTD_minCLevel();
    if (compression_level > ZSTD_maxCLevel())
        compression_level = ZSTD_maxCLevel();
    /* Sticky parameters: every ZSTD_compress2 on this context uses them. */
    if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, compression_level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1))) {
        free_writer(w);
        return -EINVAL;
    }

    char name[PATH_CAP];
    int rc = hv_path_expand(path_template, hdr->pid, hdr->host, sizeof hdr->host, name, sizeof name);
    if (rc >= 0)
        rc = hv_path_create_excl(name, MAX_SUFFIX, w->path, sizeof w->path);
    if (rc < 0) {
        free_writer(w);
        return rc;
    }
    w->fd = rc;

    struct hv_file_header h = *hdr;
    memcpy(h.magic, HV_FILE_MAGIC, sizeof h.magic);
    h.format_version = HV_FORMAT_VERSION;
    h.header_size = sizeof h;
    rc = write_skippable(w, HV_FRAME_MAGIC_HEADER, &h, sizeof h);
    if (rc < 0) {
        /* A file without a header is of no use to anyone: take it back. */
        unlink(w->path);
        close(w->fd);
        free_writer(w);
        return rc;
    }
    *out = w;
    return 0;
}

int hv_trace_writer_flush(struct hv_trace_writer *w)
{
    if (!w->nrecords)
        return 0;
    /* After a failed frame (full disk, quota, file size limit, I/O error)
     * no more data frames are attempted: each try would cost a compression
     * and likely fail again, and a later success would leave a silent hole.
     * The records are counted instead; close still tries the small footer
     * that carries the counts. */
    if (w->stopped) {
        w->st.records_lost += w->nrecords;
        w->chunk_index++;
        w->used = 0;
        w->nrecords = 0;
        return w->st.last_error;
    }
    struct hv_chunk_header ch = {
        .magic = HV_CHUNK_MAGIC,
        .chunk_index = w->chunk_index++,   /* used up even if lost: readers see a gap */
        .nrecords = w->nrecords,
        .first_seq = w->first_seq,
        .payload_bytes = w->used,
    };
    memcpy(w->chunk, &ch, sizeof ch);
    size_t n = ZSTD_compress2(w->cctx, w->out, w->out_cap, w->chunk, sizeof ch + w->used);
    int rc = ZSTD_isError(n) ? -ENOMEM : write_frame(w, w->out, n);
    if (rc < 0) {
        w->st.last_error = rc;
        w->st.records_lost += w->nrecords;
        w->stopped = 1;
    } else {
        w->st.records_written += w->nrecords;
        w->st.chunks_written++;
    }
    w->used = 0;
    w->nrecords = 0;
    return rc;
}

int hv_trace_writer_add(struct hv_trace_writer *w, const struct hv_rec_header *rec)
{
    size_t size = rec->size;
    if (size < sizeof *rec || size % HV_REC_ALIGN || size > HV_REC_MAX_BYTES)
        return -EINVAL;
    /* A failed flush is counted in the stats; the record still goes in. */
    if (w->used && w->used + size > w->limit)
        hv_trace_writer_flush(w);
    memcpy(w->chunk + sizeof(struct hv_chunk_header) + w->used, rec, size);
    if (!w->nrecords || rec->seq < w->first_seq)
        w->first_seq = rec->seq;
    w->used += size;
    w->nrecords++;
    if (w->used >= w->limit)
        hv_trace_writer_flush(w);
    return 0;
}

size_t hv_trace_writer_set_chunk_bytes(struct hv_trace_writer *w, size_t bytes)
{
    if (bytes < HV_WRITER_MIN_CHUNK_BYTES)
        bytes = HV_WRITER_MIN_CHUNK_BYTES;
    if (bytes > HV_WRITER_MAX_CHUNK_BYTES)
        bytes = HV_WRITER_MAX_CHUNK_BYTES;
    hv_trace_writer_flush(w);
    if (chunk_cap_for(bytes) != w->chunk_cap && size_buffers(w, bytes) < 0) {
        /* No memory for new buffers: the writer must go on with the old
         * ones, so only a threshold they can hold is taken. */
        if (bytes > w->chunk_cap - sizeof(struct hv_chunk_header))
            return w->limit;
    }
    w->limit = bytes;
    return bytes;
}

size_t hv_trace_writer_pending(const struct hv_trace_writer *w) { return w->used; }

size_t hv_trace_writer_room(const struct hv_trace_writer *w) { return w->used < w->limit ? w->limit - w->used : 0; }

uint64_t hv_trace_writer_file_bytes(const struct hv_trace_writer *w) { return w->st.file_bytes; }

const char *hv_trace_writer_path(const struct hv_trace_writer *w) { return w->path; }

void hv_trace_writer_stats(const struct hv_trace_writer *w, struct hv_trace_writer_stats *out) { *out = w->st; }

int hv_trace_writer_close(struct hv_trace_writer *w, const struct hv_file_footer *footer)
{
    int rc = hv_trace_writer_flush(w);
    if (footer) {
        struct hv_file_footer f = *footer;
        memcpy(f.magic, HV_FOOTER_MAGIC, sizeof f.magic);
        f.chunks = w->st.chunks_written;
        f.records_written = w->st.records_written;
        int frc = write_skippable(w, HV_FRAME_MAGIC_FOOTER, &f, sizeof f);
        if (!rc)
            rc = frc;
    }
    if (close(w->fd) < 0 && !rc && errno != EINTR)
        rc = -errno;
    free_writer(w);
    return rc;
}

void hv_trace_writer_abandon(struct hv_trace_writer *w)
{
    close(w->fd);
    free_writer(w);
}
