/*
 * Parallel decoding: frames are independent zstd frames, so decompressing
 * and validating them is farmed out to worker threads while the caller's
 * thread only frames the input, hands records to the window and runs the
 * consumer. (Decompression is most of the cost of reading: about 2 GB/s of
 * records per core.)
 *
 * The pipeline only ever handles the plain case: an ordinary zstd frame,
 * wholly buffered, with a content size within the chunk limit. Anything else
 * (skippable frames, the end of input, damage, a frame that fails to decode
 * or validate) is a barrier: the pipeline drains and the synchronous path
 * (reader_frames.c) handles that frame, from its first byte, exactly as it
 * does without threads. So results, errors, offsets and recovery are the same
 * with and without workers; only the speed differs. A failed job costs a
 * second, synchronous decode of that one frame.
 *
 * Jobs complete in any order but are taken in file order. Each job owns a
 * copy of its compressed frame (so the input buffer may move) and a chunk
 * slot (marked in flight, so evacuation leaves it alone). The input keeps
 * bytes from the oldest job in flight, so a failed job can be re-read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/reader_int.h"

enum { JOB_PENDING, JOB_RUNNING, JOB_DONE };

struct hv_job {
    uint64_t off;               /* frame start in the file */
    uint8_t *z;                 /* the compressed frame, copied */
    size_t zlen, zcap;
    uint32_t slot;              /* decoded into this chunk slot... */
    uint8_t *out;               /* ...whose buffer is this */
    size_t csize;               /* the frame's content size */
    int state, ok;
    int v2;                     /* an encoded chunk: decoded and checked by the calling thread */
    struct hv_chunk_header ch;
    uint64_t nstr;
};

struct hv_pipe {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t th[HV_RD_MAX_THREADS];
    unsigned nth;
    struct hv_job job[HV_RD_PIPE_DEPTH];
    unsigned depth;             /* jobs in flight at most */
    unsigned head, count;       /* ring of jobs in file order */
    unsigned started;           /* of those, handed to a worker (a prefix) */
    int stop;
};

static struct hv_job *nth_job(struct hv_pipe *p, unsigned i) { return &p->job[(p->head + i) % p->depth]; }

/* Decompress and check; the result is only ever "usable" or not: why a job
 * failed is for the synchronous path to say. */
static void decode(struct hv_job *j, ZSTD_DCtx *d)
{
    size_t n = ZSTD_decompressDCtx(d, j->out, j->csize, j->z, j->zlen);
    j->v2 = !ZSTD_isError(n) && n == j->csize && hv_rd_is_v2(j->out, n);
    j->ok = !ZSTD_isError(n) && n == j->csize &&
            (j->v2 || hv_rd_check_chunk(j->out, n, &j->ch, &j->nstr, NULL, 0) == 0);
}

static void *worker(void *arg)
{
    struct hv_pipe *p = arg;
    ZSTD_DCtx *d = ZSTD_createDCtx();
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->started == p->count)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        struct hv_job *j = nth_job(p, p->started++);
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->mu);
        if (d)
            decode(j, d);
        else
            j->ok = 0;   /* no context: the synchronous path will report it */
        pthread_mutex_lock(&p->mu);
        j->state = JOB_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    ZSTD_freeDCtx(d);
    return NULL;
}

unsigned hv_rd_default_threads(void)
{
    /* The CPUs this process may run on (taskset, cgroup cpusets), not the
     * machine's: on one CPU a worker only adds hand-offs and context
     * switches to the same core's work. */
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) - 1 : sysconf(_SC_NPROCESSORS_ONLN) - 1;
    return n < 1 ? 0 : n > HV_RD_DEFAULT_THREADS ? HV_RD_DEFAULT_THREADS : (unsigned)n;
}

