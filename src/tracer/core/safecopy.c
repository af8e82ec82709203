#include "tracer/core/safecopy.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/grow.h"

#define FIRST_READ ((size_t)64 << 10)

/* process_vm_readv on ourselves stops at the first unreadable page instead
 * of faulting. -1 when the kernel refuses it (seccomp, old kernel). */
ssize_t hv_safe_read(void *dst, const void *src, size_t n)
{
    struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)src, n};
    return hv_safe_readv(&local, &remote, 1);
}

ssize_t hv_safe_readv(const struct iovec *local, const struct iovec *remote, unsigned n)
{
    ssize_t got = process_vm_readv(getpid(), local, n, remote, n, 0);
    if (got < 0 && errno == EFAULT)
        return 0;
    return got;
}

size_t hv_safecopy_image(const void *p, size_t max, size_t (*extent)(const void *, size_t), void **out)
{
    unsigned char *buf = NULL;
    size_t got = 0, want = 0;
    *out = NULL;
    if (!p || !max)
        return 0;
    for (;;) {
        if (!HV_GROW_UPTO(buf, got + 1, want, FIRST_READ, max))
            break;
        ssize_t r = hv_safe_read(buf + got, (const unsigned char *)p + got, want - got);
        if (r < 0) {
            /* No safe read here: trust the image as the runtime did (it
             * accepted it), the way hipvis did before this guard. */
            size_t n = extent(p, max);
            unsigned char *all = n ? realloc(buf, n) : NULL;
            if (!all)
                break;
            memcpy(all, p, n);
            *out = all;
            return n;
        }
        got += (size_t)r;
        size_t n = extent(buf, got);
        if (n && n <= got) {
            *out = buf;
            return n;
        }
        if (got < want || want == max)
            break; /* unreadable memory or the cap: decode what there is */
    }
    if (!got) {
        free(buf);
        return 0;
    }
    *out = buf;
    return got;
}
