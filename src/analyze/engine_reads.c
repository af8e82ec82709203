/*
 * engine_reads: an eager kernel launch meets the writer history.
 *
 * Replays are joined with the writer map in engine_join.c. An eager launch
 * that reads through a pointer argument races with a write on another
 * stream just the same: in decode_loop --side-stream-copy the prefill
 * step's eager kernel reads the copy made on the side stream, and only the
 * replays used to be checked. For each argument the launch may read
 * (metadata access read / read-write, or unknown), the assumed range
 * (hv_pointer_range, exactly as for a graph node's argument) is walked in
 * the writer map; writers the host has observed complete are pruned as in
 * the replay walk, the others are offered to the rules' on_launch_read.
 *
 * Runs before the launch's own writes are applied (a kernel that reads and
 * writes one buffer must not be reported against itself). No memo: an
 * eager launch is one record with a few arguments, so the cost is
 * O(args x segments in range x log W).
 */
#include "analyze/engine_int.h"

void hv_engine_eager_reads(struct hv_engine *e, const struct hv_kargs *k, const struct hv_karg *args)
{
    struct hv_model *m = &e->m;
    const struct hv_call *c = e->curp;
    if (!e->n_read || hv_imap_count(&m->writers) == 0 || e->cur_stream == HV_NO_INDEX)
        return;
    struct hv_read_ctx rd = {
        .seq = c->h.seq,
        .epoch = c->epoch,
        .ts_ns = c->h.ts_ns,
        .stream_id = m->streams[e->cur_stream].id,
        .stream = e->cur_stream,
        .api = c->api,
        .func = k->func ? k->func : c->a.launch.func,
        .name_id = k->name_id ? k->name_id : c->a.launch.name_id,
    };
    for (uint32_t i = 0; i < k->count; i++) {
        if (!hv_access_reads(args[i].access))
            continue;
        struct hv_imap_seg alloc, s;
        hv_pointer_range(m, args[i].value, args, k->count, &rd.lo, &rd.hi, &alloc);
        rd.arg = &args[i];
        int ok = hv_imap_seek(&m->writers, rd.lo, &s);
        while (ok && s.lo < rd.hi) {
            if (hv_engine_prune_writer(m, &s)) {
                ok = hv_imap_seek(&m->writers, s.hi, &s);  /* the map changed: search again */
                continue;
            }
            uint64_t lo = rd.lo > s.lo ? rd.lo : s.lo, hi = rd.hi < s.hi ? rd.hi : s.hi;
            /* Rules do not mutate the writer map, so s.val (and s's
             * successor) stay valid. Between the rows of a tall strided
             * write, nothing is read. */
            if (hv_writer_rows(s.val, &lo, &hi))
                for (int r = 0; r < e->n_read; r++)
                    e->read_rules[r]->on_launch_read(m, &rd, lo, hi, s.val);
            ok = hv_imap_next(&m->writers, &s);
        }
    }
}
