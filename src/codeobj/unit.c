/* unit.c - one ELF code object: filter, dedup, decode metadata, commit.
 *
 * An object enters the table only once its metadata decoded: kernels are
 * appended first, then object and name index are committed together, and
 * a failure in between rolls the kernels back. So every hv_co_object has a
 * usable kernel list and every kernel's `object` index is valid. */
#include "codeobj/elf.h"
#include "codeobj/codeobj_int.h"

#include <stdio.h>
#include <string.h>

static const char *make_target(struct co_ctx *c, const char *proc)
{
    char buf[96];
    int n = snprintf(buf, sizeof(buf), "amdgcn-amd-amdhsa--%s", proc);
    return hv_arena_strndup(&c->t->priv->arena, buf, (size_t)n < sizeof(buf) ? (size_t)n : 0);
}

static bool commit(struct co_ctx *c, struct hv_co_object *o)
{
    struct hv_co_table *t = c->t;
    size_t oi = t->nobjects;
    for (size_t k = o->first_kernel; k < t->nkernels; k++)
        if (!co_table_index_kernel(t, k))
            return false;
    if (!co_table_index_object(t, oi))
        return false;
    t->nobjects++;
    return true;
}

size_t co_parse_elf(struct co_ctx *c, const unsigned char *p, size_t len)
{
    struct hv_co_table *t = c->t;
    struct co_elf e;
    enum hv_co_err err = co_elf_open(&e, p, len);
    if (err != HV_CO_OK) {
        co_issue(c, err);
        return 0;
    }
    /* All the ELF is needed for, read at once; desc points into p, not into
     * libelf's memory. A missing note counts only for an object kept. */
    const unsigned char *desc;
    size_t dn;
    len = e.extent;
    err = co_elf_find_note(&e, "AMDGPU", CO_NT_AMDGPU_METADATA, &desc, &dn);
    co_elf_close(&e);

    char procbuf[24];
    const char *proc = hv_co_proc_from_eflags(e.e_flags);
    if (!proc) {
        snprintf(procbuf, sizeof(procbuf), "mach-0x%02x", (unsigned)(e.e_flags & 0xff));
        proc = procbuf;
    }
    if (c->opts && c->opts->proc && strcmp(c->opts->proc, proc) != 0) {
        t->nfiltered++;
        return len;
    }
    uint64_t hash = hv_co_hash64(p, len);
    bool keep_dups = c->opts && (c->opts->flags & HV_CO_KEEP_DUPLICATES);
    if (!keep_dups && hv_co_find_object(t, hash) >= 0) {
        t->nduplicates++;
        return len;
    }

    if (err != HV_CO_OK) {
        co_issue(c, err);
        return len;
    }

    struct hv_co_object *o = co_table_new_object(t);
    struct co_meta_in in = {.obj = (uint32_t)t->nobjects, .hash = hash};
    in.proc = hv_arena_strndup(&t->priv->arena, proc, strlen(proc));
    if (!o || !in.proc) {
        co_issue(c, HV_CO_ERR_NOMEM);
        return len;
    }
    o->first_kernel = (uint32_t)t->nkernels;
    const char *target;
    int nk = co_parse_meta(c, desc, dn, &in, &target);
    if (nk < 0 || c->nomem)
        goto rollback;

    /* Bytes that do not outlive this call (decompressed scratch, or an image
     * the caller asked us to copy) move into the table. */
    o->owned = c->compressed || (c->opts && (c->opts->flags & HV_CO_COPY_ELF));
    if (o->owned) {
        unsigned char *copy = hv_arena_alloc(&t->priv->arena, len);
        if (!copy)
            goto nomem;
        memcpy(copy, p, len);
        p = copy;
    }
    o->hash = hash;
    o->elf = p;
    o->len = len;
    o->proc = in.proc;
    o->target = target ? target : make_target(c, proc);
    o->bundle_id = c->bundle_id ? c->bundle_id : "";
    o->image_offset = c->unit_offset;
    o->compressed = c->compressed;
    o->nkernels = (uint32_t)nk;
    if (!o->target || !commit(c, o))
        goto nomem;
    c->added += nk;
    return len;

nomem:
    co_issue(c, HV_CO_ERR_NOMEM);
rollback:
    t->nkernels = o->first_kernel;
    return len;
}
