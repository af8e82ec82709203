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
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
/* ZSTD_createCCtx_advanced: the compression context's workspace in huge pages (zmem_alloc). */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "format/codec_int.h"
#include "format/frame_int.h"
#include "format/trace_path_int.h"
#include "format/trace_writer.h"
#include "common/mono.h"
#include "common/pages.h"

#define PATH_CAP 4096
#define MAX_SUFFIX 9999
/* Room kept allocated past the end of the file for the footer frame (8 +
 * sizeof(struct hv_file_footer) bytes, well under a block): see reserve(). */
#define FOOTER_ROOM 4096u

/* Chunks waiting for the compression thread (async mode): what the drain
 * path may run ahead of compression before it waits. */
#define CQ_DEPTH 4

struct cjob {
    uint8_t *buf;              /* a chunk buffer: header room, then records */
    size_t used;
    uint64_t nrecords, first_seq;
    uint32_t index;
};

struct hv_trace_writer {
    int fd;
    int version;               /* format version written: 2 encodes chunks (codec_int.h), 1 does not */
    ZSTD_CCtx *cctx;
    uint8_t *chunk;            /* struct hv_chunk_header, then records */
    size_t chunk_cap;          /* fixed: header + max(limit, one largest record) */
    size_t used;               /* bytes of records after the header */
    size_t limit;              /* flush threshold */
    uint64_t nrecords, first_seq;
    uint32_t chunk_index;
    uint8_t *out;              /* one compressed frame */
    size_t out_cap;
    uint8_t *code;             /* a v2 chunk: header, then the code */
    size_t code_cap;
    /* chunk, the async spares, code and out are slices of one mapping
     * (size_buffers), made of huge pages where the kernel allows. */
    uint8_t *arena;
    size_t arena_len;
    struct hv_encoder enc;
    struct hv_trace_writer_stats st;
    int stopped;               /* a frame failed to write: no more data frames */
    int no_reserve;            /* the filesystem has no fallocate: frames are written unreserved */
    uint64_t size_limit;       /* RLIMIT_FSIZE at open, 0 for none */
    /* Async mode (hv_trace_writer_set_async): a thread encodes, compresses
     * and writes full chunks; everything below is guarded by mu. */
    int async;
    pid_t async_pid;           /* the process whose thread it is (fork children have none) */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct cjob q[CQ_DEPTH];
    unsigned qhead, qn, busy, quit;
    _Atomic int ready;         /* the compression thread's warm-up is done */
    uint8_t *spare[CQ_DEPTH + 1];
    unsigned nspare;
    /* hv_trace_writer_warm: chunk buffers whose pages were all written once,
     * and how far into the one in progress (warm_cur) it got. */
    uint8_t *warmed[CQ_DEPTH + 1];
    unsigned nwarmed;
    uint8_t *warm_cur;
    size_t warm_off;
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

/* Cuts a partially written frame off again (the file is a regular file we
 * created) so later frames still line up. Only when the file did grow: a
 * truncate also frees the blocks reserve() kept for the footer. */
static void cut_back(struct hv_trace_writer *w)
{
    struct stat st;
    if (fstat(w->fd, &st) == 0 && (uint64_t)st.st_size == w->st.file_bytes)
        return;
    if (ftruncate(w->fd, (off_t)w->st.file_bytes) == 0)
        lseek(w->fd, (off_t)w->st.file_bytes, SEEK_SET);
}

/* Appends one frame. On failure the partial frame is cut off again. */
static int write_frame(struct hv_trace_writer *w, const void *buf, size_t n)
{
    int rc = write_all(w->fd, buf, n);
    if (rc < 0) {
        w->st.last_error = rc;
        cut_back(w);
        return rc;
    }
    w->st.file_bytes += n;
    return 0;
}

/*
 * The footer carries the loss counts, so it must fit even when the disk is
 * full. Before a frame of n bytes is written at the end of the file, the
 * blocks for it and for FOOTER_ROOM bytes after it are allocated
 * (fallocate, FALLOC_FL_KEEP_SIZE: the file's size does not change). When
 * that fails (ENOSPC, EDQUOT) the frame is not written and the writer stops
 * (its records are counted as lost); the footer then goes into the room
 * the previous reservation kept. The file size limit (RLIMIT_FSIZE) is
 * honoured the same way, before the kernel would refuse the write and
 * raise SIGXFSZ in the traced process. A filesystem without fallocate
 * (EOPNOTSUPP) gets no reservation: the footer may then be lost on a full
 * disk, and the reader reports the trace cut short and its sequence gaps.
 * The room is given back when the file is closed.
 */
static int reserve(struct hv_trace_writer *w, size_t n)
{
    uint64_t end = w->st.file_bytes + n + FOOTER_ROOM;
    if (w->size_limit && end > w->size_limit)
        return -EFBIG;
    if (w->no_reserve)
        return 0;
    int rc;
    do
        rc = fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->st.file_bytes, (off_t)(n + FOOTER_ROOM));
    while (rc != 0 && errno == EINTR);
    if (rc == 0)
        return 0;
    if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
        w->no_reserve = 1;
        return 0;
    }
    return -errno;
}

