#include "tracer/record/writer_thread.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/trace_writer.h"

#define HV_DRAIN_MS 2u

/* What this file accounts for: the collector's totals since the file was
 * opened, plus the records the file writer refused or could not write. */
static void file_totals(struct hv_writer_thread *w, uint64_t *made, uint64_t dropped[HV_DROP__COUNT])
{
    struct hv_trace_writer_stats st;
    hv_collector_totals(w->col, made, dropped);
    *made -= w->base_made;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        dropped[k] -= w->base_dropped[k];
    hv_trace_writer_stats(w->out, &st);
    dropped[HV_DROP_WRITE_ERROR] += w->write_errors + st.records_lost;
}

/* Process-wide drop totals, written whenever they change so that even a
 * trace cut short by a crash says how much was lost. */
static void write_drop_totals(struct hv_writer_thread *w, int force)
{
    uint64_t made, dropped[HV_DROP__COUNT], total = 0;
    file_totals(w, &made, dropped);
    for (int k = 0; k < HV_DROP__COUNT; k++)
        total += dropped[k];
    if (!force && total == w->last_drops_total)
        return;
    w->last_drops_total = total;
    struct hv_drops d;
    memset(&d, 0, sizeof d);
    d.h.type = HV_REC_DROPS;
    d.h.size = sizeof d;
    d.h.ts_ns = hv_mono_ns();
    memcpy(d.dropped, dropped, sizeof d.dropped);
    if (hv_trace_writer_add(w->out, &d.h) == 0)
        w->own_records++;
}

static int write_record(const struct hv_rec_header *rec, void *ctx)
{
    struct hv_writer_thread *w = ctx;
    /* The consumer owns the bytes until it releases the tail, so converting
     * the timestamp in place avoids copying every record. */
    ((struct hv_rec_header *)rec)->ts_ns = hv_clock_to_ns(&w->cal, rec->ts_ns);
    /* A chunk about to be written for being full carries the drop totals
     * too, not only the timed flush: a process that dies before its first
     * timed flush still leaves its losses in the frames it wrote. */
    if (hv_trace_writer_room(w->out) < (size_t)rec->size + sizeof(struct hv_drops))
        write_drop_totals(w, 0);
    if (hv_trace_writer_add(w->out, rec) != 0)
        w->write_errors++;
    return 0;
}

static int discard_record(const struct hv_rec_header *rec, void *ctx)
{
    (void)rec;
    (void)ctx;
    return 0;
}

static void say(const char *msg, int n)
{
    if (n > 0 && write(2, msg, (size_t)(n < 700 ? n : 699)) < 0) {
    }
}

/* Once per file, whatever HIPVIS_QUIET says: losing records is an error,
 * not chatter. The writer stops writing frames after the first failure (see
 * hv_trace_writer_flush); the records are counted as write_error. */
static void report_write_error(struct hv_writer_thread *w)
{
    struct hv_trace_writer_stats st;
    hv_trace_writer_stats(w->out, &st);
    if (!st.last_error || w->said_write_error)
        return;
    w->said_write_error = 1;
    char msg[700];
    int n = snprintf(msg, sizeof msg,
                     "hipvis: writing %s failed: %s; no more records are written to it, they are counted "
                     "as dropped (write_error) in its footer\n",
                     hv_trace_writer_path(w->out), strerror(-st.last_error));
    say(msg, n);
}

/* Empties the rings into the open chunk; with `flush`, also compresses and
 * writes the chunk as a frame. */
static long drain_locked(struct hv_writer_thread *w, int flush)
{
    hv_clock_refine(&w->cal);
    long got = hv_collector_drain(w->col, write_record, NULL, w);
    if (flush) {
        write_drop_totals(w, 0);
        hv_trace_writer_flush(w->out);
    }
    report_write_error(w);
    return got;
}

