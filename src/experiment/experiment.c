/*
 * experiment: `hipvis experiment [-n RUNS] [--arms LIST] [--timeout S]
 * [--fail-pattern RE] -o DIR -- CMD [ARGS...]` (docs/experiment.md).
 *
 * Runs the job RUNS times per arm, arms interleaved (one run of every
 * undecided arm per round, the order rotated each round so a drift of the
 * machine spreads over all arms), each run traced into DIR/ARM/K/. The
 * first baseline run tells the runtime and its version, which picks the
 * arms and their knob names. After every round the symptom rates are
 * compared; when every arm has either removed the symptom or shown it, the
 * rounds stop. The decision report goes to stdout, DIR/report.txt and
 * DIR/report.json.
 */
#include "experiment/experiment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "experiment/ex_int.h"

enum { OPT_RUNS, OPT_ARMS, OPT_TIMEOUT, OPT_PATTERN, OPT_DIR };

static const struct hv_cli_opt opts[] = {
    {"runs", 'n', HV_CLI_VALUE, OPT_RUNS, "RUNS", "runs per arm at most (default 10; rounds stop early once decided)"},
    {"arms", 0, HV_CLI_VALUE, OPT_ARMS, "LIST", "comma list of arms (default: all that apply; see below)"},
    {"timeout", 0, HV_CLI_VALUE, OPT_TIMEOUT, "S", "kill a run after S seconds and count it as a hang (default 600)"},
    {"fail-pattern", 0, HV_CLI_VALUE, OPT_PATTERN, "RE",
     "extended regex: a line of the job's output matching it is the symptom"},
    {"output-dir", 'o', HV_CLI_VALUE, OPT_DIR, "DIR", "traces, logs and the report (required)"},
    {0},
};

struct args {
    int runs;
    double timeout;
    const char *arms, *pattern, *dir;
};

static int on_opt(void *ctx, int id, const char *v)
{
    struct args *a = ctx;
    switch (id) {
    case OPT_RUNS: return hv_cli_int(v, 1, EX_MAX_RUNS, &a->runs);
    case OPT_ARMS: a->arms = v; return 0;
    case OPT_TIMEOUT: {
        int t;
        if (hv_cli_int(v, 1, 86400 * 7, &t) != 0)
            return -1;
        a->timeout = t;
        return 0;
    }
    case OPT_PATTERN: a->pattern = v; return 0;
    default: a->dir = v; return 0;
    }
}

/* Writes `len` bytes to DIR/name, 0600, never through a symlink. */
static FILE *create_file(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "hipvis experiment: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    return f;
}

static int one_run(const struct ex_job *job, const struct ex_arm *arms, int a, int k, const char *dir,
                   struct ex_run *r)
{
    char adir[4200], rdir[4300];
    snprintf(adir, sizeof adir, "%s/%s", dir, arms[a].name);
    if (mkdir(adir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "hipvis experiment: cannot create %s: %s\n", adir, strerror(errno));
        return -1;
    }
    snprintf(rdir, sizeof rdir, "%s/%d", adir, k);
    memset(r, 0, sizeof *r);
    r->arm = a;
    r->index = k;
    ex_run_job(job, &arms[a], rdir, r);
    if (r->spawn_failed)
        return -1;
    ex_measure(rdir, r);
    r->symptom = r->exit_code != 0 || r->signal || r->timed_out || r->pattern_hit || r->probe_mismatch > 0 ||
                 r->host_accesses > 0;
    const char *blind = ex_hc_blind(&arms[a], r);
    fprintf(stderr, "hipvis experiment: %-19s #%d: %s%s%s, %d trace%s, %s%s%s (%.2f s)\n", arms[a].name, k,
            r->timed_out ? "hang, killed" : r->signal ? "killed by a signal" : r->exit_code ? "failed" : "exit 0",
            r->pattern_hit ? ", fail pattern seen" : "", r->host_accesses ? ", host accesses caught" : "", r->traces,
            r->traces == 1 ? "" : "s", r->symptom ? "SYMPTOM" : "no symptom",
            blind ? ", host-access check did not look: " : "", blind ? blind : "", r->wall_s);
    return 0;
}

static char footer[8192];   /* the arms and errata lists of --help */

