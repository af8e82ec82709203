/*
 * The host-access check's hooks (hostcheck.h): which ranges of which
 * operations are protected, and when they are given back.
 *
 * Protected: the host side of an async copy whose host memory the runtime
 * reads or writes when the copy executes (pinned or registered memory; a
 * pageable source is staged before the call returns and a pageable
 * destination is written before it returns), an async memset of pinned or
 * registered memory, and the managed memory of async copies, memsets and
 * kernel launches. Managed memory is protected with a protection key: the
 * driver moves it through the CPU's page tables itself and checks the
 * page's read/write permission for the GPU's faults, which a key leaves as
 * it is while it denies the host's threads (docs/hostcheck.md). Without a
 * key (no protection keys on this CPU) it is skipped and counted, unless
 * HIPVIS_HOSTCHECK=managed asks for mprotect (which UVM tolerated on an
 * H200 and amdgpu's HMM walk refuses). On HIP, registered memory is skipped
 * too: the ROCm kernel driver tracks it as a userptr through MMU notifiers and
 * revalidates it from the CPU's page tables, which a revoked page would
 * fail. A range is given back at the first host observation of its
 * stream's completion past it, under docs/semantics.md (the same point the
 * rewrite check uses), or when a host function enqueued after it on its
 * stream runs (hostfn.c).
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracer/core/tracer.h"
#include "tracer/evidence/evidence.h"
#include "tracer/hostcheck/hc_int.h"
#include "tracer/pyframes/pywalk.h"

void hc_fault_unwinder(int (*fn)(void **, int));

static int mode;   /* enum hv_hostcheck_mode */

static void hc_atfork(void);

static void child_after_fork(void)
{
    /* The child's memory is a copy the parent's copies do not write: give
     * its pages back and forget the parent's ranges and accesses. */
    hc_table_clear(1);
    hc_queue_clear();
    hc_replay_fork_child();
}

static int hc_setup_now(const struct hv_config *cfg)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    mode = cfg->hostcheck;
    if (mode == HV_HOSTCHECK_OFF)
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0)
        hc_page = (uint64_t)page;
    /* What the handler may use later is set up here, outside it: the
     * unwinder, the Python layout. */
    /* Access disabled for this thread; every other thread already has it
     * disabled (a key other than 0 is, unless a thread enabled it). */
    hc_key = pkey_alloc(0, PKEY_DISABLE_ACCESS);
    hc_fault_unwinder(hv_stacks_unwinder());
    hv_py_present(NULL);
    if (hc_fault_install() != 0)
        return 0;
    pthread_once(&once, hc_atfork);
    return 1;
}

static void hc_atfork(void) { pthread_atfork(hc_replay_fork_prepare, hc_replay_fork_parent, child_after_fork); }

static int host_side(uint8_t mem) { return mem == HV_MEM_HOST_PINNED || mem == HV_MEM_HOST_REGISTERED; }

static int is_hip(uint16_t api) { return hv_api_name(api)[0] == 'h'; }

int hc_protectable(uint8_t mem, uint16_t api)
{
    if (mem == HV_MEM_MANAGED) {
        if (hc_key >= 0 || mode == HV_HOSTCHECK_MANAGED)
            return 1;
        atomic_fetch_add_explicit(&hc_counts.skipped_managed, 1, memory_order_relaxed);
        return 0;
    }
    if (mem == HV_MEM_HOST_REGISTERED && is_hip(api)) {
        atomic_fetch_add_explicit(&hc_counts.skipped_other, 1, memory_order_relaxed);
        return 0;
    }
    return host_side(mem);
}

void hc_protect(struct hc_op *op)
{
    if (op->hi <= op->lo)
        return;
    op->key = op->mem == HV_MEM_MANAGED && hc_key >= 0;
    op->plo = op->lo & ~(hc_page - 1);
    op->phi = (op->hi + hc_page - 1) & ~(hc_page - 1);
    int rc = hc_table_add(op);
    _Atomic uint64_t *count = rc == 0 ? &hc_counts.protected_ops : rc == -1 ? &hc_counts.skipped_full
                                                                           : &hc_counts.skipped_other;
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
}

struct hc_op hc_op_of(struct hv_thread_ctx *t, uint64_t seq, uint64_t ts, uint64_t stream, uint16_t api,
                      int32_t device)
{
    struct hc_op op;
    memset(&op, 0, sizeof op);
    op.seq = seq;
    op.ts = ts;
    op.stream = stream;
    op.api = api;
    op.tid = t->tid;
    op.device = device;
    return op;
}

void hc_copy_side(struct hc_op *op, int d2h, uint64_t host, uint64_t bytes, uint8_t mem)
{
    op->lo = host;
    op->hi = host + bytes;
    op->write = (uint8_t)d2h;
    op->kind = d2h ? HV_HC_COPY_DST : HV_HC_COPY_SRC;
    op->mem = mem;
}

void hc_memset_side(struct hc_op *op, uint64_t dst, uint64_t span, uint8_t mem)
{
    op->lo = dst;
    op->hi = dst + span;
    op->write = 1;
    op->kind = HV_HC_MEMSET;
    op->mem = mem;
}

