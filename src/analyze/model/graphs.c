/*
 * graphs: per graph exec inventory (nodes, edges, pointer arguments) and the
 * byte ranges each replay is assumed to touch.
 *
 * The tracer walks the graph at instantiate and emits, under the
 * instantiate's seq, one HV_REC_GRAPH_NODE per node (child graphs included),
 * HV_REC_KARGS per kernel node and HV_REC_GRAPH_EDGES. The engine feeds them
 * here; hv_exec_finalize() then turns arguments into sorted ranges against
 * the allocation map *as it is at instantiate*, remembering which allocation
 * generation each argument pointed into (stale-capture-pointer's evidence).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"
#include "common/grow.h"

uint32_t hv_exec_find(const struct hv_model *m, uint64_t handle)
{
    uint32_t i = hv_u64map_get(&m->exec_ix, handle);
    return i == HV_U64MAP_NONE ? HV_NO_INDEX : i;
}

static void exec_reset(struct hv_exec *x)
{
    hv_u64map_free(&x->node_ix);
    hv_u64map_init(&x->node_ix);
    x->nnodes = x->nargs = x->nedges = x->nranges = x->nstale = 0;
    x->has_inventory = 0;
    x->dirty = 1;
    x->replays = 0;
    memset(&x->last, 0, sizeof x->last);
}

uint32_t hv_exec_begin(struct hv_model *m, uint64_t handle, uint64_t graph, uint64_t seq, uint16_t api)
{
    uint32_t i = hv_exec_find(m, handle);
    if (i == HV_NO_INDEX) {
        if (m->exec_free != HV_NO_INDEX) {
            i = m->exec_free;
            m->exec_free = (uint32_t)m->execs[i].inst_seq;
        } else {
            if (!HV_GROW(m->execs, m->nexecs, m->capexecs, 8)) {
                m->oom = 1;
                return HV_NO_INDEX;
            }
            i = m->nexecs++;
            memset(&m->execs[i], 0, sizeof m->execs[i]);
        }
        if (hv_u64map_put(&m->exec_ix, handle, i) != 0) {
            m->oom = 1;
            return HV_NO_INDEX;
        }
        if (m->sum)
            m->sum->execs++;
    }
    struct hv_exec *x = &m->execs[i];
    exec_reset(x);
    /* Its last replay is forgotten (reads as complete): a pending entry
     * must be looked at by the next prune. */
    if (x->pending)
        m->pending_dirty = 1;
    x->live = 1;
    x->handle = handle;
    x->graph = graph;
    x->inst_seq = seq;
    x->inst_api = api;
    return i;
}

void hv_exec_add_node(struct hv_model *m, uint32_t xi, const struct hv_graph_node *n)
{
    struct hv_exec *x = &m->execs[xi];
    /* A node already known by handle is being updated (SetParams; graph 0:
     * an exec-node setter, which names the node only: it keeps its place).
     * Found through a map keyed by handle: a graph of 1M nodes must not
     * cost 1M^2/2 compares. A hit is confirmed; a mismatch (a handle in two
     * graphs) falls back to the scan. */
    uint64_t key = hv_mix64(n->node);
    uint32_t k = hv_u64map_get(&x->node_ix, key);
    if (k != HV_U64MAP_NONE &&
        (k >= x->nnodes || x->nodes[k].handle != n->node || (x->nodes[k].graph != n->graph && n->graph)))
        for (k = 0; k < x->nnodes; k++)
            if (x->nodes[k].handle == n->node && (x->nodes[k].graph == n->graph || !n->graph))
                break;
    int existing = k != HV_U64MAP_NONE && k != x->nnodes;
    struct hv_gnode keep = existing ? x->nodes[k] : (struct hv_gnode){0};
    if (!existing) {
        if (!HV_GROW(x->nodes, x->nnodes, x->capnodes, 16)) {
            m->oom = 1;
            return;
        }
        k = x->nnodes++;
        if (hv_u64map_get(&x->node_ix, key) == HV_U64MAP_NONE && hv_u64map_put(&x->node_ix, key, k) != 0)
            m->oom = 1;
    }
    struct hv_gnode *g = &x->nodes[k];
    memset(g, 0, sizeof *g);
    g->has_args = keep.has_args;
    g->disabled = keep.disabled;
    g->handle = n->node;
    g->graph = n->graph ? n->graph : keep.graph;
    g->parent = n->graph ? n->parent_node : keep.parent;
    g->index = n->graph ? n->index : keep.index;
    g->type = n->type;
    switch (n->type) {
    case HV_NODE_KERNEL:
        g->func = n->u.kernel.func;
        g->name_id = n->u.kernel.name_id;
        g->kernarg_bytes = n->u.kernel.kernarg_bytes;
        break;
    case HV_NODE_MEMCPY:
        g->dst = n->u.memcpy.dst;
        g->src = n->u.memcpy.src;
        g->bytes = n->u.memcpy.bytes;
        g->dir = n->u.memcpy.dir;
        g->kind = (uint8_t)n->u.memcpy.kind;
        break;
    case HV_NODE_MEMSET:
        g->dst = n->u.memset.dst;
        g->bytes = n->u.memset.bytes;
        break;
    case HV_NODE_EVENT_WAIT:
    case HV_NODE_EVENT_RECORD:
        g->event = n->u.event.event;
        break;
    default:
        break;
    }
    x->has_inventory = 1;
    x->no_inventory = 0;
    x->dirty = 1;
}

