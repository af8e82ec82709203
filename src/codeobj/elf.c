/* elf.c - the code object's ELF structure through libelf (elfutils).
 *
 * The image is read where it lies, without a copy: elf_memory() takes
 * `char *` only because a descriptor may be used to edit the image, and
 * nothing here asks for that (no elf_update, elf_flag*, elf_compress,
 * elf_newdata); on read-only use libelf maps headers and section data in
 * place and allocates only its own descriptors and, for data it must
 * realign, copies. So the caller's bytes, read-only .hip_fatbin pages
 * included, stay untouched.
 *
 * libelf is lenient where hipvis is not: it pretends a section table past
 * the end is absent and trims the program header count to the file. The
 * rule here stays that every table and every section or segment with file
 * contents lies inside the image, or the object is refused whole rather
 * than half-read. Each descriptor is used by one thread only (opened,
 * read and closed in one call), which is all libelf asks. */
#include "codeobj/elf.h"
#include "codeobj/codeobj_int.h"

#include <gelf.h>
#include <pthread.h>
#include <string.h>

/* elf_version() sets libelf's one piece of global state; code objects are
 * parsed from any thread of the traced process. */
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void set_version(void)
{
    (void)elf_version(EV_CURRENT);
}

static bool has_contents(const GElf_Shdr *sh)
{
    return sh->sh_type != SHT_NOBITS && sh->sh_type != SHT_NULL;
}

static bool shdr_at(const struct co_elf *e, size_t i, GElf_Shdr *sh)
{
    return gelf_getshdr(elf_getscn(e->elf, i), sh) != NULL; /* NULL scn: NULL */
}

/* [off, off + n) lies in the file: extend *end over it. */
static bool within(const struct co_elf *e, size_t *end, uint64_t off, uint64_t n)
{
    if (!co_in(e->len, off, n))
        return false;
    if (off + n > *end)
        *end = (size_t)(off + n);
    return true;
}

/* An ELF64 little-endian AMDGPU object. libelf gives an identification it
 * does not know (bad class, data or version byte) the kind ELF_K_NONE. */
static bool is_amdgpu64(Elf *elf, GElf_Ehdr *eh)
{
    return elf_kind(elf) == ELF_K_ELF && gelf_getclass(elf) == ELFCLASS64 &&
           gelf_getehdr(elf, eh) && eh->e_ident[EI_DATA] == ELFDATA2LSB &&
           eh->e_machine == EM_AMDGPU;
}

/* Both header tables, then every section and segment with contents. */
static bool tables_within(struct co_elf *e, const GElf_Ehdr *eh)
{
    size_t end = sizeof(Elf64_Ehdr);
    /* Entry sizes other than the ELF64 ones would mean a different layout. */
    if ((e->phnum && eh->e_phentsize != sizeof(Elf64_Phdr)) ||
        (e->shnum && eh->e_shentsize != sizeof(Elf64_Shdr)) ||
        !within(e, &end, eh->e_phoff, (uint64_t)e->phnum * sizeof(Elf64_Phdr)) ||
        !within(e, &end, eh->e_shoff, (uint64_t)e->shnum * sizeof(Elf64_Shdr)))
        return false;
    for (size_t i = 0; i < e->shnum; i++) {
        GElf_Shdr sh;
        if (!shdr_at(e, i, &sh) ||
            (has_contents(&sh) && !within(e, &end, sh.sh_offset, sh.sh_size)))
            return false;
    }
    for (int i = 0; i < e->phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e->elf, i, &ph) || !within(e, &end, ph.p_offset, ph.p_filesz))
            return false;
    }
    e->extent = end;
    return true;
}

enum hv_co_err co_elf_open(struct co_elf *e, const void *data, size_t len)
{
    memset(e, 0, sizeof(*e));
    if (len < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0)
        return HV_CO_ERR_NOT_ELF;
    if (len < sizeof(Elf64_Ehdr))
        return HV_CO_ERR_ELF_TRUNCATED;
    pthread_once(&version_once, set_version);
    e->p = data;
    e->len = len;
    /* NULL: libelf could not even count the sections (an extended count
     * past 2^32) or ran out of memory. */
    e->elf = elf_memory((char *)(uintptr_t)data, len);
    if (!e->elf)
        return HV_CO_ERR_ELF_TRUNCATED;
    GElf_Ehdr eh;
    enum hv_co_err err = HV_CO_ERR_ELF_NOT_AMDGPU;
    if (is_amdgpu64(e->elf, &eh)) {
        e->e_flags = eh.e_flags;
        e->shnum = eh.e_shnum;
        e->phnum = eh.e_phnum;
        err = tables_within(e, &eh) ? HV_CO_OK : HV_CO_ERR_ELF_TRUNCATED;
    }
    if (err != HV_CO_OK)
        co_elf_close(e);
    return err;
}

