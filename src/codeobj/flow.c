/* flow.c - one forward pass of register taint over a kernel's instructions.
 * The model and its limits are described in scalar.h. */
#include "codeobj/flow.h"

#include <string.h>

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The register array an operand names, or NULL (immediates, "off", ...). */
static co_taint *regs(struct co_flow *f, const struct co_op *op, size_t *cap)
{
    switch (op->kind) {
    case CO_OP_SGPR: *cap = 128; return f->s;
    case CO_OP_VGPR: *cap = 512; return f->v;
    case CO_OP_AGPR: *cap = 512; return f->a;
    default: return NULL;
    }
}

static co_taint get(struct co_flow *f, const struct co_op *op)
{
    size_t cap;
    co_taint *r = regs(f, op, &cap), t = 0;
    for (unsigned i = 0; r && i < op->n && op->reg + i < cap; i++)
        t |= r[op->reg + i];
    return t;
}

static void set(struct co_flow *f, const struct co_op *op, co_taint t)
{
    size_t cap;
    co_taint *r = regs(f, op, &cap);
    for (unsigned i = 0; r && i < op->n && op->reg + i < cap; i++)
        r[op->reg + i] = t;
}

static const struct co_op *opnd(const struct co_insn *in, unsigned i)
{
    static const struct co_op none; /* kind OTHER: no registers */
    return i < in->nops ? &in->op[i] : &none;
}

/* The slots covering kernarg byte `off`, as a taint. */
static co_taint kernarg_taint(const struct co_flow *f, int64_t off)
{
    co_taint t = 0;
    for (uint32_t s = 0; s < f->nslots; s++)
        if (off >= f->slot_lo[s] && off < f->slot_hi[s])
            t |= (co_taint)1 << s;
    return t;
}

static void mark(struct co_flow *f, co_taint t, uint32_t flag)
{
    t &= CO_T_SLOTS;
    for (uint32_t s = 0; t && s < f->nslots; s++, t >>= 1)
        if (t & 1)
            f->flags[s] |= flag;
}

/* The registers the hardware preloads: the kernarg segment pointer, and
 * the kernarg words preloaded into SGPRs (tainted by the slots they hold). */
static void preload(struct co_flow *f)
{
    const struct hv_co_kd *kd = &f->rep->kd;
    if (kd->kernarg_sgpr >= 0 && kd->kernarg_sgpr + 1 < 128)
        f->s[kd->kernarg_sgpr] = f->s[kd->kernarg_sgpr + 1] = CO_T_KA;
    for (unsigned i = 0; i < kd->preload_dwords && kd->preload_sgpr + i < 128; i++)
        f->s[kd->preload_sgpr + i] = kernarg_taint(f, 4 * ((int64_t)kd->preload_offset + i));
}

void co_flow_init(struct co_flow *f, const struct hv_co_kernel *k,
                  struct hv_co_scalar_report *rep)
{
    memset(f, 0, sizeof(*f));
    f->k = k;
    f->rep = rep;
    for (uint32_t i = 0; i < k->nargs; i++) {
        if (k->args[i].value_kind != HV_CO_VK_GLOBAL_BUFFER)
            continue;
        if (f->nslots < CO_FLOW_SLOTS) {
            f->slot_lo[f->nslots] = k->args[i].offset;
            f->slot_hi[f->nslots] = k->args[i].offset + k->args[i].size;
            f->slot_arg[f->nslots++] = i;
        } else {
            rep->nuntracked++;
        }
    }
    preload(f);
}

void co_flow_init_words(struct co_flow *f, const struct hv_co_kernel *k,
                        struct hv_co_scalar_report *rep, const uint32_t *offs, uint32_t n)
{
    memset(f, 0, sizeof(*f));
    f->k = k;
    f->rep = rep;
    for (uint32_t i = 0; i < n; i++) {
        if (f->nslots < CO_FLOW_SLOTS) {
            f->slot_lo[f->nslots] = offs[i];
            f->slot_hi[f->nslots] = offs[i] + 8;
            f->slot_arg[f->nslots++] = UINT32_MAX;
        } else {
            rep->nuntracked++;
        }
    }
    preload(f);
}

