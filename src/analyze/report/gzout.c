/*
 * gzout: an output FILE that gzip-compresses what is written to it, for
 * `--perfetto FILE.json.gz`. ui.perfetto.dev and chrome://tracing open
 * gzipped JSON as it is, and trace-event JSON of a decode loop compresses
 * ~14x (docs/analysis.md has the figures). Its own file so that only
 * hipvis-analyze links zlib.
 */
#include "analyze/report/report.h"
#include "common/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static ssize_t gz_write(void *cookie, const char *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        unsigned chunk = n - done > (1u << 30) ? (1u << 30) : (unsigned)(n - done);
        int w = gzwrite(cookie, buf + done, chunk);
        if (w <= 0) {
            errno = EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int gz_close(void *cookie)
{
    return gzclose(cookie) == Z_OK ? 0 : (errno = EIO, -1);
}

FILE *hv_report_fopen(const char *path)
{
    /* Never through a symlink, never another user's file (docs/output-files.md). */
    int fd = hv_file_open_trunc(path, 0644);
    if (fd < 0) {
        errno = -fd;
        return NULL;
    }
    size_t len = strlen(path);
    if (len < 3 || strcmp(path + len - 3, ".gz") != 0) {
        FILE *f = fdopen(fd, "w");
        if (!f)
            close(fd);
        return f;
    }
    gzFile gz = gzdopen(fd, "wb1");  /* level 1: already ~14x; higher levels cost seconds for ~1.3x more */
    if (!gz) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    gzbuffer(gz, 1u << 17);
    cookie_io_functions_t io = {.write = gz_write, .close = gz_close};
    FILE *f = fopencookie(gz, "w", io);
    if (!f)
        gzclose(gz);
    return f;
}
