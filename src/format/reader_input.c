/* Reader input: a growable buffer over the FILE*, with a pinned frame start. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "format/reader_int.h"

size_t hv_rd_avail(const struct hv_reader *r) { return r->in_len - r->in_pos; }

uint64_t hv_rd_offset(const struct hv_reader *r) { return r->in_off + r->in_pos; }

void hv_rd_error(struct hv_reader *r, enum hv_read_status st, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    r->err.status = st;
    r->err.offset = off;
    va_start(ap, fmt);
    vsnprintf(r->err.what, sizeof r->err.what, fmt, ap);
    va_end(ap);
}

/* Moves the bytes still needed to the front: from the pinned frame start if
 * any, else from the parse position. */
static void compact(struct hv_reader *r)
{
    size_t from = r->in_pos;
    if (r->keep_off != HV_RD_KEEP_NONE && r->keep_off >= r->in_off && r->keep_off - r->in_off < from)
        from = (size_t)(r->keep_off - r->in_off);
    memmove(r->in, r->in + from, r->in_len - from);
    r->in_off += from;
    r->in_len -= from;
    r->in_pos -= from;
}

/* The tail of the buffer is full: make room by compacting when at least a
 * quarter of it is consumed (so each byte is moved a bounded number of
 * times), else by doubling. Starting small and growing only on demand keeps
 * small inputs cheap. */
static int make_room(struct hv_reader *r)
{
    size_t from = r->in_pos;
    if (r->keep_off != HV_RD_KEEP_NONE && r->keep_off >= r->in_off && r->keep_off - r->in_off < from)
        from = (size_t)(r->keep_off - r->in_off);
    if (from >= r->in_cap / 4) {
        compact(r);
        return 0;
    }
    if (r->in_cap >= HV_RD_IN_MAX) {
        /* A frame larger than any chunk we accept: stop pinning its start
         * (resynchronisation will start from the parse position instead). */
        r->keep_off = HV_RD_KEEP_NONE;
        compact(r);
        if (r->in_len < r->in_cap)
            return 0;
        hv_rd_error(r, HV_READ_CORRUPT, hv_rd_offset(r), "a frame larger than %zu bytes", r->in_cap);
        return -1;
    }
    if (!HV_GROW_UPTO(r->in, r->in_cap + 1, r->in_cap, HV_RD_IN_INITIAL, HV_RD_IN_MAX)) {
        hv_rd_error(r, HV_READ_NOMEM, hv_rd_offset(r), "out of memory growing the input buffer past %zu bytes",
                    r->in_cap);
        return -1;
    }
    return 0;
}

long hv_rd_fill(struct hv_reader *r, size_t want)
{
    while (hv_rd_avail(r) < want && !r->eof) {
        if (r->in_len == r->in_cap && make_room(r) < 0)
            return -1;
        size_t n = fread(r->in + r->in_len, 1, r->in_cap - r->in_len, r->f);
        r->in_len += n;
        if (n == 0) {
            if (ferror(r->f)) {
                hv_rd_error(r, HV_READ_IO, r->in_off + r->in_len, "read failed: %s", strerror(errno));
                return -1;
            }
            r->eof = 1;
        }
    }
    return (long)hv_rd_avail(r);
}
