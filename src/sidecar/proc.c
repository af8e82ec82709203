/* One traced process: drain cycle, end of life, counters; see sidecar/proc.h. */
#include "sidecar/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sidecar/alerts.h"
#include "sidecar/guard.h"
#include "sidecar/log.h"
#include "sidecar/stream.h"

#define NO_POS UINT64_MAX

static void on_new_group(void *ctx, const struct hv_group *g)
{
    struct sc_proc *p = ctx;
    if (p->cfg->alerts)
        sc_alerts_emit(p->cfg->alerts, g, p->seg.info.file.exe, sc_output_last_path(&p->out));
}

static int guarded(struct sc_proc *p, void (*fn)(void *));

/* The first reads of the shared header: the accounting baseline a previous
 * sidecar left, and our pid for operators. */
static void attach_body(void *arg)
{
    struct sc_proc *p = arg;
    struct hv_shm_consumer *acc = &p->seg.hdr->consumer;
    /* A segment an older sidecar drained: what it released, it had filed. */
    if (!atomic_load(&acc->filed_valid)) {
        atomic_store(&acc->filed, atomic_load(&acc->released));
        atomic_store(&acc->filed_valid, 1);
    }
    sc_output_init(&p->out, &p->cfg->out, &p->seg.info.file, acc);
    atomic_store(&acc->consumer_pid, (uint64_t)getpid());
    sc_info("pid %llu (%s): draining %s (%llu KiB rings, %llu records already released)",
            (unsigned long long)p->seg.info.pid, p->exe, p->seg.path,
            (unsigned long long)(p->seg.info.ring_bytes / 1024), (unsigned long long)atomic_load(&acc->released));
}

struct sc_proc *sc_proc_new(const struct sc_proc_cfg *cfg, struct sc_segment *seg)
{
    struct sc_proc *p = calloc(1, sizeof *p);
    uint32_t n = seg->info.nslots;
    if (p) {
        p->pos = malloc(n * sizeof *p->pos);
        p->state_before = calloc(n, sizeof *p->state_before);
        p->scratch = malloc(HV_REC_MAX_BYTES + HV_REC_ALIGN);
    }
    if (!p || !p->pos || !p->state_before || !p->scratch) {
        if (p) {
            free(p->pos);
            free(p->state_before);
            free(p->scratch);
        }
        free(p);
        sc_segment_close(seg);
        return NULL;
    }
    p->cfg = cfg;
    p->seg = *seg;
    for (uint32_t i = 0; i < n; i++)
        p->pos[i] = NO_POS;
    /* The producer's calibration pair starts the rate; the sidecar's own clock
     * reads refine it (the TSC is invariant and the same on every core). */
    p->cal.use_tsc = p->seg.info.clock == HV_CLOCK_TSC_MONOTONIC;
    p->cal.tsc0 = p->seg.info.tsc0;
    p->cal.ns0 = p->seg.info.ns0;
    p->cal.ns_per_tick = 1.0;
    p->cal.refined = !p->cal.use_tsc;
    const char *exe = p->seg.info.file.exe, *slash = strrchr(exe, '/');
    exe = slash ? slash + 1 : exe;
    size_t len = strnlen(exe, sizeof p->exe - 1);   /* a long name is cut, on purpose */
    memcpy(p->exe, exe, len);
    p->exe[len] = '\0';
    p->m.pid = p->seg.info.pid;
    memcpy(p->m.exe, p->exe, len + 1);
    p->m.active = 1;
    /* A segment that shrank already is abandoned at the first check. */
    if (guarded(p, attach_body) != 0)
        return p;
    if (cfg->analyze) {
        char label[300];
        snprintf(label, sizeof label, "pid %llu (%s)", (unsigned long long)p->seg.info.pid, p->exe);
        p->an = sc_stream_new(&p->seg.info.file, label, cfg->rules_disabled, p->seg.info.ring_bytes, on_new_group, p);
        if (!p->an)
            sc_log("pid %llu: out of memory for the streaming analysis; tracing only", (unsigned long long)p->seg.info.pid);
    }
    return p;
}