static uint32_t node_by_handle(const struct hv_exec *x, uint64_t handle)
{
    /* KARGS follow their node, so search from the end. */
    for (uint32_t k = x->nnodes; k-- > 0;)
        if (x->nodes[k].handle == handle)
            return k;
    return HV_NO_INDEX;
}

void hv_exec_set_enabled(struct hv_model *m, uint32_t xi, uint64_t node_handle, int enabled)
{
    struct hv_exec *x = &m->execs[xi];
    /* A loop may toggle a node every step: the handle map first. */
    uint32_t k = hv_u64map_get(&x->node_ix, hv_mix64(node_handle));
    if (k == HV_U64MAP_NONE || k >= x->nnodes || x->nodes[k].handle != node_handle)
        k = node_by_handle(x, node_handle);
    if (k == HV_NO_INDEX) {
        if (m->sum)
            m->sum->orphan_records++;
        return;
    }
    struct hv_gnode *g = &x->nodes[k];
    if (enabled)
        g->disabled = 0;
    else if (!g->disabled)
        g->disabled = (uint8_t)(g->type ? g->type : HV_NODE_OTHER);
    x->dirty = 1;
}

void hv_exec_add_kargs(struct hv_model *m, uint32_t xi, uint64_t node_handle, const struct hv_karg *a, uint32_t n)
{
    struct hv_exec *x = &m->execs[xi];
    uint32_t node = node_by_handle(x, node_handle);
    if (node == HV_NO_INDEX) {
        if (m->sum)
            m->sum->orphan_records++;
        return;
    }
    /* Replace what the node had (an update re-sends its arguments). Only a
     * node that has arguments already pays for the pass over all of them:
     * at instantiate each node's arguments come once, and a 1M-node graph
     * must stay linear. */
    if (x->nodes[node].has_args) {
        uint32_t w = 0;
        for (uint32_t r = 0; r < x->nargs; r++)
            if (x->args_node[r] != node) {
                x->args[w] = x->args[r];
                x->args_node[w++] = x->args_node[r];
            }
        x->nargs = w;
    }
    x->nodes[node].has_args = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (!HV_GROW2(x->args, x->args_node, x->nargs, x->capargs, 16)) {
            m->oom = 1;
            return;
        }
        x->args[x->nargs] = a[i];
        x->args_node[x->nargs++] = node;
    }
    x->dirty = 1;
}

void hv_exec_add_edges(struct hv_model *m, uint32_t xi, uint64_t graph, const uint32_t *pairs, uint32_t n)
{
    struct hv_exec *x = &m->execs[xi];
    for (uint32_t i = 0; i < n; i++) {
        if (!HV_GROW(x->edges, x->nedges, x->capedges, 16)) {
            m->oom = 1;
            return;
        }
        x->edges[x->nedges].graph = graph;
        x->edges[x->nedges].from = pairs[2 * i];
        x->edges[x->nedges].to = pairs[2 * i + 1];
        x->nedges++;
    }
}

