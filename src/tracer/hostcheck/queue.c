/*
 * The accesses the fault handler saw, on their way into the trace
 * (hc_int.h).
 *
 * The handler cannot write a record: a record's strings are interned under
 * a lock, its ring may be mid-reservation on the faulting thread, and the
 * faulting thread may have no ring at all. It fills a slot of a fixed queue
 * instead (claimed with one compare-and-swap, published with a release
 * store), and the next hook on any thread (an observation, a copy, exit)
 * turns the slots into HV_REC_HOST_ACCESS records in its own ring. The
 * record's header names the in-flight op (its thread and call), so the
 * reader renumbers it with the op's call.
 */
#include <string.h>

#include "tracer/core/tracer.h"
#include "tracer/evidence/evidence.h"
#include "tracer/hostcheck/hc_int.h"
#include "tracer/pyframes/pywalk.h"

#define HC_PY_FILE 160u
#define HC_PY_FUNC 64u

enum { SLOT_FREE = 0, SLOT_FILLING, SLOT_READY, SLOT_WRITING };

struct hc_slot {
    _Atomic uint32_t state;
    uint32_t tid;
    uint64_t addr, ts, after;
    uint8_t access, flags;
    uint16_t npc, npy;
    uint64_t pc[HV_HC_MAX_FRAMES];
    struct {
        char file[HC_PY_FILE], func[HC_PY_FUNC];
        int32_t line;
    } py[HV_HC_MAX_PY];
    struct hc_op op;
};

static struct hc_slot queue[HC_QUEUE];
static _Atomic uint32_t ready;   /* slots READY (a drain with none reads one line) */

struct hc_counts hc_counts;

static void copy_str(char *dst, const char *src, size_t cap)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* hv_py_walk's callback: keeps the innermost HV_HC_MAX_PY frames. */
static int keep_frame(void *ctx, const struct hv_py_frame_text *f)
{
    struct hc_slot *s = ctx;
    copy_str(s->py[s->npy].file, f->file, HC_PY_FILE);
    copy_str(s->py[s->npy].func, f->func, HC_PY_FUNC);
    s->py[s->npy].line = f->line;
    return ++s->npy == HV_HC_MAX_PY;
}

void hc_queue_push(const struct hc_access_in *a, const struct hc_op *op)
{
    struct hc_slot *s = NULL;
    for (uint32_t i = 0; i < HC_QUEUE && !s; i++) {
        uint32_t expect = SLOT_FREE;
        if (atomic_compare_exchange_strong_explicit(&queue[i].state, &expect, SLOT_FILLING, memory_order_acquire,
                                                    memory_order_relaxed))
            s = &queue[i];
    }
    if (!s) {
        atomic_fetch_add_explicit(&hc_counts.lost, 1, memory_order_relaxed);
        return;
    }
    s->tid = a->tid;
    s->addr = a->addr;
    s->ts = a->ts;
    s->after = a->after;
    s->access = a->write == 1 ? HV_ACCESS_WRITE : a->write == 0 ? HV_ACCESS_READ : HV_ACCESS_UNKNOWN;
    s->flags = a->flags;
    s->npc = (uint16_t)(a->npc < HV_HC_MAX_FRAMES ? a->npc : HV_HC_MAX_FRAMES);
    memcpy(s->pc, a->pc, s->npc * sizeof s->pc[0]);
    s->op = *op;
    s->npy = 0;
    /* The thread's own Python frames, read with bounds-checked reads
     * (pyframes.h): set up at activation, so no lookup happens here. */
    uint32_t more;
    if (!hv_hot.py_on || hv_py_walk(keep_frame, s, HV_HC_MAX_PY, &more) != HV_PY_OK || !s->npy)
        s->flags |= HV_HC_NO_PYTHON;
    atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
    atomic_fetch_add_explicit(&ready, 1, memory_order_release);
}

