/*
 * The launcher's ways to its siblings (launch.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/launch.h"
#include "common/envtab.h"
#include "tracer/core/config.h"

/* Directory of this executable (/proc/self/exe), without the trailing slash. */
static int self_dir(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* libhipvis.so next to the binary (the build tree) or in ../lib (installed). */
static int find_lib(char *out, size_t cap)
{
    char dir[PATH_MAX];
    if (self_dir(dir, sizeof dir) != 0)
        return -1;
    static const char *const rel[] = {"/libhipvis.so", "/../lib/libhipvis.so"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s%s", dir, rel[i]);
        if (exists(p) && realpath(p, out) && strlen(out) < cap)
            return 0;
    }
    return -1;
}

int hv_launch_find_lib(const char *prog, char *out, size_t cap)
{
    if (find_lib(out, cap) == 0)
        return 0;
    fprintf(stderr, "%s: libhipvis.so not found next to this program or in ../lib\n", prog);
    return -1;
}

static const char *env_get(const char *name) { return getenv(name); }

int hv_launch_check_tracing(const char *prog)
{
    struct hv_config cfg;
    char err[4096];
    if (hv_config_load(&cfg, env_get, err, sizeof err) != 0) {
        fputs(err, stderr);   /* the library's own lines: each names the variable and what it accepts */
        return -1;
    }
    if (!cfg.enabled) {
        fprintf(stderr, "%s: %s=%s turns tracing off\n", prog, hv_env_table[HV_ENV_ENABLE].name,
                getenv(hv_env_table[HV_ENV_ENABLE].name));
        return -1;
    }
    if (cfg.sidecar)
        return 0;
    /* The trace file's directory, when the template names it without %p or
     * %h: the library could not create its trace there. */
    char dir[sizeof cfg.output];
    snprintf(dir, sizeof dir, "%s", cfg.output);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (!strchr(dir, '%') && access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "%s: cannot write traces to %s (%s=%s): %s\n", prog, dir, hv_env_table[HV_ENV_OUTPUT].name,
                cfg.output, strerror(errno));
        return -1;
    }
    return 0;
}

/* hipvis NAME ARGS -> hipvis-NAME ARGS, the sibling binary first. */
int hv_launch_forward(const char *name, int argc, char **argv)
{
    char dir[PATH_MAX], prog[PATH_MAX + 64], base[64];
    snprintf(base, sizeof base, "hipvis-%s", name);
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av)
        return 2;
    av[0] = base;
    for (int i = 0; i < argc; i++)
        av[i + 1] = argv[i];
    if (self_dir(dir, sizeof dir) == 0) {
        snprintf(prog, sizeof prog, "%s/%s", dir, base);
        if (exists(prog))
            execv(prog, av);
    }
    execvp(base, av);
    fprintf(stderr, "hipvis: %s: %s\n", base, strerror(errno));
    free(av);
    return 127;
}

int hv_launch_tool(int argc, char **argv)
{
    return hv_launch_forward(argv[0], argc - 1, argv + 1);
}

/* hipvis report ARGS -> hipvis-analyze --html hipvis-report.html ARGS, or
 * ARGS as they are when they name the page (hipvis-analyze parses them). */
int hv_launch_report(int argc, char **argv)
{
    argc--, argv++;   /* "report" */
    for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
        if (!strncmp(argv[i], "--html", 6))
            return hv_launch_forward("analyze", argc, argv);
    char **av = calloc((size_t)argc + 3, sizeof *av);
    if (!av)
        return 2;
    av[0] = "--html";
    av[1] = "hipvis-report.html";
    for (int i = 0; i < argc; i++)
        av[i + 2] = argv[i];
    int rc = hv_launch_forward("analyze", argc + 2, av);
    free(av);
    return rc;
}
