/*
 * hipvis run after its options: what it adds to the job's environment, the
 * command as a child, the traces' end lines, and the command's end as its
 * own. tools/hipvis.c parses the options and sets LD_PRELOAD and
 * HIPVIS_OUTPUT; this does the rest.
 *
 * Environment, each variable the user set already kept as it is:
 *   NVTX_INJECTION64_PATH  the preloaded libhipvis.so, so that NVTX ranges
 *                          and marks are recorded (src/tracer/names/nvtx.c;
 *                          roctx needs nothing: it is interposed by name).
 *                          No NVTX_INJECTION32_PATH: a 32-bit process cannot
 *                          load the 64-bit library anyway.
 *   HIPVIS_START_DELAY_MS, HIPVIS_DURATION_MS  from --delay / --duration
 *                          (the options win over the environment), and
 *   HIPVIS_LAUNCH_TIME_NS  the launch, when a window is set: every traced
 *                          process of the job, however late it starts,
 *                          counts the window from it (regions.c).
 *   HIPVIS_QUIET=1         --quiet.
 *   HIPVIS_END_LINE=0      when the launcher prints the end lines itself.
 */
#ifndef HIPVIS_CLI_LAUNCH_RUN_H
#define HIPVIS_CLI_LAUNCH_RUN_H

struct hv_launch_run {
    const char *prog;         /* "hipvis run": prefixes every message */
    const char *lib;          /* the libhipvis.so put in LD_PRELOAD */
    long long delay_ms;       /* --delay, -1 when not given */
    long long duration_ms;    /* --duration, -1 when not given */
    int quiet;                /* --quiet */
    int verbose;              /* --verbose: what was set up, on stderr */
};

/* Runs argv traced as above and returns the command's exit status, or
 * ends by the signal that ended it (launch_child.h); 127, 126 or 2 when it
 * could not be started. */
int hv_launch_run(const struct hv_launch_run *o, char **argv);

/* "2", "2.5", "0.25": seconds as ms into *ms, 0..2147483647 ms; -1 when s
 * is not such a number. */
int hv_launch_seconds(const char *s, long long *ms);

#endif
