/*
 * Reader framing: the header frame, then data frames (one chunk each) and
 * skippable frames (footer, future metadata), with the recovery rules of
 * docs/trace-format.md:
 *   - input that ends inside a frame -> HV_READ_TRUNCATED at the frame start,
 *     terminal;
 *   - a damaged frame -> HV_READ_CORRUPT at the frame start; reading resumes
 *     after it (its end is known when zstd decoded it but the chunk inside is
 *     malformed) or at the next frame magic found from its second byte on.
 * A chunk is accepted whole or not at all: it is validated before any of its
 * records reaches the window, so "records salvaged" is exact.
 */
#include <stdlib.h>
#include <string.h>

#include "format/codec_int.h"
#include "format/reader_int.h"
#include "format/rec_layout.h"

static void consume(struct hv_reader *r, size_t n) { r->in_pos += n; }

/* Records that r->err is to be reported once the window drains; -1 for the
 * callers' convenience. */
static int fail(struct hv_reader *r, int resumable)
{
    r->src = HV_SRC_FAILED;
    r->err_resumable = resumable;
    return -1;
}

/* The frame at `bad` is damaged and its end unknown: reading goes on at the
 * next frame magic found from its second byte on. Every byte passed over,
 * the damaged frame's own included, is counted as skipped. (If the frame's
 * start is no longer buffered, which only a frame larger than any chunk can
 * cause, the scan starts at the oldest byte still buffered.) */
static void resume_scan_after(struct hv_reader *r, uint64_t bad)
{
    uint64_t resume = bad + 1;
    if (resume < r->in_off)
        resume = r->in_off;
    if (resume - r->in_off > r->in_len)
        resume = r->in_off + r->in_len;
    r->in_pos = (size_t)(resume - r->in_off);
    r->st.skipped_bytes += 1;
    r->resync = 1;
}

/* ---- header ---------------------------------------------------------- */

static void describe_foreign(struct hv_reader *r, const uint8_t *p, size_t n)
{
    char hex[3 * 16 + 1] = "";
    for (size_t i = 0; i < n && i < 16; i++)
        snprintf(hex + 3 * i, 4, "%02x ", p[i]);
    const char *hint = n >= 4 && hv_le32(p) == HV_ZSTD_MAGIC ? " (an ordinary zstd stream, not a hipvis trace)" : "";
    hv_rd_error(r, HV_READ_FOREIGN, 0,
                "expected a hipvis trace: skippable zstd frame 0x%08x holding \"HIPVIS\\x01\\x00\"; found %s%s",
                HV_FRAME_MAGIC_HEADER, n ? hex : "nothing", hint);
}

