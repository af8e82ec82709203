/* codeobj_int.h - what the codeobj files share and nobody else sees.
 *
 * Every reader of image bytes goes through co_in() before touching them:
 * the image is hostile until proven otherwise, and offsets read from it are
 * 64-bit values that can wrap a size_t addition. */
#ifndef HV_CODEOBJ_CODEOBJ_INT_H
#define HV_CODEOBJ_CODEOBJ_INT_H

#include "codeobj/codeobj.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/u64map.h"

/* [off, off + n) lies inside a buffer of len bytes, without overflow. */
static inline bool co_in(size_t len, uint64_t off, uint64_t n)
{
    return off <= len && n <= len - off;
}

/* Little-endian loads assembled byte by byte: unaligned-safe (UBSan) and
 * independent of the host's byte order. Callers bounds-check first. */
static inline uint16_t co_le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t co_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
static inline uint64_t co_le64(const unsigned char *p)
{
    return (uint64_t)co_le32(p) | (uint64_t)co_le32(p + 4) << 32;
}

/* ---- table.c: growing the public table ---------------------------------- */
struct hv_co_priv {
    struct hv_arena arena;     /* strings, arg arrays, copied/decompressed ELFs */
    /* Keys are hashes (several entries may share one): a lookup confirms
     * the entry. By name: every hipModuleGetFunction and
     * __hipRegisterFunction asks, and a framework registers ~10^5 kernels. */
    struct hv_u64map by_name;  /* hv_co_hash64(name) -> kernel index */
    struct hv_u64map by_hash;  /* object hash -> object index */
    size_t kcap, ocap;
};
bool co_table_ready(struct hv_co_table *t);
struct hv_co_kernel *co_table_new_kernel(struct hv_co_table *t);  /* zeroed */
bool co_table_index_kernel(struct hv_co_table *t, size_t k);
struct hv_co_object *co_table_new_object(struct hv_co_table *t); /* zeroed */
bool co_table_index_object(struct hv_co_table *t, size_t o);

/* ---- parse state shared by bundle/ccob/elf units ------------------------- */
struct co_ctx {
    struct hv_co_table *t;
    const struct hv_co_opts *opts;
    size_t max_decompressed;
    size_t unit_offset; /* caller-image offset of the current unit */
    bool compressed;    /* current bytes live in table memory */
    const char *bundle_id; /* arena string, "" for bare ELFs */
    bool nomem;
    int added;          /* kernels added so far */
};
void co_issue(struct co_ctx *c, enum hv_co_err e);

/* unit.c: one ELF code object -> object + kernels. len may run past the
 * ELF; returns the ELF's own extent (what the caller may skip), 0 when it
 * could not even be opened (reason counted). */
size_t co_parse_elf(struct co_ctx *c, const unsigned char *p, size_t len);

/* bundle.c, ccob.c. *_extent: bytes the bundle at p spans within max; 0
 * and *err when malformed (entries out of bounds are left out, not fatal). co_parse_*: len is
 * that extent, base the caller-image offset of p. */
size_t co_bundle_extent(const unsigned char *p, size_t max, enum hv_co_err *err);
/* Walk a plain bundle's entries, parsing each amdgcn ELF. */
void co_parse_bundle(struct co_ctx *c, const unsigned char *p, size_t len, size_t base);

size_t co_ccob_extent(const unsigned char *p, size_t max, enum hv_co_err *err);
void co_parse_ccob(struct co_ctx *c, const unsigned char *p, size_t len, size_t base);

/* meta.c: decode an NT_AMDGPU_METADATA msgpack blob, appending its kernels
 * to t->kernels (not yet indexed: the caller commits the whole object).
 * Returns the number appended, or -1 when the blob is unusable (reason
 * counted). *target gets amdhsa.target (arena) or stays NULL. */
struct co_meta_in {
    uint32_t obj;
    uint64_t hash;
    const char *proc; /* arena string for hv_co_kernel.arch */
};
int co_parse_meta(struct co_ctx *c, const unsigned char *p, size_t n,
                  const struct co_meta_in *in, const char **target);

/* mpcheck.c: refuse msgpack that would make msgpack-c allocate far more than
 * the input could describe (an array32 header claiming 4G elements). */
bool co_msgpack_plausible(const unsigned char *p, size_t n);

#define CO_BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define CO_BUNDLE_MAGIC_LEN 24
#define CO_CCOB_MAGIC "CCOB"

#endif
