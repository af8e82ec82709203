/*
 * hostcheck — host accesses to memory an in-flight GPU operation uses
 * (HIPVIS_HOSTCHECK; docs/hostcheck.md).
 *
 * While an async copy, memset or kernel that writes a host-visible range
 * (D2H into pinned or registered memory; a memset of pinned memory; with
 * HIPVIS_HOSTCHECK=managed, managed memory) or reads one (H2D from pinned or
 * registered memory) is in flight, the pages it covers lose the host's
 * access: PROT_NONE under a write, PROT_READ under a read. The first host
 * observation of its completion (the same point at which the rewrite check
 * re-hashes a pending source: core tracer.h hv_observed) gives them back,
 * or earlier a host function enqueued after it on its stream, when the
 * runtime runs it (hv_hc_host_fn).
 * A graph launch protects its exec's memcpy and memset nodes and kernel
 * nodes' managed arguments the same way, from the inventory kept at
 * instantiate (replay.c).
 * A host access in between faults once: the SIGSEGV handler queues it
 * (address, read or write, native pcs, Python frames), gives that page back
 * and returns, so the program goes on unchanged; the queue becomes
 * HV_REC_HOST_ACCESS records at the next hook or at exit.
 *
 * The tracer reaches this module through the hooks below only, each one
 * line at its call site, behind hv_ev(HV_EV_HOSTCHECK) (evidence.h): with
 * the check off a traced call runs none of it.
 */
#ifndef HIPVIS_HOSTCHECK_H
#define HIPVIS_HOSTCHECK_H

#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/config.h"
#include "tracer/record/collector.h"

struct hv_copy_ev;
struct hv_obs;

/* Set-up runs from the core's feature table (hooks.c HV_FEATURE): on when
 * the configuration asks; installs the fault handler. */

/* A pitched copy's host side: `rows` rows of `width` bytes every `pitch`
 * bytes from the host pointer. */
struct hv_hc_rows {
    uint64_t pitch, rows, width;
};
/* An async copy was enqueued (fill_copy.c, after hv_ev_copy_end): protects its
 * pinned or registered host side; `rows` NULL for a contiguous copy. A 3D
 * copy is counted, not protected: its rows are not one pitch apart where
 * the host buffer's slices are taller than the copy. */
void hv_hc_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev, const struct hv_hc_rows *rows);
/* An async memset's call record, filled and not yet committed (copy.c). */
void hv_hc_memset(struct hv_thread_ctx *t, const struct hv_call *c);
/* An eager launch's record (not yet committed) and its pointer arguments (launch.c). */
void hv_hc_launch(struct hv_thread_ctx *t, const struct hv_call *c, const struct hv_karg *args, int n);
/* ---- graph replays (replay.c) ---- */

/* One node of a graph exec as the graph walk (instantiate, update) or an
 * exec-node setter describes it (fill_graph.c). */
struct hv_hc_node {
    uint64_t exec, node;   /* the exec; the node's handle in the graph walked */
    uint16_t type;         /* enum hv_node_type; HV_NODE_OTHER when it could not be described */
    uint8_t read;          /* memcpy, memset: its parameters were read */
    uint8_t one_range;     /* and its bytes are the one range [dst (src), + bytes) (not rows with a
                              pitch or a 3D position) */
    uint32_t kind;         /* memcpy: the runtime's kind as the node holds it */
    uint64_t dst, src, bytes;
};
/* A fresh inventory of exec begins (instantiate, update): its nodes follow. */
void hv_hc_exec_begin(uint64_t exec);
/* Node n of n->exec, replacing what the exec had for that node; args (a
 * kernel node's pointer arguments, NULL: keep those it had) as collected
 * for its record. */
void hv_hc_exec_node(const struct hv_hc_node *n, const struct hv_karg *args, int nargs);
/* hipGraphNodeSetEnabled and its twins: the node runs again (on) or not. */
void hv_hc_exec_enabled(uint64_t exec, uint64_t node, int on);
/* The exec was destroyed. */
void hv_hc_exec_forget(uint64_t exec);
/* A graph launch's record (not yet committed; exec in c->a.graph.exec):
 * protects, as ops of the launch stream, the host side of each memcpy
 * node, memset nodes of pinned memory and kernel nodes' managed pointer
 * arguments; counts what it cannot protect (skipped_graph). Nothing for an
 * upload, a failed launch or one into a capture. */
void hv_hc_graph_launch(struct hv_thread_ctx *t, const struct hv_call *c);

/* The host observed the streams `o` covers complete up to ticks `upto`
 * (the core's observers, hooks.c): their ops enqueued before it are given
 * back; queued accesses are written out. */
void hv_hc_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
/* A host function or stream callback as its wrapper hands it to the
 * runtime (intercept.h HV_WRAP_HOST_FN): the program's function and data
 * until hv_hc_host_fn puts its trampoline in their place. */
struct hv_hc_fn {
    void (*fn)(void);   /* the function the runtime gets */
    void *user;         /* its data */
    void *ctx;          /* the trampoline's context; NULL: the program's own */
};
/* Before a host function is enqueued on canonical stream `stream` (`form`:
 * its handle's HV_STREAM_FORM_*; `callback`: the stream-callback signature,
 * stream and status first) (hostfn.c): f becomes a trampoline that, when
 * the runtime runs it, gives back the pages of the ops the stream's
 * synchronize would cover, enqueued before now, then calls the program's
 * function with the runtime's arguments and frees its context. Nothing for
 * a NULL function (the runtime refuses it) or on a stream that is
 * capturing or that the stream table has no slot for. */
void hv_hc_host_fn(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, int callback, struct hv_hc_fn *f);
/* The enqueue failed: the runtime will not run the trampoline. */
void hv_hc_host_fn_drop(struct hv_hc_fn *f);
/* The allocation [base, base + bytes) was released (sync.c hv_trace_free;
 * bytes 0: unknown): ops on it are forgotten, their pages given back (a
 * runtime that frees without waiting leaves nothing in flight to guard). */
void hv_hc_free(uint64_t base, uint64_t bytes);
/* The image ends (exit, _exit, exec): queued accesses and the counts are
 * written out, every page given back, and before exec the program's own
 * SIGSEGV disposition put in place (exec keeps an ignored signal ignored). */
void hv_hc_before_exit(void);

#endif
