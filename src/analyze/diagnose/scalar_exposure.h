/*
 * scalar_exposure — does a kernel read a pointer argument through scalar
 * loads (s_load*, s_buffer_load*: the scalar data cache, K$) or vector
 * loads? That is hypothesis H3's observable (ROCm/ATOM#1434: Triton turns
 * tl.load(qo_indptr + batch_id) into s_load_dwordx2).
 *
 * Code objects come from the trace (HV_REC_CODEOBJ, reassembled by the
 * caller) or from files the user names (--code-object: a bare ELF, an
 * offload bundle or a CCOB, e.g. one saved with the ROCm debug agent's
 * --save-code-objects). The classification is src/codeobj/scalar.h (LLVM's
 * AMDGPU disassembler); it is compiled in only with HAVE_LLVM=1, and without
 * it every answer is HV_SX_NO_LLVM so the rest of the analyzer still works
 * and says why this evidence is missing.
 */
#ifndef HV_ANALYZE_DIAGNOSE_SCALAR_EXPOSURE_H
#define HV_ANALYZE_DIAGNOSE_SCALAR_EXPOSURE_H

#include <stddef.h>
#include <stdint.h>

enum hv_sx_status {
    HV_SX_OK = 0,
    HV_SX_NO_LLVM,         /* built without the LLVM disassembler */
    HV_SX_NO_CODE_OBJECT,  /* no code object holds a kernel of that name */
    HV_SX_NO_DISASSEMBLER, /* LLVM does not know the processor */
    HV_SX_NO_ARG,          /* the argument is not a global pointer of that kernel */
    HV_SX_FAILED,          /* the code could not be decoded */
};

struct hv_sx_result {
    uint8_t status;          /* enum hv_sx_status */
    uint8_t read_path;       /* enum hv_co_read_path (codeobj/scalar.h) when OK */
    uint32_t flags;          /* HV_CO_USE_* */
    uint32_t ninsns;         /* instructions decoded */
    char arch[16];           /* "gfx950" */
    char origin[96];         /* "trace" or the file it came from */
};

struct hv_sx;

/* Is the classifier compiled in? */
int hv_sx_available(void);
struct hv_sx *hv_sx_new(void);
void hv_sx_free(struct hv_sx *s);
/* Adds an image (ELF, bundle, CCOB). The bytes are copied. origin labels
 * answers found in it. Returns the number of kernels found, -1 on error. */
int hv_sx_add_image(struct hv_sx *s, const void *image, size_t len, const char *origin);
/* Reads a file and adds it; -1 with errno set when it cannot be read. */
int hv_sx_add_file(struct hv_sx *s, const char *path);
/* Forgets images added with this origin (a trace's objects at its end). */
void hv_sx_drop_origin(struct hv_sx *s, const char *origin);
/* How kernel `name` reads argument `arg` (metadata index). Images whose
 * code-object hash is `prefer` are searched first (0: no preference). */
void hv_sx_classify(struct hv_sx *s, const char *name, uint64_t prefer, uint32_t arg, struct hv_sx_result *r);
/* Kernarg words of kernel `name` (images holding `prefer` first): word i
 * is at byte w[i].offset, or, when that is HV_KARG_OFFSET_UNKNOWN, the
 * first word of explicit argument w[i].arg, placed by the code object's
 * layout. Sets each w[i].flags to the HV_CO_USE_* the kernel's code makes
 * of the word (codeobj/scalar.h hv_co_scalar_words) and w[i].found to 0
 * when the kernel has no such argument. r->status as hv_sx_classify: OK
 * when the words were analyzed. n <= HV_SX_WORDS_MAX. */
#define HV_SX_WORDS_MAX 62
struct hv_sx_word {
    uint32_t arg, offset;
    uint32_t flags;
    uint8_t found;
};
void hv_sx_words(struct hv_sx *s, const char *name, uint64_t prefer, struct hv_sx_word *w, size_t n,
                 struct hv_sx_result *r);
const char *hv_sx_status_text(int status);
/* "none", "scalar", "vector", "both", "unknown" (enum hv_co_read_path). */
const char *hv_sx_path_name(int read_path);

#endif
