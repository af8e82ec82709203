/* scalar.c - LLVM disassembler glue for the scalar/vector classifier: walk a
 * kernel's code, parse each instruction, feed the dataflow (flow.c). */
#include "codeobj/scalar.h"
#include "codeobj/flow.h"
#include "codeobj/insn.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#define PAD 32 /* bytes of s_nop after the code: longest instruction is 12 */

_Static_assert(HV_CO_WORDS_MAX <= CO_FLOW_SLOTS, "one flow slot per kernarg word asked about");

struct hv_co_scalar {
    LLVMDisasmContextRef dc;
    bool vop3_literal; /* the ISA allows a literal constant in VOP3 */
};

/* libLLVM is loaded with dlopen the first time a disassembler is asked
 * for, never at program start: it drags in z3, ICU and libstdc++ (tens of
 * MB, and a start-up cost) that hipvis-analyze needs only for the
 * scalar-exposure check of --diagnose. The headers give the types; the six
 * entry points come from dlsym. HV_LLVM_LIB (the build's libdir/soname)
 * is tried first, then the bare soname through the loader's search path. */
#ifndef HV_LLVM_LIB
#define HV_LLVM_LIB "libLLVM.so"
#endif
#ifndef HV_LLVM_SONAME
#define HV_LLVM_SONAME "libLLVM.so"
#endif

static struct {
    __typeof__(LLVMInitializeAMDGPUTargetInfo) *init_info;
    __typeof__(LLVMInitializeAMDGPUTargetMC) *init_mc;
    __typeof__(LLVMInitializeAMDGPUDisassembler) *init_dis;
    __typeof__(LLVMCreateDisasmCPU) *create;
    __typeof__(LLVMDisasmDispose) *dispose;
    __typeof__(LLVMDisasmInstruction) *disasm;
    int ok;
    char why[320];
} llvm;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_llvm(void)
{
    static const char *const names[] = {HV_LLVM_LIB, HV_LLVM_SONAME};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(llvm.why, sizeof llvm.why, "cannot load %s: %s", HV_LLVM_SONAME, e ? e : "?");
        return;
    }
    /* Kept loaded for the life of the process: LLVM registers global
     * state that must not be unmapped under it. */
#define SYM(field, name)                                                            \
    do {                                                                            \
        *(void **)&llvm.field = dlsym(h, name);                                     \
        if (!llvm.field) {                                                          \
            snprintf(llvm.why, sizeof llvm.why, "%s: no symbol %s", HV_LLVM_SONAME, name); \
            return;                                                                 \
        }                                                                           \
    } while (0)
    SYM(init_info, "LLVMInitializeAMDGPUTargetInfo");
    SYM(init_mc, "LLVMInitializeAMDGPUTargetMC");
    SYM(init_dis, "LLVMInitializeAMDGPUDisassembler");
    SYM(create, "LLVMCreateDisasmCPU");
    SYM(dispose, "LLVMDisasmDispose");
    SYM(disasm, "LLVMDisasmInstruction");
#undef SYM
    /* LLVM's target registry is process-global; registering is idempotent
     * but not guaranteed thread-safe, hence the once. */
    llvm.init_info();
    llvm.init_mc();
    llvm.init_dis();
    llvm.ok = 1;
}

int hv_co_scalar_available(const char **why)
{
    pthread_once(&init_once, init_llvm);
    if (why)
        *why = llvm.ok ? NULL : llvm.why;
    return llvm.ok;
}

const char *hv_co_read_path_name(enum hv_co_read_path p)
{
    static const char *const n[] = {"none", "scalar", "vector", "both", "unknown"};
    return (unsigned)p < sizeof(n) / sizeof(n[0]) ? n[p] : "?";
}

struct hv_co_scalar *hv_co_scalar_open(const char *proc)
{
    if (!proc || strncmp(proc, "gfx", 3) != 0)
        return NULL;
    /* LLVM 20 retired gfx940/gfx941 into gfx942 (same ISA); asking for the
     * old names would make LLVM print a warning from inside a library. */
    if (strcmp(proc, "gfx940") == 0 || strcmp(proc, "gfx941") == 0)
        proc = "gfx942";
    if (!hv_co_scalar_available(NULL))
        return NULL;
    struct hv_co_scalar *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    /* gfx950 and GFX10+ (gfx1xxx, gfx1x-generic) accept a literal after a
     * VOP3 word; gfx940-942 and older GFX9 do not (checked with llvm-mc-22). */
    s->vop3_literal = strcmp(proc, "gfx950") == 0 || (proc[3] == '1' && isdigit((unsigned char)proc[4]));
    s->dc = llvm.create("amdgcn-amd-amdhsa", proc, NULL, 0, NULL, NULL);
    if (!s->dc) {
        free(s);
        return NULL;
    }
    return s;
}

void hv_co_scalar_close(struct hv_co_scalar *s)
{
    if (!s)
        return;
    llvm.dispose(s->dc);
    free(s);
}

static enum hv_co_read_path path_of(uint32_t flags)
{
    bool sl = flags & HV_CO_USE_SLOAD, vl = flags & HV_CO_USE_VLOAD;
    if (sl && vl)
        return HV_CO_READ_BOTH;
    if (sl)
        return HV_CO_READ_SCALAR;
    if (vl)
        return HV_CO_READ_VECTOR;
    return flags & HV_CO_USE_ESCAPE ? HV_CO_READ_UNKNOWN : HV_CO_READ_NONE;
}

