/* elf.c - ELF64 little-endian reader for AMDGPU code objects.
 * Field offsets are the ELF64 gABI layout; see elf.h for the why. */
#include "codeobj/elf.h"
#include "codeobj/codeobj_int.h"

#include <string.h>

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define PHDR_SIZE 56
#define SYM_SIZE 24
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_NOTE 7
#define SHT_NOBITS 8
#define SHT_DYNSYM 11
#define SHF_ALLOC 2
#define PT_NOTE 4

enum hv_co_err co_elf_open(struct co_elf *e, const void *data, size_t len)
{
    const unsigned char *p = data;
    memset(e, 0, sizeof(*e));
    if (len < 4 || memcmp(p, "\x7f" "ELF", 4) != 0)
        return HV_CO_ERR_NOT_ELF;
    if (len < EHDR_SIZE)
        return HV_CO_ERR_ELF_TRUNCATED;
    if (p[4] != 2 /* ELFCLASS64 */ || p[5] != 1 /* ELFDATA2LSB */ ||
        co_le16(p + 18) != CO_EM_AMDGPU)
        return HV_CO_ERR_ELF_NOT_AMDGPU;
    e->p = p;
    e->len = len;
    e->phoff = co_le64(p + 32);
    e->shoff = co_le64(p + 40);
    e->e_flags = co_le32(p + 48);
    e->phnum = co_le16(p + 56);
    e->shnum = co_le16(p + 60);
    /* Entry sizes other than the ELF64 ones would mean a different layout. */
    if (e->phnum && co_le16(p + 54) != PHDR_SIZE)
        return HV_CO_ERR_ELF_TRUNCATED;
    if (e->shnum && co_le16(p + 58) != SHDR_SIZE)
        return HV_CO_ERR_ELF_TRUNCATED;
    if (!co_in(len, e->phoff, (uint64_t)e->phnum * PHDR_SIZE) ||
        !co_in(len, e->shoff, (uint64_t)e->shnum * SHDR_SIZE))
        return HV_CO_ERR_ELF_TRUNCATED;
    /* Every section and segment with file contents must lie in the file:
     * a truncated code object is refused whole rather than half-read. */
    for (uint16_t i = 0; i < e->shnum; i++) {
        const unsigned char *s = p + e->shoff + (size_t)i * SHDR_SIZE;
        if (co_le32(s + 4) != SHT_NOBITS && co_le32(s + 4) != 0 &&
            !co_in(len, co_le64(s + 24), co_le64(s + 32)))
            return HV_CO_ERR_ELF_TRUNCATED;
    }
    for (uint16_t i = 0; i < e->phnum; i++) {
        const unsigned char *ph = p + e->phoff + (size_t)i * PHDR_SIZE;
        if (!co_in(len, co_le64(ph + 8), co_le64(ph + 32)))
            return HV_CO_ERR_ELF_TRUNCATED;
    }
    return HV_CO_OK;
}

static void upto(size_t *end, uint64_t off, uint64_t n)
{
    if (off + n > *end) /* callers validated off + n <= len */
        *end = (size_t)(off + n);
}

size_t co_elf_extent(const struct co_elf *e)
{
    size_t end = EHDR_SIZE;
    upto(&end, e->phoff, (uint64_t)e->phnum * PHDR_SIZE);
    upto(&end, e->shoff, (uint64_t)e->shnum * SHDR_SIZE);
    for (uint16_t i = 0; i < e->shnum; i++) {
        const unsigned char *s = e->p + e->shoff + (size_t)i * SHDR_SIZE;
        if (co_le32(s + 4) != SHT_NOBITS && co_le32(s + 4) != 0)
            upto(&end, co_le64(s + 24), co_le64(s + 32));
    }
    for (uint16_t i = 0; i < e->phnum; i++) {
        const unsigned char *ph = e->p + e->phoff + (size_t)i * PHDR_SIZE;
        upto(&end, co_le64(ph + 8), co_le64(ph + 32));
    }
    return end;
}

size_t co_elf_image_extent(const void *p, size_t max)
{
    struct co_elf e;
    return co_elf_open(&e, p, max) == HV_CO_OK ? co_elf_extent(&e) : 0;
}

static const unsigned char *shdr(const struct co_elf *e, uint32_t i)
{
    return i < e->shnum ? e->p + e->shoff + (size_t)i * SHDR_SIZE : NULL;
}

