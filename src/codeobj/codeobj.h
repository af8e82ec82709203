/* codeobj.h - turn an AMDGPU device-code image into a kernel table.
 *
 * Who calls this and why it is shaped the way it is:
 *   - the preload library, at __hipRegisterFatBinary / hipModuleLoadData(Ex)
 *     time, inside someone else's process: so nothing here aborts, prints,
 *     keeps global state (but libelf's version, set once) or trusts a
 *     single byte of the image;
 *   - the offline analyzer, which re-parses the code objects the tracer wrote
 *     into the trace (hv_co_object gives their exact bytes and hash).
 *
 * Accepted images (detected by magic, several may follow each other the way
 * the linker concatenates one bundle per translation unit in .hip_fatbin):
 *   "__CLANG_OFFLOAD_BUNDLE__"  plain clang offload bundle
 *   "CCOB"                      compressed bundle, header v1/v2/v3, zstd
 *   "\x7fELF"                   a bare AMDGPU code object (Triton, JITs)
 * plus the HIP fat-binary wrapper handed to __hipRegisterFatBinary
 * (hv_co_fatbin_image below).
 *
 * Bad input never stops the parse: the offending unit (bundle entry, ELF,
 * kernel) is skipped, its reason counted in table->errors[] and the rest of
 * the image is still decoded. The table is not locked; callers serialise.
 */
#ifndef HV_CODEOBJ_CODEOBJ_H
#define HV_CODEOBJ_CODEOBJ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reasons a unit of the image was skipped. X-macro so the enum and the
 * name/description tables cannot drift apart. */
#define HV_CO_ERRORS(X)                                                          \
    X(UNKNOWN_FORMAT, "no bundle, CCOB or ELF magic where an image was expected") \
    X(BUNDLE_TRUNCATED, "bundle header or entry table runs past the image")      \
    X(BUNDLE_ENTRY_OOB, "bundle entry offset/size lies outside the bundle")      \
    X(BUNDLE_UNKNOWN_TRIPLE, "bundle entry id is neither host nor amdgcn")       \
    X(CCOB_TRUNCATED, "compressed bundle shorter than its header")               \
    X(CCOB_BAD_VERSION, "compressed bundle header version not 1, 2 or 3")        \
    X(CCOB_BAD_SIZE, "compressed bundle sizes inconsistent or over the cap")     \
    X(CCOB_UNSUPPORTED_METHOD, "compressed bundle method is not zstd (zlib?)")   \
    X(CCOB_DECOMPRESS, "zstd refused the compressed bundle payload")             \
    X(NOT_ELF, "amdgcn bundle entry is not an ELF (bitcode?)")                   \
    X(ELF_TRUNCATED, "ELF header or its tables run past the code object")        \
    X(ELF_NOT_AMDGPU, "ELF is not ELF64 little-endian EM_AMDGPU")                \
    X(ELF_NO_METADATA, "no NT_AMDGPU_METADATA note (code object v2?)")           \
    X(NOTE_MALFORMED, "note header sizes run past the note section")             \
    X(MSGPACK_BAD, "metadata note is not one well-formed msgpack object")        \
    X(METADATA_BAD, "metadata has no amdhsa.kernels array")                      \
    X(KERNEL_BAD, "kernel entry lacks .name or .kernarg_segment_size")           \
    X(ARG_BAD, "kernel argument lacks .offset/.size/.value_kind")                \
    X(NOMEM, "allocation failed")

enum hv_co_err {
    HV_CO_OK = 0,
#define HV_CO_ENUM_(id, text) HV_CO_ERR_##id,
    HV_CO_ERRORS(HV_CO_ENUM_)
#undef HV_CO_ENUM_
    HV_CO_ERR__COUNT
};

/* "HV_CO_ERR_TRUNCATED..." style short name, and one-line description. */
const char *hv_co_err_name(enum hv_co_err e);
const char *hv_co_err_text(enum hv_co_err e);

/* .value_kind. Every hidden_* kind folds into HIDDEN (the tracer only needs
 * to know the runtime fills it); arg->value_kind_raw keeps the exact string. */