int hv_rd_read_header(struct hv_reader *r)
{
    uint8_t expect[HV_SKIPPABLE_HDR_BYTES + 8];
    hv_put_le32(expect, HV_FRAME_MAGIC_HEADER);
    hv_put_le32(expect + 4, 0);                      /* size: not compared */
    memcpy(expect + HV_SKIPPABLE_HDR_BYTES, HV_FILE_MAGIC, 8);

    long avail = hv_rd_fill(r, HV_SKIPPABLE_HDR_BYTES + HV_HEADER_MIN_BYTES);
    if (avail < 0)
        return -1;
    const uint8_t *p = r->in + r->in_pos;
    /* Whatever is there must be a prefix of a header frame: a foreign file is
     * told apart from a hipvis trace cut short. */
    for (size_t i = 0; i < (size_t)avail && i < sizeof expect; i++) {
        if ((i < 4 || i >= HV_SKIPPABLE_HDR_BYTES) && p[i] != expect[i]) {
            describe_foreign(r, p, (size_t)avail);
            return -1;
        }
    }
    if ((size_t)avail < HV_SKIPPABLE_HDR_BYTES + HV_HEADER_MIN_BYTES) {
        if (avail == 0)
            hv_rd_error(r, HV_READ_TRUNCATED, 0, "empty file: the process wrote no header");
        else
            hv_rd_error(r, HV_READ_TRUNCATED, 0, "file ends %ld bytes into the header frame", avail);
        return -1;
    }
    uint32_t size = hv_le32(p + 4);
    if (size < HV_HEADER_MIN_BYTES || size > HV_META_FRAME_MAX) {
        hv_rd_error(r, HV_READ_CORRUPT, 0, "header frame size %u out of range [%u, %u]", size,
                    HV_HEADER_MIN_BYTES, HV_META_FRAME_MAX);
        return -1;
    }
    uint32_t version = hv_le32(p + HV_SKIPPABLE_HDR_BYTES + 8);
    uint32_t hsize = hv_le32(p + HV_SKIPPABLE_HDR_BYTES + 12);
    if (version == 0 || version > HV_FORMAT_VERSION) {
        hv_rd_error(r, HV_READ_VERSION, 0, "trace format version %u; this reader reads versions 1..%u",
                    version, HV_FORMAT_VERSION);
        return -1;
    }
    avail = hv_rd_fill(r, HV_SKIPPABLE_HDR_BYTES + (size_t)size);
    if (avail < 0)
        return -1;
    if ((size_t)avail < HV_SKIPPABLE_HDR_BYTES + (size_t)size) {
        hv_rd_error(r, HV_READ_TRUNCATED, 0, "file ends inside the header frame (%ld of %u bytes)",
                    avail, HV_SKIPPABLE_HDR_BYTES + size);
        return -1;
    }
    p = r->in + r->in_pos;
    /* Newer writers may append fields (larger header_size) or data after the
     * struct; older ones write less, and the rest stays zero. */
    size_t n = size < sizeof r->hdr ? size : sizeof r->hdr;
    if (hsize >= HV_HEADER_MIN_BYTES && hsize < n)
        n = hsize;
    memset(&r->hdr, 0, sizeof r->hdr);
    memcpy(&r->hdr, p + HV_SKIPPABLE_HDR_BYTES, n);
    /* Text fields are printed as C strings: never trust their terminators. */
    r->hdr.hipvis_version[sizeof r->hdr.hipvis_version - 1] = '\0';
    r->hdr.host[sizeof r->hdr.host - 1] = '\0';
    r->hdr.runtime_path[sizeof r->hdr.runtime_path - 1] = '\0';
    r->hdr.runtime_version[sizeof r->hdr.runtime_version - 1] = '\0';
    r->hdr.exe[sizeof r->hdr.exe - 1] = '\0';
    r->hdr.knobs[sizeof r->hdr.knobs - 1] = '\0';
    hv_header_argv_sanitize(&r->hdr);
    r->merge.on = (r->hdr.flags & HV_HDR_THREAD_SEQ) != 0;
    r->derive.on = (r->hdr.flags & HV_HDR_DERIVE) != 0;
    consume(r, HV_SKIPPABLE_HDR_BYTES + (size_t)size);
    return 0;
}

/* ---- skippable frames -------------------------------------------------- */

static int resync_scan(struct hv_reader *r);

/* A skippable frame whose size field cannot be right: report it, find the
 * next frame magic from its second byte on now, and say in the message which
 * bytes were passed over, so that the valid frames after it are still read. */
static int skippable_bad(struct hv_reader *r, uint64_t off)
{
    r->st.corrupt_frames++;
    resume_scan_after(r, off);
    uint64_t skipped0 = r->st.skipped_bytes;
    int found = resync_scan(r);
    size_t n = strlen(r->err.what);
    uint64_t at = hv_rd_offset(r);
    if (found)
        snprintf(r->err.what + n, sizeof r->err.what - n,
                 "; bytes %llu..%llu skipped, reading resumes at byte %llu", (unsigned long long)off,
                 (unsigned long long)at - 1, (unsigned long long)at);
    else
        snprintf(r->err.what + n, sizeof r->err.what - n, "; no frame follows (%llu bytes skipped)",
                 (unsigned long long)(r->st.skipped_bytes - skipped0 + 1));
    return fail(r, 1);
}

/* Whether a frame magic occurs in p[0..n). */
static int has_frame_magic(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        uint32_t m = hv_le32(p + i);
        if (m == HV_ZSTD_MAGIC || hv_is_skippable(m))
            return 1;
    }
    return 0;
}

