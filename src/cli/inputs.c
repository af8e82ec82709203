/* Trace operands: files, directories, "-"; see inputs.h. */
#include "cli/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"

static int add_error(struct hv_inputs *in, const char *prog, const char *name, const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", prog, name, what);
    if (!HV_GROW(in->err, in->nerr, in->caperr, 4))
        return -1;
    in->err[in->nerr].name = strdup(name);
    in->err[in->nerr].what = strdup(what);
    in->nerr++;
    return -1;
}

static int push(struct hv_inputs *in, const char *path, const char *name, int is_tmp)
{
    if (!HV_GROW(in->v, in->n, in->cap, 8))
        return -1;
    struct hv_input *x = &in->v[in->n];
    x->path = strdup(path);
    x->name = strdup(name);
    x->is_tmp = is_tmp;
    if (!x->path || !x->name) {
        free(x->path);
        free(x->name);
        return -1;
    }
    in->n++;
    return 0;
}

/* A trace starts with a zstd skippable frame (the header frame) or, for a
 * writer of another version, an ordinary zstd frame; a ".zst" name is taken
 * too, so that a damaged trace in the directory is reported, not skipped. */
static int looks_like_trace(const char *path, const char *base)
{
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".zst"))
        return 1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return 0;
    unsigned char m[4];
    int ok = read(fd, m, 4) == 4;
    close(fd);
    if (!ok)
        return 0;
    uint32_t v = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    return (v & 0xFFFFFFF0u) == 0x184D2A50u || v == 0xFD2FB528u;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the traces under `dir` in name order; depth bounds symlink-free
 * recursion (we never follow links out of the tree). */
static int walk(struct hv_inputs *in, const char *dir, const char *prog, int depth, size_t *found)
{
    DIR *d = opendir(dir);
    if (!d)
        return add_error(in, prog, dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        if (!HV_GROW(names, n, cap, 16))
            break;
        names[n] = strdup(e->d_name);
        if (names[n])
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t plen = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(plen);
        if (p) {
            snprintf(p, plen, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
            struct stat st;
            if (lstat(p, &st) == 0) {
                if (S_ISDIR(st.st_mode) && depth < 8)
                    rc |= walk(in, p, prog, depth + 1, found);
                else if (S_ISREG(st.st_mode) && looks_like_trace(p, names[i])) {
                    if (push(in, p, p, 0) == 0)
                        ++*found;
                }
            }
            free(p);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Copies stdin to a private temporary file (0600, unlinked at the end). */
static int spool_stdin(struct hv_inputs *in, const char *prog)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/hipvis-stdin.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return add_error(in, prog, "-", "cannot make a temporary copy of stdin");
    static char buf[1 << 16];
    ssize_t r;
    int bad = 0;
    while ((r = read(STDIN_FILENO, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            bad = 1;
            break;
        }
        for (ssize_t off = 0; off < r;) {
            ssize_t w = write(fd, buf + off, (size_t)(r - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                bad = 1;
                break;
            }
            off += w;
        }
        if (bad)
            break;
    }
    if (close(fd) != 0)
        bad = 1;
    if (bad || push(in, path, "<stdin>", 1) != 0) {
        unlink(path);
        return add_error(in, prog, "-", "reading stdin into a temporary file failed");
    }
    return 0;
}

int hv_inputs_add(struct hv_inputs *in, const char *arg, const char *prog)
{
    if (!strcmp(arg, "-")) {
        if (in->used_stdin)
            return add_error(in, prog, "-", "stdin given more than once");
        in->used_stdin = 1;
        return spool_stdin(in, prog);
    }
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t found = 0;
        int rc = walk(in, arg, prog, 0, &found);
        if (!found && !rc)
            return add_error(in, prog, arg, "no traces in this directory");
        return rc;
    }
    /* Anything else goes to the reader, which says what is wrong with it. */
    return push(in, arg, arg, 0) == 0 ? 0 : add_error(in, prog, arg, "out of memory");
}

void hv_inputs_free(struct hv_inputs *in)
{
    for (size_t i = 0; i < in->n; i++) {
        if (in->v[i].is_tmp)
            unlink(in->v[i].path);
        free(in->v[i].path);
        free(in->v[i].name);
    }
    for (size_t i = 0; i < in->nerr; i++) {
        free(in->err[i].name);
        free(in->err[i].what);
    }
    free(in->v);
    free(in->err);
    memset(in, 0, sizeof *in);
}
