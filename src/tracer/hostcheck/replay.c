/*
 * Graph replays under the host-access check (hostcheck.h hv_hc_graph_launch;
 * docs/hostcheck.md "Graphs").
 *
 * A graph launch enqueues the exec's nodes on its stream: a memcpy node
 * from pinned memory reads it, one into pinned memory writes it, a memset
 * node writes its range and a kernel node's managed arguments are the
 * kernel's, all until the replay completes, as if the same copies, memsets
 * and launches had been enqueued eagerly. The launch call names only the
 * exec, so the check keeps, per exec, what the graph walk at instantiate
 * (and exec updates, node setters, enabling) recorded of each node, and at
 * each successful launch protects those host sides as ops of the launch
 * call on the launch stream: they are given back like eager ops, at the
 * first host observation of the stream past the launch. A replay of the
 * same exec before that takes its earlier replay's slots (ranges.c), so a
 * loop that replays every step does not fill the table.
 *
 * Counted as not protected (skipped_graph), once per replay: an exec whose
 * nodes are not known here (instantiated before tracing, or its walk was
 * not possible), a node the walk could not read (a kind the check does not
 * describe, a conditional node's bodies, a memcpy or memset node whose
 * parameters were not read or are not one range), and a memcpy node's
 * pageable host side (the replay reads or writes it when it runs, and
 * pageable memory is never protected). A graph with a host node or an
 * event-record node is not protected at all, each of its host sides
 * counted: a host function of the replay runs after the nodes it depends
 * on, and an event it records lets the host observe part of the replay,
 * neither of which the check can follow to give pages back (a host node
 * reading what a memcpy node before it wrote would be reported although
 * the graph orders it).
 *
 * Only with the check on: the hooks are behind hv_ev(HV_EV_HOSTCHECK) at
 * their call sites (fill_graph.c). One mutex guards the inventory; the
 * fault handler never takes it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/u64map.h"
#include "format/call_rules.h"
#include "tracer/core/tracer.h"
#include "tracer/hostcheck/hc_int.h"

/* One node of an exec. */
struct rnode {
    uint64_t node;
    uint64_t dst, src, bytes;
    uint32_t kind;
    uint16_t type;
    uint8_t read, one_range;
    uint8_t disabled;
};

/* A kernel node's pointer argument into managed memory (when recorded). */
struct rarg {
    uint32_t ix;        /* its node, in nodes[] */
    uint8_t access;     /* enum hv_access */
    uint64_t value;
};

struct rexec {
    uint64_t exec;
    struct rnode *nodes;
    struct rarg *args;
    uint32_t nnodes, capnodes, nargs, capargs;
    uint8_t incomplete; /* out of memory while recording: not every node is known */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rexec *execs;
static uint32_t nexecs, capexecs;
static struct hv_u64map exec_ix;   /* exec -> index in execs[] */

void hc_replay_fork_prepare(void) { pthread_mutex_lock(&lock); }
void hc_replay_fork_parent(void) { pthread_mutex_unlock(&lock); }
void hc_replay_fork_child(void) { pthread_mutex_init(&lock, NULL); }

static void count_skipped(uint64_t n)
{
    if (n)
        atomic_fetch_add_explicit(&hc_counts.skipped_graph, n, memory_order_relaxed);
}

/* exec's entry (lock held), added empty when `insert`; NULL when absent or
 * out of memory. */
static struct rexec *exec_of(uint64_t exec, int insert)
{
    uint32_t i = hv_u64map_get(&exec_ix, exec);
    if (i != HV_U64MAP_NONE)
        return &execs[i];
    if (!insert || !HV_GROW(execs, nexecs, capexecs, 16) || hv_u64map_put(&exec_ix, exec, nexecs) != 0)
        return NULL;
    struct rexec *x = &execs[nexecs++];
    memset(x, 0, sizeof *x);
    x->exec = exec;
    return x;
}

static void exec_free(struct rexec *x)
{
    free(x->nodes);
    free(x->args);
}

void hv_hc_exec_begin(uint64_t exec)
{
    if (!exec)
        return;
    pthread_mutex_lock(&lock);
    struct rexec *x = exec_of(exec, 1);
    if (x) {
        x->nnodes = x->nargs = 0;
        x->incomplete = 0;
    }
    pthread_mutex_unlock(&lock);
}

/* Node `node` of x (lock held), added when absent; NULL out of memory. */
static struct rnode *node_of(struct rexec *x, uint64_t node, uint32_t *ix)
{
    for (uint32_t i = 0; i < x->nnodes; i++)
        if (x->nodes[i].node == node) {
            *ix = i;
            return &x->nodes[i];
        }
    if (!HV_GROW(x->nodes, x->nnodes, x->capnodes, 16))
        return NULL;
    *ix = x->nnodes;
    struct rnode *n = &x->nodes[x->nnodes++];
    memset(n, 0, sizeof *n);
    n->node = node;
    return n;
}

/* Replaces node ix's arguments in x by those of args into managed memory
 * (lock held). Only managed memory is a kernel's host side (hooks.c
 * hv_hc_launch); the launch looks each one up again. */
static void set_args(struct rexec *x, uint32_t ix, const struct hv_karg *args, int n)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < x->nargs; i++)
        if (x->args[i].ix != ix)
            x->args[w++] = x->args[i];
    x->nargs = w;
    for (int i = 0; i < n; i++) {
        struct hv_alloc_range r;
        if (!hv_alloc_find(hv_hot.allocs, args[i].value, &r) || r.mem != HV_MEM_MANAGED)
            continue;
        if (!HV_GROW(x->args, x->nargs, x->capargs, 8)) {
            x->incomplete = 1;
            return;
        }
        x->args[x->nargs++] = (struct rarg){ix, args[i].access, args[i].value};
    }
}