/* LLVM 22's AMDGPU disassembler crashes (a dangling Twine in its error
 * path) on a VOP3/VOP3P word naming a literal source on ISAs without VOP3
 * literals, e.g. D28F0000 000200FF for gfx90a or D2080002 0401FF00 for
 * gfx942; llvm-mc-22 crashes the same way. Compilers never emit it, damaged code objects can: such words are
 * skipped as invalid before LLVM sees them. */
static bool llvm_would_crash(const struct hv_co_scalar *s, const unsigned char *p, size_t n)
{
    if (s->vop3_literal || n < 8 || (p[3] & 0xfc) != 0xd0) /* VOP3 / VOP3P on GFX9 */
        return false;
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = w << 8 | p[i];
    return ((w >> 32) & 0x1ff) == 0xff || ((w >> 41) & 0x1ff) == 0xff ||
           ((w >> 50) & 0x1ff) == 0xff;
}

/* Reads kernel k's descriptor into rep->kd: 0, or what hv_co_read_kd says,
 * or -ENOENT when the kernel has no code. */
static int read_kd(const void *elf, size_t len, const struct hv_co_kernel *k, struct hv_co_scalar_report *rep)
{
    memset(rep, 0, sizeof(*rep));
    int r = hv_co_read_kd(elf, len, k, &rep->kd);
    if (r < 0)
        return r;
    return rep->kd.code_len ? 0 : -ENOENT;
}

/* Feeds every instruction of the kernel (rep->kd, read by read_kd) to the
 * dataflow f, set up by the caller. 0 or -ENOMEM. */
static int walk(struct hv_co_scalar *s, const void *elf, struct co_flow *f, struct hv_co_scalar_report *rep)
{
    /* LLVM also crashes when an instruction's literal runs past the end of
     * the bytes it is given: give it the code plus s_nop padding, and drop
     * any instruction that would reach into the padding. */
    size_t n = rep->kd.code_len, pc = 0;
    unsigned char *code = n <= SIZE_MAX - PAD ? malloc(n + PAD) : NULL;
    if (!code)
        return -ENOMEM;
    memcpy(code, (const unsigned char *)elf + rep->kd.code_off, n);
    for (size_t i = 0; i < PAD; i += 4)
        memcpy(code + n + i, "\x00\x00\x80\xbf", 4); /* s_nop 0 */
    char text[256];
    struct co_insn in;
    while (pc < n) {
        if (llvm_would_crash(s, code + pc, n - pc)) {
            rep->ninvalid++;
            pc += 8;
            continue;
        }
        size_t sz = llvm.disasm(s->dc, code + pc, n + PAD - pc,
                                          rep->kd.entry_vaddr + pc, text, sizeof(text));
        if (sz == 0 || sz > n - pc) { /* undecodable: step one dword, the minimum length */
            rep->ninvalid++;
            pc += 4;
            continue;
        }
        pc += sz;
        if (co_insn_parse(text, &in))
            co_flow_step(f, &in);
    }
    free(code);
    return 0;
}

/* The kernel's descriptor into *rep (or `local` when rep is NULL) and a
 * dataflow state for it (~9 KiB of register state, free() it): 0, or what
 * read_kd says, or -ENOMEM. */
static int begin(const void *elf, size_t len, const struct hv_co_kernel *k, struct hv_co_scalar_report **rep,
                 struct hv_co_scalar_report *local, struct co_flow **f)
{
    if (!*rep)
        *rep = local;
    int r = read_kd(elf, len, k, *rep);
    if (r < 0)
        return r;
    *f = malloc(sizeof(**f));
    return *f ? 0 : -ENOMEM;
}

int hv_co_scalar_analyze(struct hv_co_scalar *s, const void *elf, size_t len,
                         const struct hv_co_kernel *k, struct hv_co_ptr_use *uses,
                         size_t nuses, struct hv_co_scalar_report *rep)
{
    struct hv_co_scalar_report local;
    struct co_flow *f;
    if (!s || !elf || !k || (nuses && !uses))
        return -EINVAL;
    int r = begin(elf, len, k, &rep, &local, &f);
    if (r < 0)
        return r;
    co_flow_init(f, k, rep);
    if ((r = walk(s, elf, f, rep)) < 0) {
        free(f);
        return r;
    }

    /* Arguments past the tracked slots are reported as unknown. */
    uint32_t count = 0, slot = 0;
    for (uint32_t i = 0; i < k->nargs; i++) {
        if (k->args[i].value_kind != HV_CO_VK_GLOBAL_BUFFER)
            continue;
        if (count < nuses) {
            bool tracked = slot < f->nslots && f->slot_arg[slot] == i;
            uses[count].arg = i;
            uses[count].flags = tracked ? f->flags[slot] : HV_CO_USE_ESCAPE;
            uses[count].read_path = tracked ? path_of(f->flags[slot]) : HV_CO_READ_UNKNOWN;
        }
        slot++;
        count++;
    }
    free(f);
    return (int)count;
}

int hv_co_scalar_words(struct hv_co_scalar *s, const void *elf, size_t len, const struct hv_co_kernel *k,
                       const uint32_t *offs, size_t n, uint32_t *flags, struct hv_co_scalar_report *rep)
{
    struct hv_co_scalar_report local;
    struct co_flow *f;
    if (!s || !elf || !k || n > HV_CO_WORDS_MAX || (n && (!offs || !flags)))
        return -EINVAL;
    int r = begin(elf, len, k, &rep, &local, &f);
    if (r < 0)
        return r;
    co_flow_init_words(f, k, rep, offs, (uint32_t)n);
    if ((r = walk(s, elf, f, rep)) == 0)
        memcpy(flags, f->flags, n * sizeof *flags);
    free(f);
    return r;
}
