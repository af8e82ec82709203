/*
 * Internals of the host-access check (hostcheck.h): the table of in-flight
 * ranges (ranges.c), the fault handler and its signal bookkeeping (fault.c),
 * the queue of accesses it fills and the records made from it (queue.c),
 * the hooks that feed the table (hooks.c), the graph execs' inventory that
 * a graph launch protects from (replay.c), and the host functions'
 * trampoline (hostfn.c).
 *
 * What runs in the fault handler may not allocate, take a lock another
 * thread can hold across a fault, or call what is not async-signal-safe:
 * the table is read there through a sequence counter (no lock), and the
 * few changes a fault makes (giving a page back) take a spin lock that
 * ordinary code holds only around its own table updates, which never touch
 * program memory and so never fault (the handler checks that the lock is
 * not its own thread's: a program's signal handler that faults while this
 * thread updates the table gets its page back without the table).
 */
#ifndef HIPVIS_HOSTCHECK_INT_H
#define HIPVIS_HOSTCHECK_INT_H

#include <stdatomic.h>
#include <stdint.h>

#include "tracer/hostcheck/hostcheck.h"

#define HC_SLOTS 512u      /* ranges in flight at once; more are not protected (counted) */
#define HC_OPENED 256u     /* pages given back by a fault while their ranges are in flight */
#define HC_RELEASED 64u    /* ranges given back lately: a fault racing their release is retried */
#define HC_QUEUE 64u       /* accesses waiting to be written out */

/* One in-flight range. */
struct hc_op {
    uint64_t lo, hi;       /* bytes [lo, hi) (2D: the rows' span) */
    uint64_t pitch, width; /* 2D rows: width bytes every pitch bytes; pitch 0 = contiguous */
    uint64_t plo, phi;     /* pages [plo, phi) */
    uint64_t stream, ts, seq;
    uint32_t tid;
    int32_t device;
    uint16_t api;
    uint8_t write;         /* the op writes the range: no host access at all (else no host write) */
    uint8_t key;           /* protected through hc_key (managed memory): no host access at all */
    uint8_t kind;          /* enum hv_hc_kind */
    uint8_t mem;           /* enum hv_mem */
};

/* ---- ranges.c ---- */

extern uint64_t hc_page;   /* page size */
/* The check's protection key (pkey_alloc, access disabled), -1 without
 * one: the CPU or kernel has no protection keys, or none was free. */
extern int hc_key;

/* Protects op's pages and enters it: 0, -1 when the table is full, -2 when
 * mprotect refused the range (nothing protected then). */
int hc_table_add(const struct hc_op *op);
/* Gives back the ops on the streams `o` covers enqueued before `upto`
 * (ticks); returns how many. */
uint32_t hc_table_release(const struct hv_obs *o, uint64_t upto);
/* Gives back every op whose range lies in [lo, hi). */
void hc_table_forget(uint64_t lo, uint64_t hi);
/* Gives back every op; at exit or exec (`child` 0) protects nothing more
 * after it; in a fork child (`child` 1: no other thread exists, and the
 * lock may have been held by one that does not) goes on. */
void hc_table_clear(int child);

/* What a fault at `addr` was (fault path: async-signal-safe). */
enum hc_verdict {
    HC_NOT_OURS = 0,       /* chain to the program's handler */
    HC_RETRY,              /* the page was given back meanwhile: run the access again */
    HC_UNRELATED,          /* a protected page, outside every in-flight range: page given back */
    HC_HIT,                /* inside an in-flight range: *hit is its op, page given back */
};
enum hc_verdict hc_table_fault(uint64_t addr, int write, uint32_t tid, struct hc_op *hit);

/* ---- queue.c ---- */

/* What the handler knows of one access. */
struct hc_access_in {
    uint64_t addr, ts, after;
    uint32_t tid;
    uint8_t write, flags;
    const uint64_t *pc;
    uint32_t npc;
    const void *ucontext;  /* for the Python frames: none are read when NULL */
};
/* Queues an access to op (async-signal-safe); counted as lost when full. */
void hc_queue_push(const struct hc_access_in *a, const struct hc_op *op);
/* Writes the queued accesses into t's ring (ordinary code). */
void hc_queue_drain(struct hv_thread_ctx *t);
/* The counts record (HV_REC_HOSTCHECK) after t's latest call. */
void hc_emit_counts(struct hv_thread_ctx *t);
/* Forgets the queued accesses and the counts (a fork child: its own trace
 * counts its own operations, the analyzer sums the traces). */
void hc_queue_clear(void);

/* Process-wide counts (HV_REC_HOSTCHECK). */
struct hc_counts {
    _Atomic uint64_t protected_ops, skipped_managed, skipped_full, skipped_other, accesses, unrelated, lost,
        released, skipped_graph;
};
extern struct hc_counts hc_counts;

/* ---- hooks.c ---- */

/* Whether a range of `mem` touched by `api` may be protected; counts a
 * skip (managed memory without a key, ROCm registered memory). */
int hc_protectable(uint8_t mem, uint16_t api);
/* Protects op (its fields but the pages and key set) and counts it. */
void hc_protect(struct hc_op *op);
/* An op of thread t's call `seq` at ticks `ts` on `stream`. */
struct hc_op hc_op_of(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, uint64_t stream, uint16_t api,
                      int32_t device);
/* op's range: a copy's host side [host, + bytes) of memory `mem`, its
 * destination (`d2h`: written) or its source (read). */
void hc_copy_side(struct hc_op *op, int d2h, uint64_t host, uint64_t bytes, uint8_t mem);
/* op's range: a memset's [dst, + span) of memory `mem` (the rows' span). */
void hc_memset_side(struct hc_op *op, uint64_t dst, uint64_t span, uint8_t mem);
/* op's range: a kernel's pointer argument `value` (enum hv_access `access`)
 * into the managed allocation r. */
struct hv_alloc_range;
void hc_kernel_arg(struct hc_op *op, uint64_t value, uint8_t access, const struct hv_alloc_range *r);

/* ---- replay.c ---- */

/* Around a fork: the inventory's lock is held across it, the child gets a
 * fresh one. */
void hc_replay_fork_prepare(void);
void hc_replay_fork_parent(void);
void hc_replay_fork_child(void);

/* ---- fault.c ---- */

/* Installs the SIGSEGV handler (once; again after hc_fault_restore). */
int hc_fault_install(void);
/* Puts the program's own disposition back (before exec). */
void hc_fault_restore(void);
/* Frames of the faulting thread from the handler's ucontext; returns how
 * many went into pc[] (pc[0] is the faulting instruction). */
uint32_t hc_fault_stack(const void *ucontext, uint64_t *pc, uint32_t max);

#endif