/* Starts the workers; 0, or -1 (the reader then decodes synchronously). */
static int pipe_start(struct hv_reader *r)
{
    struct hv_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->depth = 2 * r->threads + 1 < HV_RD_PIPE_DEPTH ? 2 * r->threads + 1 : HV_RD_PIPE_DEPTH;
    for (unsigned i = 0; i < HV_RD_PIPE_DEPTH; i++)
        p->job[i].slot = HV_RD_SLOT_NONE;
    for (; p->nth < r->threads; p->nth++)
        if (pthread_create(&p->th[p->nth], NULL, worker, p) != 0)
            break;
    r->pipe = p;
    if (!p->nth) {
        hv_rd_pipe_free(r);
        return -1;
    }
    r->threads = p->nth;
    return 0;
}

/* Waits for every job handed out, then forgets all jobs (their slots too). */
static void pipe_cancel(struct hv_reader *r)
{
    struct hv_pipe *p = r->pipe;
    pthread_mutex_lock(&p->mu);
    p->count = p->started;   /* pending ones are not started: drop them now */
    for (unsigned i = 0; i < p->count; i++)
        while (nth_job(p, i)->state != JOB_DONE)
            pthread_cond_wait(&p->done, &p->mu);
    p->head = p->count = p->started = 0;
    pthread_mutex_unlock(&p->mu);
    /* No worker touches a job now: their slots are this thread's again. */
    for (unsigned i = 0; i < HV_RD_PIPE_DEPTH; i++) {
        struct hv_job *j = &p->job[i];
        if (j->slot != HV_RD_SLOT_NONE) {
            r->slots[j->slot].inflight = 0;
            hv_rd_slot_drop(r, j->slot);
            j->slot = HV_RD_SLOT_NONE;
        }
    }
}

void hv_rd_pipe_free(struct hv_reader *r)
{
    struct hv_pipe *p = r->pipe;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nth; i++)
        pthread_join(p->th[i], NULL);
    p->started = p->count;   /* nothing runs any more */
    for (unsigned i = 0; i < p->count; i++)
        nth_job(p, i)->state = JOB_DONE;
    pipe_cancel(r);
    for (unsigned i = 0; i < HV_RD_PIPE_DEPTH; i++)
        free(p->job[i].z);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
    r->pipe = NULL;
}

/* Frames the next input frame into job j if it is a plain data frame; 0 when
 * it is anything else (a barrier: left for the synchronous path). */
static int frame_one(struct hv_reader *r, struct hv_job *j)
{
    if (r->resync)
        return 0;
    long avail = hv_rd_fill(r, HV_RD_READAHEAD);
    if (avail < 4 || hv_le32(r->in + r->in_pos) != HV_ZSTD_MAGIC)
        return 0;
    unsigned long long cs = ZSTD_getFrameContentSize(r->in + r->in_pos, (size_t)avail);
    if (cs == ZSTD_CONTENTSIZE_UNKNOWN || cs == ZSTD_CONTENTSIZE_ERROR || cs > HV_CHUNK_MAX_BYTES ||
        cs < sizeof(struct hv_chunk_header))
        return 0;
    size_t zlen;
    /* A frame longer than what is buffered: buffer more, within reason. */
    while (ZSTD_isError(zlen = ZSTD_findFrameCompressedSize(r->in + r->in_pos, (size_t)avail))) {
        if (r->eof || (size_t)avail >= HV_RD_IN_MAX / 2)
            return 0;
        long more = hv_rd_fill(r, 2 * (size_t)avail);
        if (more <= avail)
            return 0;
        avail = more;
    }
    uint32_t s;
    if (hv_rd_evacuate(r) < 0 || hv_rd_slot_take(r, &s) < 0)
        return 0;
    if (hv_rd_slot_reserve(r, s, (size_t)cs) < 0 || (j->zcap < zlen && !(j->z = realloc(j->z, zlen)))) {
        j->zcap = 0;
        hv_rd_slot_drop(r, s);
        return 0;
    }
    if (j->zcap < zlen)
        j->zcap = zlen;
    memcpy(j->z, r->in + r->in_pos, zlen);
    j->zlen = zlen;
    j->off = hv_rd_offset(r);
    j->slot = s;
    j->out = r->slots[s].buf;
    j->csize = (size_t)cs;
    j->state = JOB_PENDING;
    r->slots[s].inflight = 1;
    r->in_pos += zlen;
    return 1;
}

