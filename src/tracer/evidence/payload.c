/*
 * Copy payloads and the host-source rewrite check (docs/evidence.md).
 *
 * Payloads: an H2D copy of at most HIPVIS_PAYLOAD_BYTES gets its source
 * bytes recorded right after enqueue (HV_REC_PAYLOAD, when 0). They can hold
 * user data (token ids): the sidecar transport records none by default.
 *
 * Rewrite check: an async H2D copy from pinned or registered memory (the
 * runtime reads those when the copy executes; pageable sources are staged
 * before the call returns, so rewriting them is harmless) of at most
 * HIPVIS_REWRITE_CHECK_KB is hashed at enqueue and put on its stream's
 * pending list. When the host first observes the copy complete (stream or
 * event sync, successful query, blocking copy, device sync) the source is
 * hashed again; a different hash means the host rewrote the buffer while
 * the copy could still be pending, and an HV_REC_PAYLOAD with when 1
 * follows the observing call.
 *
 * Bounds: HV_PENDING_STREAMS streams with pending copies at once, and
 * HV_PENDING_PER_STREAM copies per stream. A copy that finds no room is
 * recorded with when 2 (not checked), so the analyzer can count it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/evidence/evidence_int.h"

#define HV_PENDING_STREAMS 64u
#define HV_PENDING_PER_STREAM 32u

struct pending_copy {
    uint64_t ts, src, bytes, hash;   /* ts: the copy's ordered ticks */
};

struct pending_stream {
    uint32_t n;          /* in enqueue order */
    struct pending_copy c[HV_PENDING_PER_STREAM];
};

static struct pending_stream pending[HV_PENDING_STREAMS];
/* The lists' streams (canonical ids, 0 = free list), apart from the lists:
 * finding a copy's list reads these 8 lines, not one line of each 1 KiB
 * list (that scan was most of a sampled copy's misses). */
static uint64_t pending_ids[HV_PENDING_STREAMS];
/* Bit i set: list i is in use. Both ends visit the lists in use only (a
 * serving loop has one or two), not all 64 ids: the scans were ~600 of a
 * checked copy's ~5,600 instructions on bench_step. */
static uint64_t pending_used;
_Static_assert(HV_PENDING_STREAMS == 64, "pending_used holds one bit per list");
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
/* Copies on all lists: hv_hot.observe_pending (an observation with nothing
 * pending costs one load of the line every call reads, in the observing
 * call's own code: tracer.h hv_observed). */

static uint32_t payload_limit, stage_bytes;
/* evidence.h: the check's size limit and sampling, and the copies this
 * thread has seen that it could check (one in hv_hot.rewrite_every is). */

/* The source is copied once into a per-thread buffer and hashed and
 * recorded from there, so the hash and the bytes always agree. */
static __thread unsigned char *stage_buf __attribute__((tls_model("initial-exec")));
static pthread_key_t stage_key;

static void stage_free(void *p) { free(p); }

static void lock_before_fork(void) { pthread_mutex_lock(&pending_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&pending_lock); }
/* The child's stream work is its own: the parent's pending copies are not. */
static void child_after_fork(void)
{
    pthread_mutex_init(&pending_lock, NULL);
    memset(pending, 0, sizeof pending);
    memset(pending_ids, 0, sizeof pending_ids);
    pending_used = 0;
    atomic_store(&hv_hot.observe_pending, 0);
}

void hv_payload_setup(const struct hv_config *cfg)
{
    payload_limit = cfg->payload_bytes;
    hv_hot.rewrite_limit = cfg->rewrite_check_bytes;
    /* With the probe on (an investigation, not an always-on default) every
     * eligible copy is checked: a probe that sees other bytes after the copy
     * needs the rewrite check's answer to tell a host race from a bad copy. */
    hv_hot.rewrite_every = cfg->rewrite_every && cfg->probe.mode == HV_PROBE_OFF ? cfg->rewrite_every : 1;
    stage_bytes = payload_limit > hv_hot.rewrite_limit ? payload_limit : hv_hot.rewrite_limit;
    hv_hostmem_setup();
    if (stage_bytes && pthread_key_create(&stage_key, stage_free) == 0)
        pthread_atfork(lock_before_fork, unlock_after_fork, child_after_fork);
    else
        stage_bytes = 0;
}

