/*
 * host-source-rewritten: the host rewrote the pinned source of an async H2D
 * copy before it observed the copy complete (the host-reuse race of
 * ROCm/ATOM's CpuGpuBuffer, rocm-runtime-facts.md).
 *
 * The runtime reads a pinned source when the copy executes, which may be
 * after the call returned: a host that prepares step N+1 in the same pinned
 * buffer while step N's copy is still queued sends step N+1's values to
 * step N. The tracer hashes the source at enqueue (HV_REC_PAYLOAD when 0)
 * and again when the host first observes the copy complete; a different
 * hash is recorded after the observing call (when 1) with the new bytes
 * when payloads are on. This rule pairs the two: the copy is the oldest
 * pending async H2D copy from that source, now known complete, whose
 * enqueue hash differs (the tracer checks every pending copy of the
 * observed stream, so the pairing is unambiguous up to copies of the same
 * source with equal hashes, which are interchangeable).
 *
 * Copies the tracer could not check (its pending list was full: when 2)
 * are counted and reported once, as info.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/evidence_fmt.h"
#include "analyze/rules/rules.h"
#include "common/grow.h"

#define HSR_MAX 4096u   /* pending copies remembered; older ones are dropped first */

struct hsr_copy {
    uint64_t seq, epoch, ts_ns, stream_id, src, dst, bytes, hash;
    uint32_t stream;
    uint16_t api;
    uint8_t src_mem, dst_mem;
    uint8_t *enq;        /* source bytes at enqueue (payload), NULL when not recorded */
};

struct hsr_state {
    struct hsr_copy *v;
    uint32_t n, cap;
    uint64_t unchecked, dropped;
};

static void state_free(void *p)
{
    struct hsr_state *st = p;
    for (uint32_t i = 0; i < st->n; i++)
        free(st->v[i].enq);
    free(st->v);
    free(st);
}

static struct hsr_state *state(struct hv_model *m)
{
    if (!m->rule_state[HV_RULE_HOST_SOURCE_REWRITTEN])
        m->rule_state[HV_RULE_HOST_SOURCE_REWRITTEN] = calloc(1, sizeof(struct hsr_state));
    return m->rule_state[HV_RULE_HOST_SOURCE_REWRITTEN];
}

static int complete(const struct hv_model *m, const struct hsr_copy *c)
{
    return hv_complete(m, c->stream, c->stream_id, c->seq);
}

static void drop(struct hsr_state *st, uint32_t i)
{
    free(st->v[i].enq);
    memmove(&st->v[i], &st->v[i + 1], (st->n - i - 1) * sizeof st->v[0]);
    st->n--;
}

/* Forgets copies the host has seen complete: their observation has passed
 * (its HV_PAYLOAD_OBSERVED records come right after the observing call, so
 * before the next copy), and no rewrite was found. */
static void prune(const struct hv_model *m, struct hsr_state *st)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < st->n; i++) {
        if (complete(m, &st->v[i]))
            free(st->v[i].enq);
        else
            st->v[keep++] = st->v[i];
    }
    st->n = keep;
}

/* Room for one more: grow up to HSR_MAX, then forget the oldest. */
static int make_room(struct hsr_state *st)
{
    if (st->n < st->cap)
        return 1;
    if (st->cap < HSR_MAX)
        return HV_GROW(st->v, st->n, st->cap, 64);
    drop(st, 0);
    st->dropped++;
    return 1;
}

static int host_known(uint8_t mem) { return mem == HV_MEM_HOST_PINNED || mem == HV_MEM_HOST_REGISTERED; }

static void on_enqueue(struct hv_model *m, const struct hv_call *c, const struct hv_payload *p)
{
    const struct hv_copy_args *a = &c->a.copy;
    struct hsr_state *st = state(m);
    if (!st || c->result != 0 || hv_api_op(c->api) != HV_OP_COPY || a->dir != HV_DIR_H2D ||
        !(a->flags & HV_COPY_ASYNC) || !host_known(a->src_mem))
        return;
    if (p->when == HV_PAYLOAD_UNCHECKED) {
        st->unchecked++;
        return;
    }
    uint64_t sid = c->stream ? c->stream : HV_STREAM_LEGACY | (uint32_t)(c->device >= 0 ? c->device : 0);
    uint32_t s = hv_stream_find(m, sid);
    prune(m, st);
    if (s == HV_NO_INDEX || !make_room(st))
        return;
    struct hsr_copy *e = &st->v[st->n++];
    *e = (struct hsr_copy){.seq = c->h.seq, .epoch = c->epoch, .ts_ns = c->h.ts_ns, .stream_id = sid,
                           .src = a->src, .dst = a->dst, .bytes = a->bytes, .hash = p->hash, .stream = s,
                           .api = c->api, .src_mem = a->src_mem, .dst_mem = a->dst_mem};
    if (p->len && p->len == a->bytes) {
        e->enq = malloc(p->len);
        if (e->enq)
            memcpy(e->enq, p + 1, p->len);
    }
}

