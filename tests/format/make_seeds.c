/*
 * Writes the fuzz seed corpus into DIR: small real traces (every record type,
 * one or many chunks, with and without footer, one cut short; format 2 and 1;
 * per-thread sequences), each TRACE given (traces of the real tracer), and
 * for every trace with data frames its chunk form: "HVFZ", flags, then each
 * data frame decompressed, length-prefixed (tests/format/fuzz_reader.c), so
 * that the fuzzer mutates chunk contents and not only compressed bytes.
 *   make_seeds DIR [TRACE...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "format/frame_int.h"
#include "format/trace_writer.h"
#include "gen.h"

#define SEED_MAX (1u << 20)

static size_t slurp(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static int spit(const char *path, const uint8_t *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(buf, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* NAME's chunk form as NAME.chunks: the header's HV_HDR_THREAD_SEQ and
 * whether a footer came after the data frames go into the flags byte.
 * Nothing is written for a trace without data frames or one that does not
 * parse (a cut trace: its last frame is incomplete, the rest still counts). */
static int chunk_seed(const char *dir, const char *name)
{
    static uint8_t in[SEED_MAX], out[SEED_MAX], raw[SEED_MAX];
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t n = slurp(path, in, sizeof in), pos = 0, len = 5;
    int frames = 0, footer = 0;
    memcpy(out, "HVFZ", 4);
    out[4] = 0;
    while (pos + HV_SKIPPABLE_HDR_BYTES <= n) {
        uint32_t magic = hv_le32(in + pos);
        if (hv_is_skippable(magic)) {
            size_t fsz = HV_SKIPPABLE_HDR_BYTES + hv_le32(in + pos + 4);
            if (pos == 0 && fsz >= HV_SKIPPABLE_HDR_BYTES + offsetof(struct hv_file_header, flags) + 4) {
                uint32_t flags = hv_le32(in + HV_SKIPPABLE_HDR_BYTES + offsetof(struct hv_file_header, flags));
                out[4] |= flags & HV_HDR_THREAD_SEQ ? 1 : 0;
            } else if (pos > 0 && frames > 0) {
                footer = 1;
            }
            pos += fsz;
            continue;
        }
        size_t z = ZSTD_findFrameCompressedSize(in + pos, n - pos);
        if (ZSTD_isError(z))
            break;
        size_t d = ZSTD_decompress(raw, sizeof raw, in + pos, z);
        if (ZSTD_isError(d) || len + 4 + d > sizeof out)
            break;
        uint32_t d32 = (uint32_t)d;
        memcpy(out + len, &d32, 4);
        memcpy(out + len + 4, raw, d);
        len += 4 + d;
        frames++;
        pos += z;
    }
    if (!frames)
        return 0;
    out[4] |= footer ? 2 : 0;
    snprintf(path, sizeof path, "%s/%s.chunks", dir, name);
    return spit(path, out, len);
}

/* Per-thread sequences (HV_HDR_THREAD_SEQ), as the tracer writes them: each
 * thread numbers its own calls 1, 2, 3...; a thread's other records carry
 * the seq of its call they belong to. */
static void per_thread_seq(struct hv_reclist *l, size_t n)
{
    struct thr {
        uint32_t tid;
        uint64_t global, seq;
    } t[16];
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        struct hv_rec_header *h = (struct hv_rec_header *)hv_reclist_get(l, i);
        size_t k = 0;
        while (k < nt && t[k].tid != h->tid)
            k++;
        if (k == nt && nt < 16)
            t[nt++] = (struct thr){ h->tid, 0, 0 };
        if (k == 16)
            continue;
        if (h->seq != t[k].global) {
            t[k].global = h->seq;
            t[k].seq++;
        }
        h->seq = t[k].seq;
    }
}

/* cut: keep only that fraction (percent) of the file, 0 keeps all. */
static int write_seed(const char *dir, const char *name, size_t n, size_t chunk, int footer, int cut,
                      unsigned version, int thread_seq)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    struct hv_file_header h;
    struct hv_trace_writer *w;
    hv_gen_header(&h, 1);
    if (thread_seq)
        h.flags |= HV_HDR_THREAD_SEQ;
    if (hv_trace_writer_open_version(path, &h, 3, version, &w) < 0)
        return -1;
    hv_trace_writer_set_chunk_bytes(w, chunk);
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, n, n);
    if (thread_seq)
        per_thread_seq(&l, n);
    for (size_t i = 0; i < n; i++)
        hv_trace_writer_add(w, hv_reclist_get(&l, i));
    hv_reclist_free(&l);
    struct hv_file_footer f = { .calls = n, .records_made = n, .dropped = { 3, 0, 1, 0, 0 } };
    int rc = hv_trace_writer_close(w, footer ? &f : NULL);
    struct stat st;
    if (rc == 0 && cut > 0 && stat(path, &st) == 0)
        rc = truncate(path, st.st_size * cut / 100);
    return rc ? rc : chunk_seed(dir, name);
}

/* A trace of the real tracer, as is and in chunk form. */
static int copy_trace(const char *dir, const char *trace, int i)
{
    static uint8_t buf[SEED_MAX];
    size_t n = slurp(trace, buf, sizeof buf);
    if (n == 0 || n == sizeof buf) {
        fprintf(stderr, "make_seeds: %s: empty, unreadable or over %u bytes\n", trace, SEED_MAX);
        return -1;
    }
    char name[64], path[600];
    snprintf(name, sizeof name, "tracer-%d", i);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return spit(path, buf, n) ? -1 : chunk_seed(dir, name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: make_seeds DIR [TRACE...]\n");
        return 2;
    }
    int rc = 0;
    rc |= write_seed(argv[1], "empty-trace", 0, 4096, 0, 0, HV_FORMAT_VERSION, 0);
    rc |= write_seed(argv[1], "one-chunk", 16, 4096, 1, 0, HV_FORMAT_VERSION, 0);
    rc |= write_seed(argv[1], "many-chunks", 60, 256, 1, 0, HV_FORMAT_VERSION, 0);
    rc |= write_seed(argv[1], "no-footer", 40, 1024, 0, 0, HV_FORMAT_VERSION, 0);
    rc |= write_seed(argv[1], "cut", 40, 1024, 1, 66, HV_FORMAT_VERSION, 0);
    /* What the tracer writes since issue 13: per-thread sequences, merged by the reader. */
    rc |= write_seed(argv[1], "thread-seq", 60, 512, 1, 0, HV_FORMAT_VERSION, 1);
    rc |= write_seed(argv[1], "thread-seq-cut", 60, 512, 1, 66, HV_FORMAT_VERSION, 1);
    /* Version 1 (plain chunks) stays readable: fuzz that reader path too. */
    rc |= write_seed(argv[1], "v1-many-chunks", 60, 256, 1, 0, 1, 0);
    rc |= write_seed(argv[1], "v1-cut", 40, 1024, 1, 66, 1, 0);
    for (int i = 2; i < argc; i++)
        rc |= copy_trace(argv[1], argv[i], i - 1);
    return rc ? 1 : 0;
}
