/* t_scalar.c - scalar-vs-vector classification on real clang-22 / hipcc
 * code objects (built only with HAVE_LLVM). The expected classes follow
 * from the instructions the compiler emits, recorded next to each case. */
#include "check.h"
#include "codeobj/insn.h"
#include "codeobj/scalar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void parser(void)
{
    struct co_insn in;
    CHECK(co_insn_parse("\ts_load_dwordx2 s[4:5], s[0:1], 0x10", &in) && in.nops == 3 &&
              strcmp(in.mnemonic, "s_load_dwordx2") == 0 && in.op[0].kind == CO_OP_SGPR &&
              in.op[0].reg == 4 && in.op[0].n == 2 && in.op[2].kind == CO_OP_IMM &&
              in.op[2].imm == 0x10,
          "parse s_load_dwordx2 s[4:5], s[0:1], 0x10");
    CHECK(co_insn_parse("global_load_dword v1, v0, s[2:3] offset:16 sc0", &in) && in.nops == 3 &&
              in.op[1].kind == CO_OP_VGPR && in.op[2].reg == 2 && in.offset_mod == 16,
          "parse global load with modifiers");
    CHECK(co_insn_parse("global_load_dword v2, v[2:3], off", &in) && in.op[2].kind == CO_OP_OFF,
          "parse off");
    CHECK(co_insn_parse("v_pk_fma_f32 v[0:1], v[2:3], -v[4:5], |v6| op_sel_hi:[1,0,1]", &in) &&
              in.nops == 4 && in.op[2].kind == CO_OP_VGPR && in.op[2].reg == 4 &&
              in.op[3].reg == 6,
          "parse source modifiers and bracketed modifier lists");
    CHECK(co_insn_parse("v_add_co_u32_e32 v0, vcc, s4, v0 ; comment", &in) && in.nops == 4 &&
              in.op[1].kind == CO_OP_SGPR && in.op[1].reg == 106 && in.op[1].n == 2,
          "parse vcc and drop comments");
    CHECK(co_insn_parse("s_setreg_b32 hwreg(HW_REG_MODE, 0, 3), s0", &in) && in.nops == 2 &&
              in.op[0].kind == CO_OP_OTHER && in.op[1].kind == CO_OP_SGPR,
          "parse hwreg(...) as one operand");
    CHECK(!co_insn_parse("   ", &in) && co_insn_parse("s_endpgm", &in) && in.nops == 0,
          "parse empty and operand-less");
    CHECK(co_insn_parse("v_mov_b32_e32 v1, s[200:201]", &in) && in.op[1].kind == CO_OP_OTHER,
          "out-of-range register is not a register");
}

struct expect {
    const char *kernel;
    uint32_t arg;
    enum hv_co_read_path path;
    uint32_t must, must_not; /* HV_CO_USE_* */
};

static void classify(const char *fixture, const char *proc, const struct expect *ex, size_t n)
{
    const struct fixture *f = fx(fixture);
    struct hv_co_table t;
    struct hv_co_opts o = {.proc = proc};
    co_parse_fresh(&t, f->data, f->len, &o);
    struct hv_co_scalar *s = hv_co_scalar_open(proc);
    CHECK(s != NULL, "disassembler for the processor");
    for (size_t i = 0; s && i < n; i++) {
        const struct hv_co_kernel *k = hv_co_find_arch(&t, ex[i].kernel, proc);
        struct hv_co_ptr_use uses[16];
        struct hv_co_scalar_report rep;
        char what[160];
        snprintf(what, sizeof(what), "%s %s %s arg %u: %s", fixture, proc, ex[i].kernel,
                 ex[i].arg, hv_co_read_path_name(ex[i].path));
        if (!k) {
            CHECK(false, what);
            continue;
        }
        const struct hv_co_object *ob = &t.objects[k->object];
        int nu = hv_co_scalar_analyze(s, ob->elf, ob->len, k, uses, 16, &rep);
        const struct hv_co_ptr_use *u = NULL;
        for (int j = 0; j < nu && j < 16; j++)
            if (uses[j].arg == ex[i].arg)
                u = &uses[j];
        bool ok = u && u->read_path == ex[i].path && (u->flags & ex[i].must) == ex[i].must &&
                  !(u->flags & ex[i].must_not) && rep.ninvalid == 0 && rep.ninsns > 0;
        if (!ok)
            fprintf(stderr, "  %s: got %s flags 0x%x (rc %d, %u insns, %u invalid)\n", what,
                    u ? hv_co_read_path_name(u->read_path) : "no use", u ? u->flags : 0, nu,
                    rep.ninsns, rep.ninvalid);
        CHECK(ok, what);
    }
    hv_co_scalar_close(s);
    hv_co_table_free(&t);
}

