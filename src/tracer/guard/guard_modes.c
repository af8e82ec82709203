/*
 * guard: HIPVIS_GUARD (see guard_modes.h for the modes and what they promise).
 *
 * State, only touched when a mode is set: recent async H2D copies per
 * stream (dst range, stream epoch at enqueue) and the read ranges of each
 * exec's kernel nodes (from the pointer arguments the graph walk records).
 * Both sit behind one mutex: copies and launches of a decode loop are a
 * few per step, and a guarded launch costs a host round trip anyway. With
 * guards off every hook is one relaxed load and a branch.
 */
#include "tracer/guard/guard_modes.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/envtab.h"
#include "common/grow.h"
#include "common/mono.h"
#include "common/u64map.h"

static _Atomic int guard_active;       /* the pattern applied now (hipvis_guard_set may change it) */
static int guard_always;               /* HIPVIS_GUARD_WHEN=always */
static _Atomic uint64_t guard_count;
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;

#define COPY_SLOTS 1024u    /* streams tracked */
#define COPIES_PER_STREAM 8 /* most recent H2D copies kept per stream */
#define EXEC_SLOTS 4096u    /* execs tracked */

struct copy_note { uint64_t lo, hi, epoch, seq; uint32_t tid; };
struct stream_copies {
    uint64_t stream;
    uint32_t next;
    struct copy_note c[COPIES_PER_STREAM];
};
struct exec_range { uint64_t node, lo, hi; };
struct exec_reads {
    uint64_t exec;
    struct exec_range *r;
    uint32_t n, cap;
};

static struct stream_copies *copies;   /* COPY_SLOTS, allocated at init when a mode is on */
static struct exec_reads *execs;       /* EXEC_SLOTS */
static uint32_t ncopies, nexecs;       /* entries in use */
static struct hv_u64map copy_ix, exec_ix;   /* stream, exec -> its entry */

/* Front ends' runtime calls (hv_guard_register), by API-name prefix. */
static struct {
    const char *prefix;
    const struct hv_guard_ops *ops;
} runtimes[4];
static _Atomic int nruntimes;

void hv_guard_register(const char *api_prefix, const struct hv_guard_ops *ops)
{
    int i = atomic_fetch_add(&nruntimes, 1);
    if (i < (int)(sizeof runtimes / sizeof runtimes[0])) {
        runtimes[i].prefix = api_prefix;
        runtimes[i].ops = ops;
    }
}

static const struct hv_guard_ops *ops_for(uint16_t api)
{
    const char *name = hv_api_name(api);
    int n = atomic_load(&nruntimes);
    for (int i = 0; i < n && i < (int)(sizeof runtimes / sizeof runtimes[0]); i++)
        if (strncmp(name, runtimes[i].prefix, strlen(runtimes[i].prefix)) == 0)
            return runtimes[i].ops;
    return NULL;
}

/* enum hv_guard_mode of a name (HIPVIS_GUARD's words, common/envtab.c), -1 unknown. */
static int mode_of(const char *name)
{
    long long m;
    return name && *name && hv_env_parse(HV_ENV_GUARD, name, &m) == 0 ? (int)m : -1;
}

static void say(const char *msg)
{
    if (write(2, msg, strlen(msg)) < 0) {
    }
}

/* A fork while another thread holds the lock must not leave the child's
 * copy of it locked forever (the tracer does the same for its locks). */
static void fork_prepare(void) { pthread_mutex_lock(&guard_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&guard_lock); }
static void fork_child(void) { pthread_mutex_init(&guard_lock, NULL); }

/* Takes HIPVIS_GUARD and HIPVIS_GUARD_WHEN from the configuration once
 * (config.c named a value it does not know and left guards off; tracing
 * itself goes on). */
static void init_once(void)
{
    int mode = hv_tracer_cfg.guard;
    guard_always = hv_tracer_cfg.guard_always;
    if (mode != HV_GUARD_OFF) {
        copies = calloc(COPY_SLOTS, sizeof *copies);
        execs = calloc(EXEC_SLOTS, sizeof *execs);
        if (!copies || !execs) {
            say("hipvis: HIPVIS_GUARD: out of memory; guards disabled\n");
            free(copies);
            free(execs);
            copies = NULL;
            execs = NULL;
            mode = HV_GUARD_OFF;
        } else {
            pthread_atfork(fork_prepare, fork_parent, fork_child);
        }
    }
    atomic_store(&guard_active, mode);
    atomic_store(&hv_hot.guard_mode, mode);
    hv_hot.guard_armed = mode != HV_GUARD_OFF;
}

