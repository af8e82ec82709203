/*
 * model — the analyzer's picture of one traced process, rebuilt record by
 * record: streams with program order, host-observed completion and
 * happens-before clocks; events; the allocation map; the last writer of every
 * byte; and every graph exec's inventory with its last replay.
 *
 * Everything here is live state. It grows with the number of streams,
 * buffers and graphs the process has, never with trace length: completed
 * writes are pruned as they are met, destroyed handles recycle their slots.
 *
 * The rules (rules/) read this model; the engine (engine.c) is the only one
 * that changes it.
 */
#ifndef HV_ANALYZE_MODEL_MODEL_H
#define HV_ANALYZE_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/findings.h"
#include "analyze/model/imap.h"
#include "common/u64map.h"
#include "analyze/model/vclock.h"
#include "hipvis/trace.h"

#define HV_NO_INDEX UINT32_MAX

/* ------------------------------------------------------------------ streams */

struct hv_stream {
    uint64_t id;             /* canonical stream id (trace.h) */
    uint64_t last_seq;       /* last op enqueued */
    /* Every op of this stream with seq <= completed_seq is known complete to
     * the host (stream/device/event sync, successful query). */
    uint64_t completed_seq;
    uint64_t epoch;          /* newest epoch seen for the stream */
    uint64_t ops;
    struct hv_vclock vc;     /* ordering learnt from event waits and legacy barriers */
    /* The model's barrier generation (legacy streams: barrier_gen, others:
     * legacy_gen) when this stream's implicit legacy barrier was last
     * applied; equal means applying it again would raise nothing. */
    uint64_t barrier_seen;
    int32_t  device;
    uint8_t  live;
    uint8_t  nonblocking;    /* created with the non-blocking flag: no legacy barrier */
    uint8_t  legacy;         /* the legacy default stream of its device */
    uint8_t  pad;
};

struct hv_event {
    uint64_t handle;
    uint64_t seq;            /* seq of the last record, 0 never recorded */
    /* The recording stream's clock at the record, shared with the stream
     * (the record's own entry (stream, seq) is implied, not stored: a
     * record then costs a reference, not a clock update). */
    struct hv_vclock vc;
    uint32_t stream;         /* stream index of the last record */
    uint8_t  live;
};

/* ------------------------------------------------------------- allocations */

struct hv_alloc {
    uint64_t seq;            /* allocation call */
    uint64_t gen;            /* unique per allocation: tells a re-allocation at the same address apart */
    uint16_t api;
    uint8_t  mem;            /* enum hv_mem */
};

/* --------------------------------------------------------------- writers */

enum hv_writer_kind { HV_WRITER_COPY = 1, HV_WRITER_MEMSET, HV_WRITER_KERNEL };

/* The last writer of a byte range (value of the writer imap). */
struct hv_writer {
    uint64_t seq, epoch, ts_ns;
    uint64_t dst, src, bytes;    /* the whole write (a segment may be part of it) */
    uint64_t name_func;          /* kernel writers: function handle */
    uint64_t stream_id;          /* canonical id (the index may be recycled) */
    uint32_t stream;             /* stream index */
    uint32_t name_id;            /* kernel writers */
    uint16_t api;
    uint8_t  kind;               /* enum hv_writer_kind */
    uint8_t  dir, src_mem, dst_mem, copy_flags;
    int16_t  arg_index;          /* kernel writers */
    uint8_t  hint;               /* enum hv_hint */
    uint64_t site;               /* hash of what makes two writes "the same writer site" */
    /* A strided (2D/3D) write kept as one segment over its bounding box
     * (more rows than HV_EXACT_ROWS): it touches only `width` bytes of every
     * `pitch` from `dst`; hv_writer_rows() narrows a range to them. 0: the
     * segment is written in full. */
    uint64_t pitch, width;
};

/* 2D/3D writes of at most this many separated rows are recorded row by row
 * (exact, one writer segment per row); taller ones as one segment whose
 * rows are checked at each overlap, so a tall copy costs one segment. */
#define HV_EXACT_ROWS 1024u