void co_elf_close(struct co_elf *e)
{
    elf_end(e->elf);
    e->elf = NULL;
}

size_t co_elf_image_extent(const void *p, size_t max)
{
    struct co_elf e;
    if (co_elf_open(&e, p, max) != HV_CO_OK)
        return 0;
    co_elf_close(&e);
    return e.extent;
}

/* Note area i: section i when the object has section headers (linked code
 * objects keep them), else segment i. false when it holds no notes. */
static bool note_area(const struct co_elf *e, size_t i, uint64_t *off, uint64_t *size,
                      uint64_t *align)
{
    GElf_Shdr sh;
    GElf_Phdr ph;
    if (e->shnum) {
        if (!shdr_at(e, i, &sh) || sh.sh_type != SHT_NOTE)
            return false;
        *off = sh.sh_offset, *size = sh.sh_size, *align = sh.sh_addralign;
    } else {
        if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
            return false;
        *off = ph.p_offset, *size = ph.p_filesz, *align = ph.p_align;
    }
    return true;
}

/* Walk the notes of [off, off + size). libelf reads the area the same way
 * whether a section or a segment describes it, as notes aligned to 8 when
 * the area says so (else 4). gelf_getnote stops both at the end and at a
 * note whose name or descriptor runs past it: a whole note header left
 * unread is the malformed case. The descriptor is returned in the caller's
 * image (libelf may have realigned the area into a copy). */
static enum hv_co_err scan_notes(const struct co_elf *e, uint64_t at, uint64_t size,
                                 uint64_t align, const char *owner, uint32_t type,
                                 const unsigned char **desc, size_t *dn)
{
    if (!size)
        return HV_CO_ERR_ELF_NO_METADATA;
    Elf_Data *d = elf_getdata_rawchunk(e->elf, (int64_t)at, size,
                                       align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
    if (!d)
        return HV_CO_ERR_NOMEM; /* the area was checked to lie in the file */
    size_t olen = strlen(owner) + 1, off = 0, next, name_off, desc_off;
    GElf_Nhdr nh;
    while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) != 0) {
        if (nh.n_type == type && nh.n_namesz == olen &&
            memcmp((const char *)d->d_buf + name_off, owner, olen) == 0) {
            *desc = e->p + at + desc_off;
            *dn = nh.n_descsz;
            return HV_CO_OK;
        }
        off = next;
    }
    return d->d_size - off >= sizeof(GElf_Nhdr) ? HV_CO_ERR_NOTE_MALFORMED
                                                : HV_CO_ERR_ELF_NO_METADATA;
}

/* HV_CO_OK when found, else the worst problem seen over every note area
 * (malformed beats absent). */
enum hv_co_err co_elf_find_note(const struct co_elf *e, const char *owner, uint32_t type,
                                const unsigned char **desc, size_t *n)
{
    enum hv_co_err worst = HV_CO_ERR_ELF_NO_METADATA;
    size_t areas = e->shnum ? e->shnum : e->phnum;
    for (size_t i = 0; i < areas; i++) {
        uint64_t at, size, align;
        if (!note_area(e, i, &at, &size, &align))
            continue;
        enum hv_co_err r = scan_notes(e, at, size, align, owner, type, desc, n);
        if (r == HV_CO_OK || r == HV_CO_ERR_NOMEM)
            return r;
        if (r == HV_CO_ERR_NOTE_MALFORMED)
            worst = r;
    }
    return worst;
}

static bool find_in_symtab(const struct co_elf *e, uint32_t want_type, const char *name,
                           uint64_t *value, uint64_t *size)
{
    for (size_t i = 0; i < e->shnum; i++) {
        GElf_Shdr sh, strs;
        Elf_Scn *scn = elf_getscn(e->elf, i);
        /* sh_link must name a plain string table: a compressed one would
         * make elf_strptr inflate it. */
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != want_type || !shdr_at(e, sh.sh_link, &strs) ||
            strs.sh_type != SHT_STRTAB || (strs.sh_flags & SHF_COMPRESSED))
            continue;
        Elf_Data *syms = elf_getdata(scn, NULL);
        GElf_Sym sym;
        for (int j = 0; gelf_getsym(syms, j, &sym); j++) {
            const char *sn = elf_strptr(e->elf, sh.sh_link, sym.st_name);
            if (!sn || strcmp(sn, name) != 0)
                continue;
            *value = sym.st_value;
            *size = sym.st_size;
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
    for (size_t i = 0; i < e->shnum; i++) {
        GElf_Shdr sh;
        if (!shdr_at(e, i, &sh) || !has_contents(&sh) || !(sh.sh_flags & SHF_ALLOC))
            continue;
        if (vaddr < sh.sh_addr || !co_in(sh.sh_size, vaddr - sh.sh_addr, n))
            continue;
        *off = (size_t)(sh.sh_offset + (vaddr - sh.sh_addr));
        return true;
    }
    return false;
}
