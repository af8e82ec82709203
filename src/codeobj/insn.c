/* insn.c - AMDGPU assembler text -> struct co_insn. See insn.h. */
#include "codeobj/insn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Named SGPRs, by the numbers the hardware gives them on GFX9 (the
 * dataflow only needs them distinct from s0..s101 and stable). */
static const struct {
    const char *name;
    uint16_t reg, n;
} named[] = {
    {"flat_scratch_lo", 102, 1}, {"flat_scratch_hi", 103, 1}, {"flat_scratch", 102, 2},
    {"xnack_mask_lo", 104, 1},   {"xnack_mask_hi", 105, 1},   {"xnack_mask", 104, 2},
    {"vcc_lo", 106, 1},          {"vcc_hi", 107, 1},          {"vcc", 106, 2},
    {"m0", 124, 1},              {"exec_lo", 126, 1},         {"exec_hi", 127, 1},
    {"exec", 126, 2},
};

#define MAX_SGPR 128
#define MAX_VGPR 512 /* gfx90a+ address AGPRs past 256 in some forms */

/* "s5" / "s[4:7]" (after the prefix letter). */
static bool reg_range(const char *s, size_t n, unsigned limit, uint16_t *reg, uint16_t *cnt)
{
    char *end;
    if (n >= 1 && s[0] == '[') {
        unsigned long a = strtoul(s + 1, &end, 10);
        if (end == s + 1 || *end != ':')
            return false;
        const char *b0 = end + 1;
        unsigned long b = strtoul(b0, &end, 10);
        if (end == b0 || *end != ']' || (size_t)(end + 1 - s) != n || b < a || b >= limit)
            return false;
        *reg = (uint16_t)a;
        *cnt = (uint16_t)(b - a + 1);
        return true;
    }
    if (n == 0 || !isdigit((unsigned char)s[0]))
        return false;
    unsigned long a = strtoul(s, &end, 10);
    if ((size_t)(end - s) != n || a >= limit)
        return false;
    *reg = (uint16_t)a;
    *cnt = 1;
    return true;
}

static void classify(const char *s, size_t n, struct co_op *op)
{
    /* Source modifiers wrap or prefix the register: -v1, |v1|, abs(v1),
     * neg(v1), sext(v1). Peel them; the register inside is what flows. */
    while (n && (*s == '-' || *s == '|' || *s == '!')) s++, n--;
    while (n && s[n - 1] == '|') n--;
    const char *paren = memchr(s, '(', n);
    if (paren && n && s[n - 1] == ')' && paren > s && isalpha((unsigned char)s[0]) &&
        strncmp(s, "lit", 3) != 0) {
        n = (size_t)(s + n - 1 - (paren + 1));
        s = paren + 1;
    }
    memset(op, 0, sizeof(*op));
    if (n == 3 && memcmp(s, "off", 3) == 0) {
        op->kind = CO_OP_OFF;
        return;
    }
    for (unsigned i = 0; i < sizeof(named) / sizeof(named[0]); i++)
        if (strlen(named[i].name) == n && memcmp(s, named[i].name, n) == 0) {
            op->kind = CO_OP_SGPR;
            op->reg = named[i].reg;
            op->n = named[i].n;
            return;
        }
    if (n >= 2 && (s[0] == 's' || s[0] == 'v' || s[0] == 'a') &&
        reg_range(s + 1, n - 1, s[0] == 's' ? MAX_SGPR : MAX_VGPR, &op->reg, &op->n)) {
        op->kind = s[0] == 's' ? CO_OP_SGPR : s[0] == 'v' ? CO_OP_VGPR : CO_OP_AGPR;
        return;
    }
    if (n >= 5 && memcmp(s, "lit(", 4) == 0) /* lit(0x10) */
        s += 4, n -= 5;
    if (n && (isdigit((unsigned char)s[0]) || (s[0] == '-' && n > 1))) {
        char buf[32], *end;
        if (n >= sizeof(buf))
            return;
        memcpy(buf, s, n);
        buf[n] = '\0';
        long long v = strtoll(buf, &end, 0);
        if (*end == '\0') {
            op->kind = CO_OP_IMM;
            op->imm = v;
        }
    }
}

static void parse_modifier(const char *w, size_t n, struct co_insn *out)
{
    char buf[32];
    if (n > 7 && n - 7 < sizeof(buf) && memcmp(w, "offset:", 7) == 0) {
        memcpy(buf, w + 7, n - 7);
        buf[n - 7] = '\0';
        out->offset_mod = strtoll(buf, NULL, 0);
    }
}

bool co_insn_parse(const char *text, struct co_insn *out)
{
    memset(out, 0, sizeof(*out));
    const char *p = text;
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t m = 0;
    while (p[m] && !isspace((unsigned char)p[m]))
        m++;
    if (m == 0 || m >= CO_MNEMONIC_MAX)
        return false;
    memcpy(out->mnemonic, p, m);
    p += m;
    /* Disassembler comments ("; ..." / "// ...") are not operands. */
    char buf[256];
    size_t len = strcspn(p, ";");
    const char *slash = strstr(p, "//");
    if (slash && (size_t)(slash - p) < len)
        len = (size_t)(slash - p);
    if (len >= sizeof(buf))
        len = sizeof(buf) - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    p = buf;

    /* Split at depth-0 commas. In each piece, words with a ':' outside
     * brackets are modifiers ("offset:16", "op_sel:[0,1]"); the first other
     * word is the operand. Only the last piece normally has modifiers. */
    while (*p) {
        const char *start = p;
        int depth = 0;
        while (*p && !(depth == 0 && *p == ',')) {
            depth += (*p == '[' || *p == '(') - ((*p == ']' || *p == ')') && depth > 0);
            p++;
        }
        const char *end = p;
        if (*p == ',')
            p++;
        bool have_operand = false;
        for (const char *w = start; w < end;) {
            while (w < end && isspace((unsigned char)*w))
                w++;
            const char *e = w;
            int d = 0;
            bool modifier = false;
            /* a word ends at a space outside brackets: "hwreg(HW_REG_MODE, 0, 3)" is one */
            while (e < end && (d > 0 || !isspace((unsigned char)*e))) {
                d += (*e == '[' || *e == '(') - ((*e == ']' || *e == ')') && d > 0);
                modifier |= *e == ':' && d == 0;
                e++;
            }
            if (e == w)
                break;
            if (modifier)
                parse_modifier(w, (size_t)(e - w), out);
            else if (!have_operand && out->nops < CO_MAX_OPS) {
                classify(w, (size_t)(e - w), &out->op[out->nops++]);
                have_operand = true;
            }
            w = e;
        }
    }
    return true;
}
