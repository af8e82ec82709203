/*
 * hipvis — the launcher (hipvis(1)):
 *
 *   hipvis run [-o DIR] [--sidecar] [--] CMD [ARGS...]
 *       runs CMD traced: LD_PRELOAD gets libhipvis.so (next to this binary,
 *       or in ../lib), HIPVIS_OUTPUT=DIR/hipvis.%p.zst; --sidecar sets
 *       HIPVIS_SIDECAR=1 instead (hipvis-sidecar writes the traces).
 *   hipvis sidecar|analyze|dump ARGS...
 *       execs hipvis-sidecar / hipvis-analyze / hipvis-dump, found next to
 *       this binary first, then on PATH.
 *
 * Everything here happens before exec: no tracing code runs in this process.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: hipvis run [-o DIR] [--sidecar] [--] CMD [ARGS...]\n"
          "       hipvis sidecar [ARGS...]   (hipvis-sidecar)\n"
          "       hipvis analyze [ARGS...]   (hipvis-analyze)\n"
          "       hipvis dump [ARGS...]      (hipvis-dump)\n"
          "       hipvis --version | --help\n"
          "run: -o DIR       traces go to DIR/hipvis.<pid>.zst (default: the current directory)\n"
          "     --sidecar    write to a shared-memory segment for hipvis-sidecar instead (HIPVIS_SIDECAR=1)\n",
          out);
}

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

static int run(int argc, char **argv)
{
    const char *outdir = ".";
    int sidecar = 0, i = 0;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output-dir")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hipvis run: %s needs a directory\n", argv[i]);
                return 2;
            }
            outdir = argv[++i];
        } else if (!strcmp(argv[i], "--sidecar")) {
            sidecar = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "hipvis run: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            break;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "hipvis run: no command given\n");
        usage(stderr);
        return 2;
    }
    char lib[PATH_MAX];
    if (find_lib(lib, sizeof lib) != 0) {
        fprintf(stderr, "hipvis run: libhipvis.so not found next to this program or in ../lib\n");
        return 2;
    }
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

/* hipvis NAME ARGS -> hipvis-NAME ARGS, the sibling binary first. */
static int forward(const char *name, int argc, char **argv)
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return run(argc - 2, argv + 2);
    if (!strcmp(cmd, "sidecar") || !strcmp(cmd, "analyze") || !strcmp(cmd, "dump"))
        return forward(cmd, argc - 2, argv + 2);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("hipvis %s\n", HIPVIS_VERSION);
        return 0;
    }
    fprintf(stderr, "hipvis: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