void hv_pointer_range(const struct hv_model *m, uint64_t value, const struct hv_karg *peers, uint32_t npeers,
                      uint64_t *lo, uint64_t *hi, struct hv_imap_seg *alloc)
{
    *lo = value;
    uint64_t end;
    if (hv_alloc_find(m, value, alloc)) {
        end = alloc->hi;
    } else {
        alloc->lo = alloc->hi = 0;
        alloc->val = NULL;
        for (uint32_t i = 0; i < npeers; i++)
            if (peers[i].value == value && peers[i].alloc_bytes && peers[i].alloc_base <= value &&
                value < peers[i].alloc_base + peers[i].alloc_bytes) {
                alloc->lo = peers[i].alloc_base;
                alloc->hi = peers[i].alloc_base + peers[i].alloc_bytes;
            }
        /* Unknown memory: only the pointed-to byte is known to be touched. */
        end = alloc->hi > value ? alloc->hi : value + 1;
    }
    for (uint32_t i = 0; i < npeers; i++)
        if (peers[i].value > value && peers[i].value < end)
            end = peers[i].value;
    *hi = end;
}

static int range_add(struct hv_model *m, struct hv_exec *x, uint64_t lo, uint64_t hi, uint64_t value,
                     const struct hv_imap_seg *alloc, uint32_t node, int16_t arg, uint8_t access, uint8_t origin,
                     uint32_t arg_offset)
{
    if (lo >= hi)
        return 0;
    if (!HV_GROW2(x->ranges, x->maxhi, x->nranges, x->capranges, 16))
        return -1;
    const struct hv_alloc *a = alloc->val;
    x->ranges[x->nranges++] = (struct hv_arange){
        .lo = lo, .hi = hi, .value = value,
        .alloc_base = alloc->lo, .alloc_bytes = alloc->hi - alloc->lo,
        .alloc_gen = a ? a->gen : 0, .alloc_seq = a ? a->seq : 0, .alloc_mem = a ? a->mem : 0,
        .node = node, .arg_index = arg, .access = access, .origin = origin, .arg_offset = arg_offset,
    };
    (void)m;
    return 0;
}

static int range_cmp(const void *pa, const void *pb)
{
    const struct hv_arange *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    return a->arg_index < b->arg_index ? -1 : a->arg_index > b->arg_index;
}

/* Ranges of a memcpy/memset node's operands: exact extents. */
static int node_ranges(struct hv_model *m, struct hv_exec *x, uint32_t k)
{
    const struct hv_gnode *g = &x->nodes[k];
    struct hv_imap_seg a;
    if ((g->type != HV_NODE_MEMCPY && g->type != HV_NODE_MEMSET) || g->bytes == 0)
        return 0;
    if (!hv_alloc_find(m, g->dst, &a))
        a.lo = a.hi = 0, a.val = NULL;
    if (range_add(m, x, g->dst, g->dst + g->bytes, g->dst, &a, k, HV_ARG_DST, HV_ACCESS_WRITE, HV_ARG_METADATA, 0))
        return -1;
    if (g->type == HV_NODE_MEMCPY) {
        if (!hv_alloc_find(m, g->src, &a))
            a.lo = a.hi = 0, a.val = NULL;
        if (range_add(m, x, g->src, g->src + g->bytes, g->src, &a, k, HV_ARG_SRC, HV_ACCESS_READ,
                      HV_ARG_METADATA, 0))
            return -1;
    }
    return 0;
}

void hv_exec_finalize(struct hv_model *m, uint32_t xi)
{
    struct hv_exec *x = &m->execs[xi];
    if (!x->dirty)
        return;
    x->dirty = 0;
    x->site = hv_mix64(x->handle ^ hv_mix64(++m->exec_sites));
    x->nranges = 0;
    x->nstale = 0;
    /* Kernel args: grouped by node so each is bounded by its node's peers. */
    for (uint32_t i = 0; i < x->nargs;) {
        uint32_t j = i;
        while (j < x->nargs && x->args_node[j] == x->args_node[i])
            j++;
        if (x->args_node[i] < x->nnodes && x->nodes[x->args_node[i]].type != HV_NODE_KERNEL) {
            i = j;  /* a kernel node since disabled or replaced (exec-node setters) */
            continue;
        }
        for (uint32_t k = i; k < j; k++) {
            uint64_t lo, hi;
            struct hv_imap_seg a;
            hv_pointer_range(m, x->args[k].value, &x->args[i], j - i, &lo, &hi, &a);
            if (range_add(m, x, lo, hi, x->args[k].value, &a, x->args_node[k], (int16_t)x->args[k].index,
                          x->args[k].access, x->args[k].origin, x->args[k].offset)) {
                m->oom = 1;
                return;
            }
        }
        i = j;
    }
    for (uint32_t k = 0; k < x->nnodes; k++)
        if (node_ranges(m, x, k)) {
            m->oom = 1;
            return;
        }
    if (x->nranges)  /* an exec without pointer arguments has no array at all (qsort wants one) */
        qsort(x->ranges, x->nranges, sizeof *x->ranges, range_cmp);
    uint64_t mx = 0;
    for (uint32_t i = 0; i < x->nranges; i++) {
        if (x->ranges[i].hi > mx)
            mx = x->ranges[i].hi;
        x->maxhi[i] = mx;
    }
}

