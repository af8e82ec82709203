/* runtime_version: see runtime_version_int.h for why the runtime is not asked. */
#include "tracer/core/runtime_version_int.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* First line of <libdir>/../.info/version (ROCm installs write it), "" if none. */
static void rocm_release(const char *real, char *out, size_t len)
{
    char path[PATH_MAX];
    out[0] = '\0';
    const char *slash = strrchr(real, '/');
    if (!slash || (size_t)(slash - real) + 20 >= sizeof path)
        return;
    snprintf(path, sizeof path, "%.*s/../.info/version", (int)(slash - real), real);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, len - 1);
    close(fd);
    out[n > 0 ? n : 0] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
}

void hv_runtime_version(const char *runtime_path, char *buf, size_t len)
{
    char real[PATH_MAX], rocm[24];
    if (!len)
        return;
    buf[0] = '\0';
    if (!runtime_path || !runtime_path[0])
        return;
    if (!realpath(runtime_path, real))
        snprintf(real, sizeof real, "%s", runtime_path);
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    const char *so = strstr(base, ".so.");
    const char *ver = so ? so + 4 : "?";
    rocm_release(real, rocm, sizeof rocm);
    if (rocm[0])
        snprintf(buf, len, "%s (%s; ROCm %s)", ver, base, rocm);
    else
        snprintf(buf, len, "%s (%s)", ver, base);
}