static int host_known(uint8_t mem) { return mem == HV_MEM_HOST_PINNED || mem == HV_MEM_HOST_REGISTERED; }

int hv_read_host(void *dst, uint64_t src, uint64_t n, uint8_t mem)
{
    const void *p = (const void *)(uintptr_t)src;
    if (mem == HV_MEM_MANAGED || mem == HV_MEM_DEVICE)
        return 0;
    /* Not allocated by a traced call: the copy's kind says host memory,
     * but it may be device memory the host cannot read. */
    int readable = host_known(mem) ? 1 : hv_host_readable(src, n);
    if (readable == 1) {
        memcpy(dst, p, n);
        return 1;
    }
    return readable < 0 && hv_safe_read(dst, p, n) == (ssize_t)n;
}

/* Copies [src, src+n) into this thread's buffer. */
static const unsigned char *stage(uint64_t src, uint64_t n, uint8_t mem)
{
    if (!stage_buf) {
        stage_buf = malloc(stage_bytes);
        if (!stage_buf)
            return NULL;
        pthread_setspecific(stage_key, stage_buf);
    }
    return hv_read_host(stage_buf, src, n, mem) ? stage_buf : NULL;
}

void hv_payload_hash(struct hv_copy_ev *ev)
{
    int want_bytes = ev->bytes <= payload_limit;
    int want_check = ev->async && host_known(ev->src_mem) && ev->bytes <= hv_hot.rewrite_limit;
    /* Sampled (HIPVIS_REWRITE_EVERY, default 256): the check hashes the
     * source twice, which costs more than the rest of a step's recording
     * at a few KiB; a rewrite a loop repeats every step is still caught
     * within that many steps (docs/evidence.md "Defaults"). */
    /* One eligible copy checked, then the count down (evidence.h): none
     * skipped in the thread's warm-up, then one in each window of
     * rewrite_every at a drawn place. */
    if (want_check)
        want_check = hv_ev_rewrite_turn(&hv_tls, ev->api);
    ev->checked = (uint8_t)want_check;
    if (!ev->bytes || !(want_bytes || want_check))
        return;
    if (want_bytes) {
        ev->staged = stage(ev->src, ev->bytes, ev->src_mem);
        if (!ev->staged)
            return;
        ev->hash = hv_hash64(ev->staged, ev->bytes);
    } else {
        /* Hash only: pinned or registered memory is read in place, no copy
         * (there are no recorded bytes for the hash to agree with). */
        ev->hash = hv_hash64((const void *)(uintptr_t)ev->src, ev->bytes);
    }
    ev->hashed = 1;
}

static void emit(struct hv_thread_ctx *t, uint64_t seq, uint64_t src, uint32_t when, uint64_t hash,
                 const unsigned char *bytes, uint64_t n)
{
    uint32_t len = bytes && n <= payload_limit ? (uint32_t)n : 0;
    struct hv_payload *p = hv_aux_begin(t, HV_REC_PAYLOAD, (uint32_t)(sizeof *p + len), seq);
    if (!p)
        return;
    p->src = src;
    p->len = len;
    p->when = when;
    p->hash = hash;
    if (len)
        memcpy(p + 1, bytes, len);
    hv_aux_commit(t, p);
}

/* Queues the copy for its completion check; 0 when there is no room. */
static int pending_add(const struct hv_copy_ev *ev)
{
    struct pending_stream *slot = NULL;
    int ok = 0;
    pthread_mutex_lock(&pending_lock);
    for (uint64_t m = pending_used; m && !slot; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        if (pending_ids[i] == ev->stream)
            slot = &pending[i];
    }
    if (!slot && ~pending_used) {
        uint32_t i = (uint32_t)__builtin_ctzll(~pending_used);
        slot = &pending[i];
        pending_ids[i] = ev->stream;
        pending_used |= 1ull << i;
        slot->n = 0;
    }
    if (slot && slot->n < HV_PENDING_PER_STREAM) {
        slot->c[slot->n++] = (struct pending_copy){ev->ts, ev->src, ev->bytes, ev->hash};
        atomic_fetch_add_explicit(&hv_hot.observe_pending, 1, memory_order_relaxed);
        ok = 1;
    }
    pthread_mutex_unlock(&pending_lock);
    return ok;
}