static int read_skippable(struct hv_reader *r, uint64_t off, uint32_t magic)
{
    long avail = hv_rd_fill(r, HV_SKIPPABLE_HDR_BYTES);
    if (avail < 0)
        return fail(r, 0);
    if ((size_t)avail < HV_SKIPPABLE_HDR_BYTES) {
        hv_rd_error(r, HV_READ_TRUNCATED, off, "file ends %ld bytes into a skippable frame header", avail);
        return fail(r, 0);
    }
    uint32_t size = hv_le32(r->in + r->in_pos + 4);
    /* Header, footer and the kinds reserved for later metadata are all
     * small. A size past that limit is damage, and so is one that runs past
     * the end of the file over bytes where a frame starts: either way the
     * frames after it are still read. */
    const char *what = magic == HV_FRAME_MAGIC_FOOTER ? "footer" : magic == HV_FRAME_MAGIC_HEADER ? "header"
                                                                                                   : "skippable";
    if (size > HV_META_FRAME_MAX || (magic == HV_FRAME_MAGIC_FOOTER && size < 8)) {
        hv_rd_error(r, HV_READ_CORRUPT, off, "%s frame claims %u bytes, outside 8..%u", what, size,
                    HV_META_FRAME_MAX);
        return skippable_bad(r, off);
    }
    avail = hv_rd_fill(r, HV_SKIPPABLE_HDR_BYTES + (size_t)size);
    if (avail < 0)
        return fail(r, 0);
    if ((size_t)avail < HV_SKIPPABLE_HDR_BYTES + (size_t)size) {
        if (has_frame_magic(r->in + r->in_pos + HV_SKIPPABLE_HDR_BYTES, (size_t)avail - HV_SKIPPABLE_HDR_BYTES)) {
            hv_rd_error(r, HV_READ_CORRUPT, off,
                        "%s frame claims %u bytes, only %ld follow and a frame starts inside them", what, size,
                        avail - (long)HV_SKIPPABLE_HDR_BYTES);
            return skippable_bad(r, off);
        }
        hv_rd_error(r, HV_READ_TRUNCATED, off, "file ends inside the %s frame (%ld of %u bytes)", what, avail,
                    HV_SKIPPABLE_HDR_BYTES + size);
        return fail(r, 0);
    }
    const uint8_t *p = r->in + r->in_pos + HV_SKIPPABLE_HDR_BYTES;
    consume(r, HV_SKIPPABLE_HDR_BYTES + (size_t)size);
    if (magic != HV_FRAME_MAGIC_FOOTER)
        return 0;   /* a second header (traces concatenated; read on, documented) or later metadata */
    if (memcmp(p, HV_FOOTER_MAGIC, 8) != 0) {
        hv_rd_error(r, HV_READ_CORRUPT, off, "footer frame without the footer magic");
        r->st.corrupt_frames++;
        return fail(r, 1);
    }
    memset(&r->footer, 0, sizeof r->footer);
    memcpy(&r->footer, p, size < sizeof r->footer ? size : sizeof r->footer);
    r->have_footer = 1;
    return 0;
}

/* ---- data frames -------------------------------------------------------- */

/* A decoded frame whose chunk is malformed: its end is known, read on there. */
static int bad_chunk(struct hv_reader *r, uint32_t s)
{
    hv_rd_slot_drop(r, s);
    r->st.corrupt_frames++;
    return fail(r, 1);
}

/* A frame zstd could not decode: rescan from its second byte. */
static int bad_frame(struct hv_reader *r, uint32_t s, uint64_t off)
{
    hv_rd_slot_drop(r, s);
    r->st.corrupt_frames++;
    r->keep_off = HV_RD_KEEP_NONE;
    resume_scan_after(r, off);
    return fail(r, 1);
}

static int add_strings(struct hv_reader *r, const uint8_t *p, const uint8_t *end)
{
    for (; p < end; p += ((const struct hv_rec_header *)p)->size) {
        const struct hv_string *s = (const void *)p;
        if (s->h.type == HV_REC_STRING &&
            hv_strtab_put(&r->strings, s->id, (const char *)(s + 1), s->len) < 0)
            return -1;
    }
    return 0;
}

