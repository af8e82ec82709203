/*
 * run — one trace file through the reader into the engine (run.h).
 */
#include <stdio.h>

#include "analyze/run.h"

const char *hv_run_string(void *rd, uint32_t id)
{
    return hv_reader_string(rd, id);
}

/* One read problem: into the input health (the first one names it), and
 * whether the input is still usable (a truncated end is: the findings cover
 * the valid prefix). */
static void note_problem(const struct hv_run_opts *o, struct hv_run *r, const struct hv_read_error *re)
{
    if (o->problem)
        o->problem(o->ctx, r, re);
    if (!r->damaged) {
        r->damaged = 1;
        r->health.read_status = re->status;
        r->health.read_status_name = hv_read_status_name(re->status);
        r->health.offset = re->offset;
        r->health.records_salvaged = re->records_salvaged;
        snprintf(r->first_what, sizeof r->first_what, "%s", re->what);
        r->health.what = r->first_what;
    }
    if (re->status != HV_READ_TRUNCATED)
        r->status = 2;
}

/* Types past 63 share a bit of `seen`, not a wanted type's. */
static int wanted(uint64_t want, const struct hv_rec_header *rec)
{
    return rec->type < 64 && ((1ull << rec->type) & want);
}

/* The records, batch by batch; after a corrupt frame the reader resumes at
 * the next valid one, so what follows the damage is read too. */
static void read_records(const struct hv_run_opts *o, struct hv_run *r)
{
    const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
    const uint64_t want = o->record ? o->record_types : 0;
    for (;;) {
        if (r->e)
            hv_engine_keep(r->e);  /* the batch read next may reuse the last one's memory */
        long rc = hv_reader_next_batch(r->rd, recs, HV_READER_BATCH_MAX);
        if (rc > 0) {
            if (want != HV_RUN_EVERY_RECORD) {
                /* The engine takes the batch whole and says what types it
                 * held: only a batch with a wanted type is looked at. */
                uint64_t types = 0;
                if (r->e) {
                    types = hv_engine_feed_batch(r->e, recs, (size_t)rc);
                } else {
                    for (long i = 0; i < rc; i++)
                        types |= 1ull << (recs[i]->type & 63);
                    r->records += (uint64_t)rc;
                }
                r->seen |= types;
                if (types & want)
                    for (long i = 0; i < rc; i++)
                        if (wanted(want, recs[i]) && o->record(o->ctx, r, recs[i]))
                            return;
                continue;
            }
            for (long i = 0; i < rc; i++) {
                r->seen |= 1ull << (recs[i]->type & 63);
                if (r->e)
                    hv_engine_feed(r->e, recs[i]);
                else
                    r->records++;
                if (o->record(o->ctx, r, recs[i]))
                    return;
            }
            continue;
        }
        if (rc == 0)
            return;
        const struct hv_read_error *re = hv_reader_error(r->rd);
        note_problem(o, r, re);
        if (re->status != HV_READ_CORRUPT)
            return;
    }
}

/* Footer drops and the reader's statistics, as the input-health rules take
 * them. */
static void health(struct hv_run *r)
{
    const struct hv_file_footer *ft = hv_reader_footer(r->rd);
    if (ft) {
        r->health.has_footer = 1;
        for (int i = 0; i < HV_DROP__COUNT; i++)
            r->health.dropped += ft->dropped[i];
    }
    hv_reader_stats(r->rd, &r->stats);
    if (!ft && !r->damaged) {
        r->health.offset = r->stats.bytes_read;       /* where the trace stops without a footer */
        r->health.records_salvaged = r->stats.records;
    }
    r->health.late_records = r->stats.late_records;
    r->health.chunk_gaps = r->stats.chunk_gaps;
    r->health.seq_missing = r->stats.seq_missing;
    r->health.seq_gaps = r->stats.seq_gaps;
}

int hv_run_file(const char *path, const char *name, const struct hv_run_opts *o, struct hv_run *r)
{
    *r = (struct hv_run){.path = path, .name = name ? name : path};
    struct hv_read_error err;
    if (hv_reader_open(path, &r->rd, &err) != 0) {
        r->rd = NULL;
        note_problem(o, r, &err);
        return r->status = 2;
    }
    r->hdr = hv_reader_header(r->rd);
    struct hv_findings scratch;
    struct hv_findings *out = o->out;
    if (!out) {
        hv_findings_init(&scratch);
        out = &scratch;
    }
    if (!o->records_only) {
        struct hv_engine_options eo = {.rules_disabled = o->rules_disabled};
        struct hv_model_hooks hooks = {.string = hv_run_string, .string_ctx = r->rd};
        r->e = hv_engine_new(r->hdr, r->name, out, &eo, &hooks, &o->obs);
        if (!r->e) {
            err = (struct hv_read_error){.status = HV_READ_NOMEM, .what = "out of memory"};
            note_problem(o, r, &err);
            goto done;
        }
        hv_engine_records_stable(r->e);  /* a batch's records stay put until the next batch */
    }
    if (!o->begin || o->begin(o->ctx, r) == 0)
        read_records(o, r);
    health(r);
    if (r->e) {
        hv_engine_finish(r->e, &r->health);
        r->records = hv_engine_summary(r->e)->records;
    }
    if (o->end)
        o->end(o->ctx, r);
    if (r->e && o->out && hv_findings_add_trace(o->out, hv_engine_summary(r->e)) != 0)
        r->status = 2;
    hv_engine_free(r->e);
    r->e = NULL;
done:
    if (out == &scratch)
        hv_findings_free(&scratch);
    hv_reader_close(r->rd);
    r->rd = NULL;
    r->hdr = NULL;
    return r->status;
}