/* Narrows [*lo, *hi) (inside w's segment) to the bytes w's rows touch:
 * from the first row byte at or above *lo to the end of the last row byte
 * below *hi. Returns 0 when no row touches the range. */
static inline int hv_writer_rows(const struct hv_writer *w, uint64_t *lo, uint64_t *hi)
{
    if (!w->pitch || w->width >= w->pitch || *lo >= *hi)
        return *lo < *hi;
    uint64_t off = *lo - w->dst, row = off / w->pitch, in = off % w->pitch;
    uint64_t first = in < w->width ? *lo : w->dst + (row + 1) * w->pitch;
    uint64_t eoff = *hi - 1 - w->dst, erow = eoff / w->pitch, ein = eoff % w->pitch;
    uint64_t last = ein < w->width ? *hi : w->dst + erow * w->pitch + w->width;
    if (first >= last)
        return 0;
    *lo = first;
    *hi = last;
    return 1;
}

/* ------------------------------------------------------------ graph execs */

struct hv_gnode {
    uint64_t handle, graph, parent;
    uint64_t func;               /* kernel */
    uint64_t dst, src, bytes;    /* memcpy / memset */
    uint64_t event;              /* event record / wait */
    uint32_t index;              /* position in its graph's node list */
    uint32_t name_id;
    uint32_t kernarg_bytes;      /* kernel: its argument block as the tracer knew it, 0 no layout */
    uint16_t type;               /* enum hv_node_type */
    uint8_t  dir;                /* memcpy: as recorded (the graph walk leaves it unknown) */
    uint8_t  kind;               /* memcpy: the runtime's memcpy kind as passed (0..4, 4 = default) */
    uint8_t  has_args;           /* exec->args holds arguments of this node */
    /* Disabled in this exec (hipGraphNodeSetEnabled(..., 0)): the
     * hv_node_type it had (its record then says empty), 0 enabled. */
    uint8_t  disabled;
};

/* A pointer argument of a kernel node (or a memcpy/memset node's dst/src)
 * turned into the byte range it is assumed to touch. */
struct hv_arange {
    uint64_t lo, hi;
    uint64_t value;              /* the pointer */
    uint64_t alloc_base, alloc_bytes, alloc_gen, alloc_seq;
    uint64_t stale_seq;          /* the free that made it stale, 0 fresh */
    uint32_t node;               /* index into exec->nodes */
    int16_t  arg_index;          /* argument index or HV_ARG_DST/SRC */
    uint16_t stale_api;
    uint8_t  access, origin, alloc_mem, pad;
    uint32_t arg_offset;         /* hv_karg.offset of a kernel argument, 0 for memcpy/memset operands */
};

struct hv_replay {
    uint64_t seq, epoch, ts_ns;
    uint64_t stream_id;          /* canonical id (the index may be recycled) */
    uint32_t stream;             /* stream index */
    uint16_t api;
};

struct hv_gedge {
    uint64_t graph;
    uint32_t from, to;           /* node indexes in `graph` */
};

struct hv_exec {
    uint64_t handle, graph;
    uint64_t inst_seq;
    uint16_t inst_api;
    uint8_t  live;
    uint8_t  has_inventory;      /* nodes were recorded at instantiate */
    uint8_t  dirty;              /* ranges must be rebuilt */
    uint8_t  pending;            /* last replay not known complete (on m->pending) */
    uint8_t  no_inventory;       /* instantiated without its nodes recorded: replays are not checked */
    struct hv_gnode *nodes;
    uint32_t nnodes, capnodes;
    struct hv_u64map node_ix;    /* hv_exec_node_key(handle, graph) -> nodes[] index */
    struct hv_karg *args;        /* kernel pointer args, node index in .index's upper use: see args_node */
    uint32_t *args_node;         /* node index per arg */
    uint32_t nargs, capargs;
    struct hv_gedge *edges;
    uint32_t nedges, capedges;
    struct hv_arange *ranges;    /* sorted by lo */
    uint64_t *maxhi;             /* prefix maximum of ranges[i].hi, for overlap search */
    uint32_t nranges, capranges;
    uint32_t nstale;             /* ranges with stale_seq != 0 */
    struct hv_replay last;
    uint64_t replays;
    uint64_t site;               /* changes whenever the ranges are rebuilt */
    /* The engine's replay site (site x stream x api) for the last replay,
     * and what it was made of: a loop replays each exec on one stream. */
    uint64_t rsite, rsite_of, rsite_stream_id;
    uint16_t rsite_api;
    /* Coverage (analyze/coverage.h): kernel nodes of unknown layout and
     * inferred arguments, as of site `cov_site` and layout_gen `cov_gen`. */
    uint32_t cov_unknown, cov_inferred;
    uint64_t cov_site, cov_gen;
};

