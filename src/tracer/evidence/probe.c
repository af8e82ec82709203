/*
 * Three-point probe (HIPVIS_PROBE; docs/evidence.md).
 *
 * For a device range written by an async H2D copy and then read by a graph
 * launch on the same stream (the same-epoch-write pattern, or the A/B run
 * that synchronizes between them), three device-to-device snapshots are enqueued on that stream
 * into hipvis-owned device memory (the real runtime's malloc): right after
 * the copy, right before the graph launch and right after it. Nothing waits
 * for them: at the next host observation of that stream (sync, successful
 * query, blocking copy) the work is known complete, and the snapshots are
 * read back with one D2H copy on a private non-blocking stream and recorded
 * with the copy's source bytes (HV_REC_PROBE). The analyzer names the first
 * point whose content differs from what was copied.
 *
 * Which ranges: HIPVIS_PROBE=ADDR:LEN,... probes those ranges (a copy whose
 * destination contains the range). HIPVIS_PROBE=auto learns them: an async
 * H2D copy of at most HV_PROBE_MAX_LEN bytes into device memory followed,
 * on the same stream, by a graph launch makes its exact destination range
 * "hot" (HV_PROBE_HOT at most); later copies to a hot range are probed.
 * Whether the host saw the copy complete before the launch does not
 * matter: the synchronized A/B run is probed like the unsynchronized one. The first occurrence only teaches; no
 * graph arguments are consulted, so a launch that does not read the range
 * is probed too (the analyzer says whether the graph reads it).
 *
 * The extra stream work (three small copies per probed step, one D2H and a
 * private-stream sync at the observation) changes timing and may hide or
 * expose a race; probes are off by default.
 *
 * Only the first graph launch after each probed copy is probed. Copies and
 * launches through the HIP and CUDA runtime APIs are probed (the snapshot
 * calls are the same runtime's cudaMemcpyAsync / hipMemcpyAsync); driver-API
 * copies are not.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tracer/evidence/evidence_int.h"

#define HV_PROBE_SETS 64u      /* probed copies in flight at once */
#define HV_PROBE_HOT 16u       /* ranges probed */
#define HV_PROBE_RECENT 16u    /* auto: small H2D copies remembered for learning */
#define HV_PROBE_DEVICES 16
#define HV_PROBE_ARMED 8u      /* sets one graph launch may probe */

/* hipMemcpyKind / cudaMemcpyKind numbering (identical). */
enum { KIND_D2H = 2, KIND_D2D = 3 };
/* Per-thread default stream handle and non-blocking flag: the same value
 * in HIP (hipStreamPerThread, hipStreamNonBlocking) and CUDA. */
#define PER_THREAD_HANDLE ((void *)(uintptr_t)2)
#define NONBLOCKING 1u

/* The runtime API the probe calls; HIP and CUDA share these signatures. */
struct rt_ops {
    int (*malloc)(void **p, size_t n);
    int (*copy)(void *dst, const void *src, size_t n, int kind, void *stream);
    int (*stream_create)(void **s, unsigned flags);
    int (*stream_sync)(void *s);
    int loaded;
    void *arena[HV_PROBE_DEVICES];     /* HV_PROBE_SETS * 3 * HV_PROBE_MAX_LEN bytes each */
    void *private_stream[HV_PROBE_DEVICES];
};
static struct rt_ops rts[2];           /* 0: hip*, 1: cuda* */

enum set_state { S_FREE = 0, S_COPIED, S_ARMED, S_REPLAYED, S_READING };

struct pset {
    int state;
    uint32_t tid;                      /* the thread that owns it: takes and reads its snapshots */
    int32_t device;
    struct rt_ops *rt;
    void *handle;                      /* stream handle the snapshots go to */
    uint64_t stream, epoch, copy_seq, replay_seq, exec, addr, src;
    uint64_t replay_ts;   /* ordered ticks after the launch: observations compare with it (seqs are per thread) */
    uint32_t len, have, status;
    uint16_t copy_api, replay_api;
    uint8_t src_mem;
    unsigned char source[HV_PROBE_MAX_LEN];
};

struct range {
    uint64_t addr;
    uint32_t len;
};

struct recent {
    uint64_t stream, dst;
    uint32_t len;
};

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pset sets[HV_PROBE_SETS];
static struct range hot[HV_PROBE_HOT];
static uint32_t nhot;
static struct recent recent[HV_PROBE_RECENT];
static uint32_t recent_next;
static int probe_mode;
/* Sets the current graph launch of this thread probes (before -> after). */
static __thread uint8_t armed[HV_PROBE_ARMED];
static __thread uint8_t narmed;

