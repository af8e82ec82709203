/* Python stacks at call sites; see sites.h. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "preload/tracer.h"
#include "pyframes/pyframes.h"
#include "pyframes/sites.h"

int hv_py_on;

#define SITE_SLOTS (1u << 16)    /* distinct (site, target) pairs; 512 KiB, mapped on first use */
#define SITE_PROBES 64u

static _Atomic(uint64_t *) site_keys;
static _Atomic int full_noted;

/* hipvis's own code: the linker's start of this object and end of text. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char __etext[] __attribute__((visibility("hidden")));

void hv_py_setup(const struct hv_config *cfg)
{
    hv_py_on = cfg->pyframes && hv_py_present(NULL);
}

uint32_t hv_py_header_flags(void) { return hv_py_on ? HV_HDR_PYFRAMES : 0; }

/* The return address of the exported wrapper that is running: the first
 * return address on the frame-pointer chain outside hipvis. hipvis is built
 * with frame pointers, so every frame between here and the wrapper has one;
 * the caller's own frames are never followed. 0 when not found. */
static __attribute__((noinline)) uint64_t caller_site(void)
{
    void *const *fp = __builtin_frame_address(0);
    for (int i = 0; i < 24 && fp && ((uintptr_t)fp & 7u) == 0; i++) {
        const char *ret = fp[1];
        if (ret < __ehdr_start || ret >= __etext)
            return (uint64_t)(uintptr_t)ret;
        void *const *next = fp[0];
        if (next <= fp || (const char *)next - (const char *)fp > (1 << 20))
            return 0;
        fp = next;
    }
    return 0;
}

/* Fibonacci hashing: spreads aligned addresses over the table's bits. */
static uint64_t mix(uint64_t x) { return (x * 0x9e3779b97f4a7c15ull) ^ (x >> 29); }

static uint64_t *keys(void)
{
    uint64_t *k = atomic_load_explicit(&site_keys, memory_order_acquire);
    if (k)
        return k;
    void *m = mmap(NULL, SITE_SLOTS * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint64_t *expect = NULL;
    if (!atomic_compare_exchange_strong(&site_keys, &expect, (uint64_t *)m)) {
        munmap(m, SITE_SLOTS * sizeof(uint64_t));
        return expect;
    }
    return m;
}

/* 1: key is new (inserted), 0: seen, -1: table full. */
static int insert(uint64_t key)
{
    uint64_t *k = keys();
    if (!k)
        return -1;
    key |= 1;   /* 0 marks an empty slot */
    for (uint32_t i = (uint32_t)key & (SITE_SLOTS - 1), n = 0; n < SITE_PROBES; n++, i = (i + 1) & (SITE_SLOTS - 1)) {
        _Atomic uint64_t *slot = (_Atomic uint64_t *)&k[i];
        uint64_t v = atomic_load_explicit(slot, memory_order_relaxed);
        if (v == key)
            return 0;
        if (v == 0) {
            uint64_t zero = 0;
            if (atomic_compare_exchange_strong_explicit(slot, &zero, key, memory_order_relaxed, memory_order_relaxed))
                return 1;
            if (zero == key)
                return 0;
        }
    }
    return -1;
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
                 const struct collect *c, uint32_t more)
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
    if (n)
        memcpy(r + 1, c->f, n * sizeof(struct hv_pyframe));
    hv_aux_commit(t, r);
}

void hv_py_site_slow(struct hv_thread_ctx *t, uint64_t seq, unsigned why, uint64_t target, int dedupe)
{
    if (dedupe) {
        int fresh = insert(mix(caller_site() * 31 + mix(target ^ ((uint64_t)why << 56))));
        if (fresh == 0)
            return;
        if (fresh < 0) {
            int once = 0;
            if (atomic_compare_exchange_strong(&full_noted, &once, 1))
                emit(t, seq, why, target, HV_PY_SITES_FULL, NULL, 0);
            return;
        }
    }
    struct collect c;
    c.t = t;
    c.seq = seq;
    c.n = 0;
    uint32_t more = 0;
    int status = hv_py_walk(on_frame, &c, HV_PY_MAX_FRAMES, &more);
    /* A native thread of a Python process: nothing to say, and saying it at
     * every new site would only cost ring space. */
    if (status == HV_PY_NO_THREAD)
        return;
    emit(t, seq, why, target, status, &c, more);
}
