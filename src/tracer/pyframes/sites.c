/* Python stacks at call sites; see sites.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tracer/pyframes/pywalk.h"
#include "tracer/pyframes/sites.h"


#define SITE_SLOTS (1u << 16)    /* per table; 1 MiB each, mapped on first use */
#define SITE_PROBES 64u

/* Two lock-free tables of (key, value) slots, key 0 empty:
 *   last:   hash(why, target)         -> the stack key of its latest call
 *   stacks: hash(why, target, frames) -> the stack's id
 * The Python frames stand for the call site: two native sites reached from
 * the same Python frames would record the same stack. Before the thread's
 * first bounds-checked walk the frames key is 0, so the first call records
 * a full stack, which enables the key.
 * A key is claimed with one CAS; values are plain atomic stores (a race
 * between two threads costs at most one redundant reference record).
 * (Not the common map, src/common/u64map.h: its growth moves slots under a
 * lock-free reader.) */
struct slot {
    _Atomic uint64_t key, val;
};

static _Atomic(struct slot *) tables;   /* [0, SITE_SLOTS) last, [SITE_SLOTS, 2 * SITE_SLOTS) stacks */
static _Atomic uint32_t next_id = 1;
static _Atomic int full_noted;

/* Per-thread memo of the last stack key seen for a (why, target): a repeat
 * is answered without touching the shared tables. */
#define MEMO 32u   /* 512 bytes: static TLS is scarce (a libhipvis dlopen'ed into Python must fit glibc's surplus) */
static __thread struct { uint64_t k1, k2; } memo[MEMO] __attribute__((tls_model("initial-exec")));
static _Atomic uint32_t generation HV_HOT_DATA = 1;   /* bumped in a fork child: memos are stale there */
static __thread uint32_t memo_generation __attribute__((tls_model("initial-exec")));

static void forget_after_fork(void)
{
    /* The child's trace is a new file: every stack must be defined again. */
    struct slot *t = atomic_load(&tables);
    if (t)
        memset(t, 0, 2 * SITE_SLOTS * sizeof *t);
    atomic_store(&next_id, 1);
    atomic_store(&full_noted, 0);
    atomic_fetch_add(&generation, 1);
}

/* After hv_config_load, at activation. */
static void py_setup(const struct hv_config *cfg)
{
    hv_hot.py_on = hv_py_present(NULL) ? (uint8_t)cfg->pyframes : HV_PYFRAMES_OFF;
    if (hv_hot.py_on)
        pthread_atfork(NULL, NULL, forget_after_fork);
}

static uint32_t py_header_flags(void)
{
    return (hv_hot.py_on ? HV_HDR_PYFRAMES : 0) | (hv_hot.py_on == HV_PYFRAMES_FIRST ? HV_HDR_PYFRAMES_FIRST : 0);
}

/* Fibonacci hashing: spreads aligned addresses over the table's bits. */
static uint64_t mix(uint64_t x) { return (x * 0x9e3779b97f4a7c15ull) ^ (x >> 29); }

