/* t_corrupt.c - damaged copies of real images: each damage is skipped with
 * its named reason, counted exactly once, and everything else in the image
 * still decodes. */
#include "check.h"
#include "codeobj/elf.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

struct copy {
    unsigned char *p;
    size_t len;
};

static struct copy dup_fx(const char *name)
{
    const struct fixture *f = fx(name);
    struct copy c = {malloc(f->len), f->len};
    memcpy(c.p, f->data, f->len);
    return c;
}

/* Parse c, expect exactly one skip for `err`, `kernels` kernels decoded,
 * and a sane table. */
static void expect(struct copy c, enum hv_co_err err, size_t kernels, const char *what)
{
    struct hv_co_table t;
    int n = co_parse_fresh(&t, c.p, c.len, NULL);
    bool ok = n >= 0 && (size_t)n == kernels && t.nkernels == kernels &&
              t.errors[err] == 1 && co_errors_total(&t) == 1 && t.issues[0].err == err &&
              co_table_sane(&t, c.p, c.len);
    if (!ok)
        fprintf(stderr, "  %s: got %d kernels, %s x%u, %u issues in all\n", what, n,
                hv_co_err_name(err), t.errors[err], co_errors_total(&t));
    CHECK(ok, what);
    hv_co_table_free(&t);
    free(c.p);
}

/* Offset of the metadata note's descriptor in an ELF. */
static size_t note_desc(const unsigned char *elf, size_t len, size_t *n)
{
    struct co_elf e;
    const unsigned char *d = NULL;
    if (co_elf_open(&e, elf, len) != HV_CO_OK)
        return 0;
    enum hv_co_err err = co_elf_find_note(&e, "AMDGPU", CO_NT_AMDGPU_METADATA, &d, n);
    co_elf_close(&e);
    return err == HV_CO_OK ? (size_t)(d - elf) : 0;
}

static size_t find(const struct copy *c, size_t from, const char *s)
{
    const unsigned char *hit = memmem(c->p + from, c->len - from, s, strlen(s));
    return hit ? (size_t)(hit - c->p) : 0;
}