/* ---- the drain, run under the SIGBUS guard ---- */

static int visit(const struct hv_rec_header *rec, void *ctx)
{
    struct sc_proc *p = ctx;
    /* Copy first: from here on only our copy is touched (see guard.h). */
    struct hv_rec_header *c = p->an ? sc_stream_stage(p->an, rec) : NULL;
    if (!c) {
        memcpy(p->scratch, rec, rec->size);
        c = (struct hv_rec_header *)p->scratch;
    }
    c->ts_ns = hv_clock_to_ns(&p->cal, c->ts_ns);
    sc_output_add(&p->out, &p->seg.hdr->consumer, c);
    p->cycle_records++;
    p->cycle_bytes += c->size;
    return 0;
}

static void read_ring(struct sc_proc *p, uint32_t i)
{
    const char *why;
    struct hv_ring *r = sc_segment_ring(&p->seg, i, &why);
    if (why)
        sc_log("pid %llu: ring %u skipped: %s", (unsigned long long)p->seg.info.pid, i, why);
    if (!r)
        return;
    if (!sc_segment_ring_sane(&p->seg, r)) {
        sc_log("pid %llu: ring %u header overwritten (capacity/offset changed); skipped from now on",
               (unsigned long long)p->seg.info.pid, i);
        p->seg.bad[i] = 1;
        return;
    }
    if (p->pos[i] == NO_POS)
        p->pos[i] = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* Read before the records: an EXITED ring found empty afterwards has no
     * producer left. */
    p->state_before[i] = atomic_load_explicit(&r->state, memory_order_acquire);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (head - p->pos[i] > p->fill_max)
        p->fill_max = head - p->pos[i];
    /* Records to read: only with a trace file to put them in; otherwise
     * none is read this cycle and they all stay in the segment (proc.h). */
    if (head != p->pos[i] && sc_output_ready(&p->out, &p->seg.hdr->consumer, hv_mono_ns()) != 0) {
        p->stalled = 1;
        return;
    }
    if (hv_ring_read(r, &p->pos[i], visit, p) < 0) {
        sc_log("pid %llu: ring %u (tid %u) is corrupt at byte %llu; its records from there on are skipped",
               (unsigned long long)p->seg.info.pid, i, r->tid, (unsigned long long)p->pos[i]);
        p->seg.bad[i] = 1;
    }
}

/* The segment's counts as last read, for the metrics. */
static void counts_to_metrics(struct sc_proc *p)
{
    p->m.calls = p->last.calls;
    p->m.made = p->last.made;
    memcpy(p->m.dropped, p->last.dropped, sizeof p->m.dropped);
}

static void drain_body(void *arg)
{
    struct sc_proc *p = arg;
    uint32_t n = sc_segment_slots(&p->seg);
    p->cycle_records = p->cycle_bytes = p->fill_max = 0;
    p->stalled = 0;
    for (uint32_t i = 0; i < n && !p->stalled; i++)
        read_ring(p, i);
    if (p->stalled) {
        /* Nothing was read (the check comes before the first record):
         * nothing to release or write. The process's own counts still go
         * to the metrics: records made while none is written is how a
         * fleet sees a trace that stopped being written. */
        sc_segment_counts(&p->seg, &p->last);
        counts_to_metrics(p);
        return;
    }
    /* The records are copied out (visit): their space goes back to the
     * producer before they are written, and the write is confirmed in
     * `filed` after. A sidecar killed during the write thus leaves no
     * record for its successor to read a second time (it would be in two
     * files, once in each: written + dropped > made); what it held is
     * counted lost instead (released - filed, shm_layout.h). */
    for (uint32_t i = 0; i < p->seg.hi; i++) {
        struct hv_ring *r = p->seg.rings[i];
        if (!r || p->pos[i] == NO_POS)
            continue;
        hv_ring_release(r, p->pos[i]);
        if (!p->seg.bad[i])
            hv_ring_recycle_if_drained(r, p->state_before[i]);
    }
    struct hv_shm_consumer *acc = &p->seg.hdr->consumer;
    atomic_store_explicit(&acc->released, atomic_load_explicit(&acc->released, memory_order_relaxed) + p->cycle_records,
                          memory_order_release);
    sc_output_flush(&p->out);
    atomic_store_explicit(&acc->filed, atomic_load_explicit(&acc->filed, memory_order_relaxed) + p->cycle_records,
                          memory_order_release);
    sc_segment_counts(&p->seg, &p->last);
    counts_to_metrics(p);
}