static void lock_before_fork(void) { pthread_mutex_lock(&probe_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&probe_lock); }
/* The parent's device memory and pending snapshots are not the child's. */
static void child_after_fork(void)
{
    pthread_mutex_init(&probe_lock, NULL);
    memset(sets, 0, sizeof sets);
    memset(rts, 0, sizeof rts);
    narmed = 0;
}

void hv_probe_setup(const struct hv_config *cfg)
{
    probe_mode = cfg->probe.mode;
    for (uint32_t i = 0; i < cfg->probe.n && i < HV_PROBE_HOT; i++)
        hot[nhot++] = (struct range){cfg->probe.r[i].addr, cfg->probe.r[i].len};
    if (probe_mode != HV_PROBE_OFF)
        pthread_atfork(lock_before_fork, unlock_after_fork, child_after_fork);
}

/* The runtime a call belongs to, by its API name; NULL for driver APIs. */
static struct rt_ops *runtime_of(uint16_t api)
{
    const char *name = hv_api_name(api);
    int cuda = strncmp(name, "cuda", 4) == 0;
    if (!cuda && strncmp(name, "hip", 3) != 0)
        return NULL;
    struct rt_ops *rt = &rts[cuda];
    if (!rt->loaded) {
        const char *p = cuda ? "cuda" : "hip";
        char n[64];
#define LOAD(field, suffix) \
    (snprintf(n, sizeof n, "%s%s", p, suffix), rt->field = (__typeof__(rt->field))hv_runtime_sym(n))
        LOAD(malloc, "Malloc");
        LOAD(copy, "MemcpyAsync");
        LOAD(stream_create, "StreamCreateWithFlags");
        LOAD(stream_sync, "StreamSynchronize");
#undef LOAD
        rt->loaded = 1;
    }
    return rt->malloc && rt->copy && rt->stream_create && rt->stream_sync ? rt : NULL;
}

/* Is any stream capturing? A runtime call that is not stream-ordered work
 * (malloc, a sync) made while another thread captures in global mode can
 * invalidate that capture, so the probe makes none then. Rare (once per
 * probed replay), so a scan of the stream table is fine. */
static int any_capture(void)
{
    for (uint32_t i = 0; i < HV_STREAM_SLOTS; i++)
        if (atomic_load_explicit(&hv_hot.streams->streams[i].capture_id, memory_order_relaxed))
            return 1;
    return 0;
}

/* Device memory for the snapshots of `device`, allocated on first use.
 * Caller holds probe_lock. */
static unsigned char *arena(struct rt_ops *rt, int32_t device)
{
    if (device < 0 || device >= HV_PROBE_DEVICES)
        return NULL;
    if (!rt->arena[device] && !any_capture() &&
        rt->malloc(&rt->arena[device], (size_t)HV_PROBE_SETS * 3 * HV_PROBE_MAX_LEN) != 0)
        rt->arena[device] = NULL;
    return rt->arena[device];
}

static unsigned char *snapshot_at(struct pset *s, unsigned point /* 1..3 */)
{
    unsigned char *base = s->rt->arena[s->device];
    return base + (size_t)(s - sets) * 3 * HV_PROBE_MAX_LEN + (size_t)(point - 1) * s->len;
}

/* Enqueues snapshot `point` of set s on its stream (outside the lock: the
 * set's state keeps other threads off it). */
static void snapshot(struct pset *s, unsigned point)
{
    int r = s->rt->copy(snapshot_at(s, point), (const void *)(uintptr_t)s->addr, s->len, KIND_D2D, s->handle);
    if (r == 0)
        s->have |= HV_PROBE_HAVE(point);
    else
        s->status = HV_PROBE_ENQUEUE_FAILED;
}

static void *handle_of(uint64_t stream, uint8_t form)
{
    switch (form) {
    case HV_STREAM_FORM_EXPLICIT: return (void *)(uintptr_t)stream;
    case HV_STREAM_FORM_SPT_NULL:
    case HV_STREAM_FORM_PER_THREAD: return PER_THREAD_HANDLE;
    default: return NULL;   /* the legacy default stream */
    }
}

/* The probed range for a copy of [dst, dst+bytes), 0 if none. */
static int probed_range(uint64_t dst, uint64_t bytes, struct range *out)
{
    for (uint32_t i = 0; i < nhot; i++) {
        const struct range *h = &hot[i];
        int hit = probe_mode == HV_PROBE_AUTO ? h->addr == dst && h->len == bytes
                                              : h->addr >= dst && h->addr + h->len <= dst + bytes;
        if (hit) {
            *out = *h;
            return 1;
        }
    }
    return 0;
}

