/*
 * Symbol lookup in one loaded ELF object without dlsym: hipvis finds libc's
 * dlvsym this way (src/tracer/core/realsym.c), and tests/gpu/calltime.c, a shim
 * preloaded ahead of hipvis, finds hipvis's wrappers and the runtime's
 * functions this way. Header-only so a stand-alone test shim can use it.
 */
#ifndef HV_COMMON_ELFSYM_H
#define HV_COMMON_ELFSYM_H

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

/* GNU hash of a symbol name (the ELF gABI extension's DJB variant). */
static inline uint32_t hv_gnu_hash(const char *s)
{
    uint32_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

/* Address of `name` defined by the loaded object `lib` itself (NULL when it
 * is not loaded or does not define it), read from its dynamic symbol table
 * through DT_GNU_HASH: a lookup that calls neither dlsym nor dlvsym (hipvis
 * interposes both) and never searches another object's scope. */
static inline void *hv_elf_lookup(const char *lib, const char *name)
{
    struct link_map *lm = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
    if (!lm)
        return NULL;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const uint32_t *gh = NULL;
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        /* ld.so relocates these entries in place on most targets; an
         * unrelocated one is below the load address. */
        uintptr_t v = d->d_un.d_ptr < lm->l_addr ? d->d_un.d_ptr + lm->l_addr : d->d_un.d_ptr;
        if (d->d_tag == DT_SYMTAB)
            symtab = (const ElfW(Sym) *)v;
        else if (d->d_tag == DT_STRTAB)
            strtab = (const char *)v;
        else if (d->d_tag == DT_GNU_HASH)
            gh = (const uint32_t *)v;
    }
    void *found = NULL;
    if (symtab && strtab && gh && gh[0]) {
        uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_size = gh[2];
        const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) + bloom_size);
        const uint32_t *chain = buckets + nbuckets;
        uint32_t h = hv_gnu_hash(name);
        for (uint32_t i = buckets[h % nbuckets]; i >= symoffset; i++) {
            uint32_t h2 = chain[i - symoffset];
            const ElfW(Sym) *sym = &symtab[i];
            if ((h2 | 1) == (h | 1) && sym->st_shndx != SHN_UNDEF && sym->st_value &&
                strcmp(strtab + sym->st_name, name) == 0) {
                found = (void *)(lm->l_addr + sym->st_value);
                break;
            }
            if (h2 & 1)
                break;
        }
    }
    dlclose(lm);
    return found;
}

#endif
