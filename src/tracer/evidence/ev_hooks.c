/* Evidence hooks: the dispatch from the record fillers to payload.c,
 * probe.c and stacks.c (see evidence.h), and evidence's entry in the
 * core's feature table. */
#include "tracer/evidence/evidence_int.h"

uint32_t hv_launch_below HV_STEP_DATA = UINT32_MAX;
uint32_t hv_launch_first HV_STEP_DATA;
uint32_t hv_rewrite_first HV_STEP_DATA;

static void evidence_setup(const struct hv_config *cfg)
{
    unsigned f = 0;
    hv_launch_below = cfg->launch_every > 1 ? UINT32_MAX / cfg->launch_every : UINT32_MAX;
    hv_launch_first = cfg->launch_first;
    hv_rewrite_first = cfg->rewrite_first;
    if (cfg->payload_bytes)
        f |= HV_EV_PAYLOAD;
    if (cfg->rewrite_check_bytes)
        f |= HV_EV_REWRITE;
    if (cfg->probe.mode != HV_PROBE_OFF)
        f |= HV_EV_PROBE;
    if (cfg->stacks)
        f |= HV_EV_STACKS;
    hv_payload_setup(cfg);
    hv_probe_setup(cfg);
    /* The host-access check's bit is its own (src/tracer/hostcheck), set by
     * its set-up whichever feature the table runs first. */
    hv_hot.ev_flags = (hv_hot.ev_flags & HV_EV_HOSTCHECK) | f;
    /* The probe reads back its snapshots at every observation; the rewrite
     * check only while a copy it sampled waits (hv_hot.observe_pending). */
    if (f & HV_EV_PROBE)
        hv_hot.observe_all = 1;
}

static uint32_t evidence_header_flags(void)
{
    return (hv_ev(HV_EV_PAYLOAD) ? HV_HDR_PAYLOADS : 0) | (hv_ev(HV_EV_STACKS) ? HV_HDR_STACKS : 0) |
           (hv_ev(HV_EV_PROBE) ? HV_HDR_PROBES : 0);
}

void hv_ev_copy_begin(struct hv_copy_ev *ev, struct hv_call *c)
{
    const struct hv_copy_args *a = &c->a.copy;
    ev->seq = c->h.seq;
    ev->ts = c->h.ts_ns;
    ev->stream = c->stream;
    ev->stream_form = c->stream_form;
    ev->epoch = c->epoch;
    ev->api = c->api;
    ev->device = c->device;
    ev->dst = a->dst;
    ev->src = a->src;
    ev->bytes = a->bytes;
    ev->dir = a->dir;
    ev->src_mem = a->src_mem;
    ev->dst_mem = a->dst_mem;
    ev->async = (a->flags & HV_COPY_ASYNC) != 0;
    /* Only copies that ran (or will run): not failed, not captured into a
     * graph. 2D copies are left out: their source is not one range. */
    ev->ok = c->result == 0 && !(c->flags & HV_CALL_CAPTURING) && !(a->flags & HV_COPY_2D) && a->src;
    ev->hashed = 0;
    ev->checked = 0;
    ev->hash = 0;
    ev->staged = NULL;
    /* Hashed while the call record is still open, so the record carries
     * it; the bytes are those the host holds right after the runtime
     * accepted the copy. */
    if (ev->ok && ev->dir == HV_DIR_H2D && hv_ev(HV_EV_PAYLOAD | HV_EV_REWRITE)) {
        hv_payload_hash(ev);
        if (ev->hashed)
            c->a.copy.payload_hash = (uint32_t)ev->hash;
    }
}

void hv_ev_copy_end(struct hv_thread_ctx *t, const struct hv_copy_ev *ev)
{
    if (hv_ev(HV_EV_PAYLOAD | HV_EV_REWRITE) && ev->hashed)
        hv_payload_copy(t, ev);
    if (hv_ev(HV_EV_PROBE) && ev->ok && ev->async && ev->dir == HV_DIR_H2D)
        hv_probe_copy(t, ev);
    if (hv_ev(HV_EV_STACKS))
        hv_stacks_emit(t, ev->seq);
}

static void evidence_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto)
{
    if (hv_ev(HV_EV_REWRITE))
        hv_payload_observed(t, seq, o, upto);
    if (hv_ev(HV_EV_PROBE))
        hv_probe_observed(t, seq, o, upto);
}

void hv_ev_replay_before(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, uint64_t exec, uint16_t api)
{
    if (hv_ev(HV_EV_PROBE))
        hv_probe_replay_before(t, stream, form, exec, api);
}

void hv_ev_replay_done(struct hv_thread_ctx *t, uint64_t seq, int32_t r)
{
    if (hv_ev(HV_EV_PROBE))
        hv_probe_replay_after(t, seq, r);
    if (hv_ev(HV_EV_STACKS))
        hv_stacks_emit(t, seq);
}

/* hipvis_measure_features_off's bit 2: the rewrite check off, or as
 * configured (taken at the first call: set-up is done, the tracer is
 * recording). A check already queued is still completed. */
static void rewrite_measure_off(int off)
{
    static uint8_t configured;
    static int taken;
    if (!taken) {
        configured = __atomic_load_n(&hv_hot.ev_flags, __ATOMIC_RELAXED) & HV_EV_REWRITE;
        taken = 1;
    }
    uint8_t ev = __atomic_load_n(&hv_hot.ev_flags, __ATOMIC_RELAXED);
    __atomic_store_n(&hv_hot.ev_flags, (uint8_t)((ev & ~HV_EV_REWRITE) | (off ? 0 : configured)), __ATOMIC_RELAXED);
}

HV_FEATURE(evidence, .name = "evidence", .setup = evidence_setup, .header_flags = evidence_header_flags,
           .observed = evidence_observed, .measure_bit = 2, .measure_off = rewrite_measure_off);