static struct slot *table(int which)
{
    struct slot *t = atomic_load_explicit(&tables, memory_order_acquire);
    if (!t) {
        void *m = mmap(NULL, 2 * SITE_SLOTS * sizeof *t, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        struct slot *expect = NULL;
        if (atomic_compare_exchange_strong(&tables, &expect, (struct slot *)m)) {
            t = m;
        } else {
            munmap(m, 2 * SITE_SLOTS * sizeof *t);
            t = expect;
        }
    }
    return t + (which ? SITE_SLOTS : 0);
}

/* The slot of `key` (nonzero), claimed when new (*fresh); NULL when full. */
static struct slot *find(int which, uint64_t key, int *fresh)
{
    struct slot *t = table(which);
    *fresh = 0;
    if (!t)
        return NULL;
    for (uint32_t i = (uint32_t)(key >> 20) & (SITE_SLOTS - 1), n = 0; n < SITE_PROBES;
         n++, i = (i + 1) & (SITE_SLOTS - 1)) {
        uint64_t v = atomic_load_explicit(&t[i].key, memory_order_acquire);
        if (v == key)
            return &t[i];
        if (v == 0) {
            uint64_t zero = 0;
            if (atomic_compare_exchange_strong(&t[i].key, &zero, key)) {
                *fresh = 1;
                return &t[i];
            }
            if (zero == key)
                return &t[i];
        }
    }
    return NULL;
}

struct collect {
    struct hv_thread_ctx *t;
    uint64_t seq;
    uint32_t n;
    struct hv_pyframe f[HV_PY_MAX_FRAMES];
};

static int on_frame(void *ctx, const struct hv_py_frame_text *fr)
{
    struct collect *c = ctx;
    /* Strings go out before the stack record: a ring holds one reservation. */
    c->f[c->n].file_id = hv_string_id(c->t, fr->file, c->seq);
    c->f[c->n].func_id = hv_string_id(c->t, fr->func, c->seq);
    c->f[c->n].line = fr->line;
    c->n++;
    return 0;
}

static void emit(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target, int status,
                 const struct collect *c, uint32_t more, uint32_t id)
{
    uint32_t n = c ? c->n : 0;
    struct hv_pystack *r = hv_aux_begin(t, HV_REC_PYSTACK, (uint32_t)(sizeof *r + n * sizeof(struct hv_pyframe)), seq);
    if (!r)
        return;
    uint32_t version = 0;
    hv_py_present(&version);
    r->nframes = n;
    r->status = (uint8_t)status;
    r->why = (uint8_t)why;
    r->py_version = version;
    r->truncated = more;
    r->target = target;
    r->id = id;
    if (n)
        memcpy(r + 1, c->f, n * sizeof(struct hv_pyframe));
    hv_aux_commit(t, r);
}

/* Reads the frames and records them (id 0: not in the table). */
static void record(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target, uint32_t id)
{
    struct collect c;
    c.t = t;
    c.seq = seq;
    c.n = 0;
    uint32_t more = 0;
    int status = hv_py_walk(on_frame, &c, HV_PY_MAX_FRAMES, &more);
    /* A native thread of a Python process: nothing to say, and saying it at
     * every new site would only cost ring space. */
    if (status != HV_PY_NO_THREAD)
        emit(t, seq, why, target, status, &c, more, status == HV_PY_OK ? id : 0);
}

static void table_full(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target)
{
    int once = 0;
    if (atomic_compare_exchange_strong(&full_noted, &once, 1))
        emit(t, seq, why, target, HV_PY_SITES_FULL, NULL, 0, 0);
}

void hv_py_site_slow(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target, int dedupe)
{
    if (!dedupe) {
        record(t, seq, why, target, 0);
        return;
    }
    /* HIPVIS_PYFRAMES=first keys a site by the target alone, not by the
     * frames: the first call on a target from a Python thread records its
     * stack, and no later call reads a frame (what the every-site key
     * costs: docs/performance.md). */
    int first = hv_hot.py_on == HV_PYFRAMES_FIRST;
    uint64_t walked = first ? hv_py_thread_walked() : 0;
    uint64_t k1 = mix(target ^ ((uint64_t)why << 56)) | 1;
    uint64_t k2 = mix(k1 ^ (first ? walked : hv_py_frames_key())) | 1;
    uint32_t m = (uint32_t)(k1 >> 7) & (MEMO - 1), gen = atomic_load_explicit(&generation, memory_order_relaxed);
    if (memo_generation == gen && memo[m].k1 == k1 && memo[m].k2 == k2)
        return;   /* this thread's previous call on this target came from the same Python frames */
    if (memo_generation != gen) {
        memset(memo, 0, sizeof memo);
        memo_generation = gen;
    }
    memo[m].k1 = k1;
    memo[m].k2 = k2;
    /* first: a thread whose frames were never read reads them here, past
     * the shared tables, so that a thread outside Python (which has none)
     * never marks a target as recorded for the Python threads; its next
     * call on the target is answered by the memo. */
    if (first && !walked) {
        record(t, seq, why, target, 0);
        return;
    }
    int fresh;
    struct slot *last = find(0, k1, &fresh);
    if (!last)
        return table_full(t, seq, why, target);
    if (!fresh && atomic_load_explicit(&last->val, memory_order_relaxed) == k2)
        return;   /* the same Python frames as this site's previous call on this target */
    struct slot *st = find(1, k2, &fresh);
    if (!st)
        return table_full(t, seq, why, target);
    if (fresh) {
        uint32_t id = atomic_fetch_add(&next_id, 1);
        atomic_store_explicit(&st->val, id, memory_order_relaxed);
        record(t, seq, why, target, id);
    } else {
        uint32_t id = (uint32_t)atomic_load_explicit(&st->val, memory_order_relaxed);
        if (id)
            emit(t, seq, why, target, HV_PY_OK, NULL, 0, id);
    }
    atomic_store_explicit(&last->val, k2, memory_order_relaxed);
}

/* hipvis_measure_features_off's bit 1: Python frames off, or as configured
 * (taken at the first call: set-up is done, the tracer is recording). */
static void py_measure_off(int off)
{
    static uint8_t configured;
    static int taken;
    if (!taken) {
        configured = __atomic_load_n(&hv_hot.py_on, __ATOMIC_RELAXED);
        taken = 1;
    }
    __atomic_store_n(&hv_hot.py_on, (uint8_t)(off ? 0 : configured), __ATOMIC_RELAXED);
}

HV_FEATURE(pyframes, .name = "pyframes", .setup = py_setup, .header_flags = py_header_flags, .measure_bit = 1,
           .measure_off = py_measure_off);
