/* Trace file naming: %p/%h/%% expansion and O_EXCL creation with ".N". */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "format/trace_path_int.h"
#include "common/safe_file.h"

/* Appends n bytes; -1 when the buffer (with its NUL) would overflow. */
static int put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > cap)
        return -1;
    memcpy(buf + *len, s, n);
    *len += n;
    buf[*len] = '\0';
    return 0;
}

static int put_u64(char *buf, size_t cap, size_t *len, uint64_t v)
{
    char d[20];
    size_t n = 0;
    do {
        d[sizeof d - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return put(buf, cap, len, d + sizeof d - n, n);
}

int hv_path_expand(const char *tmpl, uint64_t pid, const char *host, size_t host_cap, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return -ENAMETOOLONG;
    buf[0] = '\0';
    for (const char *p = tmpl; *p; p++) {
        int rc;
        if (p[0] == '%' && p[1] == 'p') {
            rc = put_u64(buf, cap, &len, pid);
            p++;
        } else if (p[0] == '%' && p[1] == 'h') {
            size_t n = host ? strnlen(host, host_cap) : 0, start = len;
            rc = n ? put(buf, cap, &len, host, n) : put(buf, cap, &len, "unknown", 7);
            /* A host name never makes a directory. */
            for (size_t i = start; rc == 0 && i < len; i++)
                if (buf[i] == '/')
                    buf[i] = '_';
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            rc = put(buf, cap, &len, "%", 1);
            p++;
        } else {
            rc = put(buf, cap, &len, p, 1);
        }
        if (rc < 0)
            return -ENAMETOOLONG;
    }
    return (int)len;
}

int hv_path_suffixed(const char *path, unsigned n, char *buf, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (dot == base)      /* ".hidden": a name, not an extension */
        dot = NULL;
    size_t stem = dot ? (size_t)(dot - path) : strlen(path);
    size_t len = 0;
    buf[0] = '\0';
    if (put(buf, cap, &len, path, stem) < 0 || put(buf, cap, &len, ".", 1) < 0 ||
        put_u64(buf, cap, &len, n) < 0 || (dot && put(buf, cap, &len, dot, strlen(dot)) < 0))
        return -ENAMETOOLONG;
    return (int)len;
}

int hv_path_create_excl(const char *path, unsigned max_suffix, char *out, size_t cap)
{
    for (unsigned n = 0; n <= max_suffix; n++) {
        int len = n ? hv_path_suffixed(path, n, out, cap) : (int)strlen(path);
        if (len < 0 || (!n && (size_t)len + 1 > cap))
            return -ENAMETOOLONG;
        if (!n)
            memcpy(out, path, (size_t)len + 1);
        int fd;
        do
            /* 0600: a trace holds bytes of the program's memory (payloads). */
            fd = hv_file_create_excl(out, 0600);
        while (fd == -EINTR);
        if (fd >= 0)
            return fd;
        if (fd != -EEXIST)
            return fd;
    }
    return -EEXIST;
}
