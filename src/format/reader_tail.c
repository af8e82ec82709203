/*
 * The footer of a finished trace without reading its records (reader.h,
 * hv_reader_footer_peek): the writer's last frame is the skippable footer
 * frame, so a tool that only wants the totals (hipvis run's end line) reads
 * the file's first and last few bytes instead of decompressing every chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/frame_int.h"
#include "hipvis/reader.h"

/* n bytes at off, or -1. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, off + (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

int hv_reader_footer_peek(const char *path, struct hv_file_footer *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint8_t head[HV_SKIPPABLE_HDR_BYTES + 8];
    uint8_t tail[HV_SKIPPABLE_HDR_BYTES + sizeof *out];
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0 || read_at(fd, head, sizeof head, 0) != 0 ||
        hv_le32(head) != HV_FRAME_MAGIC_HEADER || memcmp(head + HV_SKIPPABLE_HDR_BYTES, HV_FILE_MAGIC, 8) != 0)
        goto out;   /* not a hipvis trace (or a header cut short) */
    rc = 1;
    /* The footer this version writes: its own size in the frame header. A
     * trace whose process is still running or died ends in a data frame. */
    if (st.st_size < (off_t)(sizeof head + sizeof tail) ||
        read_at(fd, tail, sizeof tail, st.st_size - (off_t)sizeof tail) != 0)
        goto out;
    if (hv_le32(tail) == HV_FRAME_MAGIC_FOOTER && hv_le32(tail + 4) == sizeof *out &&
        memcmp(tail + HV_SKIPPABLE_HDR_BYTES, HV_FOOTER_MAGIC, 8) == 0) {
        memcpy(out, tail + HV_SKIPPABLE_HDR_BYTES, sizeof *out);
        rc = 0;
    }
out:
    close(fd);
    return rc;
}
