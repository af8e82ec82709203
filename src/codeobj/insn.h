/* insn.h - one disassembled AMDGPU instruction, as text, into operands.
 *
 * LLVM's disassembler hands us text ("s_load_dwordx2 s[4:5], s[0:1], 0x0");
 * the dataflow in scalar.c needs register ranges and immediates. The
 * syntax is LLVM's AMDGPU assembler syntax (AMDGPUUsage, "Assembler"):
 * operands separated by ", " at bracket depth 0, modifiers after the last
 * operand separated by spaces ("offset:16 sc0"). No LLVM needed here, so
 * this parser is tested on its own. */
#ifndef HV_CODEOBJ_INSN_H
#define HV_CODEOBJ_INSN_H

#include <stdbool.h>
#include <stdint.h>

enum co_opk {
    CO_OP_OTHER = 0, /* scc, ttmp, literal expressions, hwreg(...) ... */
    CO_OP_SGPR,      /* s*, vcc, exec, m0, flat_scratch, xnack_mask: by
                        their hardware SGPR numbers */
    CO_OP_VGPR,
    CO_OP_AGPR,
    CO_OP_IMM,
    CO_OP_OFF        /* "off": no address register */
};

#define CO_MAX_OPS 8
#define CO_MNEMONIC_MAX 48

struct co_op {
    uint8_t kind;       /* enum co_opk */
    uint16_t reg, n;    /* first register and count, for register kinds */
    int64_t imm;        /* CO_OP_IMM */
};

struct co_insn {
    char mnemonic[CO_MNEMONIC_MAX];
    unsigned nops;
    struct co_op op[CO_MAX_OPS];
    int64_t offset_mod; /* value of an "offset:N" modifier, 0 if none */
};

/* false when the text has no mnemonic. Unknown operand syntax becomes
 * CO_OP_OTHER rather than an error: the dataflow treats it as untainted. */
bool co_insn_parse(const char *text, struct co_insn *out);

#endif