/* See reader_int.h: the pure part, shared with the decode workers. */
int hv_rd_check_chunk(const uint8_t *b, size_t used, struct hv_chunk_header *ch, uint64_t *nstr, char *why,
                      size_t why_cap)
{
#define BAD(...) do { if (why_cap) snprintf(why, why_cap, __VA_ARGS__); return -1; } while (0)
    if (used < sizeof *ch)
        BAD("chunk of %zu bytes is shorter than a chunk header", used);
    memcpy(ch, b, sizeof *ch);
    if (ch->magic != HV_CHUNK_MAGIC)
        BAD("bad chunk magic 0x%08x (expected 0x%08x)", ch->magic, HV_CHUNK_MAGIC);
    if (ch->payload_bytes != used - sizeof *ch)
        BAD("chunk %u: header says %llu payload bytes, frame holds %zu", ch->chunk_index,
            (unsigned long long)ch->payload_bytes, used - sizeof *ch);
    const uint8_t *p = b + sizeof *ch, *end = b + used;
    uint64_t n = 0;
    *nstr = 0;
    while (p < end) {
        const struct hv_rec_header *h = (const void *)p;
        size_t left = (size_t)(end - p);
        const char *bad = NULL;
        if (left < sizeof *h)
            bad = "record header cut by the end of the chunk";
        else if (h->size < sizeof *h)
            bad = "record size smaller than a record header";
        else if (h->size % HV_REC_ALIGN)
            bad = "record size not a multiple of 8";
        else if (h->size > left)
            bad = "record runs past the end of the chunk";
        else if (hv_rec_has_tail(h->type))
            bad = hv_rec_check(h);
        if (bad)
            BAD("chunk %u, record %llu at chunk byte %zu (type %u, size %u): %s", ch->chunk_index,
                (unsigned long long)n, (size_t)(p - b), left >= sizeof *h ? h->type : 0u,
                left >= sizeof *h ? h->size : 0u, bad);
        *nstr += h->type == HV_REC_STRING;
        n++;
        p += h->size;
    }
    if (n != ch->nrecords)
        BAD("chunk %u: header says %llu records, chunk holds %llu", ch->chunk_index,
            (unsigned long long)ch->nrecords, (unsigned long long)n);
    return 0;
#undef BAD
}

int hv_rd_accept_chunk(struct hv_reader *r, uint32_t s, size_t used, uint64_t off,
                       const struct hv_chunk_header *ch, uint64_t nstr)
{
    const uint8_t *b = r->slots[s].buf, *end = b + used;
    /* Strings enter the table as their chunk is read, ahead of delivery, so
     * a lookup works even for a record the window delivers before its string. */
    if (nstr && add_strings(r, b + sizeof *ch, end) < 0) {
        hv_rd_slot_drop(r, s);
        hv_rd_error(r, HV_READ_NOMEM, off, "out of memory in the string table");
        return fail(r, 0);
    }
    if (r->seen_chunk && ch->chunk_index != r->next_chunk)
        r->st.chunk_gaps++;
    r->seen_chunk = 1;
    r->next_chunk = ch->chunk_index + 1;
    r->st.chunks++;
    r->cur = s;
    r->cur_p = b + sizeof *ch;
    r->cur_end = end;
    return ch->nrecords > 0;
}

int hv_rd_is_v2(const uint8_t *b, size_t used)
{
    return used >= sizeof(struct hv_chunk_header_v2) && hv_le32(b) == HV_CHUNK_MAGIC_V2;
}

int hv_rd_expand_v2(struct hv_reader *r, uint32_t *s, size_t *used, struct hv_chunk_header *ch, uint64_t *nstr,
                    char *why, size_t why_cap)
{
#define BAD(...) do { if (why_cap) snprintf(why, why_cap, __VA_ARGS__); return -1; } while (0)
    struct hv_chunk_header_v2 h2;
    memcpy(&h2, r->slots[*s].buf, sizeof h2);
    if (h2.h.payload_bytes != *used - sizeof h2)
        BAD("v2 chunk %u: header says %llu code bytes, frame holds %zu", h2.h.chunk_index,
            (unsigned long long)h2.h.payload_bytes, *used - sizeof h2);
    if (h2.raw_bytes > HV_CHUNK_MAX_BYTES - sizeof(struct hv_chunk_header))
        BAD("v2 chunk %u: decodes to %llu bytes, over the chunk limit", h2.h.chunk_index,
            (unsigned long long)h2.raw_bytes);
    uint32_t s2;
    if (!r->codec_ctx && !(r->codec_ctx = malloc(HV_CODEC_CTX_MAX * sizeof *r->codec_ctx)))
        BAD("out of memory decoding a v2 chunk");
    if (hv_rd_slot_take(r, &s2) < 0)
        BAD("out of memory decoding a v2 chunk");
    if (hv_rd_slot_reserve(r, s2, sizeof(struct hv_chunk_header) + (size_t)h2.raw_bytes + HV_CODEC_SLACK) < 0) {
        hv_rd_slot_drop(r, s2);
        BAD("out of memory decoding a v2 chunk");
    }
    uint8_t *out = r->slots[s2].buf;
    long n = hv_decode_chunk(r->slots[*s].buf + sizeof h2, (size_t)h2.h.payload_bytes,
                             out + sizeof(struct hv_chunk_header), (size_t)h2.raw_bytes, r->codec_ctx, nstr, why,
                             why_cap);
    if (n < 0 || (uint64_t)n != h2.h.nrecords) {
        hv_rd_slot_drop(r, s2);
        if (n >= 0)
            BAD("v2 chunk %u: header says %llu records, code holds %ld", h2.h.chunk_index,
                (unsigned long long)h2.h.nrecords, n);
        return -1;
    }
    /* From here on it is a plain chunk, already checked record by record
     * (hv_decode_chunk) and as a whole (sizes and count, above). */
    *ch = h2.h;
    ch->magic = HV_CHUNK_MAGIC;
    ch->payload_bytes = h2.raw_bytes;
    memcpy(out, ch, sizeof *ch);
    hv_rd_slot_drop(r, *s);
    *s = s2;
    *used = sizeof *ch + (size_t)h2.raw_bytes;
    return 0;
#undef BAD
}