int hv_guard_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_once);
    return atomic_load(&hv_hot.guard_mode);
}

/* Entry of `key` in `table` (entries `stride` bytes apart, each starting
 * with its key; *n of `cap` in use, ix: key -> entry), added when absent if
 * `insert`; NULL when absent (or full). Caller holds guard_lock. */
static void *slot(void *table, size_t stride, uint32_t cap, struct hv_u64map *ix, uint32_t *n, uint64_t key,
                  int insert)
{
    uint32_t i = hv_u64map_get(ix, key);
    if (i == HV_U64MAP_NONE) {
        if (!insert || *n == cap || hv_u64map_put(ix, key, *n) != 0)
            return NULL;
        i = (*n)++;
        *(uint64_t *)(void *)((char *)table + (size_t)i * stride) = key;
    }
    return (char *)table + (size_t)i * stride;
}

static struct stream_copies *copies_of(uint64_t stream, int insert)
{
    return slot(copies, sizeof *copies, COPY_SLOTS, &copy_ix, &ncopies, stream, insert);
}

static struct exec_reads *reads_of(uint64_t exec, int insert)
{
    return slot(execs, sizeof *execs, EXEC_SLOTS, &exec_ix, &nexecs, exec, insert);
}

static void note_copy(uint64_t stream, uint64_t dst, uint64_t bytes, uint64_t epoch, uint64_t seq)
{
    pthread_mutex_lock(&guard_lock);
    struct stream_copies *s = copies_of(stream, 1);
    if (s) {
        s->c[s->next] = (struct copy_note){dst, dst + bytes, epoch, seq, hv_tls.tid};
        s->next = (s->next + 1) % COPIES_PER_STREAM;
    }
    pthread_mutex_unlock(&guard_lock);
}

/* Is an async pinned H2D copy into [lo, hi) a host-race candidate worth a
 * wait? When an exec's kernel node reads the range (scanning every exec is
 * fine at a host round trip's cost), or while the program has instantiated
 * no exec at all: then no graph marks any copy, and every one counts. */
static int h2d_flagged(uint64_t lo, uint64_t hi)
{
    pthread_mutex_lock(&guard_lock);
    int found = nexecs == 0;
    for (uint32_t k = 0; k < nexecs && !found; k++)
        for (uint32_t i = 0; i < execs[k].n && !found; i++)
            found = execs[k].r[i].lo < hi && lo < execs[k].r[i].hi;
    pthread_mutex_unlock(&guard_lock);
    return found;
}

void hv_guard_exec_begin(uint64_t exec)
{
    if (hv_guard_mode() == HV_GUARD_OFF || !exec)
        return;
    pthread_mutex_lock(&guard_lock);
    struct exec_reads *x = reads_of(exec, 1);
    if (x)
        x->n = 0;
    pthread_mutex_unlock(&guard_lock);
}

void hv_guard_note_args(uint64_t exec, uint64_t node, const struct hv_karg *args, int n)
{
    if (hv_guard_mode() == HV_GUARD_OFF || !exec)
        return;
    pthread_mutex_lock(&guard_lock);
    struct exec_reads *x = reads_of(exec, 1);
    if (x) {
        uint32_t w = 0;
        for (uint32_t i = 0; i < x->n; i++)  /* a node's new arguments replace its old ones */
            if (x->r[i].node != node)
                x->r[w++] = x->r[i];
        x->n = w;
        for (int i = 0; i < n; i++) {
            const struct hv_karg *a = &args[i];
            if (a->access == HV_ACCESS_WRITE)
                continue;  /* unknown counts as a read, as in the analyzer */
            if (!HV_GROW(x->r, x->n, x->cap, 8))
                break;
            uint64_t end = a->alloc_bytes && a->alloc_base <= a->value ? a->alloc_base + a->alloc_bytes : 0;
            x->r[x->n++] = (struct exec_range){node, a->value, end > a->value ? end : a->value + 1};
        }
    }
    pthread_mutex_unlock(&guard_lock);
}

