/* Per-process trace files with rotation and per-file accounting; see
 * sidecar/output.h. */
#include "sidecar/output.h"

#include <stdio.h>
#include <string.h>

#include "format/trace_writer.h"
#include "ring/clock.h"
#include "sidecar/log.h"

#define SC_CHUNK_BYTES (256u << 10)

void sc_output_init(struct sc_output *o, const struct sc_output_cfg *cfg, const struct hv_file_header *hdr,
                    const struct hv_shm_consumer *acc)
{
    memset(o, 0, sizeof *o);
    o->cfg = cfg;
    o->hdr = *hdr;
    /* %p stays for the writer to expand; the start second tells two
     * processes that had the same pid apart. */
    snprintf(o->tmpl, sizeof o->tmpl, "%s/hipvis.%%p.%llu.zst", cfg->dir,
             (unsigned long long)(hdr->start_realtime_ns / 1000000000ull));
    o->base_calls = atomic_load(&acc->footer_calls);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        o->base_dropped[k] = atomic_load(&acc->footer_dropped[k]);
    o->base_consumer_lost = atomic_load(&acc->footer_lost);
}

static int open_file(struct sc_output *o, struct hv_shm_consumer *acc)
{
    if (o->w)
        return 0;
    int rc = hv_trace_writer_open(o->tmpl, &o->hdr, o->cfg->level, &o->w);
    if (rc != 0) {
        o->w = NULL;
        o->open_errno = -rc;
        return rc;
    }
    /* Smaller chunks than the writer's default: a drain cycle flushes
     * anyway, and each chunk buffer page is first touched (faulted in) at
     * drain rate. */
    hv_trace_writer_set_chunk_bytes(o->w, SC_CHUNK_BYTES);
    if (o->open_errno)
        sc_log("pid %llu: trace files can be created again; draining its segment", (unsigned long long)o->hdr.pid);
    o->open_errno = 0;
    o->opened_ns = hv_mono_ns();
    snprintf(o->last_path, sizeof o->last_path, "%s", hv_trace_writer_path(o->w));
    o->files++;
    atomic_store(&acc->files, atomic_load(&acc->files) + 1);
    sc_info("pid %llu: writing %s", (unsigned long long)o->hdr.pid, hv_trace_writer_path(o->w));
    return 0;
}

int sc_output_ready(struct sc_output *o, struct hv_shm_consumer *acc, uint64_t now_ns)
{
    if (o->w)
        return 0;
    if (o->open_errno && now_ns - o->retry_ns < SC_OUTPUT_RETRY_NS)
        return -o->open_errno;
    int was = o->open_errno;
    o->retry_ns = now_ns;
    int rc = open_file(o, acc);
    if (rc != 0 && !was)
        sc_log("pid %llu: cannot create a trace file from %s: %s; its records stay in the segment (retried "
               "every %u s, or drained by a later sidecar)",
               (unsigned long long)o->hdr.pid, o->tmpl, strerror(-rc), (unsigned)(SC_OUTPUT_RETRY_NS / 1000000000ull));
    return rc;
}

void sc_output_add(struct sc_output *o, struct hv_shm_consumer *acc, const struct hv_rec_header *rec)
{
    /* The drain opens the file before it reads (sc_output_ready); a record
     * that still finds none is a write loss, counted. */
    if (open_file(o, acc) != 0 || hv_trace_writer_add(o->w, rec) != 0)
        o->unfiled_lost++;
}

/* This file's drops: ring drops since the baseline, plus records the writer
 * could not write (its stats) or that had no file at all. */
static uint64_t file_drops(const struct sc_output *o, const struct sc_counts *now, uint64_t out[HV_DROP__COUNT])
{
    struct hv_trace_writer_stats st = {0};
    uint64_t total = 0;
    if (o->w)
        hv_trace_writer_stats(o->w, &st);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        out[k] = now->dropped[k] > o->base_dropped[k] ? now->dropped[k] - o->base_dropped[k] : 0;
    out[HV_DROP_WRITE_ERROR] += st.records_lost + o->unfiled_lost;
    /* Records a killed sidecar had read and released but not written. */
    if (now->consumer_lost > o->base_consumer_lost)
        out[HV_DROP_WRITE_ERROR] += now->consumer_lost - o->base_consumer_lost;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        total += out[k];
    return total;
}