uint32_t hv_exec_first_overlap(const struct hv_exec *x, uint64_t lo)
{
    /* maxhi is non-decreasing: the first i with maxhi[i] > lo is the first
     * range that can reach past lo. */
    uint32_t a = 0, b = x->nranges;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (x->maxhi[mid] > lo)
            b = mid;
        else
            a = mid + 1;
    }
    return a;
}

void hv_exec_destroy(struct hv_model *m, uint32_t xi)
{
    struct hv_exec *x = &m->execs[xi];
    hv_u64map_del(&m->exec_ix, x->handle);
    for (uint32_t i = 0; i < m->npending; i++)
        if (m->pending[i] == xi) {
            m->pending[i] = m->pending[--m->npending];
            break;
        }
    exec_reset(x);
    x->live = 0;
    x->pending = 0;
    x->inst_seq = m->exec_free;
    m->exec_free = xi;
}

/* Every range of y lies inside a range of x with the same access and
 * origin: whatever overlaps y overlaps x the same way. */
static int covers(const struct hv_exec *x, const struct hv_exec *y)
{
    for (uint32_t j = 0; j < y->nranges; j++) {
        const struct hv_arange *b = &y->ranges[j];
        int found = 0;
        for (uint32_t i = hv_exec_first_overlap(x, b->lo); i < x->nranges && x->ranges[i].lo <= b->lo; i++) {
            const struct hv_arange *a = &x->ranges[i];
            if (a->hi >= b->hi && a->access == b->access && a->origin == b->origin) {
                found = 1;
                break;
            }
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* x was just replayed on r's stream. A pending y whose last replay ran
 * earlier on that same stream is ordered before x's (program order), so
 * any later op that is not ordered after y is not ordered after x either
 * (ordering is monotone along a stream: hv_ordered). When x also covers y's
 * ranges, every race y could still take part in is reported against x, the
 * newest replay on the stream: y leaves the pending list. Without this,
 * n execs replayed without a sync stay pending together and every replay
 * and write is checked against all of them (a job with 100k execs would check each against every one). */
static void subsume_pending(struct hv_model *m, uint32_t xi, const struct hv_replay *r)
{
    const struct hv_exec *x = &m->execs[xi];
    for (uint32_t i = 0; i < m->npending;) {
        struct hv_exec *y = &m->execs[m->pending[i]];
        if (m->pending[i] != xi && y->last.stream == r->stream && y->last.stream_id == r->stream_id &&
            y->last.seq < r->seq && covers(x, y)) {
            y->pending = 0;
            m->pending[i] = m->pending[--m->npending];
        } else {
            i++;
        }
    }
}

void hv_exec_replayed_slow(struct hv_model *m, uint32_t xi, const struct hv_replay *r)
{
    struct hv_exec *x = &m->execs[xi];
    x->last = *r;
    x->replays++;
    /* A replay the host already saw complete (a trace whose seqs disagree)
     * is pending only until the next prune, which must then look. */
    if (hv_complete(m, r->stream, r->stream_id, r->seq))
        m->pending_dirty = 1;
    subsume_pending(m, xi, r);
    if (x->pending)
        return;
    if (!HV_GROW(m->pending, m->npending, m->cappending, 8)) {
        m->oom = 1;
        return;
    }
    m->pending[m->npending++] = xi;
    x->pending = 1;
}

