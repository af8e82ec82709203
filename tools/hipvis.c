/*
 * hipvis — the launcher (hipvis(1), the commands table at the end):
 *   run         runs CMD traced: LD_PRELOAD gets libhipvis.so (next to this
 *               binary, or in ../lib), HIPVIS_OUTPUT=DIR/hipvis.%p.zst
 *               (-o DIR; an HIPVIS_OUTPUT of the environment is kept without
 *               -o and refused with it); --sidecar sets HIPVIS_SIDECAR=1
 *               instead (hipvis-sidecar writes the traces); HIPVIS_* names
 *               that are no setting are named first (common/envtab.h); a
 *               setting that would keep tracing off refuses the launch
 *               (exit 2) unless --allow-untraced; the rest (NVTX,
 *               --delay/--duration, the child, the end lines) is
 *               src/cli/launch_run.c; run --help-env prints the
 *               settings;
 *   report      hipvis-analyze --html hipvis-report.html unless --html is given;
 *   experiment  repeated traced runs per arm, a decision report (src/experiment);
 *   sidecar|analyze|dump  execs hipvis-NAME, next to this binary first, then
 *               on PATH (src/cli/launch.c).
 * Everything here happens before exec: no tracing code runs in this process.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/envtab.h"
#include "cli/launch.h"
#include "cli/launch_run.h"
#include "experiment/experiment.h"

static const struct hv_cli_opt top_opts[] = {{0}};

static const struct hv_cli top_cli = {
    "hipvis", "COMMAND [ARGS...]", top_opts,
    "commands:\n"
    "  run [-o DIR] [--sidecar] [--] CMD [ARGS...]   run CMD traced (hipvis run --help)\n"
    "  report [--html FILE] [ARGS...] TRACE...   hipvis-analyze --html FILE (default hipvis-report.html)\n"
    "  experiment [-n RUNS] [--arms LIST] -o DIR -- CMD [ARGS...]\n"
    "                      run CMD per arm, count the symptom, decide (hipvis experiment --help)\n"
    "  sidecar [ARGS...]   hipvis-sidecar\n"
    "  analyze [ARGS...]   hipvis-analyze\n"
    "  dump [ARGS...]      hipvis-dump\n",
    1};

enum { OPT_OUTDIR, OPT_SIDECAR, OPT_HELP_ENV, OPT_ALLOW_UNTRACED, OPT_DELAY, OPT_DURATION, OPT_QUIET, OPT_VERBOSE };

static const struct hv_cli_opt run_opts[] = {
    {"output-dir", 'o', HV_CLI_VALUE, OPT_OUTDIR, "DIR",
     "traces go to DIR/hipvis.<pid>.zst (default: $HIPVIS_OUTPUT when set, else the current directory)"},
    {"sidecar", 0, HV_CLI_FLAG, OPT_SIDECAR, NULL,
     "write to a shared-memory segment for hipvis-sidecar instead (HIPVIS_SIDECAR=1)"},
    {"allow-untraced", 0, HV_CLI_FLAG, OPT_ALLOW_UNTRACED, NULL,
     "run CMD even when a HIPVIS_* setting keeps tracing off (a bad value, HIPVIS_ENABLE=0)"},
    {"delay", 0, HV_CLI_VALUE, OPT_DELAY, "SECONDS",
     "record data calls from SECONDS after the launch on (HIPVIS_START_DELAY_MS), e.g. 2.5"},
    {"duration", 0, HV_CLI_VALUE, OPT_DURATION, "SECONDS",
     "stop recording data calls SECONDS after that (HIPVIS_DURATION_MS); the command runs on"},
    {"quiet", 'q', HV_CLI_FLAG, OPT_QUIET, NULL, "no line from hipvis on stderr (HIPVIS_QUIET=1 for the job)"},
    {"verbose", 'v', HV_CLI_FLAG, OPT_VERBOSE, NULL, "say on stderr what the launcher set up (NVTX, the window)"},
    {"help-env", 0, HV_CLI_FLAG, OPT_HELP_ENV, NULL,
     "list the HIPVIS_* variables: default, accepted values, what each does"},
    {0},
};

static const struct hv_cli run_cli = {
    "hipvis run", "[-o DIR] [--sidecar] [--allow-untraced] [--delay SECONDS] [--duration SECONDS] [-q|-v] [--] CMD [ARGS...]",
    run_opts,
    "exit: CMD's status; 2 a bad command line, no libhipvis.so, or tracing that could not start\n"
    "(the HIPVIS_* setting is named); 126 CMD cannot be executed, 127 not found\n",
    1};

struct run_args {
    const char *outdir;   /* NULL: not given */
    int sidecar;
    int help_env;
    int allow_untraced;
    struct hv_launch_run job;
};