enum hv_co_value_kind {
    HV_CO_VK_UNKNOWN = 0,
    HV_CO_VK_BY_VALUE,
    HV_CO_VK_GLOBAL_BUFFER,          /* a pointer to global memory */
    HV_CO_VK_DYNAMIC_SHARED_POINTER, /* OpenCL __local pointer arg */
    HV_CO_VK_IMAGE,
    HV_CO_VK_PIPE,
    HV_CO_VK_QUEUE,
    HV_CO_VK_SAMPLER,
    HV_CO_VK_HIDDEN
};

enum hv_co_addr_space {
    HV_CO_AS_NONE = 0, /* absent: not a pointer */
    HV_CO_AS_GLOBAL,
    HV_CO_AS_CONSTANT,
    HV_CO_AS_LOCAL,
    HV_CO_AS_PRIVATE,
    HV_CO_AS_GENERIC,
    HV_CO_AS_REGION,
    HV_CO_AS_OTHER
};

/* Both .access (declared: HIP const __restrict__, OpenCL qualifiers) and
 * .actual_access (what the optimiser proved) use this enum. */
enum hv_co_access {
    HV_CO_ACC_UNKNOWN = 0, /* absent: the compiler did not say */
    HV_CO_ACC_READ_ONLY,
    HV_CO_ACC_WRITE_ONLY,
    HV_CO_ACC_READ_WRITE,
    HV_CO_ACC_OTHER
};

/* Strings point into table-owned memory that never moves, so they stay valid
 * until hv_co_table_free() even while the table keeps growing. */
struct hv_co_arg {
    const char *name;           /* "" when absent (HIP without -g) */
    const char *value_kind_raw; /* exact .value_kind, e.g. "hidden_block_count_x" */
    uint32_t offset, size;      /* within the kernarg segment */
    uint8_t value_kind;         /* enum hv_co_value_kind */
    uint8_t address_space;      /* enum hv_co_addr_space */
    uint8_t access;             /* enum hv_co_access, from .access */
    uint8_t actual_access;      /* enum hv_co_access, from .actual_access */
    uint8_t is_const, is_restrict, is_volatile;
};

/* actual_access when known, else access: the best statement of what the
 * kernel does to the buffer. */
enum hv_co_access hv_co_arg_access(const struct hv_co_arg *a);

struct hv_co_kernel {
    const char *name;        /* .name: what __hipRegisterFunction and
                                hipModuleGetFunction are given (mangled) */
    const char *symbol;      /* .symbol: "<name>.kd", the kernel descriptor */
    const char *arch;        /* processor, e.g. "gfx950" */
    uint64_t code_object_hash; /* == objects[object].hash */
    uint32_t object;         /* index into table->objects */
    uint32_t kernarg_size, kernarg_align;
    int32_t sgpr_count, vgpr_count; /* -1 when absent */
    uint32_t nargs;
    const struct hv_co_arg *args;
};

/* One distinct code object. `elf` is what the tracer writes into the trace
 * once (keyed by `hash`) and what the analyzer feeds back to hv_co_parse. */
struct hv_co_object {
    uint64_t hash;            /* hv_co_hash64(elf, len) */
    const unsigned char *elf; /* see `owned` for its lifetime */
    size_t len;
    const char *target;       /* amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx90a:xnack-";
                                 built from e_flags when the note lacks it */
    const char *proc;         /* "gfx90a" */
    const char *bundle_id;    /* bundle entry id, "" for a bare ELF */
    size_t image_offset;      /* offset in the caller's image of the ELF, or of
                                 the CCOB holding it when `compressed` */
    uint8_t compressed;
    uint8_t owned;            /* 1: elf is table memory (decompressed or copied),
                                 valid until hv_co_table_free. 0: elf points
                                 into the caller's image and lives as long as
                                 that image does */
    uint32_t first_kernel, nkernels; /* its kernels in table->kernels */
};

#define HV_CO_MAX_ISSUES 8
struct hv_co_issue {
    uint32_t err;   /* enum hv_co_err */
    size_t offset;  /* caller-image offset of the unit that was skipped (for
                       units inside a CCOB: the CCOB's offset) */
};

struct hv_co_priv; /* arena (strings, args, owned ELFs) and lookup indexes */

struct hv_co_table {
    /* kernels[] and objects[] are reallocated as the table grows: keep
     * indices, not pointers, across hv_co_parse calls. */
    struct hv_co_kernel *kernels;
    size_t nkernels;
    struct hv_co_object *objects;
    size_t nobjects;