/* Random operand soup: the parser must never read past its input. */
static void parser_fuzz(void)
{
    static const char alpha[] = "sva[]:0123456789x-|,() ;/offset:vcexmlitabn_";
    uint64_t x = 0x123456789abcdefull;
    unsigned ok = 0;
    for (unsigned i = 0; i < 20000; i++) {
        char text[64];
        unsigned n = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned len = (unsigned)(x % (sizeof(text) - 1));
        for (; n < len; n++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            text[n] = alpha[x % (sizeof(alpha) - 1)];
        }
        text[n] = '\0';
        struct co_insn in;
        if (co_insn_parse(text, &in))
            ok += in.nops <= CO_MAX_OPS;
        else
            ok++;
    }
    CHECK(ok == 20000, "instruction text parser on 20000 random strings");
}

/* Fuzzed tables: every kernel that still decodes goes through the
 * classifier too, exercising descriptor, symbol and code-range handling on
 * damaged ELFs. Only when the instruction bytes it selects are real
 * compiler output: LLVM 22's AMDGPU disassembler itself crashes on some
 * malformed encodings (see scalar.c), which is the documented contract. */
static struct hv_co_scalar *fuzz_dis[4];

static bool code_is_real(const struct hv_co_kd *kd, const unsigned char *elf)
{
    static const char *const images[] = {"hip.fatbin", "hip22.fatbin", "cl-gfx950.co"};
    if (!kd->code_len)
        return true; /* nothing to disassemble */
    for (unsigned i = 0; i < 3; i++) {
        const struct fixture *f = fx(images[i]);
        if (kd->code_len <= f->len &&
            memmem(f->data, f->len, elf + kd->code_off, kd->code_len) != NULL)
            return true;
    }
    return false;
}
static const char *const fuzz_proc[4] = {"gfx90a", "gfx940", "gfx942", "gfx950"};

static void fuzz_hook(const struct hv_co_table *t)
{
    for (size_t i = 0; i < t->nkernels; i++) {
        const struct hv_co_kernel *k = &t->kernels[i];
        for (int p = 0; p < 4; p++) {
            if (strcmp(k->arch, fuzz_proc[p]) != 0)
                continue;
            if (!fuzz_dis[p])
                fuzz_dis[p] = hv_co_scalar_open(fuzz_proc[p]);
            struct hv_co_ptr_use u[8];
            struct hv_co_kd kd;
            const struct hv_co_object *o = &t->objects[k->object];
            if (hv_co_read_kd(o->elf, o->len, k, &kd) == 0 && code_is_real(&kd, o->elf))
                hv_co_scalar_analyze(fuzz_dis[p], o->elf, o->len, k, u, 8, NULL);
        }
    }
}

static void fuzz_hook_done(void)
{
    for (int p = 0; p < 4; p++)
        hv_co_scalar_close(fuzz_dis[p]);
}

/* A pointer inside a by-value struct: read_view(view v, int *out) of
 * kernels22.hip. s_load_dwordx4 s[4:7], s[0:1], 0x0 loads v.src and v.tag;
 * v_lshl_add_u64 v[2:3], s[4:5], 0, v[0:1] feeds global_load_dword (src is
 * dereferenced); s_cmp_eq_u64 s[6:7], 0 only compares tag; n (offset 16) is
 * a count. */
static void words(const char *proc)
{
    const struct fixture *f = fx("hip22.fatbin");
    struct hv_co_table t;
    struct hv_co_opts o = {.proc = proc};
    co_parse_fresh(&t, f->data, f->len, &o);
    struct hv_co_scalar *s = hv_co_scalar_open(proc);
    const struct hv_co_kernel *k = hv_co_find_arch(&t, "_Z9read_view4viewPi", proc);
    char what[96];
    snprintf(what, sizeof what, "hip22.fatbin %s read_view: which struct words are dereferenced", proc);
    if (!s || !k) {
        CHECK(false, what);
        hv_co_scalar_close(s);
        hv_co_table_free(&t);
        return;
    }
    const struct hv_co_object *ob = &t.objects[k->object];
    static const uint32_t offs[] = {0, 8, 16};
    uint32_t fl[3] = {~0u, ~0u, ~0u};
    struct hv_co_scalar_report rep;
    int r = hv_co_scalar_words(s, ob->elf, ob->len, k, offs, 3, fl, &rep);
    bool ok = r == 0 && (fl[0] & HV_CO_USE_VLOAD) && !(fl[0] & HV_CO_USE_SLOAD) && fl[1] == 0 && fl[2] == 0 &&
              rep.ninvalid == 0 && rep.ninsns > 0;
    if (!ok)
        fprintf(stderr, "  %s: rc %d flags 0x%x 0x%x 0x%x\n", what, r, fl[0], fl[1], fl[2]);
    CHECK(ok, what);
    CHECK(hv_co_scalar_words(s, ob->elf, ob->len, k, offs, HV_CO_WORDS_MAX + 1, fl, NULL) == -EINVAL,
          "more words than the dataflow's slots: -EINVAL");
    hv_co_scalar_close(s);
    hv_co_table_free(&t);
}