static void emit(struct hv_model *m, const struct hsr_copy *c, const struct hv_call *obs, const struct hv_payload *p)
{
    struct hv_finding f;
    char detail[512], e1[24], v1[24], v2[24], w1[160], w2[160];
    hv_finding_start(m, &f, HV_RULE_HOST_SOURCE_REWRITTEN, c->dst, c->dst + c->bytes);
    f.a.kind = HV_SIDE_COPY;
    f.a.api = c->api;
    f.a.dir = HV_DIR_H2D;
    f.a.src_mem = c->src_mem;
    f.a.dst_mem = c->dst_mem;
    f.a.stream = c->stream_id;
    f.a.seq = c->seq;
    f.a.epoch = c->epoch;
    f.a.ts_ns = c->ts_ns;
    f.a.dst = c->dst;
    f.a.src = c->src;
    f.a.bytes = c->bytes;
    f.b.kind = HV_SIDE_SYNC;
    f.b.seq = p->h.seq;
    f.b.ts_ns = p->h.ts_ns;
    f.b.epoch = HV_EPOCH_UNKNOWN;
    if (obs) {
        f.b.api = obs->api;
        f.b.stream = obs->stream;
        f.b.epoch = obs->epoch;
    }
    const uint8_t *now = p->len == c->bytes ? (const uint8_t *)(p + 1) : NULL;
    if (c->enq && now) {
        size_t nd, off = hv_bytes_diff(c->enq, now, c->bytes, &nd);
        size_t from = off / (c->bytes % 4 == 0 ? 4 : 1);
        from = from > 2 ? from - 2 : 0;
        f.n1 = off;
        f.n2 = nd;
        f.note = "the pinned source changed between the copy's enqueue and its first observed completion";
        snprintf(detail, sizeof detail,
                 "first change at +%zu (%s): %s at enqueue, %s when observed; %zu of %" PRIu64
                 " bytes differ; enqueue %s observed %s",
                 off, hv_elem_name(e1, sizeof e1, c->bytes, off), hv_elem_value(v1, sizeof v1, c->enq, c->bytes, off),
                 hv_elem_value(v2, sizeof v2, now, c->bytes, off), nd, c->bytes,
                 hv_bytes_view(w1, sizeof w1, c->enq, c->bytes, from, 8),
                 hv_bytes_view(w2, sizeof w2, now, c->bytes, from, 8));
        f.detail = detail;
    } else {
        f.note = "the pinned source's hash changed between the copy's enqueue and its first observed completion "
                 "(bytes not recorded: HIPVIS_PAYLOAD_BYTES)";
    }
    hv_rule_emit(m, &f);
}

static void on_observed(struct hv_model *m, const struct hv_call *obs, const struct hv_payload *p)
{
    struct hsr_state *st = state(m);
    uint32_t pick = UINT32_MAX;
    int best = -1;
    if (!st)
        return;
    /* Candidates: copies from this source whose enqueue hash differs. Copies
     * seen complete at an earlier observation were pruned at the next copy;
     * one that was not (no copy since) may still be here, so prefer a copy
     * the model sees complete, on the stream this call observed, and the
     * newest of those. */
    uint64_t observed = obs ? (obs->a.sync.completed_stream ? obs->a.sync.completed_stream : obs->stream) : 0;
    for (uint32_t i = 0; i < st->n; i++) {
        const struct hsr_copy *c = &st->v[i];
        if (c->src != p->src || c->hash == p->hash || c->seq >= p->h.seq)
            continue;
        int score = 2 * complete(m, c) + (observed && c->stream_id == observed);
        if (score >= best) {
            best = score;
            pick = i;
        }
    }
    if (pick == UINT32_MAX)
        return;
    emit(m, &st->v[pick], obs, p);
    drop(st, pick);
}

static void on_aux(struct hv_model *m, const struct hv_call *cur, const struct hv_rec_header *rec)
{
    const struct hv_payload *p = (const struct hv_payload *)(const void *)rec;
    /* len comes from the trace: bytes beyond the record are not there. */
    if (rec->type != HV_REC_PAYLOAD || rec->size < sizeof *p || p->len > rec->size - sizeof *p)
        return;
    if (p->when == HV_PAYLOAD_OBSERVED)
        on_observed(m, cur, p);
    else if (cur && cur->h.seq == rec->seq)
        on_enqueue(m, cur, p);
}

static void on_finish(struct hv_model *m, const struct hv_input_health *in)
{
    (void)in;
    struct hsr_state *st = m->rule_state[HV_RULE_HOST_SOURCE_REWRITTEN];
    if (!st || !(st->unchecked + st->dropped))
        return;
    struct hv_finding f;
    hv_finding_start(m, &f, HV_RULE_HOST_SOURCE_REWRITTEN, 0, 0);
    f.severity = HV_SEV_INFO;
    f.a.kind = HV_SIDE_TRACE;
    f.n1 = st->unchecked + st->dropped;
    f.note = "async H2D copies from pinned memory were not checked for a host rewrite "
             "(pending lists full: docs/evidence.md)";
    hv_rule_emit(m, &f);
}

const struct hv_rule hv_rule_host_source_rewritten =
    HV_RULE(HV_RULE_HOST_SOURCE_REWRITTEN, HV_SEV_ERROR, "host-source-rewritten",
            "the runtime reads a pinned source when the copy executes, so a host rewrite before the host has "
            "seen the copy complete can send the next step's data to this one (a data race on the pinned "
            "buffer; ROCm/ATOM's host-reuse race)",
            .on_aux = on_aux,
            .on_finish = on_finish,
            .free_state = state_free);