static void elf_damage(void)
{
    const struct fixture *f = fx("cl-gfx950.co");
    struct copy c;
    size_t dn, d = note_desc(f->data, f->len, &dn);
    CHECK(d > 0 && dn > 100, "metadata note located in the test ELF");

    c = dup_fx("cl-gfx950.co");
    c.len /= 2;
    expect(c, HV_CO_ERR_ELF_TRUNCATED, 0, "ELF cut in half");
    c = dup_fx("cl-gfx950.co");
    c.len = 40;
    expect(c, HV_CO_ERR_ELF_TRUNCATED, 0, "ELF cut inside its header");
    c = dup_fx("cl-gfx950.co");
    c.p[18] = 62; /* EM_X86_64 */
    expect(c, HV_CO_ERR_ELF_NOT_AMDGPU, 0, "ELF for another machine");
    c = dup_fx("cl-gfx950.co");
    c.p[4] = 1; /* ELFCLASS32 */
    expect(c, HV_CO_ERR_ELF_NOT_AMDGPU, 0, "32-bit ELF");
    c = dup_fx("cl-gfx950.co");
    c.p[6] = 2; /* EI_VERSION: libelf knows only EV_CURRENT */
    expect(c, HV_CO_ERR_ELF_NOT_AMDGPU, 0, "ELF identification of an unknown version");
    c = dup_fx("cl-gfx950.co");
    c.p[40] = 0xff, c.p[45] = 0x7f; /* e_shoff far away */
    expect(c, HV_CO_ERR_ELF_TRUNCATED, 0, "section table offset out of bounds");

    /* The note header sits 12 + 8 ("AMDGPU\0" padded) bytes before desc. */
    c = dup_fx("cl-gfx950.co");
    c.p[d - 16] = 0xff, c.p[d - 15] = 0xff, c.p[d - 14] = 0xff;
    expect(c, HV_CO_ERR_NOTE_MALFORMED, 0, "note descsz past its section");
    c = dup_fx("cl-gfx950.co");
    c.p[d - 12] = 33;
    expect(c, HV_CO_ERR_ELF_NO_METADATA, 0, "note of another type");

    c = dup_fx("cl-gfx950.co");
    c.p[d] = 0xc1; /* the one byte msgpack never uses */
    expect(c, HV_CO_ERR_MSGPACK_BAD, 0, "msgpack: invalid first byte");
    c = dup_fx("cl-gfx950.co");
    c.p[d] = 0xdf, c.p[d + 1] = 0xff, c.p[d + 2] = 0xff, c.p[d + 3] = 0xff, c.p[d + 4] = 0xff;
    expect(c, HV_CO_ERR_MSGPACK_BAD, 0, "msgpack: map32 claiming 4G entries (no huge alloc)");
    c = dup_fx("cl-gfx950.co");
    c.p[d + dn / 2] ^= 0xff, c.p[d + dn / 2 + 1] ^= 0xff;
    {
        struct hv_co_table t;
        int n = co_parse_fresh(&t, c.p, c.len, NULL);
        CHECK(n >= 0 && co_table_sane(&t, c.p, c.len) && (n < 3 || co_errors_total(&t) == 0),
              "msgpack: two bytes flipped mid-blob: skipped or decoded, never half-built");
        hv_co_table_free(&t);
        free(c.p);
    }

    c = dup_fx("cl-gfx950.co");
    c.p[find(&c, d, "amdhsa.kernels") + 13] = 'z';
    expect(c, HV_CO_ERR_METADATA_BAD, 0, "metadata without amdhsa.kernels");
    c = dup_fx("cl-gfx950.co");
    c.p[find(&c, d, ".kernarg_segment_size") + 20] = 'f';
    expect(c, HV_CO_ERR_KERNEL_BAD, 2, "first kernel without .kernarg_segment_size");
    c = dup_fx("cl-gfx950.co");
    c.p[find(&c, d, ".offset") + 6] = 'z';
    expect(c, HV_CO_ERR_ARG_BAD, 2, "first argument without .offset: its kernel is skipped");
}

