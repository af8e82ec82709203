/* scalar.h - does a kernel read a pointer argument's buffer through the
 * scalar cache or the vector path?
 *
 * Why: scalar loads (s_load*, s_buffer_load*) go through the scalar data
 * cache, which a later write by a copy engine or another queue does not
 * invalidate unless the runtime/compiler inserts the right invalidation.
 * A kernel that reads a buffer with s_load can observe a stale value where
 * the same kernel reading it with global_load would not (seed report:
 * a graph-replayed kernel read a stale qo_end into s3). Knowing which
 * pointer arguments are scalar-read lets the analyzer flag exactly those
 * host writes.
 *
 * How: disassemble the kernel with LLVM's C API and run one forward pass of
 * a taint dataflow over SGPRs/VGPRs/AGPRs. The kernarg segment pointer's
 * SGPR pair comes from the kernel descriptor; a scalar load from it at an
 * immediate offset taints its destination with the pointer argument found
 * at that offset (per dword, so s_load_dwordx4 of two pointers splits
 * right); ALU results carry the union of their sources' taints; values
 * loaded from memory carry none. Each memory access is attributed to the
 * arguments tainting its address operands.
 *
 * Limits (what "unknown" and the report counters are for):
 *  - one linear pass in address order: branches are not followed, so a
 *    value flowing around a loop back edge into an earlier instruction is
 *    missed (pointer increments inside a loop keep their taint: the union
 *    rule carries it forward);
 *  - calls (s_swappc/s_call) are not entered: pointers live at a call are
 *    marked ESCAPE and their read path becomes UNKNOWN unless a local
 *    access already decided it;
 *  - pointers loaded from memory (a struct of pointers, pointer chasing)
 *    are not tracked: only arguments are;
 *  - kernarg loads through a computed address or an SGPR offset are
 *    counted in `imprecise` and taint nothing;
 *  - the instruction bytes must be compiler output: LLVM 22's AMDGPU
 *    disassembler (llvm-mc-22 too) crashes on some malformed encodings.
 *    The known ones are screened out (see scalar.c), the ELF structure,
 *    descriptor and symbols may be anything, but this is an analyzer-side
 *    tool for code objects the tracer captured from real loads, not for
 *    hostile input inside a traced process (libhvcodeobj.a is that).
 * Built only when LLVM (llvm-config-22) is available: HAVE_LLVM=1. */
#ifndef HV_CODEOBJ_SCALAR_H
#define HV_CODEOBJ_SCALAR_H

#include "codeobj/codeobj.h"
#include "codeobj/kd.h"

#include <stddef.h>
#include <stdint.h>

enum {
    HV_CO_USE_SLOAD = 1u << 0,  /* scalar load through the pointer */
    HV_CO_USE_VLOAD = 1u << 1,  /* global/flat/buffer load */
    HV_CO_USE_SSTORE = 1u << 2, /* s_store / s_buffer_store */
    HV_CO_USE_VSTORE = 1u << 3,
    HV_CO_USE_ATOMIC = 1u << 4, /* scalar or vector atomic */
    HV_CO_USE_ESCAPE = 1u << 5  /* live at a call or stored to memory */
};

enum hv_co_read_path {
    HV_CO_READ_NONE = 0, /* not read by this kernel's own code */
    HV_CO_READ_SCALAR,
    HV_CO_READ_VECTOR,
    HV_CO_READ_BOTH,
    HV_CO_READ_UNKNOWN   /* escapes, and no local read decided it */
};

struct hv_co_ptr_use {
    uint32_t arg;       /* index into kernel->args (a global_buffer) */
    uint32_t flags;     /* HV_CO_USE_* */
    uint8_t read_path;  /* enum hv_co_read_path */
};

struct hv_co_scalar_report {
    struct hv_co_kd kd;
    uint32_t ninsns;     /* instructions decoded */
    uint32_t ninvalid;   /* 4-byte words the disassembler refused */
    uint32_t nbranches;  /* branches flattened by the linear pass */
    uint32_t ncalls;     /* calls not entered */
    uint32_t nimprecise; /* kernarg loads we could not place */
    uint32_t nuntracked; /* pointer args past the 61 we track */
};

const char *hv_co_read_path_name(enum hv_co_read_path p);

/* Whether libLLVM could be loaded (dlopen, on first use; *why says why not).
 * Loading it is what the first call costs; later calls are a load. */
int hv_co_scalar_available(const char **why);

/* A disassembler for one processor ("gfx950"); NULL if libLLVM cannot be
 * loaded or does not know the processor. Creating one costs milliseconds: reuse it for all kernels of a proc.
 * Not thread-safe; one per thread. */
struct hv_co_scalar;
struct hv_co_scalar *hv_co_scalar_open(const char *proc);
void hv_co_scalar_close(struct hv_co_scalar *s);

/* Classify every global_buffer argument of kernel k (from code object
 * elf/len). Writes one hv_co_ptr_use per such argument, in argument order,
 * up to nuses; returns how many there are (may exceed nuses), or -EINVAL,
 * -EPROTO (bad ELF), -ENOENT (no descriptor or code symbol). A kernel that
 * does not enable the kernarg pointer (nor preloads arguments) reads none:
 * every use comes back READ_NONE. rep may be NULL. */
int hv_co_scalar_analyze(struct hv_co_scalar *s, const void *elf, size_t len,
                         const struct hv_co_kernel *k, struct hv_co_ptr_use *uses,
                         size_t nuses, struct hv_co_scalar_report *rep);

/* Does kernel k use the kernarg word at byte offset offs[i] as an address?
 * The same dataflow, with the words as its slots wherever the metadata puts
 * them: a pointer inside a by-value struct (Composable Kernel's argument
 * structs, PyTorch's TensorIterator config) is such a word. flags[i] gets
 * the word's HV_CO_USE_* (0: the kernel's own code never loads it and
 * dereferences it, as far as the linear pass sees; ESCAPE alone: it was
 * only passed on). n <= HV_CO_WORDS_MAX. Returns 0, or the errors of
 * hv_co_scalar_analyze. */
#define HV_CO_WORDS_MAX 62
int hv_co_scalar_words(struct hv_co_scalar *s, const void *elf, size_t len, const struct hv_co_kernel *k,
                       const uint32_t *offs, size_t n, uint32_t *flags, struct hv_co_scalar_report *rep);

#endif