/* Walk one note area; notes are 4-aligned on AMDGPU (8 if the area says so). */
static enum hv_co_err scan_notes(const unsigned char *p, size_t n, size_t align,
                                 const char *owner, uint32_t type,
                                 const unsigned char **desc, size_t *dn)
{
    size_t olen = strlen(owner) + 1, off = 0;
    while (n - off >= 12) {
        uint32_t namesz = co_le32(p + off), descsz = co_le32(p + off + 4);
        uint32_t ntype = co_le32(p + off + 8);
        uint64_t name_off = off + 12;
        uint64_t desc_off = name_off + (((uint64_t)namesz + align - 1) & ~(uint64_t)(align - 1));
        if (!co_in(n, name_off, namesz) || !co_in(n, desc_off, descsz))
            return HV_CO_ERR_NOTE_MALFORMED;
        if (ntype == type && namesz == olen && memcmp(p + name_off, owner, olen) == 0) {
            *desc = p + desc_off;
            *dn = descsz;
            return HV_CO_OK;
        }
        uint64_t next = desc_off + (((uint64_t)descsz + align - 1) & ~(uint64_t)(align - 1));
        if (next > n)
            break; /* last note's padding may be cut: not an error */
        off = (size_t)next;
    }
    return HV_CO_ERR_ELF_NO_METADATA;
}

/* Where a table of notes is described: section headers and program headers
 * hold the same facts (type, file offset, size, alignment) at different
 * offsets. */
struct note_table {
    const unsigned char *base;
    uint16_t count;
    size_t entry_size;
    uint32_t note_type;                 /* SHT_NOTE or PT_NOTE */
    size_t type_at, off_at, size_at, align_at; /* field offsets within an entry */
};

/* Scans every note region of one table: HV_CO_OK when found, else the
 * worst problem seen (malformed beats absent). */
static enum hv_co_err scan_table(const struct co_elf *e, const struct note_table *t, const char *owner,
                                 uint32_t type, const unsigned char **desc, size_t *n)
{
    enum hv_co_err worst = HV_CO_ERR_ELF_NO_METADATA;
    for (uint16_t i = 0; i < t->count; i++) {
        const unsigned char *h = t->base + (size_t)i * t->entry_size;
        if (co_le32(h + t->type_at) != t->note_type)
            continue;
        size_t align = co_le64(h + t->align_at) == 8 ? 8 : 4;
        enum hv_co_err r = scan_notes(e->p + co_le64(h + t->off_at), co_le64(h + t->size_at), align,
                                      owner, type, desc, n);
        if (r == HV_CO_OK)
            return r;
        if (r == HV_CO_ERR_NOTE_MALFORMED)
            worst = r;
    }
    return worst;
}

enum hv_co_err co_elf_find_note(const struct co_elf *e, const char *owner, uint32_t type,
                                const unsigned char **desc, size_t *n)
{
    /* Section headers when present (linked code objects keep them); program
     * headers otherwise. */
    if (e->shnum) {
        const struct note_table sections = {e->p + e->shoff, e->shnum, SHDR_SIZE, SHT_NOTE, 4, 24, 32, 48};
        return scan_table(e, &sections, owner, type, desc, n);
    }
    const struct note_table segments = {e->p + e->phoff, e->phnum, PHDR_SIZE, PT_NOTE, 0, 8, 32, 48};
    return scan_table(e, &segments, owner, type, desc, n);
}

static bool find_in_symtab(const struct co_elf *e, uint32_t want_type, const char *name,
                           uint64_t *value, uint64_t *size)
{
    size_t nlen = strlen(name);
    for (uint16_t i = 0; i < e->shnum; i++) {
        const unsigned char *s = shdr(e, i);
        if (co_le32(s + 4) != want_type)
            continue;
        /* sh_link must name a string table: only sections with contents
         * were bounds-checked by co_elf_open. */
        const unsigned char *strs = shdr(e, co_le32(s + 40));
        if (!strs || co_le32(strs + 4) != SHT_STRTAB)
            continue;
        const unsigned char *st = e->p + co_le64(strs + 24);
        uint64_t stn = co_le64(strs + 32);
        const unsigned char *syms = e->p + co_le64(s + 24);
        uint64_t nsyms = co_le64(s + 32) / SYM_SIZE;
        for (uint64_t j = 0; j < nsyms; j++) {
            const unsigned char *sym = syms + j * SYM_SIZE;
            uint32_t sn = co_le32(sym);
            if (!co_in(stn, sn, nlen + 1) || memcmp(st + sn, name, nlen + 1) != 0)
                continue;
            *value = co_le64(sym + 8);
            *size = co_le64(sym + 16);
            return true;
        }
    }
    return false;
}

bool co_elf_find_symbol(const struct co_elf *e, const char *name, uint64_t *value,
                        uint64_t *size)
{
    return find_in_symtab(e, SHT_SYMTAB, name, value, size) ||
           find_in_symtab(e, SHT_DYNSYM, name, value, size);
}

bool co_elf_vaddr_to_off(const struct co_elf *e, uint64_t vaddr, uint64_t n, size_t *off)
{
    for (uint16_t i = 0; i < e->shnum; i++) {
        const unsigned char *s = shdr(e, i);
        uint32_t type = co_le32(s + 4);
        uint64_t addr = co_le64(s + 16), size = co_le64(s + 32);
        if (type == SHT_NOBITS || type == 0 || !(co_le64(s + 8) & SHF_ALLOC))
            continue;
        if (vaddr < addr || !co_in(size, vaddr - addr, n))
            continue;
        *off = (size_t)(co_le64(s + 24) + (vaddr - addr));
        return true;
    }
    return false;
}