/* Validates the chunk in slot s and points the cursor at it. Returns 1 with
 * records, 0 for a valid empty chunk, -1 on a problem. */
static int take_chunk(struct hv_reader *r, uint32_t s, size_t used, uint64_t off)
{
    struct hv_chunk_header ch;
    uint64_t nstr;
    char why[sizeof r->err.what];
    if (hv_rd_is_v2(r->slots[s].buf, used)) {
        if (hv_rd_expand_v2(r, &s, &used, &ch, &nstr, why, sizeof why) < 0) {
            hv_rd_error(r, HV_READ_CORRUPT, off, "%s", why);
            return bad_chunk(r, s);
        }
    } else if (hv_rd_check_chunk(r->slots[s].buf, used, &ch, &nstr, why, sizeof why) < 0) {
        hv_rd_error(r, HV_READ_CORRUPT, off, "%s", why);
        return bad_chunk(r, s);
    }
    return hv_rd_accept_chunk(r, s, used, off, &ch, nstr);
}

static int load_data_frame(struct hv_reader *r, uint64_t off)
{
    /* The previous chunk is fully pushed; nothing may reference it any more. */
    if (r->cur != HV_RD_SLOT_NONE) {
        if (r->slots[r->cur].live == 0)
            hv_rd_slot_drop(r, r->cur);
        r->cur = HV_RD_SLOT_NONE;
    }
    uint32_t s;
    if (hv_rd_evacuate(r) < 0 || hv_rd_slot_take(r, &s) < 0) {
        hv_rd_error(r, HV_READ_NOMEM, off, "out of memory for chunk buffers");
        return fail(r, 0);
    }
    r->keep_off = off;
    /* Size the output for the whole chunk up front (our writer records the
     * content size), which also lets zstd decode in a single pass. */
    size_t want = 64u << 10;
    unsigned long long csize = ZSTD_getFrameContentSize(r->in + r->in_pos, hv_rd_avail(r));
    if (csize != ZSTD_CONTENTSIZE_UNKNOWN && csize != ZSTD_CONTENTSIZE_ERROR) {
        if (csize > HV_CHUNK_MAX_BYTES) {
            hv_rd_error(r, HV_READ_CORRUPT, off, "frame announces %llu bytes, over the %u-byte chunk limit",
                        csize, HV_CHUNK_MAX_BYTES);
            return bad_frame(r, s, off);
        }
        want = csize ? (size_t)csize : 1;
    }
    if (hv_rd_slot_reserve(r, s, want) < 0) {
        hv_rd_slot_drop(r, s);
        hv_rd_error(r, HV_READ_NOMEM, off, "out of memory for a %zu-byte chunk", want);
        return fail(r, 0);
    }
    ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
    size_t used = 0;
    for (;;) {
        ZSTD_inBuffer ib = { r->in, r->in_len, r->in_pos };
        ZSTD_outBuffer ob = { r->slots[s].buf, r->slots[s].cap, used };
        size_t ret = ZSTD_decompressStream(r->dctx, &ob, &ib);
        int progress = ib.pos != r->in_pos || ob.pos != used;
        r->in_pos = ib.pos;
        used = ob.pos;
        if (ZSTD_isError(ret)) {
            hv_rd_error(r, HV_READ_CORRUPT, off, "damaged zstd frame: %s", ZSTD_getErrorName(ret));
            return bad_frame(r, s, off);
        }
        if (ret == 0)
            break;
        if (ob.pos == ob.size) {
            if (ob.size >= HV_CHUNK_MAX_BYTES) {
                hv_rd_error(r, HV_READ_CORRUPT, off, "frame decodes to more than the %u-byte chunk limit",
                            HV_CHUNK_MAX_BYTES);
                return bad_frame(r, s, off);
            }
            size_t grow = ob.size * 2 < HV_CHUNK_MAX_BYTES ? ob.size * 2 : HV_CHUNK_MAX_BYTES;
            if (hv_rd_slot_reserve(r, s, grow) < 0) {
                hv_rd_slot_drop(r, s);
                hv_rd_error(r, HV_READ_NOMEM, off, "out of memory for a %zu-byte chunk", grow);
                return fail(r, 0);
            }
            continue;
        }
        if (ib.pos == ib.size) {
            long a = hv_rd_fill(r, 1);
            if (a < 0) {
                hv_rd_slot_drop(r, s);
                return fail(r, 0);
            }
            if (a == 0) {
                hv_rd_slot_drop(r, s);
                hv_rd_error(r, HV_READ_TRUNCATED, off, "file ends %llu bytes into a data frame",
                            (unsigned long long)(hv_rd_offset(r) - off));
                return fail(r, 0);
            }
            continue;
        }
        if (!progress) {
            hv_rd_error(r, HV_READ_CORRUPT, off, "zstd stopped making progress in this frame");
            return bad_frame(r, s, off);
        }
    }
    r->keep_off = HV_RD_KEEP_NONE;
    return take_chunk(r, s, used, off);
}

