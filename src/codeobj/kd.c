/* kd.c - decode a kernel descriptor and locate the kernel's code. */
#include "codeobj/kd.h"
#include "codeobj/elf.h"
#include "codeobj/codeobj_int.h"

#include <errno.h>
#include <string.h>

#define KD_SIZE 64
/* KERNEL_CODE_PROPERTY bits, in user-SGPR allocation order, with the
 * number of SGPRs each one takes. */
static const struct {
    uint16_t bit;
    uint8_t sgprs;
} user_sgprs[] = {
    {1u << 0, 4}, /* private segment buffer */
    {1u << 1, 2}, /* dispatch ptr */
    {1u << 2, 2}, /* queue ptr */
    {1u << 3, 2}, /* kernarg segment ptr */
    {1u << 4, 2}, /* dispatch id */
    {1u << 5, 2}, /* flat scratch init */
    {1u << 6, 1}, /* private segment size */
};
#define KERNARG_PTR_BIT (1u << 3)

int hv_co_read_kd(const void *elf, size_t len, const struct hv_co_kernel *k,
                  struct hv_co_kd *out)
{
    struct co_elf e;
    uint64_t value, size;
    size_t off;

    if (!elf || !k || !out || !k->symbol || !k->name)
        return -EINVAL;
    memset(out, 0, sizeof(*out));
    if (co_elf_open(&e, elf, len) != HV_CO_OK)
        return -EPROTO;
    if (!co_elf_find_symbol(&e, k->symbol, &value, &size) ||
        !co_elf_vaddr_to_off(&e, value, KD_SIZE, &off))
        return -ENOENT;
    const unsigned char *kd = e.p + off;
    out->kd_vaddr = value;
    out->entry_vaddr = value + co_le64(kd + 16); /* signed offset, wraps right */
    out->kernarg_size = co_le32(kd + 8);
    out->rsrc3 = co_le32(kd + 44);
    out->rsrc1 = co_le32(kd + 48);
    out->rsrc2 = co_le32(kd + 52);
    out->code_properties = co_le16(kd + 56);
    uint16_t preload = co_le16(kd + 58);
    out->user_sgpr_count = (out->rsrc2 >> 1) & 0x1f;

    unsigned sgpr = 0;
    out->kernarg_sgpr = -1;
    for (unsigned i = 0; i < sizeof(user_sgprs) / sizeof(user_sgprs[0]); i++) {
        if (!(out->code_properties & user_sgprs[i].bit))
            continue;
        if (user_sgprs[i].bit == KERNARG_PTR_BIT)
            out->kernarg_sgpr = (int8_t)sgpr;
        sgpr += user_sgprs[i].sgprs;
    }
    /* Preloaded kernarg dwords follow the other user SGPRs (gfx90a+). */
    out->preload_sgpr = (uint8_t)sgpr;
    out->preload_dwords = preload & 0x7f;
    out->preload_offset = preload >> 7;

    /* The code: the kernel's FUNC symbol gives its extent (left 0 when the
     * symbol table was stripped; the descriptor itself is still valid). */
    if (co_elf_find_symbol(&e, k->name, &value, &size) && value == out->entry_vaddr &&
        size && value % 4 == 0 && co_elf_vaddr_to_off(&e, value, size, &off)) {
        out->code_off = off;
        out->code_len = (size_t)size;
    }
    return 0;
}