size_t hv_trace_header_bytes(const struct hv_file_header *hdr)
{
    size_t argv = hdr->argv_bytes < sizeof hdr->argv ? hdr->argv_bytes : sizeof hdr->argv;
    return hv_rec_padded(offsetof(struct hv_file_header, argv) + argv);
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

static size_t page_up(size_t n) { return (n + HV_PAGE_BYTES - 1) & ~(size_t)(HV_PAGE_BYTES - 1); }

/*
 * (Re)allocates the chunk and output buffers for a flush threshold, and
 * when `async` the CQ_DEPTH spare chunk buffers, as slices of one mapping of
 * whole 2 MiB huge pages (hv_map_huge: 8 MiB at the default 1 MiB chunks,
 * against ~7.3 MiB of buffers). On a VM where each page-table entry's first
 * write is slow (util/pages.h) that makes the writer's warm-up of those
 * buffers (hv_trace_writer_warm, and compress_main's) four page writes
 * instead of ~1,860, so the first drain passes never copy into cold pages
 * and do not share a CPU with a long warm-up. Records already in the open
 * chunk move with it (set_async comes after the header, before records).
 */
static int size_buffers(struct hv_trace_writer *w, size_t limit, int async)
{
    size_t cap = chunk_cap_for(limit);
    size_t code_cap = sizeof(struct hv_chunk_header_v2) + hv_codec_bound(cap);
    size_t out_cap = ZSTD_compressBound(code_cap);
    if (out_cap < HV_SKIPPABLE_HDR_BYTES + sizeof(struct hv_file_header))
        out_cap = HV_SKIPPABLE_HDR_BYTES + sizeof(struct hv_file_header);
    unsigned nchunks = async ? CQ_DEPTH + 1 : 1;
    size_t len = nchunks * page_up(cap) + page_up(code_cap) + page_up(out_cap);
    len = (len + HV_HUGE_BYTES - 1) & ~(size_t)(HV_HUGE_BYTES - 1);
    uint8_t *arena = hv_map_huge(len);
    if (!arena)
        return -ENOMEM;
    if (w->chunk)
        memcpy(arena, w->chunk, sizeof(struct hv_chunk_header) + w->used);
    if (w->arena)
        munmap(w->arena, w->arena_len);
    w->arena = arena;
    w->arena_len = len;
    w->chunk = arena;
    w->chunk_cap = cap;
    for (w->nspare = 0; w->nspare + 1 < nchunks; w->nspare++)
        w->spare[w->nspare] = arena + (w->nspare + 1) * page_up(cap);
    w->code = arena + nchunks * page_up(cap);
    w->code_cap = code_cap;
    w->out = w->code + page_up(code_cap);
    w->out_cap = out_cap;
    w->limit = limit;
    return 0;
}

/*
 * zstd's allocations for the compression context. Its workspace (~1.3 MiB
 * at level 3: hash and chain tables, block buffers) is written all through
 * by the first compression; in 4 KiB pages that took ~10-13 ms on this VM
 * (util/pages.h), on the compression thread, while it shared the one CPU
 * the spinning loop left with the writer thread's first passes. In huge
 * pages (a 2 MiB mapping) it is one page. Smaller allocations go to malloc.
 * Each block starts with a 64-byte header that says which it was.
 */
#define ZMEM_HDR 64u
#define ZMEM_HUGE_FROM (256u << 10)

static void *zmem_alloc(void *opaque, size_t size)
{
    (void)opaque;
    size_t len = size + ZMEM_HDR;
    int huge = size >= ZMEM_HUGE_FROM;
    if (huge)
        len = (len + HV_HUGE_BYTES - 1) & ~(size_t)(HV_HUGE_BYTES - 1);
    uint8_t *p = huge ? hv_map_huge(len) : malloc(len);
    if (!p)
        return NULL;
    memcpy(p, &(size_t){huge ? len : 0}, sizeof(size_t));
    return p + ZMEM_HDR;
}

static void zmem_free(void *opaque, void *addr)
{
    (void)opaque;
    if (!addr)
        return;
    uint8_t *p = (uint8_t *)addr - ZMEM_HDR;
    size_t len;
    memcpy(&len, p, sizeof len);
    if (len)
        munmap(p, len);
    else
        free(p);
}

static void free_writer(struct hv_trace_writer *w)
{
    ZSTD_freeCCtx(w->cctx);
    hv_encoder_free(&w->enc);
    /* Every buffer, queued ones included (a fork child abandons a writer
     * with chunks queued), is a slice of the arena. */
    if (w->arena)
        munmap(w->arena, w->arena_len);
    free(w);
}

int hv_trace_writer_open(const char *path_template, const struct hv_file_header *hdr,
                         int compression_level, struct hv_trace_writer **out)
{
    return hv_trace_writer_open_version(path_template, hdr, compression_level, HV_FORMAT_VERSION, out);
}

int hv_trace_writer_open_version(const char *path_template, const struct hv_file_header *hdr,
                                 int compression_level, unsigned version, struct hv_trace_writer **out)
{
    *out = NULL;
    if (version < 1 || version > HV_FORMAT_VERSION)
        return -EINVAL;
    struct hv_trace_writer *w = calloc(1, sizeof *w);
    if (!w)
        return -ENOMEM;
    w->fd = -1;
    w->version = (int)version;
    w->cctx = ZSTD_createCCtx_advanced((ZSTD_customMem){zmem_alloc, zmem_free, NULL});
    if (!w->cctx || size_buffers(w, HV_WRITER_DEFAULT_CHUNK_BYTES, 0) < 0) {
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

    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        w->size_limit = (uint64_t)rl.rlim_cur;

    struct hv_file_header h = *hdr;
    memcpy(h.magic, HV_FILE_MAGIC, sizeof h.magic);
    h.format_version = version;
    h.header_size = (uint32_t)hv_trace_header_bytes(&h);
    /* No room for a header and a footer: the file could not even say what it lost. */
    rc = reserve(w, HV_SKIPPABLE_HDR_BYTES + h.header_size);
    if (rc == 0)
        rc = write_skippable(w, HV_FRAME_MAGIC_HEADER, &h, h.header_size);
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

/* Encodes (version 2), compresses and writes one chunk; returns 0 or
 * -errno. Runs on the compression thread in async mode, else on the
 * caller's; either way alone on the encoder, the zstd context and the file.
 * The stats are the caller's to update. */
static int write_chunk(struct hv_trace_writer *w, const struct cjob *j, size_t *frame_bytes)
{
    struct hv_chunk_header ch = {
        .magic = HV_CHUNK_MAGIC,
        .chunk_index = j->index,
        .nrecords = j->nrecords,
        .first_seq = j->first_seq,
        .payload_bytes = j->used,
    };
    const uint8_t *src = j->buf;
    size_t src_len = sizeof ch + j->used;
    size_t code = w->version >= 2 ? hv_encode_chunk(&w->enc, j->buf + sizeof ch, j->used,
                                                    w->code + sizeof(struct hv_chunk_header_v2))
                                  : 0;
    if (code) {
        struct hv_chunk_header_v2 h2 = { ch, j->used };
        h2.h.magic = HV_CHUNK_MAGIC_V2;
        h2.h.payload_bytes = code;
        memcpy(w->code, &h2, sizeof h2);
        src = w->code;
        src_len = sizeof h2 + code;
    } else {
        /* Version 1, or no memory for the encoder: a plain chunk, which every reader reads. */
        memcpy(j->buf, &ch, sizeof ch);
    }
    size_t n = ZSTD_compress2(w->cctx, w->out, w->out_cap, src, src_len);
    if (ZSTD_isError(n))
        return -ENOMEM;
    *frame_bytes = n;
    int rc = reserve(w, n);
    return rc ? rc : write_all(w->fd, w->out, n);
}

/* Accounts for a chunk written (rc 0) or lost; cuts a partial frame off. */
static void chunk_done(struct hv_trace_writer *w, const struct cjob *j, int rc, size_t n)
{
    if (rc < 0) {
        w->st.last_error = rc;
        w->st.records_lost += j->nrecords;
        w->stopped = 1;
        cut_back(w);
    } else {
        w->st.file_bytes += n;
        w->st.records_written += j->nrecords;
        w->st.chunks_written++;
    }
}

static void *compress_main(void *arg)
{
    struct hv_trace_writer *w = arg;
    /* Before the first chunk comes: one byte per page of this thread's
     * buffers, and one compression of as many zeros as a chunk holds (the
     * context sizes its tables then), so that the first chunks are not
     * slowed by page first writes (7-100 us a page on some VMs) while the
     * drain runs ahead of them into its spare buffers. The encoder's and
     * compressor's buffers are only used by this thread in async mode. */
    /* The chunk buffers first, which the drain fills from its first pass
     * on: populated, not written (the drain may be copying into the open
     * chunk already), which in huge pages (size_buffers) is all their
     * warm-up needs; in 4 KiB pages the writer thread's
     * hv_trace_writer_warm still writes a byte per page. */
    (void)madvise(w->arena, (size_t)(w->code - w->arena), MADV_POPULATE_WRITE);
    hv_touch_pages(w->code, 0, w->code_cap);
    hv_touch_pages(w->out, 0, w->out_cap);
    size_t zeros = w->chunk_cap < w->code_cap ? w->chunk_cap : w->code_cap;
    memset(w->code, 0, zeros);
    (void)ZSTD_compress2(w->cctx, w->out, w->out_cap, w->code, zeros);
    atomic_store_explicit(&w->ready, 1, memory_order_release);
    pthread_mutex_lock(&w->mu);
    w->busy = 0;   /* set by set_async: a resize waits for this warm-up */
    pthread_cond_broadcast(&w->cv);
    for (;;) {
        while (!w->qn && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->qn)
            break;
        struct cjob j = w->q[w->qhead];
        int stopped = w->stopped;
        w->busy = 1;
        pthread_mutex_unlock(&w->mu);
        size_t n = 0;
        int rc = stopped ? w->st.last_error : write_chunk(w, &j, &n);
        pthread_mutex_lock(&w->mu);
        if (stopped)
            w->st.records_lost += j.nrecords;
        else
            chunk_done(w, &j, rc, n);
        w->qhead = (w->qhead + 1) % CQ_DEPTH;
        w->qn--;
        w->busy = 0;
        w->spare[w->nspare++] = j.buf;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Async mode: waits until every queued chunk is written. */
static void wait_idle(struct hv_trace_writer *w)
{
    if (!w->async)
        return;
    pthread_mutex_lock(&w->mu);
    while (w->qn || w->busy)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

int hv_trace_writer_sync(struct hv_trace_writer *w)
{
    int rc = hv_trace_writer_flush(w);
    wait_idle(w);
    return rc;
}

int hv_trace_writer_set_async(struct hv_trace_writer *w)
{
    if (w->async)
        return 0;
    /* The spares join the arena (the open chunk moves with it). */
    int rc = size_buffers(w, w->limit, 1);
    if (rc < 0) {
        w->nspare = 0;
        return rc;
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    /* The thread takes no signals: they belong to the application. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    w->busy = 1;   /* the thread's warm-up uses the buffers */
    rc = pthread_create(&w->th, NULL, compress_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        w->busy = 0;
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        return -rc;
    }
    w->async = 1;
    w->async_pid = getpid();
    return 0;
}

static int is_warm(const struct hv_trace_writer *w, const uint8_t *buf)
{
    for (unsigned i = 0; i < w->nwarmed; i++)
        if (w->warmed[i] == buf)
            return 1;
    return 0;
}

/* Writes pages of `buf` from warm_off (when it is warm_cur) until the
 * budget ends; records it as warm when every page is written. Bytes below
 * `live` hold records: their pages were written by the copies, and are
 * not written again. */
static void warm_some(struct hv_trace_writer *w, uint8_t *buf, size_t live, uint64_t until)
{
    if (w->warm_cur != buf) {
        w->warm_cur = buf;
        w->warm_off = 0;
    }
    if (w->warm_off < live)
        w->warm_off = (live + HV_PAGE_BYTES - 1) & ~(size_t)(HV_PAGE_BYTES - 1);
    do {   /* 8 pages per clock read */
        size_t to = w->warm_off + 8 * HV_PAGE_BYTES < w->chunk_cap ? w->warm_off + 8 * HV_PAGE_BYTES : w->chunk_cap;
        hv_touch_pages(buf, w->warm_off, to);
        w->warm_off = to;
    } while (w->warm_off < w->chunk_cap && hv_mono_ns() < until);
    if (w->warm_off >= w->chunk_cap && w->nwarmed < CQ_DEPTH + 1) {
        w->warmed[w->nwarmed++] = buf;
        w->warm_cur = NULL;
    }
}

int hv_trace_writer_warm(struct hv_trace_writer *w, uint64_t budget_ns)
{
    unsigned total = w->async ? CQ_DEPTH + 1 : 1;
    /* While the compression thread populates the chunk buffers (huge pages:
     * one fault per 2 MiB, up to ~20 ms on this VM for memory the host never
     * backed), a write here would fault the same page a second time. */
    if (!hv_trace_writer_ready(w))
        return 1;
    uint64_t until = hv_mono_ns() + budget_ns;
    /* At least one step of 8 pages, whatever the budget. */
    for (int first = 1; w->nwarmed < total && (first || hv_mono_ns() < until); first = 0) {
        /* The open chunk is the caller's: written in place. */
        if (!is_warm(w, w->chunk)) {
            warm_some(w, w->chunk, sizeof(struct hv_chunk_header) + w->used, until);
            continue;
        }
        if (!w->async)
            break;
        /* A spare is taken out of the pool while its pages are written:
         * only this thread takes spares (flush), the compression thread
         * only gives them back, and a chunk in its queue is not touched. */
        uint8_t *buf = NULL;
        pthread_mutex_lock(&w->mu);
        for (unsigned i = 0; i < w->nspare && !buf; i++)
            if (!is_warm(w, w->spare[i])) {
                buf = w->spare[i];
                w->spare[i] = w->spare[--w->nspare];
            }
        pthread_mutex_unlock(&w->mu);
        if (!buf)
            break;   /* the rest are queued for compression: another time */
        warm_some(w, buf, 0, until);
        pthread_mutex_lock(&w->mu);
        w->spare[w->nspare++] = buf;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
    return w->nwarmed < total;
}

int hv_trace_writer_ready(struct hv_trace_writer *w)
{
    return !w->async || atomic_load_explicit(&w->ready, memory_order_acquire);
}

int hv_trace_writer_flush(struct hv_trace_writer *w)
{
    if (!w->nrecords)
        return 0;
    struct cjob j = { w->chunk, w->used, w->nrecords, w->first_seq,
                      w->chunk_index++ /* used up even if lost: readers see a gap */ };
    w->used = 0;
    w->nrecords = 0;
    if (w->async) {
        /* Hand the chunk over; wait only when CQ_DEPTH chunks are already
         * queued (compression cannot keep up with the drain at all). */
        pthread_mutex_lock(&w->mu);
        if (w->qn == CQ_DEPTH || !w->nspare) {
            uint64_t t0 = hv_mono_ns();
            while (w->qn == CQ_DEPTH || !w->nspare)
                pthread_cond_wait(&w->cv, &w->mu);
            uint64_t waited = hv_mono_ns() - t0;
            w->st.wait_ns += waited;
            if (waited > w->st.max_wait_ns)
                w->st.max_wait_ns = waited;
        }
        w->q[(w->qhead + w->qn) % CQ_DEPTH] = j;
        w->qn++;
        w->chunk = w->spare[--w->nspare];
        int rc = w->stopped ? w->st.last_error : 0;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        return rc;
    }
    /* After a failed frame (full disk, quota, file size limit, I/O error)
     * no more data frames are attempted: each try would cost a compression
     * and likely fail again, and a later success would leave a silent hole.
     * The records are counted instead; close still tries the small footer
     * that carries the counts. */
    if (w->stopped) {
        w->st.records_lost += j.nrecords;
        return w->st.last_error;
    }
    size_t n = 0;
    int rc = write_chunk(w, &j, &n);
    chunk_done(w, &j, rc, n);
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
    wait_idle(w);
    /* Buffers may move or change size: warming stops here (a resize comes
     * before the first records, from the sidecar and the tests). */
    w->nwarmed = CQ_DEPTH + 1;
    w->warm_cur = NULL;
    /* Idle now: every spare is back in the pool, so the arena (spares
     * included) can be laid out again. */
    if (chunk_cap_for(bytes) != w->chunk_cap && size_buffers(w, bytes, w->async) < 0) {
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

void hv_trace_writer_stats(const struct hv_trace_writer *w, struct hv_trace_writer_stats *out)
{
    if (w->async)
        pthread_mutex_lock((pthread_mutex_t *)&w->mu);
    *out = w->st;
    if (w->async)
        pthread_mutex_unlock((pthread_mutex_t *)&w->mu);
}

/* Stops the compression thread once everything queued is written. */
static void stop_async(struct hv_trace_writer *w)
{
    if (!w->async)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->async = 0;
}

int hv_trace_writer_close(struct hv_trace_writer *w, const struct hv_file_footer *footer)
{
    int was_async = w->async;
    int rc = hv_trace_writer_flush(w);
    stop_async(w);
    if (!rc && was_async)
        rc = w->st.last_error;   /* queued chunks may have failed after their flush returned */
    if (footer) {
        struct hv_file_footer f = *footer;
        memcpy(f.magic, HV_FOOTER_MAGIC, sizeof f.magic);
        f.chunks = w->st.chunks_written;
        f.records_written = w->st.records_written;
        int frc = write_skippable(w, HV_FRAME_MAGIC_FOOTER, &f, sizeof f);
        if (!rc)
            rc = frc;
    }
    /* Give back the room kept past the end (the size is unchanged: only
     * blocks beyond it are freed). */
    if (!w->no_reserve && ftruncate(w->fd, (off_t)w->st.file_bytes) != 0 && !rc)
        rc = -errno;
    if (close(w->fd) < 0 && !rc && errno != EINTR)
        rc = -errno;
    free_writer(w);
    return rc;
}

void hv_trace_writer_abandon(struct hv_trace_writer *w)
{
    /* In a fork child the compression thread does not exist (nor does its
     * lock state mean anything); in the process that started it, it must be
     * stopped before the memory goes. */
    if (w->async && getpid() == w->async_pid)
        stop_async(w);
    close(w->fd);
    free_writer(w);
}