/* ------------------------------------------------------------------ model */

/* Callbacks the model owner provides. */
struct hv_model_hooks {
    /* String-table lookup (hv_reader_string for files); may be NULL. */
    const char *(*string)(void *ctx, uint32_t id);
    void *string_ctx;
};

struct hv_model {
    uint64_t pid;
    struct hv_findings *out;
    struct hv_trace_summary *sum;
    struct hv_model_hooks hooks;

    struct hv_stream *streams;
    uint32_t nstreams, capstreams, stream_free;  /* free list through .last_seq */
    struct hv_u64map stream_ix;
    /* The last stream hv_stream_get answered: most calls of a serving loop
     * name the stream of the call before (HV_NO_INDEX: none). */
    uint64_t hot_stream_id;
    uint32_t hot_stream;
    /* Bumped when what the legacy barriers read changes: barrier_gen when a
     * non-legacy stream's last_seq, any stream's existence or flags change
     * (what a legacy stream waits for); legacy_gen when a legacy stream's
     * last_seq or existence changes (what the other streams wait for). */
    uint64_t barrier_gen, legacy_gen;

    struct hv_event *events;
    uint32_t nevents, capevents, event_free;
    struct hv_u64map event_ix;
    uint64_t hot_event_handle;       /* the last event looked up (a loop records one event per step) */
    uint32_t hot_event;              /* its index, HV_NO_INDEX none */

    struct hv_exec *execs;
    uint32_t nexecs, capexecs, exec_free;
    struct hv_u64map exec_ix;

    struct hv_u64map kernel_names;   /* func -> name_id (HV_REC_KERNEL) */
    struct hv_u64map kernel_layouts; /* func -> 1: HV_REC_KERNEL gave it a layout (analyze/coverage.h) */
    uint64_t layout_gen;             /* bumped when a function gets a layout */

    struct hv_imap allocs;           /* value struct hv_alloc */
    struct hv_imap writers;          /* value struct hv_writer */
    uint64_t alloc_gen;

    uint32_t *pending;               /* exec indexes whose last replay may still run */
    uint32_t npending, cappending;
    /* Bumped whenever what hv_complete answers may change (a completed_seq
     * rises, a stream slot is made or dropped). hv_pending_prune remembers
     * the value it last pruned at: while it is unchanged and no entry that
     * was already complete joined the list (pending_dirty), every entry is
     * still incomplete and a prune would remove nothing. A loop's writes
     * and replays then prune once per host sync, not once per record. */
    uint64_t complete_gen, pending_gen;
    int      pending_dirty;

    /* Engine-hint configuration from the trace header. */
    uint64_t blit_max_bytes;
    uint8_t  sdma_disabled;
    uint8_t  cuda;                   /* a CUDA runtime: AMD engine hints do not apply */
    int      oom;
    uint64_t exec_sites;             /* counter behind hv_exec.site */
    size_t   last_group;             /* group index of the last finding emitted (SIZE_MAX none) */
    /* State a rule keeps across records, by rule id (rules_disabled is a
     * 32-bit mask, so 32 rules at most); freed through hv_rule.free_state. */
    void    *rule_state[32];
};

int  hv_model_init(struct hv_model *m, uint64_t pid, struct hv_findings *out,
                   struct hv_trace_summary *sum, const struct hv_model_hooks *hooks);
