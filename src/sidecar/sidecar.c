/* The sidecar's main loop; see sidecar/sidecar.h. */
#include "sidecar/sidecar.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ring/clock.h"
#include "common/envtab.h"
#include "common/grow.h"
#include "common/safe_file.h"
#include "sidecar/alerts.h"
#include "sidecar/diskcap.h"
#include "sidecar/guard.h"
#include "sidecar/log.h"
#include "sidecar/metrics.h"
#include "sidecar/proc.h"
#include "sidecar/scan.h"
#include "sidecar/segment.h"

#define PENDING_TIMEOUT_NS (2000ull * 1000000ull)   /* a header that never completes is corrupt */
#define OVER_CHECK_NS (100ull * 1000000ull)
#define CAP_CHECK_NS (5000ull * 1000000ull)
#define MAX_ENDED 1024                              /* ended processes whose series are kept */
/* Ended processes whose trace file cannot be created, held (and their open
 * retried) at once; beyond, a segment is left on disk for a later sidecar,
 * untouched by this one (docs/sidecar.md, "Output trouble"). */
#define MAX_STALLED_HELD 64

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

void sc_options_default(struct sc_options *o)
{
    memset(o, 0, sizeof *o);
    o->segment_dir = hv_env_value(HV_ENV_SIDECAR_DIR);   /* where the preload library puts them */
    o->output_dir = ".";
    o->rotate_bytes = 256ull << 20;
    o->rotate_s = 3600;
    o->cap_bytes = 10ull << 30;
    o->level = 1;
    o->interval_ms = 10;
    o->scan_ms = 1000;
    o->metrics_ms = 1000;
    o->metrics_keep_s = 300;
    o->closed_grace_ms = 1000;
    o->nice = -10;
    o->analyze = 1;
}

struct sidecar {
    const struct sc_options *o;
    struct sc_proc_cfg pcfg;
    struct sc_scan scan;
    struct sc_alerts alerts;
    struct sc_proc **procs;
    size_t nprocs, capprocs;
    struct sc_proc_metrics *ended;    /* counters of ended processes, kept a while */
    size_t nended, capended;
    struct sc_node_metrics node;
    uint64_t now;
};

/* ---- discovery ---- */

static void add_proc(struct sidecar *sc, struct sc_proc *p)
{
    if (!HV_GROW(sc->procs, sc->nprocs, sc->capprocs, 16)) {
        sc_log("out of memory: pid %llu not drained", (unsigned long long)p->seg.info.pid);
        sc_proc_free(p);
        return;
    }
    sc->procs[sc->nprocs++] = p;
}

static void consider(void *ctx, struct sc_seen *e)
{
    struct sidecar *sc = ctx;
    struct sc_segment seg;
    char why[512];
    enum sc_open_status st = sc_segment_open(&seg, sc->o->segment_dir, e->name, why, sizeof why);
    switch (st) {
    case SC_SEG_OK: {
        struct sc_proc *p = sc_proc_new(&sc->pcfg, &seg);
        if (p) {
            add_proc(sc, p);
            e->state = SC_SEEN_ACTIVE;
        } else {
            sc_log("%s: out of memory; skipped", e->name);
            e->state = SC_SEEN_SKIPPED;
        }
        break;
    }
    case SC_SEG_NOT_READY:
        if (e->state != SC_SEEN_PENDING) {
            e->state = SC_SEEN_PENDING;
            e->since_ns = sc->now;
        } else if (sc->now - e->since_ns > PENDING_TIMEOUT_NS) {
            sc_log("corrupt segment %s/%s: %s after 2 s; skipped", sc->o->segment_dir, e->name, why);
            sc->node.corrupt++;
            e->state = SC_SEEN_SKIPPED;
        }
        break;
    case SC_SEG_REFUSED:
        sc_log("refused segment %s/%s: %s", sc->o->segment_dir, e->name, why);
        sc->node.refused++;
        e->state = SC_SEEN_SKIPPED;
        break;
    case SC_SEG_CORRUPT:
        sc_log("corrupt segment %s/%s: %s; skipped", sc->o->segment_dir, e->name, why);
        sc->node.corrupt++;
        e->state = SC_SEEN_SKIPPED;
        break;
    case SC_SEG_BUSY:
        if (e->state != SC_SEEN_BUSY) {
            sc_log("segment %s/%s is drained by another sidecar; left alone", sc->o->segment_dir, e->name);
            sc->node.busy++;
        }
        e->state = SC_SEEN_BUSY;
        break;
    case SC_SEG_GONE:
        sc_scan_forget(&sc->scan, e->name);
        break;
    }
}

