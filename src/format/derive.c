/* The reader's derive stage: see derive.h. */
#include "format/derive.h"

#include <stdlib.h>
#include <string.h>

#include "format/call_rules.h"
#include "hipvis/api.h"
#include "common/grow.h"
#include "common/free_all.h"

/* The stream flag that makes a created stream non-blocking: hipStreamNonBlocking,
 * cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are all 1. */
#define NONBLOCKING 0x1u

void hv_derive_free(struct hv_derive *d)
{
    hv_u64map_free(&d->stream_ix);
    hv_u64map_free(&d->device_ix);
    hv_u64map_free(&d->event_ix);
    HV_FREE_ALL(d->streams, d->devices, d->events, d->allocs);
    memset(d, 0, sizeof *d);
}

/* Index of `key` in the table `arr` (n of cap entries) kept through map
 * `ix`, a new zeroed entry when it has none (*made set); HV_U64MAP_NONE
 * out of memory (d->oom set). A macro: the tables' entries differ in type,
 * and HV_GROW (common/grow.h) grows each as its own. */
#define TABLE_ENTRY(d, ix, arr, n, cap, key, made)                                           \
    __extension__({                                                                          \
        uint64_t k_ = (key);                                                                 \
        uint32_t i_ = hv_u64map_get(&(ix), k_);                                              \
        *(made) = 0;                                                                         \
        if (i_ == HV_U64MAP_NONE) {                                                          \
            if (!HV_GROW((arr), (n), (cap), 16) || hv_u64map_put(&(ix), k_, (n)) != 0) {      \
                (d)->oom = 1;                                                                \
            } else {                                                                         \
                memset(&(arr)[(n)], 0, sizeof *(arr));                                       \
                *(made) = 1;                                                                 \
                i_ = (n)++;                                                                  \
            }                                                                                \
        }                                                                                    \
        i_;                                                                                  \
    })

/* A stream's entry, made on first mention (its device unnamed until
 * stream_named: derive_streams.py EpochModel.name). NULL out of memory. */
#define UNNAMED INT32_MIN
static struct hv_derive_stream *stream_at_slow(struct hv_derive *d, uint64_t id)
{
    int made;
    uint32_t i = TABLE_ENTRY(d, d->stream_ix, d->streams, d->nstreams, d->cap_streams, id, &made);
    if (i == HV_U64MAP_NONE)
        return NULL;
    if (made)
        d->streams[i].device = UNNAMED;
    d->last_stream = id;
    d->last_stream_ix = i + 1;
    return &d->streams[i];
}
static inline struct hv_derive_stream *stream_at(struct hv_derive *d, uint64_t id)
{
    if (d->last_stream_ix && d->last_stream == id)
        return &d->streams[d->last_stream_ix - 1];
    return stream_at_slow(d, id);
}

static inline struct hv_derive_stream *stream_named(struct hv_derive *d, uint64_t id, int32_t device)
{
    struct hv_derive_stream *s = stream_at(d, id);
    if (s && s->device == UNNAMED) {
        s->device = device;
        s->device_ix = 0;   /* epoch_of looked up device 0 for it until now */
    }
    return s;
}

static inline struct hv_derive_device *device_at(struct hv_derive *d, int32_t dev)
{
    int small = dev >= 0 && dev < HV_DERIVE_DEVICES;
    if (small && d->device_slot[dev])
        return &d->devices[d->device_slot[dev] - 1];
    int made;
    uint32_t i = TABLE_ENTRY(d, d->device_ix, d->devices, d->ndevices, d->cap_devices, (uint64_t)(uint32_t)dev, &made);
    if (i == HV_U64MAP_NONE)
        return NULL;
    if (small)
        d->device_slot[dev] = i + 1;
    return &d->devices[i];
}

/* A stream's epoch: its own observations, its device's device
 * synchronizes and, unless it is non-blocking, its device's legacy-stream
 * synchronizes (derive_streams.py EpochModel.epoch). */
