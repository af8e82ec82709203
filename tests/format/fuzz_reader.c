/*
 * libFuzzer target for the trace reader (make fuzz): any byte string is
 * opened, read to the end in both modes (seq order with decode workers, file
 * order without), resynchronising after corrupt
 * frames, and every record, header, footer and stats line is printed in
 * both formats, so the printer's use of counts and lengths is fuzzed too.
 *
 * Two kinds of input:
 *   - a trace file as is (anything not starting with the marker below):
 *     framing, header, footer and resynchronisation are fuzzed;
 *   - "HVFZ", a flags byte, then the decompressed content of data frames,
 *     each as a 32-bit little-endian length and that many bytes (a length
 *     past the end takes the rest). They are compressed here as the writer
 *     does (content checksum and size) and put between the header and the
 *     footer of a trace made by the real writer at start-up: flags bit 0 sets
 *     HV_HDR_THREAD_SEQ (per-thread sequences merged), bit 1 keeps the
 *     footer. zstd's checksum makes a mutated compressed frame unreadable, so
 *     without this form the chunk decoder (v2 codec, plain v1 chunks) and the
 *     record checks would only ever see the seeds' own chunks.
 * make_seeds writes seeds of both kinds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "format/frame_int.h"
#include "format/record_print.h"
#include "format/trace_writer.h"
#include "hipvis/reader.h"

#define FZ_MARK "HVFZ"
#define FZ_THREAD_SEQ 1u
#define FZ_FOOTER 2u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

static void read_all(const uint8_t *data, size_t size)
{
    for (int raw = 0; raw < 2; raw++) {
        FILE *f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
        if (!f)
            return;
        struct hv_reader *r;
        struct hv_read_error err;
        if (hv_reader_open_file(f, "fuzz", &r, &err) == 0) {
            hv_reader_set_decode_threads(r, raw ? 0 : 2);   /* both decode paths */
            struct hv_printer p = { sink, raw ? HV_PRINT_TEXT : HV_PRINT_JSON, r };
            hv_print_header(&p, hv_reader_header(r));
            /* Merged order one record at a time and in batches, by turns
             * (the batch's in-order loop and its hand-overs). */
            static const size_t batch[] = { 0, 3, HV_READER_BATCH_MAX };
            const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
            unsigned turn = 0;
            for (int errors = 0; errors < 64;) {
                size_t b = raw ? 0 : batch[turn++ % 3];
                long rc = raw ? hv_reader_next_raw(r, &recs[0])
                          : b ? hv_reader_next_batch(r, recs, b) : hv_reader_next(r, &recs[0]);
                if (rc > 0) {
                    for (long i = 0; i < (b ? rc : 1); i++)
                        hv_print_record(&p, recs[i]);
                    continue;
                }
                if (rc == 0 || hv_reader_error(r)->status != HV_READ_CORRUPT)
                    break;
                errors++;
            }
            if (hv_reader_footer(r))
                hv_print_footer(&p, hv_reader_footer(r));
            struct hv_reader_stats st;
            hv_reader_stats(r, &st);
            hv_print_stats(&p, &st);
            hv_reader_close(r);
        }
        fclose(f);
    }
}

/* The header and footer frames of an empty trace written by the real writer
 * (format HV_FORMAT_VERSION), and where the header's flags are. */
static uint8_t *tpl;
static size_t tpl_header, tpl_footer_at, tpl_len;

static int make_template(void)
{
    char dir[] = "/tmp/hv-fuzz-XXXXXX", path[64];
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/t.zst", dir);
    struct hv_file_header h;
    memset(&h, 0, sizeof h);
    h.pid = 1;
    h.clock = HV_CLOCK_MONOTONIC;
    h.transport = HV_TRANSPORT_FILE;
    struct hv_trace_writer *w;
    struct hv_file_footer ft = { .calls = 10, .records_made = 10, .dropped = { 1, 0, 0, 0, 0 } };
    int rc = hv_trace_writer_open_version(path, &h, 1, HV_FORMAT_VERSION, &w);
    if (rc == 0)
        rc = hv_trace_writer_close(w, &ft);
    FILE *f = rc == 0 ? fopen(path, "rb") : NULL;
    if (f) {
        tpl = malloc(1 << 16);
        tpl_len = tpl ? fread(tpl, 1, 1 << 16, f) : 0;
        fclose(f);
    }
    unlink(path);
    rmdir(dir);
    /* Exactly two skippable frames: the header, then the footer. */
    if (tpl_len < 2 * HV_SKIPPABLE_HDR_BYTES || !hv_is_skippable(hv_le32(tpl)))
        return -1;
    tpl_header = HV_SKIPPABLE_HDR_BYTES + hv_le32(tpl + 4);
    tpl_footer_at = tpl_header;
    if (tpl_header + HV_SKIPPABLE_HDR_BYTES > tpl_len || !hv_is_skippable(hv_le32(tpl + tpl_header)) ||
        tpl_header + HV_SKIPPABLE_HDR_BYTES + hv_le32(tpl + tpl_header + 4) != tpl_len ||
        tpl_header < HV_SKIPPABLE_HDR_BYTES + offsetof(struct hv_file_header, flags) + 4)
        return -1;
    return 0;
}

static void read_chunks(const uint8_t *data, size_t size)
{
    static ZSTD_CCtx *cctx;
    if (!tpl && make_template() != 0)
        abort();   /* the harness itself is broken: say so at once */
    if (!cctx) {
        cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    }
    unsigned flags = data[4];
    data += 5;
    size -= 5;
    size_t cap = tpl_len + 2 * size + 64 * ZSTD_compressBound(0) + 4096, len = 0;
    uint8_t *file = malloc(cap);
    if (!file)
        return;
    memcpy(file, tpl, tpl_header);
    uint32_t hflags;
    uint8_t *fp = file + HV_SKIPPABLE_HDR_BYTES + offsetof(struct hv_file_header, flags);
    memcpy(&hflags, fp, 4);
    hflags = flags & FZ_THREAD_SEQ ? hflags | HV_HDR_THREAD_SEQ : hflags & ~HV_HDR_THREAD_SEQ;
    memcpy(fp, &hflags, 4);
    len = tpl_header;
    for (int frames = 0; size > 0 && frames < 64; frames++) {
        uint32_t n = 0;
        if (size >= 4) {
            memcpy(&n, data, 4);
            data += 4;
            size -= 4;
        } else {
            size = 0;
        }
        if (n > size)
            n = (uint32_t)size;
        size_t z = ZSTD_compress2(cctx, file + len, cap - len, data, n);
        if (ZSTD_isError(z))
            break;
        len += z;
        data += n;
        size -= n;
    }
    if (flags & FZ_FOOTER) {
        memcpy(file + len, tpl + tpl_footer_at, tpl_len - tpl_footer_at);
        len += tpl_len - tpl_footer_at;
    }
    read_all(file, len);
    free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    if (size >= 5 && memcmp(data, FZ_MARK, 4) == 0)
        read_chunks(data, size);
    else
        read_all(data, size);
    return 0;
}