/* Frames jobs until the pipeline is full or a barrier is reached. */
static void top_up(struct hv_reader *r)
{
    struct hv_pipe *p = r->pipe;
    while (!r->barrier && p->count < p->depth) {
        /* Framing reads on, which may compact the input: keep the oldest
         * job's bytes, in case it has to be re-read. */
        r->keep_off = p->count ? nth_job(p, 0)->off : HV_RD_KEEP_NONE;
        /* Until the job is published, only this thread touches it. */
        struct hv_job *j = nth_job(p, p->count);
        if (!frame_one(r, j)) {
            r->barrier = 1;
            break;
        }
        pthread_mutex_lock(&p->mu);
        p->count++;
        pthread_cond_signal(&p->work);
        pthread_mutex_unlock(&p->mu);
    }
    /* Keep the oldest job's bytes buffered, in case it has to be re-read. */
    r->keep_off = p->count ? nth_job(p, 0)->off : HV_RD_KEEP_NONE;
}

void hv_rd_next_chunk(struct hv_reader *r)
{
    if (!r->pipe && r->threads && !r->pipe_failed && pipe_start(r) < 0)
        r->pipe_failed = 1;
    if (!r->pipe) {
        hv_rd_load_next(r);
        return;
    }
    struct hv_pipe *p = r->pipe;
    /* The previous chunk is fully pushed; nothing may reference it any more. */
    if (r->cur != HV_RD_SLOT_NONE) {
        if (r->slots[r->cur].live == 0)
            hv_rd_slot_drop(r, r->cur);
        r->cur = HV_RD_SLOT_NONE;
    }
    for (;;) {
        top_up(r);
        if (!p->count) {
            /* A barrier, or the end: one synchronous step, then try again. */
            r->barrier = 0;
            hv_rd_load_next(r);
            return;
        }
        struct hv_job *j = nth_job(p, 0);
        pthread_mutex_lock(&p->mu);
        while (j->state != JOB_DONE)
            pthread_cond_wait(&p->done, &p->mu);
        p->head = (p->head + 1) % p->depth;
        p->count--;
        p->started--;
        pthread_mutex_unlock(&p->mu);
        uint32_t s = j->slot;
        j->slot = HV_RD_SLOT_NONE;
        r->slots[s].inflight = 0;
        size_t used = j->csize;
        /* Decoding a v2 chunk needs the reader's slots: done here (the
         * code is small to decompress; decoding it is the cheap part). */
        if (j->ok && j->v2 && hv_rd_expand_v2(r, &s, &used, &j->ch, &j->nstr, NULL, 0) < 0)
            j->ok = 0;
        if (!j->ok) {
            /* Re-read this frame synchronously: it reports precisely and
             * recovers exactly as without threads. */
            uint64_t off = j->off;
            hv_rd_slot_drop(r, s);
            pipe_cancel(r);
            /* Its bytes are still buffered (keep_off); only frames near the
             * input buffer's limit could have pushed them out. */
            r->in_pos = off >= r->in_off ? (size_t)(off - r->in_off) : 0;
            r->keep_off = HV_RD_KEEP_NONE;
            r->barrier = 0;
            hv_rd_load_next(r);
            return;
        }
        int rc = hv_rd_accept_chunk(r, s, used, j->off, &j->ch, j->nstr);
        if (rc != 0)
            return;   /* records to deliver, or out of memory (reported) */
        /* A valid chunk without records: nothing points into it. */
        hv_rd_slot_drop(r, s);
        r->cur = HV_RD_SLOT_NONE;
    }
}

uint64_t hv_rd_consumed(const struct hv_reader *r)
{
    /* Frames still in the pipeline have not been consumed yet. */
    if (r->pipe && r->pipe->count)
        return r->pipe->job[r->pipe->head].off;
    return hv_rd_offset(r);
}