static void sleep_ms(uint32_t ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Page writes (the writer's own buffers once, then the next spare ring)
 * per pass: short enough that the rings never wait on them (a pass comes every 0.5-2 ms; a 4 MiB ring lasts
 * 23 ms at 1.5 M calls/s), long enough that a spare is ready ~10-70 ms
 * after a thread took the last one (1024 pages at 7-100 us each on this VM,
 * well under 1 ms in all on bare metal). */
#define HV_PREP_SLICE_NS 250000u

static void *writer_main(void *arg)
{
    struct hv_writer_thread *w = arg;
    struct hv_writer_stats *st = &w->stats;
    uint64_t t0 = hv_mono_ns(), last = 0;
    /* Converting ticks needs a rate measured over >= 1 ms. */
    while (!w->cal.refined) {
        sleep_ms(1);
        hv_clock_refine(&w->cal);
    }
    /* Rings are emptied every HV_DRAIN_MS, frames written every flush_ms:
     * a 1 MiB ring holds only ~15 ms of a busy decode loop with payloads,
     * while a frame per 2 ms would compress poorly. */
    uint32_t since_flush_us = 0;
    /* A drain that found more than an eighth of a ring's worth of records
     * (an eighth of 1 MiB at most, whatever the ring: ~1,100 records, so
     * from ~0.5 M calls/s on, the larger default ring changes nothing here)
     * (one busy thread at ~1 M calls/s fills a 1 MiB ring in ~9 ms) makes
     * the next nap a quarter as long: the rings are emptied sooner when
     * they fill fast, at no cost when they do not. */
    long busy = (long)(w->hdr.ring_kb < 1024 ? w->hdr.ring_kb : 1024) * 1024 / 8 / (long)sizeof(struct hv_call);
    /* The first pass comes right away, before anything that could take long
     * (the activating thread is already calling); every pass is followed by
     * a bounded slice of spare-ring work, then the nap. Nothing else runs on
     * this thread between two passes: encoding, compression and file
     * writes are the trace writer's thread's (hv_trace_writer_set_async). */
    while (atomic_load_explicit(&w->run, memory_order_acquire)) {
        uint64_t a = hv_mono_ns();
        if (!st->passes++)
            st->first_pass_ns = a - t0;
        else if (a - last > st->max_gap_ns)
            st->max_gap_ns = a - last;
        last = a;
        int flush = since_flush_us >= w->flush_ms * 1000;
        if (flush)
            since_flush_us = 0;
        long got = 0;
        pthread_mutex_lock(&w->lock);
        if (w->out)
            got = drain_locked(w, flush);
        pthread_mutex_unlock(&w->lock);
        uint64_t b = hv_mono_ns();
        if (b - a > st->max_pass_ns)
            st->max_pass_ns = b - a;
        if (got > 0 && (uint64_t)got > st->max_records)
            st->max_records = (uint64_t)got;
        /* Between two passes, a bounded slice of page writes: first this
         * thread's own chunk buffers (once), then the next spare ring after
         * a thread claimed the ready one (a scan of the slots when one is
         * ready). */
        int warming = 0;
        pthread_mutex_lock(&w->lock);
        if (w->out)
            warming = hv_trace_writer_warm(w->out, HV_PREP_SLICE_NS);
        pthread_mutex_unlock(&w->lock);
        if (!warming && hv_collector_prepare_step(w->col, &w->prep, HV_PREP_SLICE_NS) > 0)
            st->spares++;
        uint64_t c = hv_mono_ns();
        if (c - b > 20000) {   /* more than a scan: pages were written */
            st->prep_ns += c - b;
            if (c - b > st->max_prep_ns)
                st->max_prep_ns = c - b;
        }
        /* While the buffers are being warmed (the first ~10-20 ms), passes
         * come every slice: the activating thread is calling already. */
        uint32_t nap = warming || (busy > 0 && got > busy) ? HV_DRAIN_MS * 250 : HV_DRAIN_MS * 1000;
        if (nap > w->flush_ms * 1000)
            nap = w->flush_ms * 1000;
        struct timespec ts = {0, (long)nap * 1000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        since_flush_us += nap;
    }
    return NULL;
}

/* One line on stderr (see struct hv_writer_stats). */
static void say_stats(const struct hv_writer_thread *w)
{
    const struct hv_writer_stats *st = &w->stats;
    struct hv_trace_writer_stats ts;
    hv_trace_writer_stats(w->out, &ts);
    char msg[700];
    int n = snprintf(msg, sizeof msg,
                     "hipvis: writer: activation %.1f ms (compression thread %s by then); "
                     "%llu drain passes, first %.1f ms after start; longest gap between two "
                     "passes %.1f ms, longest pass %.1f ms, most records in one pass %llu; waited for "
                     "compression %.1f ms (longest %.1f ms); %llu spare rings readied, %.1f ms of page writes "
                     "(longest slice %.2f ms)\n",
                     (double)st->activation_ns / 1e6, st->ready ? "warm" : "still warming",
                     (unsigned long long)st->passes, (double)st->first_pass_ns / 1e6, (double)st->max_gap_ns / 1e6,
                     (double)st->max_pass_ns / 1e6, (unsigned long long)st->max_records, (double)ts.wait_ns / 1e6,
                     (double)ts.max_wait_ns / 1e6, (unsigned long long)st->spares, (double)st->prep_ns / 1e6,
                     (double)st->max_prep_ns / 1e6);
    say(msg, n);
}

void hv_writer_init(struct hv_writer_thread *w, struct hv_collector *col, const char *path_template,
                    int level, uint32_t flush_ms, int quiet)
{
    memset(w, 0, sizeof *w);
    w->col = col;
    snprintf(w->path_template, sizeof w->path_template, "%s", path_template);
    w->level = level;
    w->flush_ms = flush_ms;
    w->quiet = quiet;
    pthread_mutex_init(&w->lock, NULL);
    hv_clock_init(&w->cal);
}

int hv_writer_start(struct hv_writer_thread *w, const struct hv_file_header *hdr)
{
    int rc;
    pthread_mutex_lock(&w->lock);
    if (w->running) {
        pthread_mutex_unlock(&w->lock);
        return 0;
    }
    w->hdr = *hdr;
    rc = hv_trace_writer_open(w->path_template, &w->hdr, w->level, &w->out);
    if (rc != 0) {
        char msg[700];
        int n = snprintf(msg, sizeof msg, "hipvis: HIPVIS_OUTPUT=\"%s\": cannot create the trace: %s; tracing disabled\n",
                         w->path_template, strerror(-rc));
        say(msg, n);
        pthread_mutex_unlock(&w->lock);
        return rc;
    }
    /* Encoding and compression run on the trace writer's own thread, so a
     * full chunk never stops this thread from emptying the rings (without
     * it, the writer compresses inline: slower to drain, nothing lost). */
    hv_trace_writer_set_async(w->out);
    /* A second file of this process (exec failed): records still in the
     * rings were counted in the first file's footer as in flight; the
     * counters start again from here. */
    hv_collector_drain(w->col, discard_record, NULL, w);
    hv_collector_totals(w->col, &w->base_made, w->base_dropped);
    w->base_calls = w->last_calls;
    w->write_errors = 0;
    w->own_records = 0;
    w->last_drops_total = 0;
    w->said_write_error = 0;
    /* The thread takes no signals: they belong to the application's threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    atomic_store_explicit(&w->run, 1, memory_order_release);
    rc = pthread_create(&w->thread, NULL, writer_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        atomic_store_explicit(&w->run, 0, memory_order_release);
        hv_trace_writer_abandon(w->out);
        w->out = NULL;
        pthread_mutex_unlock(&w->lock);
        return -rc;
    }
    w->running = 1;
    if (!w->quiet) {
        char msg[700];
        int n = snprintf(msg, sizeof msg, "hipvis: tracing pid %llu to %s\n", (unsigned long long)hdr->pid,
                         hv_trace_writer_path(w->out));
        if (n > 0 && write(2, msg, (size_t)n) < 0) {
        }
    }
    pthread_mutex_unlock(&w->lock);
    return 0;
}

void hv_writer_activated(struct hv_writer_thread *w)
{
    w->stats.ready = hv_trace_writer_ready(w->out);
    w->stats.activation_ns = hv_mono_ns() - w->hdr.start_ns;
}

void hv_writer_stop(struct hv_writer_thread *w, uint64_t calls)
{
    pthread_mutex_lock(&w->lock);
    if (!w->running) {
        pthread_mutex_unlock(&w->lock);
        return;
    }
    atomic_store_explicit(&w->run, 0, memory_order_release);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    hv_ring_prep_discard(&w->prep);
    pthread_mutex_lock(&w->lock);
    while (!w->cal.refined) {
        sleep_ms(1);
        hv_clock_refine(&w->cal);
    }
    drain_locked(w, 1);
    /* Chunks still queued for compression must be written (or counted
     * lost) before the totals are final. */
    hv_trace_writer_sync(w->out);
    struct hv_trace_writer_stats st;
    hv_trace_writer_stats(w->out, &st);
    struct hv_file_footer f;
    memset(&f, 0, sizeof f);
    memcpy(f.magic, HV_FOOTER_MAGIC, sizeof f.magic);
    file_totals(w, &f.records_made, f.dropped);
    /* The file also holds the writer's own drop-total records; count them as
     * made so that written + dropped == made holds for the footer as read. */
    f.records_made += w->own_records;
    f.calls = calls - w->base_calls;
    w->last_calls = calls;
    f.records_written = st.records_written;
    uint64_t accounted = f.records_written, dropped = 0;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        accounted += f.dropped[k];
    /* Records reserved by threads still running when we stopped. */
    if (f.records_made > accounted)
        f.dropped[HV_DROP_IN_FLIGHT_AT_EXIT] += f.records_made - accounted;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        dropped += f.dropped[k];
    f.end_ns = hv_mono_ns();
    if (!w->quiet && !w->no_end_line) {
        char msg[1400];
        /* One line, and what to run next (as heaptrack does); the path is
         * quoted when a shell would split it. */
        const char *path = hv_trace_writer_path(w->out);
        int plain = strpbrk(path, " \t\"\\$`&;|<>()*?!#~") == NULL || strchr(path, '\'');
        int n = snprintf(msg, sizeof msg,
                         "hipvis: %s: %llu calls, %llu records written, %llu dropped%s; next: hipvis-analyze %s%s%s\n",
                         path, (unsigned long long)f.calls, (unsigned long long)f.records_written,
                         (unsigned long long)dropped, f.dropped[HV_DROP_WRITE_ERROR] ? " (write errors: see above)" : "",
                         plain ? "" : "'", path, plain ? "" : "'");
        if (n > 0 && write(2, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1)) < 0) {
        }
    }
    if (w->print_stats || (!w->quiet && f.dropped[HV_DROP_RING_FULL]))
        say_stats(w);
    memset(&w->stats, 0, sizeof w->stats);
    hv_trace_writer_close(w->out, &f);
    w->out = NULL;
    w->running = 0;
    pthread_mutex_unlock(&w->lock);
}

void hv_writer_forget_after_fork(struct hv_writer_thread *w)
{
    pthread_mutex_init(&w->lock, NULL);
    atomic_store_explicit(&w->run, 0, memory_order_relaxed);
    if (w->out)
        hv_trace_writer_abandon(w->out);
    hv_ring_prep_discard(&w->prep);
    memset(&w->stats, 0, sizeof w->stats);
    w->out = NULL;
    w->running = 0;
    w->write_errors = 0;
    w->last_drops_total = 0;
    w->own_records = 0;
    w->said_write_error = 0;
    w->base_made = w->base_calls = w->last_calls = 0;
    memset(w->base_dropped, 0, sizeof w->base_dropped);
}