void hv_model_free(struct hv_model *m);
/* Kernel name for a name id / function handle, NULL unknown. */
const char *hv_model_name(const struct hv_model *m, uint32_t name_id, uint64_t func);
/* Did the tracer launch kernel `func` without its argument layout? A launch
 * or node record's kernarg_bytes is the layout's when known (pass 0 for an
 * `extra` block, whose size is known either way); a kernel whose layout
 * says 0 bytes is told apart by its HV_REC_KERNEL (kernel_layouts). */
int hv_model_no_layout(const struct hv_model *m, uint64_t func, uint32_t kernarg_bytes);

/* streams.c ----------------------------------------------------------------*/
/* Index of a stream, creating its entry on first sight. */
uint32_t hv_stream_lookup(struct hv_model *m, uint64_t id, int32_t device);
static inline uint32_t hv_stream_get(struct hv_model *m, uint64_t id, int32_t device)
{
    if (m->hot_stream != HV_NO_INDEX && m->hot_stream_id == id)
        return m->hot_stream;
    return hv_stream_lookup(m, id, device);
}
uint32_t hv_stream_find(const struct hv_model *m, uint64_t id);
void hv_stream_created(struct hv_model *m, uint64_t id, int32_t device, uint32_t flags);
void hv_stream_destroyed(struct hv_model *m, uint64_t id);
/* Before an op is enqueued on stream s: apply the legacy default stream's
 * implicit barriers to s's clock. Clocks only grow and a barrier raises
 * them to its peers' last_seq, so while nothing it reads has changed since
 * it was last applied to s (the generation it saw), applying it again
 * changes nothing: a loop on one stream passes here on every call. */
void hv_stream_barrier(struct hv_model *m, uint32_t s, uint64_t gen);
static inline void hv_stream_before_op(struct hv_model *m, uint32_t si)
{
    const struct hv_stream *s = &m->streams[si];
    uint64_t gen = s->legacy ? m->barrier_gen : m->legacy_gen;
    if (!s->nonblocking && s->barrier_seen != gen)
        hv_stream_barrier(m, si, gen);
}
static inline void hv_stream_after_op(struct hv_model *m, uint32_t si, uint64_t seq, uint64_t epoch)
{
    struct hv_stream *s = &m->streams[si];
    if (seq > s->last_seq) {
        s->last_seq = seq;
        if (s->legacy)
            m->legacy_gen++;
        else
            m->barrier_gen++;
    }
    if (epoch != HV_EPOCH_UNKNOWN && epoch > s->epoch)
        s->epoch = epoch;
    s->ops++;
}
/* The host observed every op of s with seq <= upto complete; `via` is the
 * clock that ordered that work (the stream's own clock for a stream sync,
 * the event's for an event sync): work it names is complete too. */
void hv_stream_observed_via(struct hv_model *m, const struct hv_vclock *via);
static inline void hv_stream_observed(struct hv_model *m, uint32_t si, uint64_t upto, const struct hv_vclock *via)
{
    if (upto > m->streams[si].completed_seq) {
        m->streams[si].completed_seq = upto;
        m->complete_gen++;
    }
    /* Work the completed ops waited for is complete as well. Clocks are
     * joined transitively at each wait, so one level suffices. */
    if (via && via->root)
        hv_stream_observed_via(m, via);
}
/* Device synchronize: every stream of device (all when device < 0). */
void hv_device_observed(struct hv_model *m, int32_t device, uint64_t upto);
/* A legacy-stream (NULL handle) synchronize on `device`: the legacy stream
 * and every blocking stream of the device, up to `upto`. */
void hv_legacy_observed(struct hv_model *m, int32_t device, uint64_t upto);

/* Does stream index s still denote stream `id`? A destroyed stream's slot is
 * recycled; its outstanding work is then taken as finished. */
static inline int hv_stream_same(const struct hv_model *m, uint32_t s, uint64_t id)
{
    return s < m->nstreams && m->streams[s].live && m->streams[s].id == id;
}
/* Has the host observed op (s, seq) of stream `id` complete? */
static inline int hv_complete(const struct hv_model *m, uint32_t s, uint64_t id, uint64_t seq)
{
    return !hv_stream_same(m, s, id) || seq <= m->streams[s].completed_seq;
}
/* Happens-before: is op (from, seq) of stream `id` ordered before the next
 * op on stream `to`? Same stream (program order), host-observed completion,
 * or an event chain recorded in to's clock. */