static struct pset *set_for(uint64_t stream, uint64_t addr, uint32_t tid)
{
    struct pset *free_set = NULL;
    for (uint32_t i = 0; i < HV_PROBE_SETS; i++) {
        struct pset *s = &sets[i];
        /* A copy not yet followed by a launch is replaced by the newer one. */
        if (s->state == S_COPIED && s->stream == stream && s->addr == addr && s->tid == tid)
            return s;
        if (s->state == S_FREE && !free_set)
            free_set = s;
    }
    return free_set;
}

void hv_probe_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev)
{
    struct rt_ops *rt = runtime_of(ev->api);
    struct range rg;
    if (!rt || ev->stream_form == HV_STREAM_FORM_NONE)
        return;
    pthread_mutex_lock(&probe_lock);
    if (!probed_range(ev->dst, ev->bytes, &rg)) {
        /* auto: remember small copies into device memory; a launch on the
         * same stream makes their range hot. */
        if (probe_mode == HV_PROBE_AUTO && ev->bytes <= HV_PROBE_MAX_LEN && ev->dst_mem == HV_MEM_DEVICE)
            recent[recent_next++ % HV_PROBE_RECENT] =
                (struct recent){ev->stream, ev->dst, (uint32_t)ev->bytes};
        pthread_mutex_unlock(&probe_lock);
        return;
    }
    struct pset *s = set_for(ev->stream, rg.addr, t->tid);
    int32_t dev = t->device >= 0 ? t->device : 0;
    if (!s || !arena(rt, dev)) {
        pthread_mutex_unlock(&probe_lock);
        return;
    }
    memset(s, 0, offsetof(struct pset, source));
    s->state = S_COPIED;
    s->tid = t->tid;
    s->device = dev;
    s->rt = rt;
    s->handle = handle_of(ev->stream, ev->stream_form);
    s->stream = ev->stream;
    s->epoch = ev->epoch;
    s->copy_seq = ev->seq;
    s->copy_api = ev->api;
    s->addr = rg.addr;
    s->len = rg.len;
    s->src = ev->src + (rg.addr - ev->dst);
    s->src_mem = ev->src_mem;
    if (hv_read_host(s->source, s->src, s->len, ev->src_mem))
        s->have = HV_PROBE_HAVE(HV_PROBE_SOURCE);
    pthread_mutex_unlock(&probe_lock);
    snapshot(s, HV_PROBE_AFTER_COPY);
}

/* A launch on `stream` makes the small copies made there since the last
 * launch hot, whether or not the host saw them complete in between (the
 * synchronized A/B run must be probed too). */
static void learn(uint64_t stream)
{
    for (uint32_t i = 0; i < HV_PROBE_RECENT; i++) {
        struct recent *c = &recent[i];
        if (!c->len || c->stream != stream)
            continue;
        struct range dummy;
        if (!probed_range(c->dst, c->len, &dummy) && nhot < HV_PROBE_HOT)
            hot[nhot++] = (struct range){c->dst, c->len};
        c->len = 0;
    }
}

void hv_probe_replay_before(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, uint64_t exec, uint16_t api)
{
    (void)form;
    struct hv_stream_state *st = hv_stream_get(hv_hot.streams, stream, t->device);
    narmed = 0;
    /* A launch into a capture adds a node to a graph: a snapshot there
     * would be captured too. */
    if (!st || atomic_load_explicit(&st->capture_id, memory_order_acquire))
        return;
    pthread_mutex_lock(&probe_lock);
    if (probe_mode == HV_PROBE_AUTO)
        learn(stream);
    for (uint32_t i = 0; i < HV_PROBE_SETS && narmed < HV_PROBE_ARMED; i++) {
        struct pset *s = &sets[i];
        /* The same thread's copy: with several threads on one stream (the
         * legacy stream) another thread's launch follows the copy in stream
         * order but reads its own buffers, and pairing them would compare a
         * copy with a later copy of the same thread. */
        if (s->state != S_COPIED || s->stream != stream || s->tid != t->tid)
            continue;
        s->state = S_ARMED;
        s->exec = exec;
        s->replay_api = api;
        armed[narmed++] = (uint8_t)i;
    }
    pthread_mutex_unlock(&probe_lock);
    for (uint8_t k = 0; k < narmed; k++)
        snapshot(&sets[armed[k]], HV_PROBE_PRE_REPLAY);
}

void hv_probe_replay_after(struct hv_thread_ctx *t, uint64_t seq, int32_t r)
{
    (void)t;
    for (uint8_t k = 0; k < narmed; k++) {
        struct pset *s = &sets[armed[k]];
        s->replay_seq = seq;
        s->replay_ts = hv_ticks_ordered();
        if (r == 0)
            snapshot(s, HV_PROBE_POST_REPLAY);
        else
            s->status = HV_PROBE_LAUNCH_FAILED;
        pthread_mutex_lock(&probe_lock);
        s->state = S_REPLAYED;
        pthread_mutex_unlock(&probe_lock);
    }
    narmed = 0;
}