static int on_run_opt(void *ctx, int id, const char *v)
{
    struct run_args *a = ctx;
    if (id == OPT_OUTDIR)
        a->outdir = v;
    else if (id == OPT_SIDECAR)
        a->sidecar = 1;
    else if (id == OPT_ALLOW_UNTRACED)
        a->allow_untraced = 1;
    else if (id == OPT_DELAY)
        return hv_launch_seconds(v, &a->job.delay_ms);
    else if (id == OPT_DURATION)   /* 0 would be no window at all */
        return hv_launch_seconds(v, &a->job.duration_ms) || a->job.duration_ms == 0 ? -1 : 0;
    else if (id == OPT_QUIET || id == OPT_VERBOSE)
        *(id == OPT_QUIET ? &a->job.quiet : &a->job.verbose) = 1;
    else
        a->help_env = 1;
    return 0;
}

/* Where the traces go: -o DIR, or HIPVIS_OUTPUT as the user set it, or the
 * current directory; -o never silently replaces the user's HIPVIS_OUTPUT,
 * nor is silently ignored under --sidecar. 0, or 2 after saying why. */
static int set_output(const struct run_args *a)
{
    const char *name = hv_env_table[HV_ENV_OUTPUT].name;
    const char *user = getenv(name);
    if (a->sidecar) {
        if (a->outdir) {
            fprintf(stderr, "hipvis run: -o %s does not apply with --sidecar (hipvis-sidecar -o DIR says where its "
                            "traces go)\n", a->outdir);
            return 2;
        }
        setenv(hv_env_table[HV_ENV_SIDECAR].name, "1", 1);
        return 0;
    }
    if (user && *user) {
        if (!a->outdir)
            return 0;   /* the user's template stands */
        fprintf(stderr, "hipvis run: -o %s and %s=%s both say where the traces go: drop -o to keep %s, or unset "
                        "%s\n", a->outdir, name, user, name, name);
        return 2;
    }
    const char *outdir = a->outdir ? a->outdir : ".";
    char dir[PATH_MAX], out[PATH_MAX + 32];
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "hipvis run: cannot create %s: %s\n", outdir, strerror(errno));
        return 2;
    }
    if (!realpath(outdir, dir)) {
        fprintf(stderr, "hipvis run: -o %s: %s\n", outdir, strerror(errno));
        return 2;
    }
    snprintf(out, sizeof out, "%s/hipvis.%%p.zst", dir);
    setenv(name, out, 1);
    return 0;
}

/* hipvis run --help-env: the table of common/envtab.c, settings first,
 * then the names only the build and the tests read. */
static void help_env(FILE *out)
{
    fputs("HIPVIS_* settings, read by libhipvis.so in the traced process: an unset or empty variable means its\n"
          "default; a value not accepted is named on stderr and tracing is disabled (hipvis(1), ENVIRONMENT).\n"
          "A HIPVIS_* name that is none of these is named on stderr, with the nearest one.\n\n",
          out);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            fputs("\nRead only by hipvis's build and test scripts (no warning names them):\n", out);
        for (int id = 0; id < HV_ENV__COUNT; id++) {
            const struct hv_env_var *e = &hv_env_table[id];
            if ((e->type == HV_ENVT_HARNESS) != pass)
                continue;
            if (pass == 1) {
                fprintf(out, "  %-22s %s\n", e->name, e->help);
                continue;
            }
            char accepted[400];
            hv_env_accepted((enum hv_env_id)id, accepted, sizeof accepted);
            fprintf(out, "  %s  (default %s)\n      accepts %s%s%s\n      %s\n", e->name, e->dflt ? e->dflt : "unset",
                    e->type == HV_ENVT_BOOL ? "0 or 1" : accepted, e->on_bad ? "; another value: " : "",
                    e->on_bad ? e->on_bad : "", e->help);
        }
    }
}