static inline int hv_ordered(const struct hv_model *m, uint32_t from, uint64_t id, uint64_t seq, uint32_t to)
{
    if (hv_complete(m, from, id, seq))
        return 1;
    if (from == to)
        return 1;
    return seq <= hv_vc_get(&m->streams[to].vc, from);
}

/* Event index i was recorded on stream s. The record's own entry (s, seq)
 * is applied where the clock is used. A loop records the same event on a
 * stream whose clock did not change since the last record: then the event
 * holds that clock already. */
static inline void hv_event_recorded_at(struct hv_model *m, uint32_t i, uint32_t s, uint64_t seq)
{
    struct hv_event *e = &m->events[i];
    e->seq = seq;
    e->stream = s;
    if (e->vc.root != m->streams[s].vc.root)
        hv_vc_copy(&e->vc, &m->streams[s].vc);
}
void hv_event_recorded_slow(struct hv_model *m, uint64_t handle, uint32_t s, uint64_t seq);
/* An event record on stream s: inline for the last event looked up (a loop
 * records one event per step). */
static inline void hv_event_recorded(struct hv_model *m, uint64_t handle, uint32_t s, uint64_t seq)
{
    if (m->hot_event != HV_NO_INDEX && m->hot_event_handle == handle)
        hv_event_recorded_at(m, m->hot_event, s, seq);
    else
        hv_event_recorded_slow(m, handle, s, seq);
}
/* Stream s waits for the event; record_* come from the wait record and are
 * used when the event's own record was not seen. */
void hv_event_waited(struct hv_model *m, uint64_t handle, uint32_t s, uint64_t record_stream,
                     uint64_t record_seq);
/* Host observed the event complete. */
void hv_event_observed(struct hv_model *m, uint64_t handle, uint64_t record_stream, uint64_t record_seq);
void hv_event_destroyed(struct hv_model *m, uint64_t handle);

/* allocs.c -----------------------------------------------------------------*/
void hv_alloc_add(struct hv_model *m, uint64_t ptr, uint64_t bytes, uint8_t mem, uint64_t seq, uint16_t api);
/* A release: drops the allocation at ptr, its writer history, and marks
 * every graph argument that pointed into it stale. */
void hv_alloc_release(struct hv_model *m, uint64_t ptr, uint64_t seq, uint16_t api);
/* Allocation containing addr: 1 and its range/value, or 0. */
int hv_alloc_find(const struct hv_model *m, uint64_t addr, struct hv_imap_seg *seg);

/* writers.c ----------------------------------------------------------------*/
void hv_writer_set(struct hv_model *m, uint64_t lo, uint64_t hi, const struct hv_writer *w);
/* hv_writer_set in two steps, for a writer built in place: the value of
 * [lo, hi) (lo < hi), for the caller to fill in full (every field), or NULL
 * out of memory; then hv_writer_done gives it its site: `site` when the
 * caller knows it (hv_writer_same_site on the old value), else 0. */
static inline struct hv_writer *hv_writer_slot(struct hv_model *m, uint64_t lo, uint64_t hi)
{
    struct hv_writer *v = hv_imap_assign(&m->writers, lo, hi);
    if (!v)
        m->oom = 1;
    return v;
}
uint64_t hv_writer_site(const struct hv_writer *w);
static inline void hv_writer_done(struct hv_model *m, struct hv_writer *v, uint64_t site)
{
    v->site = site ? site : hv_writer_site(v);
    if (m->sum && hv_imap_count(&m->writers) > m->sum->peak_writer_segments)
        m->sum->peak_writer_segments = hv_imap_count(&m->writers);
}
/* Has a new writer with these fields the site of `old`, a value of the
 * writer map (whose site is set, or 0 in a slot never written)? A loop
 * rewrites each buffer from one site, so the hash is rarely needed. */