    uint32_t errors[HV_CO_ERR__COUNT]; /* skipped units, by reason */
    uint32_t nissues;                  /* total issues; first few below */
    struct hv_co_issue issues[HV_CO_MAX_ISSUES];
    uint32_t nduplicates; /* code objects already in the table (same hash) */
    uint32_t nfiltered;   /* skipped by opts->proc */
    uint32_t nhost;       /* host bundle entries (always empty) */

    struct hv_co_priv *priv;
};

enum {
    HV_CO_COPY_ELF = 1u << 0, /* copy each new ELF into the table: for
                                 hipModuleLoadData, whose image the caller
                                 may free right after the call */
    HV_CO_KEEP_DUPLICATES = 1u << 1 /* re-add kernels of an object whose hash
                                 is already present (default: skip them) */
};

struct hv_co_opts {
    const char *proc;        /* only this processor ("gfx950"); NULL: all */
    size_t max_decompressed; /* cap for one CCOB payload; 0: 1 GiB */
    unsigned flags;          /* HV_CO_COPY_ELF | HV_CO_KEEP_DUPLICATES */
};

/* A zeroed table is a valid empty table; init just does that. */
void hv_co_table_init(struct hv_co_table *t);
void hv_co_table_free(struct hv_co_table *t);

/* Decode every code object in image[0, len) and append its kernels.
 * opts may be NULL. Returns the number of kernels added (>= 0), -EINVAL on a
 * NULL table/image, -ENOMEM when memory ran out (what was added before stays
 * valid). Skipped units are counted in t->errors, never returned. */
int hv_co_parse(struct hv_co_table *t, const void *image, size_t len,
                const struct hv_co_opts *opts);

/* Bytes the image starting at p spans, reading at most max bytes of it (and
 * only headers and tables, never payloads): for a plain bundle its header,
 * entry table and the furthest entry end; for CCOB v2/v3 the header's total
 * size, for v1 header + zstd frame; for an ELF the furthest of its header
 * tables and section/segment contents. 0 when p holds none of these within
 * max. This is how callers that get no length (the fat-binary wrapper,
 * hipModuleLoadData) find one. */
size_t hv_co_image_size(const void *p, size_t max);

/* The struct __hipRegisterFatBinary receives (clang's __CudaFatBinaryWrapper
 * with HIP's magic). */
#define HV_CO_FATBIN_MAGIC 0x48495046u /* "HIPF" */
struct hv_co_fatbin_wrapper {
    uint32_t magic;
    uint32_t version;
    const void *binary; /* offload bundle (plain or CCOB), no length given */
    const void *unused;
};

/* Bytes from p to the end of the loaded ELF segment that contains p
 * (dl_iterate_phdr), 0 when p is in no loaded object. This is the only
 * bound we have on a fat binary's memory: reading past it may fault. */
size_t hv_co_mapped_extent(const void *p);

/* From the wrapper pointer to (image, len) ready for hv_co_parse. max bounds
 * the bundle; 0 means hv_co_mapped_extent(binary). Returns 0, or -EINVAL
 * (NULL args), -EPROTO (magic is not HIPF), -ERANGE (no bound known, or no
 * well-formed bundle within it). */
int hv_co_fatbin_image(const void *wrapper, size_t max, const void **image,
                       size_t *len);

/* First kernel named `name`; with hv_co_find_arch, the one for processor
 * `proc` (a fat binary carries one copy per processor). NULL if none. */
const struct hv_co_kernel *hv_co_find(const struct hv_co_table *t, const char *name);
const struct hv_co_kernel *hv_co_find_arch(const struct hv_co_table *t,
                                           const char *name, const char *proc);

/* Index of the object with this hash, or -1. */
long hv_co_find_object(const struct hv_co_table *t, uint64_t hash);

/* The content hash used for hv_co_object.hash: XXH64 with seed 0 (the
 * public xxHash spec; zstd's frame checksum is its low 32 bits). Fast
 * enough for multi-hundred-MB fat binaries at load time, unlike FNV-1a. */
uint64_t hv_co_hash64(const void *p, size_t len);

/* Processor name for an AMDGPU e_flags value ("gfx950"), NULL if unknown. */
const char *hv_co_proc_from_eflags(uint32_t e_flags);

#ifdef __cplusplus
}
#endif
#endif