void sc_output_flush(struct sc_output *o)
{
    /* No HV_REC_DROPS records here (unlike the in-process writer): the
     * writer would count them as written records and break written +
     * dropped == made. Drops are in every footer, and a file left without
     * one (sidecar killed) has its interval accounted in the next footer. */
    if (o->w)
        hv_trace_writer_flush(o->w);
}

int sc_output_rotate_due(const struct sc_output *o, uint64_t now_ns)
{
    if (!o->w)
        return 0;
    return (o->cfg->rotate_bytes && hv_trace_writer_file_bytes(o->w) >= o->cfg->rotate_bytes) ||
           (o->cfg->rotate_ns && now_ns > o->opened_ns && now_ns - o->opened_ns >= o->cfg->rotate_ns);
}

int sc_output_close(struct sc_output *o, struct hv_shm_consumer *acc, const struct sc_counts *now, int final)
{
    uint64_t lost_in_flight = final ? sc_counts_in_flight(now) : 0;
    uint64_t calls = now->calls > o->base_calls ? now->calls - o->base_calls : 0;
    struct hv_file_footer f;
    memset(&f, 0, sizeof f);
    if (!o->w) {
        /* Nothing open: only a process that ended with something left to
         * account for (or with no file at all yet) gets a footer-only file;
         * otherwise the baseline simply stays for the next file. */
        int anything = file_drops(o, now, f.dropped) || lost_in_flight || calls || atomic_load(&acc->files) == 0;
        if (!final || !anything)
            return 0;
        int rc = open_file(o, acc);
        if (rc != 0)
            return rc;
    }
    hv_trace_writer_flush(o->w);
    /* After the flush: a chunk it lost is counted before the footer says so. */
    uint64_t dropped = file_drops(o, now, f.dropped) + lost_in_flight;
    f.dropped[HV_DROP_IN_FLIGHT_AT_EXIT] += lost_in_flight;
    struct hv_trace_writer_stats st;
    hv_trace_writer_stats(o->w, &st);
    f.calls = calls;
    f.records_written = st.records_written;
    f.records_made = st.records_written + dropped;
    f.end_ns = hv_mono_ns();
    o->written += st.records_written;
    o->lost += st.records_lost;
    o->bytes += st.file_bytes;
    char path[4096];
    snprintf(path, sizeof path, "%s", hv_trace_writer_path(o->w));
    int rc = hv_trace_writer_close(o->w, &f);
    o->w = NULL;
    if (rc != 0)
        sc_log("pid %llu: closing %s: %s", (unsigned long long)o->hdr.pid, path, strerror(-rc));
    sc_info("pid %llu: closed %s: %llu records, %llu dropped%s", (unsigned long long)o->hdr.pid, path,
            (unsigned long long)f.records_written, (unsigned long long)dropped, final ? " (process ended)" : "");
    /* The new baseline: what this footer accounted for. */
    o->base_calls = now->calls;
    memcpy(o->base_dropped, now->dropped, sizeof o->base_dropped);
    o->unfiled_lost = 0;
    o->base_consumer_lost = now->consumer_lost;
    atomic_store(&acc->footer_lost, now->consumer_lost);
    atomic_store(&acc->footer_calls, now->calls);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        atomic_store(&acc->footer_dropped[k], now->dropped[k]);
    return 0;
}

const char *sc_output_path(const struct sc_output *o) { return o->w ? hv_trace_writer_path(o->w) : NULL; }

const char *sc_output_last_path(const struct sc_output *o) { return o->last_path; }

void sc_output_totals(const struct sc_output *o, uint64_t *written, uint64_t *lost, uint64_t *bytes)
{
    struct hv_trace_writer_stats st = {0};
    if (o->w)
        hv_trace_writer_stats(o->w, &st);
    *written = o->written + st.records_written;
    *lost = o->lost + st.records_lost + o->unfiled_lost;
    *bytes = o->bytes + st.file_bytes;
}