static void write_slot(struct hv_thread_ctx *t, struct hc_slot *s)
{
    struct hv_pyframe py[HV_HC_MAX_PY];
    for (uint32_t i = 0; i < s->npy; i++)
        py[i] = (struct hv_pyframe){hv_string_id(t, s->py[i].file, t->seq), hv_string_id(t, s->py[i].func, t->seq),
                                    s->py[i].line, 0};
    uint32_t size = (uint32_t)(sizeof(struct hv_host_access) + 8u * s->npc + sizeof py[0] * s->npy);
    struct hv_host_access *r = hv_aux_begin(t, HV_REC_HOST_ACCESS, size, s->op.seq);
    if (!r)
        return;
    /* The op's call: the reader renumbers the record with it. */
    r->h.tid = s->op.tid;
    r->addr = s->addr;
    r->access_ts = s->ts;
    r->access_after = s->after;
    r->op_lo = s->op.lo;
    r->op_bytes = s->op.hi - s->op.lo;
    r->op_stream = s->op.stream;
    r->access_tid = s->tid;
    r->op_api = s->op.api;
    r->op_kind = s->op.kind;
    r->op_mem = s->op.mem;
    r->access = s->access;
    r->flags = s->flags;
    r->nframes = s->npc;
    r->npy = s->npy;
    memcpy(r + 1, s->pc, 8u * s->npc);
    memcpy((char *)(r + 1) + 8u * s->npc, py, sizeof py[0] * s->npy);
    hv_aux_commit(t, r);
    atomic_fetch_add_explicit(&hc_counts.accesses, 1, memory_order_relaxed);
}

void hc_queue_drain(struct hv_thread_ctx *t)
{
    if (!atomic_load_explicit(&ready, memory_order_acquire) || !t || !t->ring)
        return;
    hv_stacks_maps(t, t->seq);   /* the pcs are symbolized against it */
    for (uint32_t i = 0; i < HC_QUEUE; i++) {
        uint32_t expect = SLOT_READY;
        if (!atomic_compare_exchange_strong_explicit(&queue[i].state, &expect, SLOT_WRITING, memory_order_acquire,
                                                     memory_order_relaxed))
            continue;
        atomic_fetch_sub_explicit(&ready, 1, memory_order_relaxed);
        write_slot(t, &queue[i]);
        atomic_store_explicit(&queue[i].state, SLOT_FREE, memory_order_release);
    }
}

void hc_emit_counts(struct hv_thread_ctx *t)
{
    if (!t || !t->ring)
        return;
    struct hv_hostcheck *r = hv_aux_begin(t, HV_REC_HOSTCHECK, sizeof *r, t->seq);
    if (!r)
        return;
    r->protected_ops = atomic_load(&hc_counts.protected_ops);
    r->skipped_managed = atomic_load(&hc_counts.skipped_managed);
    r->skipped_full = atomic_load(&hc_counts.skipped_full);
    r->skipped_other = atomic_load(&hc_counts.skipped_other);
    r->accesses = atomic_load(&hc_counts.accesses);
    r->unrelated = atomic_load(&hc_counts.unrelated);
    r->lost = atomic_load(&hc_counts.lost);
    r->released = atomic_load(&hc_counts.released);
    r->skipped_graph = atomic_load(&hc_counts.skipped_graph);
    hv_aux_commit(t, r);
}

void hc_queue_clear(void)
{
    for (uint32_t i = 0; i < HC_QUEUE; i++)
        atomic_store_explicit(&queue[i].state, SLOT_FREE, memory_order_relaxed);
    atomic_store_explicit(&ready, 0, memory_order_relaxed);
    _Atomic uint64_t *counts[] = {&hc_counts.protected_ops, &hc_counts.skipped_managed, &hc_counts.skipped_full,
                                  &hc_counts.skipped_other, &hc_counts.accesses, &hc_counts.unrelated,
                                  &hc_counts.lost, &hc_counts.released, &hc_counts.skipped_graph};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        atomic_store_explicit(counts[i], 0, memory_order_relaxed);
}