/* The copy that makes this launch flagged, or NULL. Caller holds guard_lock. */
static const struct copy_note *flagging_copy(uint64_t exec, uint64_t stream, uint64_t epoch)
{
    struct stream_copies *s = copies_of(stream, 0);
    struct exec_reads *x = reads_of(exec, 0);
    if (!s || !x)
        return NULL;
    for (int k = 0; k < COPIES_PER_STREAM; k++) {
        const struct copy_note *c = &s->c[k];
        if (!c->seq || c->epoch != epoch)
            continue;
        for (uint32_t i = 0; i < x->n; i++)
            if (x->r[i].lo < c->hi && c->lo < x->r[i].hi)
                return c;
    }
    return NULL;
}

/* A sync from any thread while another stream captures in global mode
 * would invalidate that capture: the guard must not change the program. */
static int any_capture(void)
{
    for (uint32_t i = 0; i < HV_STREAM_SLOTS; i++)
        if (atomic_load_explicit(&hv_hot.streams->streams[i].capture_id, memory_order_acquire))
            return 1;
    return 0;
}

/* This thread's event for (mode, device): created once with the real
 * runtime, reused (recording it again moves it). Devices past 8 get a
 * fresh event each time (*temp set: the caller destroys it). */
static void *event_for(int mode, int device, const struct hv_guard_ops *ops, int *temp, int *r)
{
    static __thread void *cache[HV_GUARD__MODES][8];
    *temp = device < 0 || device >= 8;
    void **p = *temp ? NULL : &cache[mode][device];
    if (p && *p)
        return *p;
    void *ev = NULL;
    *r = ops->event_create(&ev, ops->flags[mode]);
    if (*r != 0)
        return NULL;
    if (p)
        *p = ev;
    return ev;
}

/* Runs the pattern; returns the first failing result (0: all succeeded). */
static int apply(int mode, int device, void *raw, const struct hv_guard_ops *ops)
{
    int r = 0, temp = 0;
    if (mode == HV_GUARD_STREAM_SYNC)
        return ops->stream_sync(raw);
    void *ev = event_for(mode, device, ops, &temp, &r);
    if (!ev)
        return r;
    r = ops->event_record(ev, raw);
    if (r == 0 && mode != HV_GUARD_RELEASE_EVENT)
        r = ops->event_sync(ev);
    if (temp)
        ops->event_destroy(ev);
    return r;
}

static void emit(struct hv_thread_ctx *t, int mode, uint64_t seq, uint64_t exec, uint64_t stream,
                 const struct copy_note *c, uint64_t ns, int r)
{
    struct hv_guard *g = hv_aux_begin(t, HV_REC_GUARD, sizeof *g, seq);
    if (g) {
        g->exec = exec;
        g->stream = stream;
        g->copy_seq = c && c->tid == t->tid ? c->seq : 0;   /* seqs are per thread: only this thread's */
        g->copy_dst = c ? c->lo : 0;
        g->copy_bytes = c ? c->hi - c->lo : 0;
        g->wait_ns = ns;
        g->count = atomic_fetch_add(&guard_count, 1) + 1;
        g->mode = (uint32_t)mode;
        g->result = r;
        g->completed_seq = r == 0 && mode != HV_GUARD_RELEASE_EVENT ? seq : 0;
        hv_aux_commit(t, g);
    }
    /* The host did observe the stream complete up to here: say so, as a
     * sync call would, so epochs and the analyzer's happens-before agree. */
    uint64_t now = hv_ticks_ordered();   /* after the wait: later than every call before it */
    if (r == 0 && mode != HV_GUARD_RELEASE_EVENT)
        hv_observe_stream(t, seq, now, stream, 1);
    /* copy-sync's seq is the copy itself, enqueued before `now`: its source
     * is re-hashed (and its host pages given back under HIPVIS_HOSTCHECK)
     * now, before the program can touch them, not at its next sync. */
    if (r == 0 && mode == HV_GUARD_COPY_SYNC)
        hv_observed(t, seq, &(struct hv_obs){stream, t->device, HV_OBS_STREAM}, now);
}