void hv_payload_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev)
{
    uint32_t when = HV_PAYLOAD_ENQUEUE;
    if (hv_ev(HV_EV_REWRITE) && ev->checked && !pending_add(ev))
        when = HV_PAYLOAD_UNCHECKED;
    emit(t, ev->seq, ev->src, when, ev->hash, ev->staged, ev->bytes);
}

/* Takes the copies enqueued before `upto` off the next list at or after
 * *from whose stream `o` covers, into out[]; advances *from past it.
 * Returns how many (0 with *from == HV_PENDING_STREAMS: no list left). The
 * lists are bounded (HV_PENDING_STREAMS), so an observation covering a
 * whole device costs what is pending, not what streams exist. Called with
 * pending_lock held; hv_hot.observe_pending still counts the copies taken
 * (hv_payload_observed lowers it once they are hashed). */
static uint32_t pending_take(const struct hv_obs *o, uint64_t upto, uint32_t *from, struct pending_copy *out)
{
    uint32_t n = 0;
    while (*from < HV_PENDING_STREAMS) {
        uint64_t m = pending_used & (~0ull << *from);   /* the lists in use at or after *from */
        if (!m) {
            *from = HV_PENDING_STREAMS;
            break;
        }
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        *from = i + 1;
        struct pending_stream *s = &pending[i];
        if (!hv_obs_covers(o, pending_ids[i]))
            continue;
        uint32_t keep = 0;
        for (uint32_t k = 0; k < s->n; k++) {
            if (s->c[k].ts < upto)
                out[n++] = s->c[k];
            else
                s->c[keep++] = s->c[k];
        }
        s->n = keep;
        if (!keep) {
            pending_ids[i] = 0;
            pending_used &= ~(1ull << i);
        }
        if (o->scope == HV_OBS_STREAM)
            *from = HV_PENDING_STREAMS;   /* one list per stream */
        break;
    }
    return n;
}

/* Still the pinned/registered allocation it was? A source released since
 * (hipHostFree) is not read: it may be unmapped. */
static int still_host(uint64_t src, uint64_t bytes, uint8_t *mem)
{
    struct hv_alloc_range r;
    if (!hv_alloc_find(hv_hot.allocs, src, &r) || !host_known(r.mem) || src + bytes > r.base + r.bytes)
        return 0;
    *mem = r.mem;
    return 1;
}

/*
 * The second hash is taken under pending_lock, and the copies leave
 * hv_hot.observe_pending only after it (release), because another thread may
 * observe the same copy complete (two threads' copies on the legacy
 * stream, each synchronizing it) and then rewrite the source, as it may.
 * Hashed after the lock's release, the copy would be read after that
 * rewrite and reported rewritten while pending: a false finding, seen in
 * decode_loop --threads 2 (tests/observe). Now that thread's own
 * observation either finds the count raised and waits here for the hash
 * (the lock), or reads it lowered (acquire, intercept.h and tracer.h),
 * after the hash; its rewrite comes after either. What the lock covers is
 * bounded: the copies pending, each at most HIPVIS_REWRITE_CHECK_KB.
 */
void hv_payload_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    struct pending_copy done[HV_PENDING_PER_STREAM];
    uint32_t from = 0;
    pthread_mutex_lock(&pending_lock);
    while (from < HV_PENDING_STREAMS && atomic_load_explicit(&hv_hot.observe_pending, memory_order_relaxed)) {
        uint32_t n = pending_take(o, upto, &from, done);
        for (uint32_t i = 0; i < n; i++) {
            uint8_t mem;
            if (!still_host(done[i].src, done[i].bytes, &mem))
                continue;
            /* Still pinned or registered: readable in place; staged only
             * when the bytes go into the record. */
            const unsigned char *now = done[i].bytes <= payload_limit
                                           ? stage(done[i].src, done[i].bytes, mem)
                                           : (const unsigned char *)(uintptr_t)done[i].src;
            if (!now)
                continue;
            uint64_t h = hv_hash64(now, done[i].bytes);
            if (h != done[i].hash)
                emit(t, seq, done[i].src, HV_PAYLOAD_OBSERVED, h, now, done[i].bytes);
        }
        atomic_fetch_sub_explicit(&hv_hot.observe_pending, n, memory_order_release);
    }
    pthread_mutex_unlock(&pending_lock);
}
