/*
 * TEST-ONLY. The code objects a trace stored (HV_REC_CODEOBJ pieces),
 * reassembled — what an offline tool does before re-decoding them — and
 * the content hash of plain files, to compare with the trace's.
 *
 *   co_extract TRACE OUTDIR   writes OUTDIR/<hash>.co per complete object,
 *                             prints "object HASH BYTES ARCH complete|partial"
 *   co_extract --hash FILE... prints "HASH FILE" (hv_co_hash64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "hipvis/reader.h"

#define MAX_OBJECTS 256

struct object {
    uint64_t hash, total, covered;
    uint32_t arch_id;
    unsigned char *bytes;
    unsigned char *have; /* per byte: written by a piece */
};

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

static int hashes(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        size_t len;
        unsigned char *b = slurp(argv[i], &len);
        if (!b)
            return fprintf(stderr, "co_extract: cannot read %s\n", argv[i]), 1;
        printf("0x%016llx %s\n", (unsigned long long)hv_co_hash64(b, len), argv[i]);
        free(b);
    }
    return 0;
}

static struct object *find(struct object *o, int *n, uint64_t hash, uint64_t total)
{
    for (int i = 0; i < *n; i++)
        if (o[i].hash == hash)
            return o[i].total == total ? &o[i] : NULL;
    if (*n == MAX_OBJECTS || total > ((uint64_t)1 << 30))
        return NULL;
    struct object *x = &o[(*n)++];
    *x = (struct object){hash, total, 0, 0, calloc(1, total + 1), calloc(1, total + 1)};
    return x->bytes && x->have ? x : NULL;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--hash"))
        return hashes(argc, argv);
    if (argc != 3)
        return fprintf(stderr, "usage: co_extract TRACE OUTDIR | co_extract --hash FILE...\n"), 2;
    struct hv_reader *r;
    struct hv_read_error err;
    if (hv_reader_open(argv[1], &r, &err) != 0)
        return fprintf(stderr, "co_extract: %s: %s\n", argv[1], err.what), 1;
    static struct object objs[MAX_OBJECTS];
    int n = 0, bad = 0;
    const struct hv_rec_header *h;
    while (hv_reader_next(r, &h) == 1) {
        if (h->type != HV_REC_CODEOBJ)
            continue;
        const struct hv_codeobj_chunk *c = (const void *)h;
        struct object *o = find(objs, &n, c->hash, c->total_bytes);
        if (!o || c->offset > o->total || c->len > o->total - c->offset) {
            bad++;
            continue;
        }
        o->arch_id = c->arch_id;
        memcpy(o->bytes + c->offset, c + 1, c->len);
        memset(o->have + c->offset, 1, c->len);
    }
    for (int i = 0; i < n; i++) {
        struct object *o = &objs[i];
        uint64_t covered = 0;
        for (uint64_t b = 0; b < o->total; b++)
            covered += o->have[b];
        int complete = covered == o->total && hv_co_hash64(o->bytes, o->total) == o->hash;
        const char *arch = hv_reader_string(r, o->arch_id);
        printf("object 0x%016llx %llu %s %s\n", (unsigned long long)o->hash, (unsigned long long)o->total,
               arch ? arch : "?", complete ? "complete" : "partial");
        char path[4096];
        snprintf(path, sizeof path, "%s/0x%016llx.co", argv[2], (unsigned long long)o->hash);
        FILE *f = complete ? fopen(path, "wb") : NULL;
        if (f) {
            fwrite(o->bytes, 1, o->total, f);
            fclose(f);
        }
    }
    hv_reader_close(r);
    if (bad)
        printf("bad pieces %d\n", bad);
    return 0;
}