int hv_experiment_main(int argc, char **argv, const char *libhipvis)
{
    FILE *mf = fmemopen(footer, sizeof footer - 1, "w");
    if (mf) {
        ex_arms_list(mf);
        fputs("exit: 0 when the experiment ran (the verdict is in the report), 2 on bad usage or setup\n", mf);
        fclose(mf);
    }
    const struct hv_cli cli = {"hipvis experiment", "[-n RUNS] [--arms LIST] [--timeout S] [--fail-pattern RE] "
                                                    "-o DIR -- CMD [ARGS...]",
                               opts, footer, 1};
    struct args a = {.runs = 10, .timeout = 600};
    int first;
    int rc = hv_cli_parse(&cli, argc, argv, on_opt, &a, &first);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 0 : 2;
    if (first >= argc)
        return hv_cli_error(&cli, "no command given");
    if (!a.dir)
        return hv_cli_error(&cli, "-o DIR is required (traces, logs and the report go there)");
    regex_t re;
    if (a.pattern) {
        int e = regcomp(&re, a.pattern, REG_EXTENDED | REG_NOSUB);
        if (e) {
            char msg[128];
            regerror(e, &re, msg, sizeof msg);
            return hv_cli_error(&cli, "--fail-pattern '%s': %s", a.pattern, msg);
        }
    }
    if (mkdir(a.dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "hipvis experiment: cannot create %s: %s\n", a.dir, strerror(errno));
        return 2;
    }
    struct ex_job job = {argv + first, a.timeout, libhipvis, a.pattern ? &re : NULL};
    int status = 2;
    struct ex_arm arms[EX_MAX_ARMS];
    struct ex_arm_stats st[EX_MAX_ARMS];
    struct ex_run *runs = calloc((size_t)a.runs * EX_MAX_ARMS, sizeof *runs);
    char skipped[1024], err[256];
    struct ex_meta m = {.argv = argv + first, .max_runs = a.runs, .timeout_s = a.timeout, .fail_pattern = a.pattern,
                        .dir = a.dir, .skipped = skipped};
    size_t nruns = 0;
    if (!runs)
        goto out;
    /* Round 0 starts with the baseline: its trace names the runtime, which
     * picks the arms and their knob names. */
    struct ex_runtime none;
    ex_runtime_parse(&none, "", "");
    int narms = ex_arms_build("baseline", &none, arms, EX_MAX_ARMS, skipped, sizeof skipped, err, sizeof err);
    if (one_run(&job, arms, 0, 0, a.dir, &runs[0]) != 0)
        goto out;
    nruns = 1;
    if (runs[0].exit_code == 127 && !runs[0].traces) {
        fprintf(stderr, "hipvis experiment: %s did not start (exit 127): see %s/baseline/0/job.log\n", argv[first],
                a.dir);
        goto out;
    }
    ex_runtime_parse(&m.rt, runs[0].runtime, runs[0].runtime_path);
    narms = ex_arms_build(a.arms, &m.rt, arms, EX_MAX_ARMS, skipped, sizeof skipped, err, sizeof err);
    if (narms < 0) {
        fprintf(stderr, "hipvis experiment: %s\n", err);
        goto out;
    }
    for (int k = 0; k < a.runs; k++) {
        ex_stats(arms, narms, runs, nruns, st);
        for (int i = 0; i < narms; i++) {
            int arm = (i + k) % narms;   /* rotated: no arm always runs first or last */
            if (k == 0 && arm == 0)
                continue;                /* the first baseline run is done */
            if ((st[arm].outcome == EX_REMOVED || st[arm].outcome == EX_PERSISTS) && st[st[arm].ref].symptom_runs)
                continue;                /* decided: its runs are better spent elsewhere */
            if (one_run(&job, arms, arm, k, a.dir, &runs[nruns]) != 0)
                goto out;
            nruns++;
        }
        m.rounds = k + 1;
        ex_stats(arms, narms, runs, nruns, st);
        if (ex_all_decided(st, narms)) {
            m.stopped_early = k + 1 < a.runs;
            break;
        }
    }
    struct ex_decision d;
    ex_decide(arms, narms, st, runs, nruns, &d);
    ex_report_text(stdout, &m, arms, narms, st, &d);
    FILE *t = create_file(a.dir, "report.txt"), *j = create_file(a.dir, "report.json");
    if (t)
        ex_report_text(t, &m, arms, narms, st, &d);
    if (j)
        ex_report_json(j, &m, arms, narms, st, &d, runs, nruns);
    int bad = (t && fclose(t) != 0) | (j && fclose(j) != 0) | !t | !j;
    status = bad ? 2 : 0;
    if (!bad)
        printf("  report    %s/report.txt, %s/report.json\n", a.dir, a.dir);
out:
    free(runs);
    if (a.pattern)
        regfree(&re);
    return status;
}
