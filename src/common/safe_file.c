/* Creating files safely: see safe_file.h. */
#include "common/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int open_retry(const char *path, int flags, mode_t mode)
{
    int fd;
    do
        fd = open(path, flags, mode);
    while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
}

int hv_file_create_excl(const char *path, mode_t mode)
{
    return open_retry(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

/* An existing file we may write into: regular, ours, one link. */
static int check_ours(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        return -EINVAL;
    if (st.st_uid != geteuid() || st.st_nlink != 1)
        return -EPERM;
    return 0;
}

static int open_existing_or_new(const char *path, int extra, mode_t mode)
{
    /* First try to create it (no race: O_EXCL); if it exists, open it
     * without following a symlink and check what it is. */
    int fd = open_retry(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | (extra & O_APPEND), mode);
    if (fd != -EEXIST)
        return fd;
    fd = open_retry(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | extra, 0);
    if (fd < 0)
        return fd;
    int rc = check_ours(fd);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    if ((extra & O_TRUNC) == 0 || ftruncate(fd, 0) == 0)
        return fd;
    rc = -errno;
    close(fd);
    return rc;
}

int hv_file_open_append(const char *path, mode_t mode) { return open_existing_or_new(path, O_APPEND, mode); }

int hv_file_open_trunc(const char *path, mode_t mode)
{
    /* O_TRUNC is applied after the checks (ftruncate), so a file that is
     * not ours is never emptied. */
    int fd = open_existing_or_new(path, 0, mode);
    return fd;
}

/* Splits path into its directory (opened O_DIRECTORY|O_PATH) and base name. */
static int open_parent(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        *base = path;
        snprintf(dir, sizeof dir, ".");
    } else {
        size_t n = (size_t)(slash - path);
        if (n == 0)
            n = 1;   /* "/name" */
        if (n >= sizeof dir)
            return -ENAMETOOLONG;
        memcpy(dir, path, n);
        dir[n] = '\0';
        *base = slash + 1;
    }
    if (!**base)
        return -EISDIR;
    return open_retry(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
}

static uint64_t random_u64(void)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* No entropy yet (early boot): unpredictable enough for a name that
         * is created with O_EXCL anyway. */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        r = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ (uintptr_t)&r;
    }
    return r;
}

int hv_file_replace(const char *path, const void *data, size_t len, mode_t mode)
{
    const char *base;
    int dfd = open_parent(path, &base);
    if (dfd < 0)
        return dfd;
    char tmp[512];
    int fd = -EEXIST;
    for (int tries = 0; tries < 64 && fd == -EEXIST; tries++) {
        /* Hidden, and not ending in the target's extension: collectors that
         * read *.prom never pick up a half-written file. */
        if ((size_t)snprintf(tmp, sizeof tmp, ".%.200s.%016llx.tmp", base, (unsigned long long)random_u64()) >=
            sizeof tmp) {
            close(dfd);
            return -ENAMETOOLONG;
        }
        do
            fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
            fd = -errno;
    }
    if (fd < 0) {
        close(dfd);
        return fd;
    }
    int rc = 0;
    const char *p = data;
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            rc = k < 0 ? -errno : -EIO;
            break;
        }
        p += k;
        len -= (size_t)k;
    }
    /* the mode asked for, whatever the umask made of it */
    if (!rc && fchmod(fd, mode) != 0)
        rc = -errno;
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (!rc && renameat(dfd, tmp, dfd, base) != 0)
        rc = -errno;
    if (rc)
        unlinkat(dfd, tmp, 0);
    close(dfd);
    return rc;
}

int hv_file_dir_usable(const char *path)
{
    const char *base;
    int dfd = open_parent(path, &base);
    if (dfd < 0)
        return dfd;
    int rc = faccessat(dfd, ".", W_OK | X_OK, AT_EACCESS) == 0 ? 0 : -errno;
    close(dfd);
    return rc;
}