/* ---- processes that end ---- */

static void retire(struct sidecar *sc, size_t i, int final)
{
    struct sc_proc *p = sc->procs[i];
    sc_proc_end(p, final);
    (void)HV_GROW(sc->ended, sc->nended, sc->capended, 16);
    if (sc->nended == MAX_ENDED) {
        /* Many short-lived processes: the oldest series goes first. */
        size_t oldest = 0;
        for (size_t k = 1; k < sc->nended; k++)
            if (sc->ended[k].ended_ns < sc->ended[oldest].ended_ns)
                oldest = k;
        sc->ended[oldest] = sc->ended[--sc->nended];
    }
    if (sc->nended < sc->capended)
        sc->ended[sc->nended++] = *sc_proc_metrics(p);
    const char *name = strrchr(p->seg.path, '/');
    name = name ? name + 1 : p->seg.path;
    /* A kept segment is not picked up again by this sidecar (it would only
     * stall again); a forgotten one is looked at afresh if it reappears. */
    if (p->stalled && !p->final)
        sc_scan_keep(&sc->scan, name);
    else
        sc_scan_forget(&sc->scan, name);
    sc_proc_free(p);
    sc->procs[i] = sc->procs[--sc->nprocs];
}

static void end_finished(struct sidecar *sc)
{
    size_t held = 0;
    for (size_t i = sc->nprocs; i-- > 0;) {
        struct sc_proc *p = sc->procs[i];
        if (!sc_proc_is_over(p, sc->now))
            continue;
        /* Its records are still in the segment: keep retrying the output. */
        if (p->stalled && !p->faulted && held < MAX_STALLED_HELD) {
            held++;
            continue;
        }
        retire(sc, i, !p->faulted);
    }
    uint64_t keep = (uint64_t)sc->o->metrics_keep_s * 1000000000ull;
    for (size_t i = sc->nended; i-- > 0;)
        if (sc->now > sc->ended[i].ended_ns && sc->now - sc->ended[i].ended_ns > keep)
            sc->ended[i] = sc->ended[--sc->nended];
}

/* ---- disk cap and metrics ---- */

static int is_open(void *ctx, const char *path)
{
    struct sidecar *sc = ctx;
    for (size_t i = 0; i < sc->nprocs; i++) {
        const char *p = sc_proc_trace_path(sc->procs[i]);
        if (p && strcmp(p, path) == 0)
            return 1;
    }
    return 0;
}

static void enforce_cap(struct sidecar *sc)
{
    struct sc_diskcap_result r;
    sc_diskcap_enforce(sc->o->output_dir, sc->o->cap_bytes, is_open, sc, &r);
    sc->node.disk_bytes = r.total_bytes;
    sc->node.files_deleted += r.deleted_files;
    sc->node.bytes_deleted += r.deleted_bytes;
    static int warned;
    if (r.over && !warned)
        sc_log("disk cap %llu bytes exceeded by files still being written (%llu bytes): lower --rotate-size",
               (unsigned long long)sc->o->cap_bytes, (unsigned long long)r.total_bytes);
    warned = r.over;
}