/* The host source again, now: did the copy read what was enqueued, or did
 * a host rewrite reach it? (HV_PROBE_SRC_* in trace.h.) Nothing when the
 * source cannot be read safely now. */
static uint32_t source_now(const struct pset *s, const unsigned char *after_copy)
{
    unsigned char now[HV_PROBE_MAX_LEN];
    if (!hv_read_host(now, s->src, s->len, s->src_mem))
        return 0;
    if (memcmp(now, s->source, s->len) == 0)
        return HV_PROBE_SRC_SAME;
    int differs = 0;
    for (uint32_t b = 0; b < s->len; b++) {
        if (after_copy[b] == s->source[b])
            continue;
        if (after_copy[b] != now[b])
            return 0;
        differs = 1;
    }
    return differs ? HV_PROBE_SRC_REACHED : 0;
}

/* Reads the snapshots back and records them after call `seq`. */
static void read_back(struct hv_thread_ctx *t, uint64_t seq, struct pset *s)
{
    struct rt_ops *rt = s->rt;
    void **ps = &rt->private_stream[s->device];
    size_t len = s->len;
    struct hv_probe *p = hv_aux_begin(t, HV_REC_PROBE, (uint32_t)(sizeof *p + HV_PROBE__POINTS * len), seq);
    if (!p)
        return;
    unsigned char *tail = (unsigned char *)(p + 1);
    memcpy(tail, s->source, len);
    uint32_t snaps = s->have & (HV_PROBE_HAVE(HV_PROBE_AFTER_COPY) | HV_PROBE_HAVE(HV_PROBE_PRE_REPLAY) |
                                HV_PROBE_HAVE(HV_PROBE_POST_REPLAY));
    /* One D2H of the three snapshots, on a private non-blocking stream so
     * it neither waits for nor delays the program's streams. */
    int ok = snaps && (*ps || rt->stream_create(ps, NONBLOCKING) == 0) &&
             rt->copy(tail + len, snapshot_at(s, 1), 3 * len, KIND_D2H, *ps) == 0 && rt->stream_sync(*ps) == 0;
    if (!ok && snaps) {
        memset(tail + len, 0, 3 * len);
        s->status = HV_PROBE_READ_FAILED;
        s->have &= HV_PROBE_HAVE(HV_PROBE_SOURCE);
    }
    if (ok && (s->have & HV_PROBE_HAVE(HV_PROBE_SOURCE)) && (s->have & HV_PROBE_HAVE(HV_PROBE_AFTER_COPY)))
        s->have |= source_now(s, tail + len);
    p->copy_seq = s->copy_seq;
    p->replay_seq = s->replay_seq;
    p->exec = s->exec;
    p->stream = s->stream;
    p->addr = s->addr;
    p->src = s->src;
    p->len = (uint32_t)len;
    p->have = s->have;
    p->status = s->status;
    p->copy_api = s->copy_api;
    p->replay_api = s->replay_api;
    hv_aux_commit(t, p);
}

void hv_probe_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    uint32_t todo[HV_PROBE_SETS], n = 0;
    pthread_mutex_lock(&probe_lock);
    for (uint32_t i = 0; i < HV_PROBE_SETS; i++) {
        struct pset *s = &sets[i];
        /* A set is only ever touched by the thread that took its first
         * snapshot: it enqueues its snapshots outside the lock, so a set
         * freed and reused under it by another thread would get them.
         * A copied set the host saw complete stays: the launch that follows
         * it is still probed (the A/B run that synchronizes between the copy
         * and the replay is where a late write shows). A newer copy to the
         * same range replaces it (set_for). */
        if (s->tid != t->tid || s->state != S_REPLAYED || !hv_obs_covers(o, s->stream))
            continue;
        if (s->replay_ts < upto &&
                   s->device == (t->device >= 0 ? t->device : 0)) {
            /* This thread enqueued the post snapshot right after the launch
             * returned, so its later observations cover it. Another thread's
             * observation may have begun before the snapshots were enqueued
             * (its seq is taken when it returns): it would read them early. */
            s->state = S_READING;
            todo[n++] = i;
        }
    }
    pthread_mutex_unlock(&probe_lock);
    if (n && any_capture()) {
        /* Not now: a sync during another thread's capture can invalidate
         * it. A later observation of the stream reads them. */
        pthread_mutex_lock(&probe_lock);
        for (uint32_t k = 0; k < n; k++)
            sets[todo[k]].state = S_REPLAYED;
        pthread_mutex_unlock(&probe_lock);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        read_back(t, seq, &sets[todo[k]]);
        pthread_mutex_lock(&probe_lock);
        sets[todo[k]].state = S_FREE;
        pthread_mutex_unlock(&probe_lock);
    }
}
