/*
 * HIPVIS_START (docs/names.md): "profiler" records data calls only between
 * hip/cuda/cuProfilerStart and ...Stop (what torch.cuda.profiler.start()
 * calls); "signal" starts paused and toggles on each SIGUSR2. Data calls are
 * async copies, memsets, kernel and graph launches outside stream capture.
 * Everything findings need to stay exact inside the window is recorded
 * always: allocations, module loads, captures, instantiations, streams,
 * events, synchronizations, blocking copies. Skipped calls are counted and
 * the count travels in the RECORD_ON/OFF marks, so the report can say what
 * it did not see.
 *
 * The SIGUSR2 handler is installed only with HIPVIS_START=signal; it chains
 * a handler that was there before, and only flips a flag: the mark is
 * written by the next data call (a handler must not touch the rings).
 *
 * On top of the mode, HIPVIS_START_DELAY_MS / HIPVIS_DURATION_MS (hipvis
 * run --delay / --duration) close the window outside a stretch of time: the
 * data call itself reads the clock, so no thread, timer or signal is added to
 * the program, and the first data call past either bound writes the mark.
 */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "common/mono.h"
#include "tracer/names/names_int.h"

static _Atomic int recording = 1;
static _Atomic uint64_t skipped;
static _Atomic uint32_t toggles, toggles_marked;
static struct sigaction previous;

/* The delay / duration window as CLOCK_MONOTONIC bounds [from, to); the
 * phase (0 before, 1 inside, 2 after) that the last mark said. */
static int window_set;
static uint64_t window_from, window_to;
static _Atomic int window_marked;


static void on_sigusr2(int sig, siginfo_t *info, void *uc)
{
    atomic_fetch_xor(&recording, 1);
    atomic_fetch_add(&toggles, 1);
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction)
            previous.sa_sigaction(sig, info, uc);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) {
        previous.sa_handler(sig);
    }
}

static int window_phase(uint64_t now) { return now < window_from ? 0 : now < window_to ? 1 : 2; }

/* The bounds are counted from the launch (HIPVIS_LAUNCH_TIME_NS, which
 * hipvis run sets for the whole job) on the wall clock, the one clock every
 * process of a job shares, and turned into monotonic time once, here; with
 * no launch time, from this process's start. */
static void window_setup(const struct hv_config *cfg)
{
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    uint64_t now = hv_mono_ns();
    int64_t now_real = (int64_t)real.tv_sec * 1000000000 + real.tv_nsec;
    int64_t since = cfg->launch_time_ns ? now_real - (int64_t)cfg->launch_time_ns : 0;
    const int64_t far = (int64_t)1 << 62;   /* no overflow below, whatever the launch time says */
    since = since > far ? far : since < -far ? -far : since;
    int64_t from = (int64_t)cfg->start_delay_ms * 1000000 - since;   /* from now on, ns */
    window_from = from <= 0 ? 0 : from >= far - (int64_t)now ? (uint64_t)far : now + (uint64_t)from;
    window_to = cfg->duration_ms ? window_from + cfg->duration_ms * 1000000u : UINT64_MAX;
    window_set = 1;
    atomic_store(&window_marked, window_phase(now));
}

/* Whether the data call now in progress is inside the window; the first
 * call in a new phase writes the mark. */
static int in_window(struct hv_thread_ctx *t)
{
    int phase = window_phase(hv_mono_ns());
    int seen = atomic_load(&window_marked);
    if (phase != seen && atomic_compare_exchange_strong(&window_marked, &seen, phase))
        hv_mark_in_call(t, phase == 1 ? HV_MARK_RECORD_ON : HV_MARK_RECORD_OFF, HV_MARK_TIMER, atomic_load(&skipped));
    return phase == 1;
}

static void regions_setup(const struct hv_config *cfg)
{
    if (cfg->start_delay_ms || cfg->duration_ms)
        window_setup(cfg);
    hv_hot.data_gate = cfg->start != HV_START_ALL || window_set;
    atomic_store(&recording, cfg->start == HV_START_ALL);
    if (cfg->start == HV_START_SIGNAL) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigusr2;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGUSR2, &sa, &previous);
    }
}

static uint32_t regions_header_flags(void) { return hv_hot.data_gate ? HV_HDR_REGIONS : 0; }

int hv_data_skip_slow(struct hv_thread_ctx *t, uint64_t stream)
{
    uint32_t n = atomic_load(&toggles), seen = atomic_load(&toggles_marked);
    int on = atomic_load(&recording);
    if (n != seen && atomic_compare_exchange_strong(&toggles_marked, &seen, n))
        hv_mark_in_call(t, on ? HV_MARK_RECORD_ON : HV_MARK_RECORD_OFF, HV_MARK_SIGNAL, atomic_load(&skipped));
    if (window_set && !in_window(t))
        on = 0;
    if (on)
        return 0;
    struct hv_stream_state *s = stream ? hv_stream_get(hv_hot.streams, stream, t->device) : NULL;
    if (s && atomic_load_explicit(&s->capture_id, memory_order_acquire))
        return 0;
    atomic_fetch_add_explicit(&skipped, 1, memory_order_relaxed);
    return 1;
}

void hv_trace_profiler(struct hv_thread_ctx *t, uint16_t api, int32_t r, int on)
{
    struct hv_call *c = hv_call_begin(t, api, r);
    hv_call_commit(t, c);
    /* Without HIPVIS_START=profiler the marks still show the window the
     * program profiled; the trace header says nothing was skipped. */
    if (hv_tracer_cfg.start == HV_START_PROFILER && r == 0)
        atomic_store(&recording, on);
    hv_mark_in_call(t, on ? HV_MARK_RECORD_ON : HV_MARK_RECORD_OFF, HV_MARK_PROFILER, atomic_load(&skipped));
}

HV_FEATURE(regions, .name = "regions", .setup = regions_setup, .header_flags = regions_header_flags);
