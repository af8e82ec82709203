/*
 * hipvis — the launcher (hipvis(1), the commands table at the end):
 *   run         execs CMD traced: LD_PRELOAD gets libhipvis.so (next to this
 *               binary, or in ../lib), HIPVIS_OUTPUT=DIR/hipvis.%p.zst;
 *               --sidecar sets HIPVIS_SIDECAR=1 instead (hipvis-sidecar
 *               writes the traces);
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
#include "cli/launch.h"
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

enum { OPT_OUTDIR, OPT_SIDECAR };

static const struct hv_cli_opt run_opts[] = {
    {"output-dir", 'o', HV_CLI_VALUE, OPT_OUTDIR, "DIR", "traces go to DIR/hipvis.<pid>.zst (default: .)"},
    {"sidecar", 0, HV_CLI_FLAG, OPT_SIDECAR, NULL,
     "write to a shared-memory segment for hipvis-sidecar instead (HIPVIS_SIDECAR=1)"},
    {0},
};

static const struct hv_cli run_cli = {"hipvis run", "[-o DIR] [--sidecar] [--] CMD [ARGS...]", run_opts, NULL, 1};

struct run_args {
    const char *outdir;
    int sidecar;
};

static int on_run_opt(void *ctx, int id, const char *v)
{
    struct run_args *a = ctx;
    if (id == OPT_OUTDIR)
        a->outdir = v;
    else
        a->sidecar = 1;
    return 0;
}

/* argv[0] is "run"; options end at the command (or "--"). */
static int run(int argc, char **argv)
{
    struct run_args a = {".", 0};
    int i;
    int rc = hv_cli_parse(&run_cli, argc, argv, on_run_opt, &a, &i);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 0 : 2;
    if (i >= argc)
        return hv_cli_error(&run_cli, "no command given");
    const char *outdir = a.outdir;
    int sidecar = a.sidecar;
    char lib[PATH_MAX];
    if (hv_launch_find_lib("hipvis run", lib, sizeof lib) != 0)
        return 2;
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
    if (sidecar) {
        setenv("HIPVIS_SIDECAR", "1", 1);
    } else {
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
        setenv("HIPVIS_OUTPUT", out, 1);
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "hipvis run: %s: %s\n", argv[i], strerror(errno));
    return errno == ENOENT ? 127 : 126;
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
