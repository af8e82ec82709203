/* flow.h - the taint dataflow behind scalar.c, fed one parsed instruction
 * at a time. Separate from the LLVM glue so it is plain C over co_insn. */
#ifndef HV_CODEOBJ_FLOW_H
#define HV_CODEOBJ_FLOW_H

#include "codeobj/insn.h"
#include "codeobj/scalar.h"

/* A register's taint: bit i < CO_FLOW_SLOTS = "derived from pointer
 * argument slot i"; the two top bits mark the kernarg segment pointer
 * itself and values computed from it. */
typedef uint64_t co_taint;
#define CO_FLOW_SLOTS 62
#define CO_T_KA ((co_taint)1 << 63)
#define CO_T_KAD ((co_taint)1 << 62)
#define CO_T_SLOTS (((co_taint)1 << CO_FLOW_SLOTS) - 1)

struct co_flow {
    co_taint s[128], v[512], a[512];
    const struct hv_co_kernel *k;
    uint32_t slot_arg[CO_FLOW_SLOTS]; /* slot -> index in k->args (co_flow_init) */
    uint32_t slot_lo[CO_FLOW_SLOTS], slot_hi[CO_FLOW_SLOTS]; /* kernarg bytes a slot covers */
    uint32_t nslots;
    uint32_t flags[CO_FLOW_SLOTS];    /* HV_CO_USE_* per slot */
    struct hv_co_scalar_report *rep;
};

/* Set up slots (one per global_buffer argument) and the registers the
 * hardware preloads. */
void co_flow_init(struct co_flow *f, const struct hv_co_kernel *k,
                  struct hv_co_scalar_report *rep);
/* The same with one slot per 8-byte kernarg word at offs[0..n), n at most
 * CO_FLOW_SLOTS: which words, wherever the metadata puts them (inside a
 * by-value struct), the kernel loads and uses as an address. */
void co_flow_init_words(struct co_flow *f, const struct hv_co_kernel *k,
                        struct hv_co_scalar_report *rep, const uint32_t *offs, uint32_t n);
void co_flow_step(struct co_flow *f, const struct co_insn *in);

#endif