static void write_metrics(struct sidecar *sc)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sc->node.cpu_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
    sc->node.cpu_system_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    sc->node.alerts = sc->alerts.written;
    size_t n = sc->nprocs + sc->nended;
    const struct sc_proc_metrics **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < sc->nprocs; i++)
        v[i] = sc_proc_metrics(sc->procs[i]);
    for (size_t i = 0; i < sc->nended; i++)
        v[sc->nprocs + i] = &sc->ended[i];
    int rc = sc_metrics_write(sc->o->metrics, &sc->node, v, n);
    static int failed;
    if (rc != 0 && !failed)
        sc_log("metrics: cannot write %s: %s", sc->o->metrics, strerror(-rc));
    failed = rc != 0;
    free(v);
}

/* ---- main loop ---- */

/* How long to wait before the next cycle, from how full the fullest ring
 * was: a ring found a quarter full would fill in about three more periods
 * at that rate, so drain again at once; an eighth, soon. Producers never
 * wait for the sidecar, so lateness costs records, not time. */
static int next_wait_ms(int interval_ms, double fill)
{
    if (fill >= 0.25)
        return 0;
    if (fill >= 0.125)
        return interval_ms > 4 ? interval_ms / 4 : 1;
    return interval_ms;
}

static int setup(struct sidecar *sc, const struct sc_options *o)
{
    memset(sc, 0, sizeof *sc);
    sc->o = o;
    sc_log_quiet = o->quiet;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;  /* no SA_RESTART: poll returns at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Producers never wait for the sidecar, so a sidecar that waits for a
     * CPU costs records: on a busy node it must win the CPU when it wakes.
     * It uses little of it (docs/sidecar.md, "Sizing and cost"). */
    if (o->nice && setpriority(PRIO_PROCESS, 0, o->nice) != 0)
        sc_log("note: cannot set nice %d (%s); draining at normal priority (run as root, with CAP_SYS_NICE, "
               "or set Nice= in the service unit)", o->nice, strerror(errno));
    if (sc_guard_install() != 0) {
        sc_log("cannot install the SIGBUS handler: %s", strerror(errno));
        return -1;
    }
    if (mkdir(o->output_dir, 0750) != 0 && errno != EEXIST) {
        sc_log("cannot create the output directory %s: %s", o->output_dir, strerror(errno));
        return -1;
    }
    /* Refuse unusable output paths now, like --alerts, rather than start,
     * drain nothing and count every record as dropped. */
    struct stat ost;
    const char *why = NULL;
    if (stat(o->output_dir, &ost) != 0)
        why = strerror(errno);
    else if (!S_ISDIR(ost.st_mode))
        why = "not a directory";
    else if (access(o->output_dir, W_OK | X_OK) != 0)
        why = strerror(errno);
    if (why) {
        sc_log("-o %s: cannot create traces there: %s", o->output_dir, why);
        return -1;
    }
    if (o->metrics) {
        int mrc = hv_file_dir_usable(o->metrics);
        if (mrc != 0) {
            sc_log("--metrics %s: its directory is not usable: %s", o->metrics, strerror(-mrc));
            return -1;
        }
    }
    int rc = sc_scan_open(&sc->scan, o->segment_dir);
    if (rc != 0) {
        sc_log("cannot read the segment directory %s: %s", o->segment_dir, strerror(-rc));
        return -1;
    }
    /* The producers pay for a disk-backed --dir (record/shm_layout.h); the
     * operator reads this log, so it is said here too. */
    int dfd = open(o->segment_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char fs[32];
    if (dfd >= 0 && hv_shm_fs_in_memory(dfd, fs, sizeof fs) == 0)
        sc_log("warning: --dir %s is on %s, not a memory filesystem: the kernel writes the traced processes' rings "
               "back to disk every ~30 s and each page written back costs them a page fault; use a tmpfs such as "
               "/dev/shm", o->segment_dir, fs);
    if (dfd >= 0)
        close(dfd);
    rc = sc_alerts_open(&sc->alerts, o->alerts);
    if (rc != 0) {
        sc_log("cannot open the alerts file %s: %s", o->alerts, strerror(-rc));
        return -1;
    }
    sc->pcfg.out.dir = o->output_dir;
    sc->pcfg.out.level = o->level;
    sc->pcfg.out.rotate_bytes = o->rotate_bytes;
    sc->pcfg.out.rotate_ns = o->rotate_s * 1000000000ull;
    sc->pcfg.analyze = o->analyze;
    sc->pcfg.rules_disabled = o->rules_disabled;
    sc->pcfg.closed_grace_ns = (uint64_t)o->closed_grace_ms * 1000000ull;
    sc->pcfg.alerts = o->alerts ? &sc->alerts : NULL;
    sc->node.start_realtime_s = (uint64_t)time(NULL);
    if (o->cap_bytes && o->rotate_bytes * 8 > o->cap_bytes)
        sc_log("note: --disk-cap %llu is below 8 x --rotate-size: with 8 processes at once the files being "
               "written alone may exceed it", (unsigned long long)o->cap_bytes);
    sc_info("hipvis-sidecar %s: segments in %s, traces to %s, streaming analysis %s, alerts to %s, metrics to %s",
            HIPVIS_VERSION, o->segment_dir, o->output_dir, o->analyze ? "on" : "off", o->alerts ? o->alerts : "(none)",
            o->metrics ? o->metrics : "(none)");
    return 0;
}

int sc_run(const struct sc_options *o)
{
    struct sidecar sc;
    if (setup(&sc, o) != 0)
        return 1;
    uint64_t last_scan = 0, last_over = 0, last_cap = 0, last_metrics = 0, last_cycle = 0;
    int cap_due = 1;
    double fill = 0;
    while (!stop_requested) {
        sc.now = hv_mono_ns();
        int full = last_scan == 0 || sc.now - last_scan >= (uint64_t)o->scan_ms * 1000000ull;
        if (full)
            last_scan = sc.now;
        sc_scan_poll(&sc.scan, next_wait_ms(o->interval_ms, fill), full, consider, &sc);
        sc.now = hv_mono_ns();
        if (last_cycle && sc.now - last_cycle > sc.node.cycle_gap_max_ns)
            sc.node.cycle_gap_max_ns = sc.now - last_cycle;
        last_cycle = sc.now;
        fill = 0;
        for (size_t i = 0; i < sc.nprocs; i++) {
            sc_proc_cycle(sc.procs[i], &fill);
            cap_due |= sc_proc_maybe_rotate(sc.procs[i], sc.now);
        }
        if (fill > sc.node.ring_fill_max)
            sc.node.ring_fill_max = fill;
        sc.node.cycles++;
        if (sc.now - last_over >= OVER_CHECK_NS) {
            last_over = sc.now;
            size_t before = sc.nprocs;
            end_finished(&sc);
            cap_due |= sc.nprocs != before;
        }
        if (o->cap_bytes && (cap_due || sc.now - last_cap >= CAP_CHECK_NS)) {
            enforce_cap(&sc);
            last_cap = sc.now;
            cap_due = 0;
        }
        if (o->metrics && sc.now - last_metrics >= (uint64_t)o->metrics_ms * 1000000ull) {
            write_metrics(&sc);
            last_metrics = sc.now;
        }
        uint64_t work = hv_mono_ns() - sc.now;
        if (work > sc.node.cycle_work_max_ns)
            sc.node.cycle_work_max_ns = work;
    }
    sc_info("shutting down: draining %zu processes", sc.nprocs);
    sc.now = hv_mono_ns();
    /* Processes still running keep their segments for the next sidecar. */
    for (size_t i = sc.nprocs; i-- > 0;)
        retire(&sc, i, !sc.procs[i]->faulted && !sc_segment_pid_alive(&sc.procs[i]->seg));
    if (o->cap_bytes)
        enforce_cap(&sc);
    if (o->metrics)
        write_metrics(&sc);
    sc_alerts_close(&sc.alerts);
    sc_scan_close(&sc.scan);
    free(sc.procs);
    free(sc.ended);
    sc_info("stopped");
    return 0;
}