/* True when every register of op holds the kernarg pointer itself. */
static bool is_kernarg_ptr(struct co_flow *f, const struct co_op *op)
{
    if (op->kind != CO_OP_SGPR || op->n != 2 || op->reg + 1 >= 128)
        return false;
    return f->s[op->reg] == CO_T_KA && f->s[op->reg + 1] == CO_T_KA;
}

static void scalar_mem(struct co_flow *f, const struct co_insn *in)
{
    const struct co_op *dst = opnd(in, 0), *base = opnd(in, 1), *off = opnd(in, 2);
    const char *m = in->mnemonic;
    bool load = starts(m, "s_load") || starts(m, "s_buffer_load");
    co_taint bt = get(f, base);

    if (load && starts(m, "s_load") && is_kernarg_ptr(f, base) && dst->kind == CO_OP_SGPR) {
        if (off->kind != CO_OP_IMM && off->kind != CO_OP_OTHER) {
            f->rep->nimprecise++; /* SGPR offset: value unknown here */
            set(f, dst, 0);
            return;
        }
        int64_t at = (off->kind == CO_OP_IMM ? off->imm : 0) + in->offset_mod;
        for (unsigned i = 0; i < dst->n && dst->reg + i < 128; i++)
            f->s[dst->reg + i] = kernarg_taint(f, at + 4 * (int64_t)i);
        return;
    }
    if (bt & (CO_T_KA | CO_T_KAD))
        f->rep->nimprecise++; /* kernarg read through a computed address */
    if (load) {
        mark(f, bt, HV_CO_USE_SLOAD);
        set(f, dst, 0);
    } else if (strstr(m, "_atomic")) {
        mark(f, bt, HV_CO_USE_ATOMIC);
        mark(f, get(f, dst), HV_CO_USE_ESCAPE);
        set(f, dst, 0);
    } else if (strstr(m, "_store")) {
        mark(f, bt, HV_CO_USE_SSTORE);
        mark(f, get(f, dst), HV_CO_USE_ESCAPE); /* a pointer stored away */
    }
}

/* global_/flat_/buffer_/tbuffer_/scratch_: find address and data operands
 * by encoding family and whether the instruction returns a value. */
static void vector_mem(struct co_flow *f, const struct co_insn *in)
{
    const char *m = in->mnemonic;
    bool load = strstr(m, "_load") != NULL, atomic = strstr(m, "_atomic") != NULL;
    bool buffer = starts(m, "buffer_") || starts(m, "tbuffer_");
    bool scratch = starts(m, "scratch_");
    const struct co_op *dst = NULL;
    co_taint addr = 0, data = 0;

    if (buffer) { /* op0 vdata/vdst, op1 vaddr|off, op2 srsrc, op3 soffset */
        addr = get(f, opnd(in, 1)) | get(f, opnd(in, 2)) | get(f, opnd(in, 3));
        if (load || atomic)
            dst = opnd(in, 0);
        if (!load)
            data = get(f, opnd(in, 0));
    } else {
        bool global = starts(m, "global_") || scratch;
        bool lds_direct = strstr(m, "_lds") != NULL; /* no vdst */
        /* Returning forms have one operand more: vdst comes first. */
        unsigned plain = global ? 3 : 2; /* store/atomic without return */
        bool returns = load ? !lds_direct : (atomic && in->nops > plain);
        unsigned a = returns ? 1 : 0;
        if (returns)
            dst = opnd(in, 0);
        /* global/scratch: vaddr, [vdata,] saddr|off; flat has no saddr */
        addr = get(f, opnd(in, a));
        if (global)
            addr |= get(f, opnd(in, load ? a + 1 : a + 2));
        if (!load)
            data = get(f, opnd(in, a + 1));
    }
    if (!scratch) /* private memory: never an argument's buffer */
        mark(f, addr, load ? HV_CO_USE_VLOAD : atomic ? HV_CO_USE_ATOMIC : HV_CO_USE_VSTORE);
    mark(f, data, HV_CO_USE_ESCAPE);
    if (dst)
        set(f, dst, 0);
}

/* LDS: no global address; a pointer written there escapes our tracking. */
static void lds(struct co_flow *f, const struct co_insn *in)
{
    const char *m = in->mnemonic;
    bool returns = strstr(m, "read") || strstr(m, "load") || strstr(m, "rtn") ||
                   strstr(m, "permute") || strstr(m, "swizzle") || strstr(m, "append") ||
                   strstr(m, "consume");
    for (unsigned i = returns ? 2 : 1; i < in->nops; i++)
        mark(f, get(f, &in->op[i]), HV_CO_USE_ESCAPE);
    if (returns)
        set(f, opnd(in, 0), 0);
}