void hv_hc_exec_node(const struct hv_hc_node *d, const struct hv_karg *args, int nargs)
{
    if (!d->exec)
        return;
    pthread_mutex_lock(&lock);
    struct rexec *x = exec_of(d->exec, 0);
    uint32_t ix = 0;
    struct rnode *n = x ? node_of(x, d->node, &ix) : NULL;
    if (n) {
        n->type = d->type;
        n->read = d->read;
        n->one_range = d->one_range;
        n->kind = d->kind;
        n->dst = d->dst;
        n->src = d->src;
        n->bytes = d->bytes;
        if (args || d->type != HV_NODE_KERNEL)
            set_args(x, ix, args, args ? nargs : 0);
    } else if (x) {
        x->incomplete = 1;
    }
    pthread_mutex_unlock(&lock);
}

void hv_hc_exec_enabled(uint64_t exec, uint64_t node, int on)
{
    pthread_mutex_lock(&lock);
    struct rexec *x = exec_of(exec, 0);
    for (uint32_t i = 0; x && i < x->nnodes; i++)
        if (x->nodes[i].node == node)
            x->nodes[i].disabled = !on;
    pthread_mutex_unlock(&lock);
}

void hv_hc_exec_forget(uint64_t exec)
{
    pthread_mutex_lock(&lock);
    uint32_t i = hv_u64map_del(&exec_ix, exec);
    if (i != HV_U64MAP_NONE) {
        exec_free(&execs[i]);
        if (i != --nexecs) {   /* the last entry takes its place */
            execs[i] = execs[nexecs];
            hv_u64map_put(&exec_ix, execs[i].exec, i);   /* an update of a present key: no allocation */
        }
    }
    pthread_mutex_unlock(&lock);
}

/* What a replay does with one host side. */
enum plan { NONE, PROTECT, SKIP };

/* Node n's host side in a replay: PROTECT with op's range filled (its
 * memory still to be asked hc_protectable), SKIP when the check cannot
 * protect it, NONE when it has none (kernel nodes' are their arguments). */
