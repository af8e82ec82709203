/*
 * Offline symbolization: an address inside a loaded object (as its ELF
 * virtual address, pc - load bias) to the function containing it, from the
 * object's symbol tables (.symtab, else .dynsym) read with libelf from the
 * file on disk, and to its source file and line from DWARF through libdw
 * (elfutils' Dwfl: the object's own .debug_line, or a separate debug file
 * found by build id / debuglink under /usr/lib/debug). One table and one
 * Dwfl per path, loaded on first use. A file rebuilt since the trace was
 * taken gives wrong names: the trace records paths, not build ids.
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/forensics/symbolize.h"
#include "common/grow.h"

struct sym {
    uint64_t addr, size;
    const char *name;     /* into the table's string pool */
};

struct symtab {
    char *path;
    struct sym *v;
    size_t n;
    char *pool;
    Dwfl *dwfl;              /* NULL until asked for a line, or when it cannot be had */
    Dwfl_Module *mod;
    int dwfl_tried;
};

struct hv_symbolizer {
    struct symtab *t;
    size_t n, cap;
};

struct hv_symbolizer *hv_symbolizer_new(void)
{
    elf_version(EV_CURRENT);
    return calloc(1, sizeof(struct hv_symbolizer));
}

void hv_symbolizer_free(struct hv_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        if (s->t[i].dwfl)
            dwfl_end(s->t[i].dwfl);
        free(s->t[i].path);
        free(s->t[i].v);
        free(s->t[i].pool);
    }
    free(s->t);
    free(s);
}

static int by_addr(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Function symbols of one section type; names copied into a pool. */
static void collect(Elf *elf, Elf64_Word type, struct symtab *t, size_t *cap, size_t *pool_len, size_t *pool_cap)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t count = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; d && i < count; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
            if (!name || !*name)
                continue;
            size_t len = strlen(name) + 1;
            if (!HV_GROW_TO(t->pool, *pool_len + len, *pool_cap, 4096) || !HV_GROW(t->v, t->n, *cap, 256))
                return;
            memcpy(t->pool + *pool_len, name, len);
            /* Names point into the pool by offset until it stops moving. */
            t->v[t->n++] = (struct sym){s.st_value, s.st_size, (const char *)(uintptr_t)*pool_len};
            *pool_len += len;
        }
    }
}

static void load(struct symtab *t)
{
    int fd = open(t->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t cap = 0, pool_len = 0, pool_cap = 0;
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        collect(elf, SHT_SYMTAB, t, &cap, &pool_len, &pool_cap);
        if (!t->n)   /* stripped: the dynamic symbols are all there is */
            collect(elf, SHT_DYNSYM, t, &cap, &pool_len, &pool_cap);
    }
    if (elf)
        elf_end(elf);
    close(fd);
    for (size_t i = 0; i < t->n; i++)
        t->v[i].name = t->pool + (uintptr_t)t->v[i].name;
    if (t->n)
        qsort(t->v, t->n, sizeof *t->v, by_addr);
}

static struct symtab *table(struct hv_symbolizer *s, const char *path)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->t[i].path, path) == 0)
            return &s->t[i];
    if (!HV_GROW(s->t, s->n, s->cap, 16))
        return NULL;
    struct symtab *t = &s->t[s->n];
    memset(t, 0, sizeof *t);
    t->path = strdup(path);
    if (!t->path)
        return NULL;
    s->n++;
    load(t);
    return t;
}

const char *hv_symbolize(struct hv_symbolizer *s, const char *path, uint64_t vaddr, uint64_t *off)
{
    struct symtab *t = path && *path == '/' ? table(s, path) : NULL;
    if (!t || !t->n || vaddr < t->v[0].addr)
        return NULL;
    size_t lo = 0, hi = t->n;   /* last symbol with addr <= vaddr */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].addr <= vaddr)
            lo = mid;
        else
            hi = mid;
    }
    const struct sym *f = &t->v[lo];
    /* Past a sized symbol's end the address is in something unnamed. */
    if (f->size && vaddr >= f->addr + f->size)
        return NULL;
    *off = vaddr - f->addr;
    return f->name;
}

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

int hv_symbolize_line(struct hv_symbolizer *s, const char *path, uint64_t vaddr, const char **file, int *line)
{
    struct symtab *t = path && *path == '/' ? table(s, path) : NULL;
    if (!t)
        return -1;
    if (!t->dwfl_tried) {
        t->dwfl_tried = 1;
        t->dwfl = dwfl_begin(&offline_callbacks);
        /* Offline, an ET_DYN object is reported at its own virtual addresses
         * (bias 0), which is what vaddr already is. */
        t->mod = t->dwfl ? dwfl_report_offline(t->dwfl, path, path, -1) : NULL;
        if (t->dwfl)
            dwfl_report_end(t->dwfl, NULL, NULL);
    }
    if (!t->mod)
        return -1;
    Dwarf_Addr bias = 0;
    dwfl_module_info(t->mod, NULL, &bias, NULL, NULL, NULL, NULL, NULL);
    Dwfl_Line *l = dwfl_module_getsrc(t->mod, vaddr + bias);
    const char *src = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL) : NULL;
    if (!src || *line <= 0)
        return -1;
    *file = src;
    return 0;
}