static co_taint live_taint(const struct co_flow *f)
{
    co_taint t = 0;
    for (unsigned i = 0; i < 128; i++)
        t |= f->s[i];
    for (unsigned i = 0; i < 512; i++)
        t |= f->v[i] | f->a[i];
    return t;
}

/* Mnemonics whose first register operand is read, not written. */
static bool no_dest(const char *m)
{
    static const char *const p[] = {"s_cmp", "s_bitcmp", "s_setpc", "s_rfe", "s_cbranch",
                                    "s_set_gpr_idx_on", "s_waitcnt", "s_wait_", "s_sendmsg",
                                    "s_ttracedata", "s_setreg"};
    for (unsigned i = 0; i < sizeof(p) / sizeof(p[0]); i++)
        if (starts(m, p[i]))
            return true;
    return false;
}

static bool is_move(const char *m)
{
    return starts(m, "s_mov_b") || starts(m, "v_mov_b") || starts(m, "v_readfirstlane") ||
           starts(m, "v_accvgpr_");
}

static bool has_carry_dest(const struct co_insn *in)
{
    const char *m = in->mnemonic;
    return in->nops >= 3 && in->op[1].kind == CO_OP_SGPR &&
           (strstr(m, "_co_") || starts(m, "v_div_scale") || starts(m, "v_mad_u64_u32") ||
            starts(m, "v_mad_i64_i32") || starts(m, "v_mad_co_"));
}

static void alu(struct co_flow *f, const struct co_insn *in)
{
    const char *m = in->mnemonic;
    const struct co_op *d = opnd(in, 0);
    if (no_dest(m) || (d->kind != CO_OP_SGPR && d->kind != CO_OP_VGPR && d->kind != CO_OP_AGPR))
        return;
    if (is_move(m) && in->nops == 2 && in->op[1].n == d->n) {
        /* element-wise: s_mov_b64 s[8:9], s[0:1] keeps each half's taint */
        size_t dc, sc;
        co_taint *dr = regs(f, d, &dc), *sr = regs(f, &in->op[1], &sc);
        for (unsigned i = 0; dr && sr && i < d->n && d->reg + i < dc && in->op[1].reg + i < sc; i++)
            dr[d->reg + i] = sr[in->op[1].reg + i];
        if (!sr)
            set(f, d, 0); /* immediate */
        return;
    }
    unsigned first_src = has_carry_dest(in) ? 2 : 1;
    co_taint t = 0;
    for (unsigned i = first_src; i < in->nops; i++)
        t |= get(f, &in->op[i]);
    if (t & (CO_T_KA | CO_T_KAD))
        t = (t & ~CO_T_KA) | CO_T_KAD; /* arithmetic on the kernarg pointer */
    set(f, d, t);
    if (first_src == 2)
        set(f, &in->op[1], t);
}

void co_flow_step(struct co_flow *f, const struct co_insn *in)
{
    const char *m = in->mnemonic;
    f->rep->ninsns++;
    if (starts(m, "s_load") || starts(m, "s_buffer_") || starts(m, "s_store") ||
        starts(m, "s_atomic"))
        scalar_mem(f, in);
    else if (starts(m, "s_scratch_"))
        set(f, opnd(in, 0), 0);
    else if (starts(m, "global_") || starts(m, "flat_") || starts(m, "buffer_") ||
             starts(m, "tbuffer_") || starts(m, "scratch_"))
        vector_mem(f, in);
    else if (starts(m, "ds_"))
        lds(f, in);
    else if (starts(m, "image_"))
        set(f, opnd(in, 0), 0);
    else if (starts(m, "s_swappc") || starts(m, "s_call")) {
        f->rep->ncalls++;
        mark(f, live_taint(f), HV_CO_USE_ESCAPE);
        set(f, opnd(in, 0), 0);
    } else if (starts(m, "s_branch") || starts(m, "s_cbranch") || starts(m, "s_setpc")) {
        f->rep->nbranches++;
    } else
        alu(f, in);
}