/* Runs the pattern for mode and records it under seq. */
static void guard(struct hv_thread_ctx *t, int mode, uint64_t seq, uint64_t exec, uint64_t stream, void *raw,
                  const struct copy_note *c, const struct hv_guard_ops *ops)
{
    int before = ops->peek_error ? ops->peek_error() : 0;
    uint64_t t0 = hv_mono_ns();
    int r = apply(mode, t->device, raw, ops);
    uint64_t ns = hv_mono_ns() - t0;
    /* A failing guard call must not leave its error for the program's
     * next hipGetLastError; an error the program had not read yet stays. */
    if (r != 0 && before == 0 && ops->get_error)
        ops->get_error();
    emit(t, mode, seq, exec, stream, c, ns, r);
}

void hv_guard_before_launch(struct hv_thread_ctx *t, uint64_t exec, uint64_t stream, void *raw_stream,
                            const struct hv_guard_ops *ops)
{
    int mode = hv_guard_mode() == HV_GUARD_OFF ? HV_GUARD_OFF : atomic_load(&guard_active);
    if (mode == HV_GUARD_OFF || mode == HV_GUARD_COPY_SYNC || !t || !stream)
        return;
    struct hv_stream_state *st = hv_stream_get(hv_hot.streams, stream, t->device);
    if (!st)
        return;
    uint64_t epoch = hv_stream_epoch(hv_hot.streams, st);
    pthread_mutex_lock(&guard_lock);
    const struct copy_note *hit = flagging_copy(exec, stream, epoch);
    struct copy_note c = hit ? *hit : (struct copy_note){0, 0, 0, 0, 0};
    pthread_mutex_unlock(&guard_lock);
    if ((!hit && !guard_always) || any_capture())
        return;
    /* Not a call: recorded under this thread's latest call (seqs are per
     * thread); its wait is ordered by the ticks taken after it. */
    uint64_t seq = t->seq;
    guard(t, mode, seq, exec, stream, raw_stream, hit ? &c : NULL, ops);
}

void hv_guard_after_copy(struct hv_thread_ctx *t, uint16_t api, uint64_t stream, const struct hv_guard_copy *cp)
{
    if (hv_guard_mode() == HV_GUARD_OFF || !stream || !cp->span)
        return;
    int h2d = cp->dir == HV_DIR_H2D;
    if (h2d)
        note_copy(stream, cp->dst, cp->span, cp->epoch, cp->seq);
    int mode = atomic_load(&guard_active);
    /* The host side the copy itself touches while pending: a pinned or
     * registered H2D source, or D2H destination. A pageable source is
     * staged, and a pageable destination written, before the call returns. */
    uint8_t host = h2d ? cp->src_mem : cp->dst_mem;
    if (mode != HV_GUARD_COPY_SYNC || (host != HV_MEM_HOST_PINNED && host != HV_MEM_HOST_REGISTERED))
        return;
    /* A D2H destination is waited for at every copy: the host's reads of it
     * come after the call, and nothing narrower tells which ones race. */
    const struct hv_guard_ops *ops = ops_for(api);
    if (!ops || (h2d && !guard_always && !h2d_flagged(cp->dst, cp->dst + cp->span)) || any_capture())
        return;
    struct copy_note c = {cp->dst, cp->dst + cp->span, cp->epoch, cp->seq, t->tid};
    guard(t, mode, cp->seq, 0, stream, ops->raw_stream(stream), &c, ops);
}

/* In-process A/B (tests/gpu/fix_patterns.py): switch the pattern of an
 * armed guard (HIPVIS_GUARD set at start, so copies and execs are being
 * noted) between blocks of the same loop. Returns 0, or -1 when guards are
 * not armed or the name is unknown. From Python:
 * ctypes.CDLL(None).hipvis_guard_set(b"event-sync"). */
HV_EXPORT int hipvis_guard_set(const char *mode);

HV_EXPORT int hipvis_guard_set(const char *mode)
{
    int m = mode_of(mode);
    if (hv_guard_mode() == HV_GUARD_OFF || m < 0)
        return -1;
    atomic_store(&guard_active, m);
    return 0;
}