static enum plan plan_node(const struct rnode *n, struct hc_op *op)
{
    switch (n->type) {
    case HV_NODE_MEMCPY: {
        if (!n->read)
            return SKIP;
        enum hv_mem dm = hv_alloc_kind(hv_hot.allocs, n->dst), sm = hv_alloc_kind(hv_hot.allocs, n->src);
        enum hv_dir dir = hv_copy_dir((int)n->kind, dm, sm);
        if (dir != HV_DIR_D2H && dir != HV_DIR_H2D)
            return NONE;   /* no host side, or host to host (as an eager copy) */
        int d2h = dir == HV_DIR_D2H;
        enum hv_mem mem = hv_host_side(d2h ? dm : sm);
        /* A pageable side is read or written when the replay runs: a
         * host side the check never protects. */
        if (mem == HV_MEM_HOST_PAGEABLE || !n->one_range)
            return SKIP;
        hc_copy_side(op, d2h, d2h ? n->dst : n->src, n->bytes, (uint8_t)mem);
        return PROTECT;
    }
    case HV_NODE_MEMSET: {
        struct hv_alloc_range r;
        if (!n->read)
            return SKIP;
        if (!n->bytes || !hv_alloc_find(hv_hot.allocs, n->dst, &r) || r.mem == HV_MEM_DEVICE)
            return NONE;
        if (!n->one_range)
            return SKIP;
        hc_memset_side(op, n->dst, n->bytes, r.mem);
        return PROTECT;
    }
    case HV_NODE_KERNEL:
    case HV_NODE_HOST:
    case HV_NODE_GRAPH:   /* its graph's nodes are the exec's too */
    case HV_NODE_EMPTY:
    case HV_NODE_EVENT_WAIT:
    case HV_NODE_EVENT_RECORD:
    case HV_NODE_MEM_ALLOC:
    case HV_NODE_MEM_FREE:
        return NONE;
    default:
        return SKIP;   /* unknown, conditional (bodies not walked), other */
    }
}

/* A kernel node's managed argument, as hv_hc_launch takes an eager one's. */
static enum plan plan_arg(const struct rarg *a, struct hc_op *op)
{
    struct hv_alloc_range r;
    if (!hv_alloc_find(hv_hot.allocs, a->value, &r) || r.mem != HV_MEM_MANAGED)
        return NONE;
    hc_kernel_arg(op, a->value, a->access, &r);
    return PROTECT;
}

/* Carries out p for op of call c: `hold` counts a side that would be
 * protected as skipped instead (returns 1 for each side counted). */
static uint32_t carry_out(enum plan p, struct hc_op *op, const struct hv_call *c, int hold)
{
    if (p == NONE)
        return 0;
    if (p == SKIP || hold)
        return 1;
    if (hc_protectable(op->mem, c->api))
        hc_protect(op);
    return 0;
}

/* Replays x (lock held). */
static void replay(struct hv_thread_ctx *t, const struct hv_call *c, const struct rexec *x)
{
    int hold = x->incomplete;
    for (uint32_t i = 0; i < x->nnodes; i++)
        hold |= !x->nodes[i].disabled &&
                (x->nodes[i].type == HV_NODE_HOST || x->nodes[i].type == HV_NODE_EVENT_RECORD);
    uint32_t skipped = 0;
    for (uint32_t i = 0; i < x->nnodes; i++) {
        struct hc_op op = hc_op_of(t, c->h.seq, c->h.ts_ns, c->stream, c->api, c->device);
        if (!x->nodes[i].disabled)
            skipped += carry_out(plan_node(&x->nodes[i], &op), &op, c, hold);
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        struct hc_op op = hc_op_of(t, c->h.seq, c->h.ts_ns, c->stream, c->api, c->device);
        if (!x->nodes[x->args[i].ix].disabled)
            skipped += carry_out(plan_arg(&x->args[i], &op), &op, c, hold);
    }
    /* An exec recorded only in part counts at least its replay. */
    count_skipped(x->incomplete && !skipped ? 1 : skipped);
}

void hv_hc_graph_launch(struct hv_thread_ctx *t, const struct hv_call *c)
{
    if (c->result != 0 || (c->flags & HV_CALL_CAPTURING) || hv_api_kind(c->api) != HV_K_GRAPH_LAUNCH)
        return;
    pthread_mutex_lock(&lock);
    const struct rexec *x = exec_of(c->a.graph.exec, 0);
    if (x)
        replay(t, c, x);
    else
        count_skipped(1);   /* its nodes are not known: the replay counts as one */
    pthread_mutex_unlock(&lock);
}
