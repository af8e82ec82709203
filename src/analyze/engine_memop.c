/*
 * engine_memop: stream memory operations (docs/semantics.md V1-V3).
 *
 * A write-value is a write of its 4 or 8 bytes (a writer like a memset) and
 * a signal: the writing stream's clock at that point, kept as the record of
 * a pseudo event named by the address. A wait-value whose condition the
 * latest written value satisfies joins that clock into the waiting stream,
 * exactly as a stream wait on an event does; a wait no traced write
 * satisfies (memory written by a kernel, the host or another process) adds
 * no edge. Only the latest value per address is kept: write-values to one
 * flag are ordered by their streams in the programs this models (a counter
 * bumped on one stream, waited on by others), and a wait is satisfied by the
 * value present when it runs.
 */
#include <stdlib.h>

#include "analyze/engine_int.h"
#include "common/grow.h"

/* Pseudo-event handle of a signal address: user addresses are below 2^63,
 * event handles are pointers, so the top bit keeps the two apart. */
#define SIG_EVENT(addr) ((addr) | (1ull << 63))

/* The wait condition of HIP and CUDA (flags 0 GEQ, 1 EQ, 2 AND, 3 NOR) on
 * the memory value `v` (masked) against `want`. GEQ is cyclic, as both
 * runtimes document it: (int32_t)(v - want) >= 0 for 32-bit words. */
static int satisfied(uint64_t v, const struct hv_memop_args *w)
{
    uint64_t want = w->value;
    v &= w->mask;
    if (w->size == 4)
        v = (uint32_t)v, want = (uint32_t)want;
    switch (w->flags & 0xf) {
    case 0: return w->size == 4 ? (int32_t)(uint32_t)(v - want) >= 0 : (int64_t)(v - want) >= 0;
    case 1: return v == want;
    case 2: return (v & want) != 0;
    case 3: return w->size == 4 ? (uint32_t)~(v | want) != 0 : ~(v | want) != 0;
    default: return 0;
    }
}

void hv_engine_memop(struct hv_engine *e, const struct hv_call *c, uint32_t s)
{
    struct hv_model *m = &e->m;
    const struct hv_memop_args *a = &c->a.memop;
    if (!a->addr || (a->size != 4 && a->size != 8))
        return;
    uint32_t i = hv_u64map_get(&e->sig_ix, a->addr);
    if (a->op == HV_MEMOP_WRITE) {
        struct hv_writer w;
        hv_engine_writer_base(&w, c, s, m);
        w.kind = HV_WRITER_MEMSET;
        w.dst = a->addr;
        w.bytes = a->size;
        hv_engine_write(e, a->addr, a->addr + a->size, &w);
        if (i == HV_U64MAP_NONE) {
            if (!HV_GROW(e->sig, e->nsig, e->capsig, 16) || hv_u64map_put(&e->sig_ix, a->addr, e->nsig) != 0) {
                m->oom = 1;
                return;
            }
            i = e->nsig++;
            e->sig[i].addr = a->addr;
        }
        e->sig[i].value = a->size == 4 ? (uint32_t)a->value : a->value;
        hv_event_recorded(m, SIG_EVENT(a->addr), s, c->h.seq);
    } else if (a->op == HV_MEMOP_WAIT && i != HV_U64MAP_NONE && satisfied(e->sig[i].value, a)) {
        hv_event_waited(m, SIG_EVENT(a->addr), s, 0, 0);
    }
}

void hv_engine_memop_free(struct hv_engine *e)
{
    hv_u64map_free(&e->sig_ix);
    free(e->sig);
}