static int guarded(struct sc_proc *p, void (*fn)(void *))
{
    if (p->faulted)
        return -1;
    if (sc_guarded(fn, p) == 0)
        return 0;
    p->faulted = 1;
    sc_log("pid %llu: %s shrank under the sidecar (SIGBUS); segment abandoned, its trace closed",
           (unsigned long long)p->seg.info.pid, p->seg.path);
    return -1;
}

uint64_t sc_proc_cycle(struct sc_proc *p, double *fill)
{
    /* Ticks become ns only with a rate measured over >= 1 ms; until then the
     * records wait in the ring. */
    hv_clock_refine(&p->cal);
    if (!p->cal.refined || guarded(p, drain_body) != 0)
        return 0;
    if (p->an)
        sc_stream_cycle(p->an);
    double f = (double)p->fill_max / (double)p->seg.info.ring_bytes;
    if (f > *fill)
        *fill = f;
    return p->cycle_records;
}

struct over_ctx {
    struct sc_proc *p;
    uint64_t now;
    int over;
};

static void over_body(void *arg)
{
    struct over_ctx *x = arg;
    struct sc_proc *p = x->p;
    uint32_t st = atomic_load_explicit(&p->seg.hdr->state, memory_order_acquire);
    if (st == HV_SHM_CLOSED) {
        if (!p->closed_since_ns)
            p->closed_since_ns = x->now;
        /* Closed but the pid lives on: an exec'd image (its successor has a
         * segment of its own), or a failed exec that may reopen this one. */
        if (x->now - p->closed_since_ns >= p->cfg->closed_grace_ns)
            x->over = 1;
    } else {
        p->closed_since_ns = 0;
    }
    if (st == HV_SHM_FINALIZED)
        x->over = 1;
    /* Gone, and the cycle after its death found nothing more. */
    if (p->cycle_records == 0 && !sc_segment_pid_alive(&p->seg))
        x->over = 1;
}

int sc_proc_is_over(struct sc_proc *p, uint64_t now_ns)
{
    struct over_ctx x = {p, now_ns, 0};
    if (p->faulted || sc_guarded(over_body, &x) != 0)
        return 1;
    return x.over;
}

/* ---- closing files ---- */

struct close_ctx {
    struct sc_proc *p;
    int final;
};

static void close_body(void *arg)
{
    struct close_ctx *x = arg;
    struct sc_proc *p = x->p;
    struct sc_counts now;
    sc_segment_counts(&p->seg, &now);
    int rc = sc_output_close(&p->out, &p->seg.hdr->consumer, &now, x->final);
    if (x->final && rc != 0) {
        /* The footer has nowhere to go: nothing was accounted, keep it all. */
        p->stalled = 1;
        sc_log("pid %llu: cannot create a trace file for its footer (%s); segment %s kept", (unsigned long long)p->seg.info.pid,
               strerror(-rc), p->seg.path);
    } else if (x->final) {
        /* Claim the end: a failed exec can no longer reopen it. */
        atomic_store_explicit(&p->seg.hdr->state, HV_SHM_FINALIZED, memory_order_release);
        sc_segment_unlink(&p->seg);
    }
}

/* Closes the trace file with its footer. After a fault the segment cannot
 * be read: the footer then accounts with the counts of the last cycle and
 * the baseline is kept privately. */