void t_scalar(void)
{
    parser();
    parser_fuzz();
    co_fuzz_hook = fuzz_hook;
    atexit(fuzz_hook_done);

    /* by_group: s_load_dwordx4 s[4:7], s[0:1], 0x0 loads both pointers;
     * s_add_u32/s_addc_u32 index s[4:5]; s_load_dword s0, s[0:1] reads in[]
     * through the scalar cache; out[] is written by global_store (saddr).
     * by_item: v_lshl_add_u64 v[2:3], s[4:5], 0, v[0:1]; global_load_dword.
     * gather: idx and tab read per lane; tab's index came from memory. */
    static const struct expect cl[] = {
        {"by_group", 0, HV_CO_READ_SCALAR, HV_CO_USE_SLOAD, HV_CO_USE_VLOAD},
        {"by_group", 1, HV_CO_READ_NONE, HV_CO_USE_VSTORE, HV_CO_USE_SLOAD | HV_CO_USE_VLOAD},
        {"by_item", 0, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD, HV_CO_USE_SLOAD},
        {"by_item", 1, HV_CO_READ_NONE, HV_CO_USE_VSTORE, HV_CO_USE_SLOAD | HV_CO_USE_VLOAD},
        {"gather", 0, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD, HV_CO_USE_SLOAD},
        {"gather", 1, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD, HV_CO_USE_SLOAD},
        {"gather", 2, HV_CO_READ_NONE, HV_CO_USE_VSTORE, HV_CO_USE_VLOAD | HV_CO_USE_SLOAD},
    };
    classify("scalar-gfx950.co", "gfx950", cl, sizeof(cl) / sizeof(cl[0]));

    /* The same two patterns from HIP source, both HIP toolchains. */
    static const struct expect hip22[] = {
        {"_Z14first_of_groupPKiPi", 0, HV_CO_READ_SCALAR, HV_CO_USE_SLOAD, HV_CO_USE_VLOAD},
        {"_Z14first_of_groupPKiPi", 1, HV_CO_READ_NONE, HV_CO_USE_VSTORE, 0},
        {"_Z5scalePffi", 0, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD | HV_CO_USE_VSTORE, HV_CO_USE_SLOAD},
    };
    classify("hip22.fatbin", "gfx950", hip22, sizeof(hip22) / sizeof(hip22[0]));
    classify("hip22.fatbin", "gfx942", hip22, sizeof(hip22) / sizeof(hip22[0]));
    static const struct expect hip[] = {
        {"_Z5saxpyfPKfPfi", 1, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD, HV_CO_USE_SLOAD},
        {"_Z5saxpyfPKfPfi", 2, HV_CO_READ_VECTOR, HV_CO_USE_VLOAD | HV_CO_USE_VSTORE,
         HV_CO_USE_SLOAD},
        {"c_linkage", 0, HV_CO_READ_SCALAR, HV_CO_USE_SLOAD, HV_CO_USE_VLOAD},
        {"c_linkage", 1, HV_CO_READ_NONE, HV_CO_USE_ATOMIC, HV_CO_USE_SLOAD},
    };
    classify("hip.fatbin", "gfx90a", hip, sizeof(hip) / sizeof(hip[0]));
    classify("hip.fatbin", "gfx940", hip, sizeof(hip) / sizeof(hip[0]));
    words("gfx950");
    words("gfx942");

    /* API edges. */
    CHECK(hv_co_scalar_open("sm_90") == NULL && hv_co_scalar_open(NULL) == NULL,
          "no disassembler for non-AMDGPU processors");
    struct hv_co_scalar *s = hv_co_scalar_open("gfx950");
    struct hv_co_kernel bogus = {.name = "nope", .symbol = "nope.kd"};
    const struct fixture *f = fx("scalar-gfx950.co");
    CHECK(hv_co_scalar_analyze(s, f->data, f->len, &bogus, NULL, 0, NULL) == -ENOENT,
          "unknown kernel: -ENOENT");
    CHECK(hv_co_scalar_analyze(s, f->data, 10, &bogus, NULL, 0, NULL) == -EPROTO,
          "truncated ELF: -EPROTO");
    CHECK(hv_co_scalar_analyze(NULL, f->data, f->len, &bogus, NULL, 0, NULL) == -EINVAL,
          "NULL analyzer: -EINVAL");
    hv_co_scalar_close(s);
}
