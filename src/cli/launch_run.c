/*
 * hipvis run's job: environment, child, end lines (launch_run.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/launch_child.h"
#include "cli/launch_run.h"
#include "cli/launch_summary.h"
#include "common/envtab.h"

static const char *name_of(enum hv_env_id id) { return hv_env_table[id].name; }

static int user_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* The value of a 0|1 or number setting, its default when unset or bad
 * (a bad one is the library's to name). */
static long long setting(enum hv_env_id id)
{
    long long v = 0;
    if (hv_env_parse(id, getenv(name_of(id)), &v) != 0)
        hv_env_parse(id, NULL, &v);
    return v;
}

static void set_ms(enum hv_env_id id, long long ms)
{
    char v[24];
    snprintf(v, sizeof v, "%lld", ms);
    setenv(name_of(id), v, 1);
}

/* NVTX hands its calls to the library NVTX_INJECTION64_PATH names; another
 * tool's (nsys sets it) is left alone. */
static void nvtx(const struct hv_launch_run *o)
{
    const char *v = getenv("NVTX_INJECTION64_PATH");
    if (!v || !*v) {
        setenv("NVTX_INJECTION64_PATH", o->lib, 1);
        if (o->verbose)
            fprintf(stderr, "%s: NVTX_INJECTION64_PATH=%s: NVTX ranges and marks are recorded\n", o->prog, o->lib);
    } else if (o->verbose && strcmp(v, o->lib) != 0) {
        fprintf(stderr, "%s: NVTX_INJECTION64_PATH=%s was set: kept, so NVTX ranges go to that library, not into "
                        "the trace\n",
                o->prog, v);
    }
}

/* --delay / --duration, and the launch time every process counts them from. */
static void window(const struct hv_launch_run *o)
{
    if (o->delay_ms >= 0)
        set_ms(HV_ENV_START_DELAY_MS, o->delay_ms);
    if (o->duration_ms >= 0)
        set_ms(HV_ENV_DURATION_MS, o->duration_ms);
    long long delay = setting(HV_ENV_START_DELAY_MS), duration = setting(HV_ENV_DURATION_MS);
    if (!delay && !duration)
        return;
    if (!user_set(name_of(HV_ENV_LAUNCH_TIME_NS))) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        set_ms(HV_ENV_LAUNCH_TIME_NS, (long long)now.tv_sec * 1000000000 + now.tv_nsec);
    }
    if (o->verbose) {
        fprintf(stderr, "%s: data calls are recorded from %.3f s after the launch", o->prog, (double)delay / 1e3);
        if (duration)
            fprintf(stderr, " for %.3f s", (double)duration / 1e3);
        fputs(" (the command runs on either side)\n", stderr);
    }
}

int hv_launch_run(const struct hv_launch_run *opts, char **argv)
{
    struct hv_launch_run job = *opts, *o = &job;
    if (o->quiet)
        setenv(name_of(HV_ENV_QUIET), "1", 1);
    o->verbose = o->verbose && !setting(HV_ENV_QUIET);   /* quiet wins */
    nvtx(o);
    window(o);
    /* The end lines are the launcher's unless nobody is to hear them or
     * hipvis-sidecar writes the traces. */
    struct hv_launch_traces *traces = NULL;
    if (!setting(HV_ENV_QUIET) && !setting(HV_ENV_SIDECAR) && setting(HV_ENV_ENABLE))
        traces = hv_launch_traces_before(hv_env_value(HV_ENV_OUTPUT));
    if (traces && !user_set(name_of(HV_ENV_END_LINE)))
        setenv(name_of(HV_ENV_END_LINE), "0", 1);
    int status;
    int rc = hv_launch_run_child(o->prog, argv, &status);
    if (rc != 0) {
        hv_launch_traces_free(traces);
        return rc;
    }
    hv_launch_summary(traces, stderr);
    return hv_launch_exit_like(status);
}

int hv_launch_seconds(const char *s, long long *ms)
{
    char *end;
    if (!strchr("0123456789.", *s) || strpbrk(s, "xXnN"))   /* no sign, blank, hex, inf or nan */
        return -1;
    double v = strtod(s, &end);
    if (end == s || *end || !(v * 1e3 <= 2147483647.0))
        return -1;
    *ms = llround(v * 1e3);
    return 0;
}
