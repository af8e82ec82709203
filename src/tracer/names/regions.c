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
 */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "tracer/names/names_int.h"

static _Atomic int recording = 1;
static _Atomic uint64_t skipped;
static _Atomic uint32_t toggles, toggles_marked;
static struct sigaction previous;

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

static void regions_setup(const struct hv_config *cfg)
{
    hv_hot.data_gate = cfg->start != HV_START_ALL;
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