void hc_kernel_arg(struct hc_op *op, uint64_t value, uint8_t access, const struct hv_alloc_range *r)
{
    /* From the pointer to the end of its allocation, as the analyzer
     * takes a kernel's reach (docs/semantics.md L1). An argument of
     * unknown access is taken as written: any host access during the
     * kernel is reported, marked as possibly only read. */
    op->lo = value;
    op->hi = r->base + r->bytes;
    op->mem = r->mem;
    op->write = access != HV_ACCESS_READ;
    op->kind = access == HV_ACCESS_WRITE || access == HV_ACCESS_READ_WRITE ? HV_HC_KERNEL_WRITE : HV_HC_KERNEL_ARG;
}

void hv_hc_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev, const struct hv_hc_rows *rows)
{
    hc_queue_drain(t);
    int d2h = ev->dir == HV_DIR_D2H;
    uint64_t host = d2h ? ev->dst : ev->src, bytes = ev->bytes;
    uint8_t mem = d2h ? ev->dst_mem : ev->src_mem;
    if ((!d2h && ev->dir != HV_DIR_H2D) || !host || !hc_protectable(mem, ev->api))
        return;
    struct hc_op op = hc_op_of(t, ev->seq, ev->ts, ev->stream, ev->api, ev->device);
    if (rows && rows->rows > 1) {
        if (strstr(hv_api_name(ev->api), "3D") || rows->pitch < rows->width) {
            atomic_fetch_add_explicit(&hc_counts.skipped_other, 1, memory_order_relaxed);
            return;
        }
        bytes = rows->pitch * (rows->rows - 1) + rows->width;
        if (rows->pitch > rows->width) {
            op.pitch = rows->pitch;
            op.width = rows->width;
        }
    } else if (rows) {
        bytes = rows->width;
    }
    hc_copy_side(&op, d2h, host, bytes, mem);
    hc_protect(&op);
}

void hv_hc_memset(struct hv_thread_ctx *t, const struct hv_call *c)
{
    const struct hv_memset_args *a = &c->a.memset;
    struct hv_alloc_range r;
    if (c->result != 0 || (c->flags & HV_CALL_CAPTURING) || !a->bytes || !hv_alloc_find(hv_hot.allocs, a->dst, &r) ||
        !hc_protectable(r.mem, c->api))
        return;
    struct hc_op op = hc_op_of(t, c->h.seq, c->h.ts_ns, c->stream, c->api, c->device);
    if (a->height > 1 && a->pitch > a->width) {
        hc_memset_side(&op, a->dst, a->pitch * (a->height - 1) + a->width, r.mem);
        op.pitch = a->pitch;
        op.width = a->width;
    } else {
        hc_memset_side(&op, a->dst, a->bytes, r.mem);
    }
    hc_protect(&op);
}

void hv_hc_launch(struct hv_thread_ctx *t, const struct hv_call *c, const struct hv_karg *args, int n)
{
    if (c->result != 0 || (c->flags & HV_CALL_CAPTURING))
        return;
    for (int i = 0; i < n; i++) {
        struct hv_alloc_range r;
        /* Kernels run on the GPU: only memory the host and the GPU share
         * through the CPU's page tables (managed) is the host's concern
         * here; pinned memory a kernel reads over the bus is left alone. */
        if (!hv_alloc_find(hv_hot.allocs, args[i].value, &r) || r.mem != HV_MEM_MANAGED ||
            !hc_protectable(r.mem, c->api))
            continue;
        struct hc_op op = hc_op_of(t, c->h.seq, c->h.ts_ns, c->stream, c->api, c->device);
        hc_kernel_arg(&op, args[i].value, args[i].access, &r);
        hc_protect(&op);
    }
}

void hv_hc_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    (void)seq;
    uint32_t n = hc_table_release(o, upto);
    if (n)
        atomic_fetch_add_explicit(&hc_counts.released, n, memory_order_relaxed);
    hc_queue_drain(t);
}

void hv_hc_free(uint64_t base, uint64_t bytes)
{
    hc_table_forget(base, base + (bytes ? bytes : 1));
}

void hv_hc_before_exit(void)
{
    if (mode == HV_HOSTCHECK_OFF)
        return;
    struct hv_thread_ctx *t = &hv_tls;
    hc_queue_drain(t);
    hc_emit_counts(t);
    hc_table_clear(0);
    hc_fault_restore();
}

/* The check's entry in the core's feature table: its set-up turns the
 * evidence bit on (the copy fillers test it), it looks at every observation
 * (pages come back at the first one that covers their op), and it gives
 * pages and SIGSEGV back before the trace is closed. */
static void hc_setup(const struct hv_config *cfg)
{
    if (!hc_setup_now(cfg))
        return;
    hv_hot.ev_flags |= HV_EV_HOSTCHECK;
    hv_hot.observe_all = 1;
}

static uint32_t hc_header_flags(void)
{
    return hv_ev(HV_EV_HOSTCHECK) ? HV_HDR_HOSTCHECK : 0;
}

static void hc_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    if (hv_ev(HV_EV_HOSTCHECK))
        hv_hc_observed(t, seq, o, upto);
}

static void hc_before_exit(void)
{
    if (hv_ev(HV_EV_HOSTCHECK))
        hv_hc_before_exit();
}

HV_FEATURE(hostcheck, .name = "hostcheck", .setup = hc_setup, .header_flags = hc_header_flags,
           .observed = hc_observed, .before_exit = hc_before_exit);