/* Names the unknown HIPVIS_* variables once, here, and tells the traced
 * processes it did (HIPVIS_NAMES_CHECKED), so they do not say it again;
 * quiet under HIPVIS_QUIET=1, like the library. */
static void check_names(void)
{
    long long quiet = 0, checked = 0;
    hv_env_parse(HV_ENV_QUIET, getenv(hv_env_table[HV_ENV_QUIET].name), &quiet);
    hv_env_parse(HV_ENV_NAMES_CHECKED, getenv(hv_env_table[HV_ENV_NAMES_CHECKED].name), &checked);
    if (!quiet && !checked) {
        char msg[4096] = "";
        hv_env_unknown_names(environ, msg, sizeof msg);
        fputs(msg, stderr);
    }
    setenv(hv_env_table[HV_ENV_NAMES_CHECKED].name, "1", 1);
}

/* argv[0] is "run"; options end at the command (or "--"). */
static int run(int argc, char **argv)
{
    struct run_args a = {NULL, 0, 0, 0, {"hipvis run", NULL, -1, -1, 0, 0}};
    int i;
    int rc = hv_cli_parse(&run_cli, argc, argv, on_run_opt, &a, &i);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 0 : 2;
    if (a.help_env) {
        help_env(stdout);
        return 0;
    }
    if (i >= argc)
        return hv_cli_error(&run_cli, "no command given");
    char lib[PATH_MAX];
    if (hv_launch_find_lib("hipvis run", lib, sizeof lib) != 0)
        return 2;
    check_names();
    /* Keep whatever the user preloads already; hipvis goes first so its
     * wrappers are the ones the application binds to. */
    const char *old = getenv("LD_PRELOAD");
    size_t need = strlen(lib) + (old ? strlen(old) + 2 : 1);
    char *pre = malloc(need);
    if (!pre)
        return 2;
    snprintf(pre, need, old && *old ? "%s:%s" : "%s", lib, old);
    setenv("LD_PRELOAD", pre, 1);
    free(pre);
    if (set_output(&a) != 0)
        return 2;
    /* The environment CMD gets, parsed as the library will parse it: a
     * program that would run untraced is not started as if it were traced. */
    if (!a.allow_untraced && hv_launch_check_tracing("hipvis run") != 0) {
        fprintf(stderr, "hipvis run: not starting %s untraced: fix the setting, or pass --allow-untraced\n", argv[i]);
        return 2;
    }
    a.job.lib = lib;
    return hv_launch_run(&a.job, argv + i);
}

/* argv[0] is "experiment": the job's runs preload the libhipvis.so found here. */
static int experiment(int argc, char **argv)
{
    char lib[PATH_MAX];
    return hv_launch_find_lib("hipvis experiment", lib, sizeof lib) ? 2 : hv_experiment_main(argc, argv, lib);
}

static int help(int argc, char **argv)
{
    (void)argc, (void)argv;
    hv_cli_usage(&top_cli, stdout);
    return 0;
}

/* The commands, each called with argv[0] its name. */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
    {"run", run}, {"report", hv_launch_report}, {"experiment", experiment}, {"sidecar", hv_launch_tool},
    {"analyze", hv_launch_tool}, {"dump", hv_launch_tool}, {"help", help},
};

int main(int argc, char **argv)
{
    int first;
    int rc = hv_cli_parse(&top_cli, argc, argv, NULL, NULL, &first);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 0 : 2;
    if (first >= argc)
        return hv_cli_error(&top_cli, "no command given");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[first], commands[i].name))
            return commands[i].fn(argc - first, argv + first);
    return hv_cli_error(&top_cli, "unknown command '%s'", argv[first]);
}