/* ---- frame loop --------------------------------------------------------- */

/* Skips to the next bytes that start a frame (zstd or skippable magic),
 * counting what it skips. 1: positioned on a magic; 0: input ended or failed. */
static int resync_scan(struct hv_reader *r)
{
    for (;;) {
        long avail = hv_rd_fill(r, 4);
        if (avail < 0)
            {
            fail(r, 0);
            return 0;
        }
        if (avail < 4) {
            r->st.skipped_bytes += (uint64_t)avail;
            consume(r, (size_t)avail);
            r->resync = 0;
            r->src = HV_SRC_END;
            return 0;
        }
        const uint8_t *start = r->in + r->in_pos, *p = start, *last = r->in + r->in_len - 4;
        for (; p <= last; p++) {
            uint32_t m = hv_le32(p);
            if (m == HV_ZSTD_MAGIC || hv_is_skippable(m))
                break;
        }
        r->st.skipped_bytes += (uint64_t)(p - start);
        consume(r, (size_t)(p - start));
        if (p <= last) {
            r->resync = 0;
            return 1;
        }
    }
}

void hv_rd_load_next(struct hv_reader *r)
{
    for (;;) {
        if (r->resync && !resync_scan(r))
            return;
        r->keep_off = HV_RD_KEEP_NONE;
        uint64_t off = hv_rd_offset(r);
        long avail = hv_rd_fill(r, HV_RD_READAHEAD);
        if (avail < 0) {
            fail(r, 0);
            return;
        }
        if (avail == 0) {
            r->src = HV_SRC_END;
            return;
        }
        if (avail < 4) {
            hv_rd_error(r, HV_READ_TRUNCATED, off, "file ends %ld bytes into a frame magic", avail);
            fail(r, 0);
            return;
        }
        const uint8_t *p = r->in + r->in_pos;
        uint32_t magic = hv_le32(p);
        if (magic == HV_ZSTD_MAGIC) {
            if (load_data_frame(r, off) != 0)
                return;   /* a chunk with records, or a problem */
            continue;
        }
        if (hv_is_skippable(magic)) {
            if (read_skippable(r, off, magic) < 0)
                return;
            continue;
        }
        hv_rd_error(r, HV_READ_CORRUPT, off, "no frame starts here (bytes %02x %02x %02x %02x)",
                    p[0], p[1], p[2], p[3]);
        r->st.corrupt_frames++;
        resume_scan_after(r, off);
        fail(r, 1);
        return;
    }
}
