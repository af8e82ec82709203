/* Disk cap over the output directory; see sidecar/diskcap.h. */
#include "sidecar/diskcap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "sidecar/log.h"

struct file {
    char *path;
    uint64_t bytes;
    struct timespec mtime;
    int open;
};

static int older(const void *pa, const void *pb)
{
    const struct file *a = pa, *b = pb;
    if (a->mtime.tv_sec != b->mtime.tv_sec)
        return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
    if (a->mtime.tv_nsec != b->mtime.tv_nsec)
        return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
    return strcmp(a->path, b->path);
}

static int is_trace_name(const char *n)
{
    size_t len = strlen(n);
    return strncmp(n, "hipvis.", 7) == 0 && len > 11 && strcmp(n + len - 4, ".zst") == 0;
}

void sc_diskcap_enforce(const char *dir, uint64_t cap, int (*is_open)(void *ctx, const char *path), void *ctx,
                        struct sc_diskcap_result *out)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct file *v = NULL;
    size_t n = 0, capv = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_trace_name(e->d_name))
            continue;
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (!HV_GROW(v, n, capv, 64))
            break;
        v[n] = (struct file){strdup(path), (uint64_t)st.st_size, st.st_mtim, is_open(ctx, path)};
        if (!v[n].path)
            break;
        out->total_bytes += v[n].bytes;
        n++;
    }
    closedir(d);
    if (cap && out->total_bytes > cap) {
        qsort(v, n, sizeof *v, older);
        for (size_t i = 0; i < n && out->total_bytes > cap; i++) {
            if (v[i].open || unlink(v[i].path) != 0)
                continue;
            sc_info("disk cap: deleted %s (%llu bytes)", v[i].path, (unsigned long long)v[i].bytes);
            out->total_bytes -= v[i].bytes;
            out->deleted_bytes += v[i].bytes;
            out->deleted_files++;
        }
        out->over = out->total_bytes > cap;
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].path);
    free(v);
}