static inline __attribute__((always_inline)) uint64_t epoch_of(struct hv_derive *d, struct hv_derive_stream *s)
{
    if (!s)
        return HV_EPOCH_UNKNOWN;
    if (!s->device_ix) {
        struct hv_derive_device *g = device_at(d, s->device == UNNAMED ? 0 : s->device);
        if (!g)
            return HV_EPOCH_UNKNOWN;
        s->device_ix = (uint32_t)(g - d->devices) + 1;
    }
    const struct hv_derive_device *g = &d->devices[s->device_ix - 1];
    return s->own + g->gen_device + (s->nonblocking ? 0 : g->gen_legacy);
}

/* ---- allocations (derive_kinds.py AllocModel) ---- */

/* Index of the first allocation with base > addr. */
static uint32_t alloc_upper(const struct hv_derive *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->nallocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void alloc_add(struct hv_derive *d, uint64_t base, uint64_t bytes, uint8_t mem)
{
    d->alloc_memo[0] = d->alloc_memo[1] = 0;
    uint32_t i = alloc_upper(d, base);
    if (i && d->allocs[i - 1].base == base) {   /* the same base again replaces the entry */
        d->allocs[i - 1].bytes = bytes;
        d->allocs[i - 1].mem = mem;
        return;
    }
    if (!HV_GROW(d->allocs, d->nallocs, d->cap_allocs, 16)) {
        d->oom = 1;
        return;
    }
    memmove(&d->allocs[i + 1], &d->allocs[i], (size_t)(d->nallocs - i) * sizeof *d->allocs);
    d->allocs[i] = (struct hv_derive_alloc){base, bytes, mem};
    d->nallocs++;
}

static void alloc_remove(struct hv_derive *d, uint64_t base)
{
    d->alloc_memo[0] = d->alloc_memo[1] = 0;
    uint32_t i = alloc_upper(d, base);
    if (!i || d->allocs[i - 1].base != base)
        return;
    memmove(&d->allocs[i - 1], &d->allocs[i], (size_t)(d->nallocs - i) * sizeof *d->allocs);
    d->nallocs--;
}

/* The memory kind of the allocation holding addr, HV_MEM_UNKNOWN for none.
 * The last two allocations found answer first (a step copies between the
 * same two buffers); any change to the allocations forgets them. */
static inline uint8_t mem_at(struct hv_derive *d, uint64_t addr)
{
    for (int k = 0; k < 2; k++) {
        uint32_t m = d->alloc_memo[k];
        if (m && addr - d->allocs[m - 1].base < d->allocs[m - 1].bytes)
            return d->allocs[m - 1].mem;
    }
    uint32_t i = alloc_upper(d, addr);
    if (!i)
        return HV_MEM_UNKNOWN;
    const struct hv_derive_alloc *a = &d->allocs[i - 1];
    if (addr - a->base >= a->bytes)
        return HV_MEM_UNKNOWN;
    d->alloc_memo[1] = d->alloc_memo[0];
    d->alloc_memo[0] = i;
    return a->mem;
}

/* ---- argument records ---- */

struct args_api {
    uint8_t family, spt, legacy_form;
};

static struct args_api args_api(uint16_t api)
{
    switch (api) {
#define ARGS_ROW(name, family, spt, legacy_form) \
    case HV_API_##name:                        \
        return (struct args_api){family, spt, legacy_form};
        HV_ARGS_APIS(ARGS_ROW)
#undef ARGS_ROW
    default:
        return (struct args_api){HV_ARGS_NONE, 0, 0};
    }
}

/* A stream argument canonicalised as the wrappers do (call_rules.h): 0 and
 * the two special handles ((stream)1 legacy, (stream)2 per-thread, the same
 * in all three runtimes) by the entry point's default-stream convention. */
static void set_stream(struct hv_call *c, uint64_t s, const struct args_api *a)
{
    struct hv_sref r = hv_sref_canon(s, a->spt, 1, 2, a->legacy_form, c->h.tid, c->device);
    c->stream = r.id;
    c->stream_form = r.form;
}

/* A copy's direction and sides as the wrappers write them (call_rules.h HV_COPY_SIDES). */
static void copy_sides(struct hv_derive *d, struct hv_copy_args *a)
{
    unsigned kinds = mem_at(d, a->dst) | (unsigned)mem_at(d, a->src) << 8;
    HV_COPY_SIDES((int)a->kind, kinds, dir, dm, sm);
    a->dir = (uint8_t)dir;
    a->dst_mem = (uint8_t)dm;
    a->src_mem = (uint8_t)sm;
}

/* Replaces an argument record's words by the fields the full filler writes
 * (the stream's epoch and new epochs follow in derive_call). */
static void rebuild(struct hv_derive *d, struct hv_call *c)
{
    struct args_api a = args_api(c->api);
    if (a.family == HV_ARGS_NONE)
        return;   /* an API this reader has no layout for (a newer writer's): left as written */
    uint64_t w[8];
    memcpy(w, c->a.raw, sizeof w);
    memset(&c->a, 0, sizeof c->a);
    c->flags &= (uint8_t)~HV_CALL_ARGS;
    int ok = c->result == 0;
    switch (a.family) {
    case HV_ARGS_COPY: {
        set_stream(c, w[4], &a);
        struct hv_copy_args *cp = &c->a.copy;
        cp->dst = w[0];
        cp->src = w[1];
        cp->bytes = w[2];
        cp->height = 1;
        cp->kind = (uint32_t)w[3];
        cp->flags = HV_COPY_ASYNC;
        cp->dst_device = -1;
        cp->src_device = -1;
        copy_sides(d, cp);
        break;
    }
    case HV_ARGS_GRAPH:
        set_stream(c, w[1], &a);
        c->a.graph.exec = w[0];
        break;
    case HV_ARGS_SSYNC:
        set_stream(c, w[0], &a);
        if (ok) {
            c->a.sync.completed_stream = c->stream;
            c->a.sync.completed_seq = c->h.seq;
        }
        break;
    case HV_ARGS_DSYNC:
        c->a.sync.completed_seq = ok ? c->h.seq : 0;
        break;
    case HV_ARGS_ESYNC: {
        c->a.sync.event = w[0];
        uint32_t i = hv_u64map_get(&d->event_ix, w[0]);
        if (i != HV_U64MAP_NONE) {
            const struct hv_derive_event *e = &d->events[i];
            c->stream = e->stream;   /* the event's stream, form none (sync.c hv_trace_event_sync) */
            if (ok) {
                c->a.sync.completed_stream = e->stream;
                /* seqs were per thread at the call: the record's own only when this thread made it */
                c->a.sync.completed_seq = e->tid == c->h.tid ? e->seq : 0;
            }
        }
        break;
    }
    default:
        break;
    }
    struct hv_derive_stream *s = c->stream ? stream_named(d, c->stream, c->device) : NULL;
    int capturing = s && s->capture;
    c->flags = (uint8_t)((c->flags & ~HV_CALL_CAPTURING) | (capturing ? HV_CALL_CAPTURING : 0));
    c->capture = capturing ? HV_CAPTURE_ACTIVE : HV_CAPTURE_NONE;
}

/* ---- the rules, record by record (derive_streams.py mismatches) ---- */

static void derive_call(struct hv_derive *d, struct hv_call *c)
{
    if (c->flags & HV_CALL_ARGS)
        rebuild(d, c);
    int32_t dev = c->device;
    int ok = c->result == 0;
    enum hv_op op = hv_api_op(c->api);
    /* The kind within the op class it belongs to (derive_streams.py's rules
     * name both; a graph node's "EventRecord" is not an event record). */
    enum hv_api_kind kind = hv_api_kind(c->api);
    int cls = (op == HV_OP_STREAM && kind == HV_K_STREAM_CREATE) || (op == HV_OP_CAPTURE &&
              (kind == HV_K_BEGIN_CAPTURE || kind == HV_K_END_CAPTURE)) || (op == HV_OP_EVENT &&
              (kind == HV_K_EVENT_RECORD || kind == HV_K_STREAM_WAIT)) ? (int)kind : HV_K_NONE;
    if (cls == HV_K_STREAM_CREATE && ok && c->a.stream.handle) {
        struct hv_derive_stream *s = stream_named(d, c->a.stream.handle, dev);
        if (s)
            s->nonblocking = (c->a.stream.flags & NONBLOCKING) != 0;
    }
    struct hv_derive_stream *s = c->stream ? stream_named(d, c->stream, dev) : NULL;
    if (c->stream)
        c->epoch = epoch_of(d, s);
    if (cls == HV_K_EVENT_RECORD && ok && s) {
        int made;
        uint32_t i = TABLE_ENTRY(d, d->event_ix, d->events, d->nevents, d->cap_events, c->a.event.event, &made);
        if (i != HV_U64MAP_NONE)
            d->events[i] = (struct hv_derive_event){c->stream, c->epoch, c->h.seq, c->h.tid};
    } else if (cls == HV_K_STREAM_WAIT && ok && s) {
        uint32_t i = hv_u64map_get(&d->event_ix, c->a.event.event);
        if (i != HV_U64MAP_NONE) {
            const struct hv_derive_event *e = &d->events[i];
            c->a.event.record_stream = e->stream;
            c->a.event.record_epoch = e->epoch;
            struct hv_derive_stream *src = stream_at(d, e->stream);
            if (src && src->capture)
                s->capture = src->capture;   /* the wait pulls its stream into the capture */
        }
    }
    if (ok && s && cls == HV_K_BEGIN_CAPTURE) {
        s->capture = ++d->next_capture;
    } else if (ok && s && cls == HV_K_END_CAPTURE && s->capture) {
        uint32_t ended = s->capture;
        for (uint32_t i = 0; i < d->nstreams; i++)   /* rare: an end of capture */
            if (d->streams[i].capture == ended)
                d->streams[i].capture = 0;
    }
    if (op == HV_OP_SYNC && ok) {
        uint64_t done = c->a.sync.completed_stream;
        if (done) {
            struct hv_derive_stream *t = stream_named(d, done, dev);
            if (t)
                t->own++;
            c->a.sync.new_epoch = epoch_of(d, t);
        }
        struct hv_derive_device *g = device_at(d, dev);
        if (g && c->stream_form == HV_STREAM_FORM_LEGACY_NULL && done)
            g->gen_legacy++;
        else if (g && !c->stream && !c->a.sync.event && c->a.sync.completed_seq == c->h.seq)
            g->gen_device++;
    } else if (op == HV_OP_COPY && ok && !(c->a.copy.flags & HV_COPY_ASYNC) && !(c->flags & HV_CALL_CAPTURING) && s) {
        s->own++;   /* a blocking copy observes its stream */
    } else if (op == HV_OP_ALLOC && c->a.alloc.ptr) {
        alloc_add(d, c->a.alloc.ptr, c->a.alloc.bytes, c->a.alloc.mem);
    } else if (op == HV_OP_FREE && ok) {
        alloc_remove(d, c->a.alloc.ptr);
    }
}

int hv_derive_record(struct hv_derive *d, struct hv_rec_header *h)
{
    if (h->type == HV_REC_CALL && h->size >= sizeof(struct hv_call)) {
        derive_call(d, (struct hv_call *)(void *)h);
    } else if (h->type == HV_REC_EPOCH && h->size >= sizeof(struct hv_epoch)) {
        struct hv_epoch *e = (struct hv_epoch *)(void *)h;
        struct hv_derive_stream *s = stream_at(d, e->stream);
        if (s)
            s->own++;
        e->epoch = epoch_of(d, s);
    }
    return d->oom ? -1 : 0;
}
