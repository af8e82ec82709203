/* elf.h - a bounds-checked read-only view of an ELF64 AMDGPU code object.
 *
 * Only what hipvis needs: the note that carries the metadata, symbol lookup
 * and address-to-file-offset mapping (for kernel descriptors and code).
 * Every table the header points at is validated on open, so later lookups
 * only check the entries they read. */
#ifndef HV_CODEOBJ_ELF_H
#define HV_CODEOBJ_ELF_H

#include "codeobj/codeobj.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CO_EM_AMDGPU 224
#define CO_NT_AMDGPU_METADATA 32

struct co_elf {
    const unsigned char *p;
    size_t len;
    uint32_t e_flags;
    uint64_t shoff, phoff;
    uint16_t shnum, phnum;
};

/* Validate the header and both header tables against len. */
enum hv_co_err co_elf_open(struct co_elf *e, const void *p, size_t len);

/* Bytes the file really spans (header, tables, section and segment
 * contents): trailing bytes past it are not part of the code object. */
size_t co_elf_extent(const struct co_elf *e);

/* co_elf_open + co_elf_extent; 0 when the header or tables are bad. */
size_t co_elf_image_extent(const void *p, size_t max);

/* First note with this owner name and type, from SHT_NOTE sections (or
 * PT_NOTE segments when there are no sections). HV_CO_OK with *desc set,
 * HV_CO_ERR_ELF_NO_METADATA, or HV_CO_ERR_NOTE_MALFORMED. */
enum hv_co_err co_elf_find_note(const struct co_elf *e, const char *owner, uint32_t type,
                                const unsigned char **desc, size_t *n);

/* Symbol by exact name (.symtab first, then .dynsym). */
bool co_elf_find_symbol(const struct co_elf *e, const char *name, uint64_t *value,
                        uint64_t *size);

/* File offset of [vaddr, vaddr + n) when it lies in one allocated section
 * with file contents. */
bool co_elf_vaddr_to_off(const struct co_elf *e, uint64_t vaddr, uint64_t n, size_t *off);

#endif
