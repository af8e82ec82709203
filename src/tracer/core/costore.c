#include "tracer/core/costore.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PIECE_MAX 32768u        /* payload bytes per HV_REC_CODEOBJ, before the ring-size limit */
#define REGISTRY_BUCKETS 1024u

struct hv_co_store {
    uint64_t hash;
    _Atomic(const uint8_t *) bytes; /* replaced when a gone object's image comes back */
    uint64_t len;
    char target[96];
    _Atomic int started;        /* storage decided: once */
    _Atomic int done;           /* nothing more will be written */
    _Atomic int busy;           /* a thread owns `next` and is copying `bytes` */
    _Atomic int gone;           /* `bytes` must not be read any more */
    uint64_t next;              /* next offset to write (owned by the busy holder) */
    uint32_t target_id;         /* string id (owned by the busy holder) */
    struct hv_co_store *next_pending; /* set before the store is published on the list */
    struct hv_co_store *next_hash;    /* registry chain; set before publication */
    struct hv_co_store *next_all;     /* every store; set before publication */
};

_Atomic unsigned hv_costore_pending;

/* Stores started and not yet known done; walked by whichever thread has room. */
static _Atomic(struct hv_co_store *) pending_head;
/* Bytes promised to stored objects, against HIPVIS_CODEOBJ_MB. */
static _Atomic uint64_t budget_used;
/* Bytes of pieces written so far: whether a pump made progress. */
static _Atomic uint64_t bytes_written;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* Lock-free, insert-only registry: no lock to inherit held across fork().
 * (Not the common map, src/common/u64map.h, whose inserts need a lock.) */
static _Atomic(struct hv_co_store *) buckets[REGISTRY_BUCKETS];
static _Atomic(struct hv_co_store *) all_stores;
static _Atomic(struct hv_co_use *) all_uses;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A fork child writes its own trace: what the parent stored is not in it. */
static void child(void)
{
    for (struct hv_co_store *s = atomic_load(&all_stores); s; s = s->next_all) {
        atomic_store(&s->started, 0);
        atomic_store(&s->done, 0);
        atomic_store(&s->busy, 0);
        s->next = 0;
        s->target_id = 0;
        s->next_pending = NULL;
    }
    for (struct hv_co_use *u = atomic_load(&all_uses); u; u = u->next_all)
        atomic_store(&u->settled, 0);
    atomic_store(&pending_head, NULL);
    atomic_store(&hv_costore_pending, 0);
    atomic_store(&budget_used, 0);
}

static void register_atfork(void) { pthread_atfork(NULL, NULL, child); }

static struct hv_co_store *lookup(struct hv_co_store *s, uint64_t hash, size_t len)
{
    while (s && (s->hash != hash || s->len != len))
        s = s->next_hash;
    return s;
}

struct hv_co_store *hv_costore_object(uint64_t hash, const void *bytes, size_t len, const char *target)
{
    _Atomic(struct hv_co_store *) *bucket = &buckets[hash % REGISTRY_BUCKETS];
    pthread_once(&fork_once, register_atfork);
    struct hv_co_store *s = lookup(atomic_load(bucket), hash, len);
    if (s) {
        /* Seen again after its first image was unloaded (the library was
         * dlclose'd and loaded again): read it from the new image. */
        if (atomic_load(&s->gone) && !atomic_load(&s->started)) {
            atomic_store(&s->bytes, bytes);
            atomic_store(&s->gone, 0);
        }
        return s;
    }
    if (!(s = calloc(1, sizeof *s)))
        return NULL;
    s->hash = hash;
    atomic_init(&s->bytes, bytes);
    s->len = len;
    snprintf(s->target, sizeof s->target, "%s", target ? target : "");
    s->next_hash = atomic_load(bucket);
    while (!atomic_compare_exchange_weak(bucket, &s->next_hash, s))
        ;
    /* Two first sightings at once: the older entry is the one; this one
     * stays unreachable by hash (and harmless). */
    struct hv_co_store *older = lookup(s->next_hash, hash, len);
    s->next_all = atomic_load(&all_stores);
    while (!atomic_compare_exchange_weak(&all_stores, &s->next_all, s))
        ;
    return older ? older : s;
}

void hv_costore_forget(struct hv_co_store *s)
{
    if (!s)
        return;
    /* Dekker with the writer's busy-then-gone check (seq_cst both sides):
     * either the writer sees `gone`, or we see it busy and wait it out. */
    atomic_store(&s->gone, 1);
    while (atomic_load(&s->busy))
        sched_yield();
}

struct hv_co_use *hv_costore_use(struct hv_co_store *const *s, uint32_t n)
{
    if (!n)
        return NULL;
    struct hv_co_use *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->n = n < HV_CO_MAX_CANDIDATES ? n : HV_CO_MAX_CANDIDATES;
    memcpy(u->s, s, u->n * sizeof *s);
    u->next_all = atomic_load(&all_uses);
    while (!atomic_compare_exchange_weak(&all_uses, &u->next_all, u))
        ;
    return u;
}

void hv_costore_note(struct hv_thread_ctx *t, uint64_t seq, uint32_t kind, uint64_t hash, uint64_t value,
                     uint32_t count, const char *reason)
{
    uint32_t reason_id = hv_string_id(t, reason, seq);
    struct hv_codeobj_note *n = hv_aux_begin(t, HV_REC_CODEOBJ_NOTE, sizeof *n, seq);
    if (!n)
        return;
    n->hash = hash;
    n->value = value;
    n->kind = kind;
    n->count = count;
    n->reason_id = reason_id;
    hv_aux_commit(t, n);
}

