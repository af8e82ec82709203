/*
 * Host functions and stream callbacks under the host-access check
 * (hostcheck.h hv_hc_host_fn; docs/hostcheck.md "Release points").
 *
 * A host function runs after the work enqueued on its stream before it
 * completed (docs/semantics.md H1), so what it touches of that work's
 * memory is no race. The runtime runs it on a thread of its own, which no
 * traced call of the program observes, so the check cannot wait for a
 * host observation to give those pages back: the wrapper hands the
 * runtime a trampoline instead of the program's function, and the
 * trampoline gives back the pages of the stream's operations enqueued
 * before the host function, then calls the program's function with its
 * own arguments. It records nothing: for the analyzer a host function is
 * still no observation of the application thread.
 *
 * The context is the trampoline's own, freed by its one run. A host
 * function added to a capturing stream becomes a graph node the runtime
 * may run once per replay, or never: it is left as it is (see
 * hv_hc_host_fn).
 */
#include <errno.h>
#include <stdlib.h>

#include "tracer/core/tracer.h"
#include "tracer/hostcheck/hc_int.h"

struct hc_host_fn {
    void (*fn)(void);   /* the program's function */
    void *user;         /* its data */
    struct hv_obs obs;  /* the stream, as its synchronize would cover it */
    uint64_t upto;      /* ticks read before the enqueue: what came before is done */
};

/* Takes the context (freed here) and gives back the pages of the ops it
 * covers; errno stays the runtime thread's. */
static struct hc_host_fn take(void *arg)
{
    int saved = errno;
    struct hc_host_fn h = *(struct hc_host_fn *)arg;
    free(arg);
    uint32_t n = hc_table_release(&h.obs, h.upto);
    if (n)
        atomic_fetch_add_explicit(&hc_counts.released, n, memory_order_relaxed);
    errno = saved;
    return h;
}

/* hipHostFn_t, cudaHostFn_t, CUhostFn: void (*)(void *). */
static void run_host_fn(void *arg)
{
    struct hc_host_fn h = take(arg);
    ((void (*)(void *))h.fn)(h.user);
}

/* hipStreamCallback_t, cudaStreamCallback_t, CUstreamCallback:
 * void (*)(stream, status, void *), the status an enum of int size; the
 * runtime's stream and status go to the program's function as given. */
static void run_stream_cb(void *stream, int status, void *arg)
{
    struct hc_host_fn h = take(arg);
    ((void (*)(void *, int, void *))h.fn)(stream, status, h.user);
}

void hv_hc_host_fn(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, int callback, struct hv_hc_fn *f)
{
    /* No function: the runtime's to refuse, as it would have. */
    if (!f->fn)
        return;
    /* A stream the table has no slot for may be capturing: the trampoline
     * of a graph node would run once per replay with a context freed at
     * the first, so only a stream known not to capture gets one. */
    struct hv_stream_state *s = stream ? hv_stream_cached(t, stream) : NULL;
    if (!s || atomic_load_explicit(&s->capture_id, memory_order_acquire) != 0)
        return;
    struct hc_host_fn *h = malloc(sizeof *h);
    if (!h)
        return;
    h->fn = f->fn;
    h->user = f->user;
    /* As the stream's synchronize covers it (fill_sync.c
     * hv_trace_stream_sync): the NULL handle's legacy stream with the
     * device's blocking streams, any other stream alone. */
    h->obs = (struct hv_obs){stream, t->device, form == HV_STREAM_FORM_LEGACY_NULL ? HV_OBS_LEGACY : HV_OBS_STREAM};
    /* Before the enqueue: an op whose record was stamped earlier had
     * returned from its own enqueue, so it precedes the host function on
     * the stream; one racing in from another thread stays protected. */
    h->upto = hv_ticks_ordered();
    f->fn = callback ? (void (*)(void))run_stream_cb : (void (*)(void))run_host_fn;
    f->user = h;
    f->ctx = h;
}

void hv_hc_host_fn_drop(struct hv_hc_fn *f)
{
    free(f->ctx);
    f->ctx = NULL;
}