/* Position of bundle entry i's fixed header in a plain bundle. */
static size_t entry_at(const unsigned char *p, unsigned i)
{
    size_t pos = 32;
    while (i--) {
        size_t idl = p[pos + 16] | (size_t)p[pos + 17] << 8;
        pos += 24 + idl;
    }
    return pos;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void bundle_damage(void)
{
    struct copy c;
    /* hipcc's entries: 0 host, 1 gfx90a, 2 gfx940. */
    c = dup_fx("hip.fatbin");
    size_t e2 = entry_at(c.p, 2);
    CHECK(memcmp(c.p + e2 + 24, "hipv4-amdgcn-amd-amdhsa--gfx940", 31) == 0, "entry 2 is gfx940");
    memcpy(c.p + e2 + 24 + 6, "nvptx6", 6);
    expect(c, HV_CO_ERR_BUNDLE_UNKNOWN_TRIPLE, 7, "entry with an unknown triple");

    c = dup_fx("hip.fatbin");
    put64(c.p + entry_at(c.p, 1), (uint64_t)1 << 40);
    expect(c, HV_CO_ERR_BUNDLE_ENTRY_OOB, 7, "entry offset out of bounds");
    c = dup_fx("hip.fatbin");
    put64(c.p + entry_at(c.p, 1) + 8, UINT64_MAX - 8);
    expect(c, HV_CO_ERR_BUNDLE_ENTRY_OOB, 7, "entry size wrapping around");
    c = dup_fx("hip.fatbin");
    put64(c.p + 24, 1u << 20);
    expect(c, HV_CO_ERR_BUNDLE_TRUNCATED, 0, "entry count past any sane bundle");
    c = dup_fx("hip.fatbin");
    c.len = entry_at(c.p, 2) + 10;
    expect(c, HV_CO_ERR_BUNDLE_TRUNCATED, 0, "bundle cut inside its entry table");
    c = dup_fx("hip.fatbin");
    put64(c.p + entry_at(c.p, 2) + 16, 5000);
    expect(c, HV_CO_ERR_BUNDLE_TRUNCATED, 0, "entry id length past the bundle");
    c = dup_fx("hip.fatbin");
    size_t off90a = 0;
    for (int i = 0; i < 8; i++)
        off90a |= (size_t)c.p[entry_at(c.p, 1) + i] << (8 * i);
    memcpy(c.p + off90a, "BC\xc0\xde", 4);
    expect(c, HV_CO_ERR_NOT_ELF, 7, "device entry that is bitcode, not ELF");
    c = dup_fx("hip.fatbin");
    c.p[off90a + 200] ^= 0x55; /* somewhere in the gfx90a ELF: still parses or is skipped */
    {
        struct hv_co_table t;
        co_parse_fresh(&t, c.p, c.len, NULL);
        CHECK(t.nkernels >= 7 && co_table_sane(&t, c.p, c.len), "one flipped ELF byte");
        hv_co_table_free(&t);
        free(c.p);
    }
    c = dup_fx("hip.fatbin");
    c.p[3] = 'X';
    expect(c, HV_CO_ERR_UNKNOWN_FORMAT, 0, "bundle magic damaged");
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void ccob_damage(void)
{
    struct copy c;
    c = dup_fx("hip.ccob3");
    c.len -= 10;
    expect(c, HV_CO_ERR_CCOB_TRUNCATED, 0, "CCOB v3 shorter than its total size");
    c = dup_fx("hip.ccob3");
    c.len = 12;
    expect(c, HV_CO_ERR_CCOB_TRUNCATED, 0, "CCOB v3 cut inside its header");
    c = dup_fx("hip.ccob3");
    c.p[4] = 9;
    expect(c, HV_CO_ERR_CCOB_BAD_VERSION, 0, "CCOB version 9");
    c = dup_fx("hip.ccob3");
    c.p[6] = 0;
    expect(c, HV_CO_ERR_CCOB_UNSUPPORTED_METHOD, 0, "CCOB zlib method");
    c = dup_fx("hip.ccob3");
    c.p[6] = 7;
    expect(c, HV_CO_ERR_CCOB_UNSUPPORTED_METHOD, 0, "CCOB unknown method");
    c = dup_fx("hip.ccob3");
    c.p[16] += 1; /* uncompressed size != zstd frame content size */
    expect(c, HV_CO_ERR_CCOB_BAD_SIZE, 0, "CCOB uncompressed size disagrees with the frame");
    c = dup_fx("hip.ccob3");
    put64(c.p + 16, (uint64_t)1 << 40);
    expect(c, HV_CO_ERR_CCOB_BAD_SIZE, 0, "CCOB uncompressed size over the cap");
    c = dup_fx("hip.ccob3");
    put64(c.p + 8, 20);
    expect(c, HV_CO_ERR_CCOB_BAD_SIZE, 0, "CCOB total size smaller than its header");
    c = dup_fx("hip.ccob3");
    c.p[32] ^= 0xff; /* zstd frame magic */
    expect(c, HV_CO_ERR_CCOB_DECOMPRESS, 0, "CCOB payload is not a zstd frame");
    c = dup_fx("hip.ccob2");
    put32(c.p + 8, (uint32_t)c.len + 1);
    expect(c, HV_CO_ERR_CCOB_TRUNCATED, 0, "CCOB v2 total size past the image");

    /* A CCOB whose payload is not a bundle: compress an ELF instead. */
    const struct fixture *elf = fx("cl-gfx950.co"), *v3 = fx("hip.ccob3");
    size_t cap = ZSTD_compressBound(elf->len);
    c.p = malloc(32 + cap);
    memcpy(c.p, v3->data, 32);
    size_t z = ZSTD_compress(c.p + 32, cap, elf->data, elf->len, 3);
    put64(c.p + 8, 32 + z);
    put64(c.p + 16, elf->len);
    c.len = 32 + z;
    expect(c, HV_CO_ERR_UNKNOWN_FORMAT, 0, "CCOB holding something other than a bundle");
}

void t_corrupt(void)
{
    elf_damage();
    bundle_damage();
    ccob_damage();
}