/* Why `s` will not be stored, NULL when it will; reserves its budget. */
static const char *storage_refusal(const struct hv_co_store *s)
{
    uint64_t budget = hv_tracer_cfg.codeobj_bytes;
    if (budget == 0)
        return "disabled";
    if (s->len > HV_CO_OBJECT_CAP)
        return "over_object_cap";
    uint64_t used = atomic_load(&budget_used);
    do {
        if (used + s->len > budget)
            return "over_budget";
    } while (!atomic_compare_exchange_weak(&budget_used, &used, used + s->len));
    return NULL;
}

static void finish(struct hv_co_store *s)
{
    atomic_store(&s->done, 1);
    atomic_fetch_sub(&hv_costore_pending, 1);
}

/* At exit the objects still pending get the time they need: this runs
 * before the tracer's destructor stops the writer (atexit handlers
 * registered after start-up run before library destructors), and waits
 * for the writer to make room, giving up after EXIT_PATIENCE_MS without
 * progress. The exiting thread writes, if it has a ring. */
#define EXIT_PATIENCE_MS 500
static void flush_at_exit(void)
{
    struct hv_thread_ctx *t = &hv_tls;
    int idle = 0;
    while (idle < EXIT_PATIENCE_MS && t->ring && atomic_load(&hv_costore_pending) &&
           atomic_load(&hv_hot.state) == HV_TRACER_ON) {
        uint64_t before = atomic_load(&bytes_written);
        hv_costore_touch_slow(t, t->seq, NULL);
        if (atomic_load(&bytes_written) == before) {
            nanosleep(&(struct timespec){0, 1000000}, NULL);
            idle++;
        } else {
            idle = 0;
        }
    }
}

static void register_exit_flush(void) { atexit(flush_at_exit); }

/* Decides once whether `s` is stored; a stored one joins the pending list. */
static void start(struct hv_thread_ctx *t, uint64_t seq, struct hv_co_store *s)
{
    if (atomic_exchange(&s->started, 1))
        return;
    const char *no = atomic_load(&s->gone) ? "image_unloaded" : storage_refusal(s);
    if (no) {
        atomic_store(&s->done, 1);
        hv_costore_note(t, seq, HV_CO_NOTE_NOT_STORED, s->hash, s->len, 1, no);
        return;
    }
    pthread_once(&exit_once, register_exit_flush);
    s->next_pending = atomic_load(&pending_head);
    while (!atomic_compare_exchange_weak(&pending_head, &s->next_pending, s))
        ;
    atomic_fetch_add(&hv_costore_pending, 1);
}

/* Ring bytes a piece may use now: the ring must stay at least half free
 * for call records after it. */
static uint64_t room(const struct hv_ring *r)
{
    uint64_t used = atomic_load_explicit(&r->head, memory_order_relaxed) -
                    atomic_load_explicit(&r->tail, memory_order_acquire);
    return used < r->capacity / 2 ? r->capacity / 2 - used : 0;
}

/* Writes pieces of `s` while this thread's ring has room. Returns 0 when
 * the ring ran out of room (stop pumping), 1 otherwise. */
static int write_some(struct hv_thread_ctx *t, uint64_t seq, struct hv_co_store *s)
{
    if (atomic_exchange(&s->busy, 1))
        return 1; /* another thread is writing it */
    int more_room = 1;
    if (atomic_load(&s->done)) {
        /* finished by the previous holder */
    } else if (atomic_load(&s->gone)) {
        hv_costore_note(t, seq, HV_CO_NOTE_NOT_STORED, s->hash, s->len - s->next, 1, "image_unloaded");
        finish(s);
    } else {
        uint32_t cap = (uint32_t)(t->ring->capacity / 8 < PIECE_MAX ? t->ring->capacity / 8 : PIECE_MAX);
        cap = (cap - sizeof(struct hv_codeobj_chunk)) & ~7u;
        if (!s->target_id)
            s->target_id = hv_string_id(t, s->target, seq);
        while (s->next < s->len) {
            uint32_t n = s->len - s->next < cap ? (uint32_t)(s->len - s->next) : cap;
            uint32_t size = (uint32_t)hv_rec_padded(sizeof(struct hv_codeobj_chunk) + n);
            struct hv_codeobj_chunk *c = room(t->ring) >= size ? hv_aux_begin(t, HV_REC_CODEOBJ, size, seq) : NULL;
            if (!c) {
                more_room = 0;
                break;
            }
            c->hash = s->hash;
            c->total_bytes = s->len;
            c->offset = s->next;
            c->len = n;
            c->arch_id = s->target_id;
            memcpy(c + 1, atomic_load_explicit(&s->bytes, memory_order_relaxed) + s->next, n);
            hv_aux_commit(t, c);
            s->next += n;
            atomic_fetch_add_explicit(&bytes_written, n, memory_order_relaxed);
        }
        if (s->next == s->len)
            finish(s);
    }
    atomic_store(&s->busy, 0);
    return more_room;
}

void hv_costore_touch_slow(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *k)
{
    struct hv_co_use *u = k ? k->co : NULL;
    if (u && !atomic_exchange(&u->settled, 1))
        for (uint32_t i = 0; i < u->n; i++)
            start(t, seq, u->s[i]);
    if (!t->ring)
        return;
    for (struct hv_co_store *s = atomic_load(&pending_head);
         s && atomic_load_explicit(&hv_costore_pending, memory_order_relaxed); s = s->next_pending)
        if (!atomic_load(&s->done) && !write_some(t, seq, s))
            break;
}