static void close_file(struct sc_proc *p, int final)
{
    struct close_ctx x = {p, final};
    if (!p->faulted && sc_guarded(close_body, &x) == 0)
        return;
    struct hv_shm_consumer acc;
    memset(&acc, 0, sizeof acc);
    atomic_store(&acc.files, 1);
    sc_output_close(&p->out, &acc, &p->last, 0);
}

int sc_proc_maybe_rotate(struct sc_proc *p, uint64_t now_ns)
{
    if (!sc_output_rotate_due(&p->out, now_ns))
        return 0;
    close_file(p, 0);
    return 1;
}

void sc_proc_end(struct sc_proc *p, int final)
{
    /* A process that lived under 1 ms: wait until its ticks can be converted. */
    for (int i = 0; i < 20 && !p->cal.refined; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
        hv_clock_refine(&p->cal);
    }
    double fill = 0;
    sc_proc_cycle(p, &fill);
    if (p->stalled)
        final = 0;
    close_file(p, final && !p->faulted);
    if (p->stalled)
        final = 0;
    sc_proc_metrics(p);
    if (p->an) {
        /* Everything the trace is missing: ring drops, write losses, and
         * for a process that is gone, records it never committed. */
        struct hv_input_health h = {.has_footer = 1, .late_records = p->m.late, .dropped = p->m.write_lost};
        if (final)
            h.dropped += sc_counts_in_flight(&p->last);
        for (int k = 0; k < HV_DROP__COUNT; k++)
            h.dropped += p->m.dropped[k];
        sc_stream_finish(p->an, &h);
        sc_proc_metrics(p);   /* the input-health findings */
    }
    p->final = final;
    p->m.active = 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    p->m.ended_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    uint64_t dropped = p->m.write_lost;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        dropped += p->m.dropped[k];
    sc_info("pid %llu (%s): %s: %llu calls, %llu records written by this sidecar, %llu dropped",
            (unsigned long long)p->seg.info.pid, p->exe,
            final         ? "ended"
            : p->faulted  ? "abandoned (segment damaged)"
            : p->stalled  ? "segment kept undrained (no trace file could be created), for a later sidecar"
                          : "left for the next sidecar",
            (unsigned long long)p->m.calls, (unsigned long long)p->m.written, (unsigned long long)dropped);
}

const struct sc_proc_metrics *sc_proc_metrics(struct sc_proc *p)
{
    uint64_t lost;
    sc_output_totals(&p->out, &p->m.written, &lost, &p->m.bytes);
    p->m.files = p->out.files;
    if (p->an) {
        struct sc_stream_stats ss;
        sc_stream_stats(p->an, &ss);
        p->m.analyzed = ss.fed;
        p->m.late = ss.late;
        p->m.launches_undrawn = ss.launches_undrawn;
        p->m.replays = ss.replays;
        p->m.replays_unchecked = ss.replays_unchecked;
        p->m.unknown_layout_nodes = ss.unknown_layout_nodes;
        p->m.inferred_args = ss.inferred_args;
        const struct hv_findings *f = sc_stream_findings(p->an);
        memset(p->m.groups, 0, sizeof p->m.groups);
        memset(p->m.occurrences, 0, sizeof p->m.occurrences);
        memset(p->m.groups_sev, 0, sizeof p->m.groups_sev);
        for (size_t i = 0; i < f->ngroups; i++) {
            unsigned r = f->groups[i].f.rule;
            if (r < HV_RULE__COUNT) {
                p->m.groups[r]++;
                p->m.occurrences[r] += f->groups[i].count;
            }
            unsigned sev = f->groups[i].f.severity;
            if (sev <= HV_SEV_ERROR)
                p->m.groups_sev[sev]++;
        }
    }
    p->m.write_lost = lost;
    return &p->m;
}

const char *sc_proc_trace_path(const struct sc_proc *p) { return sc_output_path(&p->out); }

void sc_proc_free(struct sc_proc *p)
{
    if (!p)
        return;
    sc_stream_free(p->an);
    sc_segment_close(&p->seg);
    free(p->pos);
    free(p->state_before);
    free(p->scratch);
    free(p);
}