static inline int hv_writer_same_site(const struct hv_writer *old, uint64_t stream_id, uint16_t api, uint8_t kind,
                                      int16_t arg_index, uint64_t src, uint64_t dst)
{
    return old->site && old->dst == dst && old->src == src && old->stream_id == stream_id && old->api == api &&
           old->kind == kind && old->arg_index == arg_index;
}

/* graphs.c -----------------------------------------------------------------*/
uint32_t hv_exec_find(const struct hv_model *m, uint64_t handle);
/* Starts a fresh inventory for handle (instantiate, or a full update). */
uint32_t hv_exec_begin(struct hv_model *m, uint64_t handle, uint64_t graph, uint64_t seq, uint16_t api);
void hv_exec_add_node(struct hv_model *m, uint32_t x, const struct hv_graph_node *n);
/* hipGraphNodeSetEnabled on node `node_handle` of exec x: a disabled node
 * keeps the type it had in hv_gnode.disabled (its record then says empty). */
void hv_exec_set_enabled(struct hv_model *m, uint32_t x, uint64_t node_handle, int enabled);
/* Kernel pointer args of node `node_handle` (replacing any it had). */
void hv_exec_add_kargs(struct hv_model *m, uint32_t x, uint64_t node_handle, const struct hv_karg *a, uint32_t n);
void hv_exec_add_edges(struct hv_model *m, uint32_t x, uint64_t graph, const uint32_t *pairs, uint32_t n);
/* Rebuilds the argument ranges against the current allocation map. */
void hv_exec_finalize(struct hv_model *m, uint32_t x);
void hv_exec_destroy(struct hv_model *m, uint32_t x);
/* First range index that may overlap [lo, hi): iterate i from it while
 * ranges[i].lo < hi, checking ranges[i].hi > lo. */
uint32_t hv_exec_first_overlap(const struct hv_exec *x, uint64_t lo);
/* Marks the exec's last replay pending (on m->pending). */
void hv_exec_replayed_slow(struct hv_model *m, uint32_t x, const struct hv_replay *r);
static inline void hv_exec_replayed(struct hv_model *m, uint32_t xi, const struct hv_replay *r)
{
    struct hv_exec *x = &m->execs[xi];
    if (m->npending || x->pending || !m->cappending) {
        hv_exec_replayed_slow(m, xi, r);
        return;
    }
    /* A loop's replay: the host saw the one before complete, so nothing
     * else is pending (hv_exec_replayed_slow with nothing to subsume). */
    x->last = *r;
    x->replays++;
    if (hv_complete(m, r->stream, r->stream_id, r->seq))
        m->pending_dirty = 1;
    m->pending[m->npending++] = xi;
    x->pending = 1;
}
/* Drops execs whose last replay is now known complete from m->pending
 * (nothing to do unless completion changed: see complete_gen). */
static inline void hv_pending_prune_all(struct hv_model *m)
{
    m->pending_gen = m->complete_gen;
    m->pending_dirty = 0;
    for (uint32_t i = 0; i < m->npending;) {
        struct hv_exec *x = &m->execs[m->pending[i]];
        if (hv_complete(m, x->last.stream, x->last.stream_id, x->last.seq)) {
            x->pending = 0;
            m->pending[i] = m->pending[--m->npending];
        } else {
            i++;
        }
    }
}
/* May an entry of m->pending be complete (a prune would remove one)? */
static inline int hv_pending_stale(const struct hv_model *m)
{
    return m->pending_dirty || m->pending_gen != m->complete_gen;
}
static inline void hv_pending_prune(struct hv_model *m)
{
    if (hv_pending_stale(m))
        hv_pending_prune_all(m);
}

/* Turns a pointer value into the assumed byte range [lo, hi) it addresses:
 * up to the end of its allocation, cut at the next higher pointer among
 * `peers` (the other pointers of the same launch) in that allocation. The
 * extent of a kernel's access is unknown; tensors in one pool segment are
 * usually passed as separate pointers, so this keeps them apart. */
void hv_pointer_range(const struct hv_model *m, uint64_t value, const struct hv_karg *peers, uint32_t npeers,
                      uint64_t *lo, uint64_t *hi, struct hv_imap_seg *alloc);

#endif
