/* table.c - growing, searching and freeing the public kernel table. */
#include "codeobj/codeobj_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

void hv_co_table_init(struct hv_co_table *t)
{
    memset(t, 0, sizeof(*t));
}

void hv_co_table_free(struct hv_co_table *t)
{
    if (!t)
        return;
    if (t->priv) {
        hv_arena_free(&t->priv->arena);
        hv_u64map_free(&t->priv->by_name);
        hv_u64map_free(&t->priv->by_hash);
        free(t->priv);
    }
    free(t->kernels);
    free(t->objects);
    memset(t, 0, sizeof(*t));
}

bool co_table_ready(struct hv_co_table *t)
{
    if (!t->priv)
        t->priv = calloc(1, sizeof(*t->priv));
    return t->priv != NULL;
}

/* The zeroed element after the `n` in use (the caller counts it once it
 * is filled), NULL out of memory. Kernels and objects are indexed by
 * uint32_t (the lookup maps). */
#define NEW_SLOT(arr, n, cap) \
    (HV_GROW_UPTO(arr, (size_t)(n) + 1, cap, 16, UINT32_MAX) ? memset(&(arr)[n], 0, sizeof *(arr)) : NULL)

struct hv_co_kernel *co_table_new_kernel(struct hv_co_table *t)
{
    return NEW_SLOT(t->kernels, t->nkernels, t->priv->kcap);
}

bool co_table_index_kernel(struct hv_co_table *t, size_t k)
{
    const char *name = t->kernels[k].name;
    return hv_u64map_add(&t->priv->by_name, hv_co_hash64(name, strlen(name)), (uint32_t)k) == 0;
}

struct hv_co_object *co_table_new_object(struct hv_co_table *t)
{
    return NEW_SLOT(t->objects, t->nobjects, t->priv->ocap);
}

bool co_table_index_object(struct hv_co_table *t, size_t o)
{
    return hv_u64map_add(&t->priv->by_hash, t->objects[o].hash, (uint32_t)o) == 0;
}

void co_issue(struct co_ctx *c, enum hv_co_err e)
{
    struct hv_co_table *t = c->t;
    if ((unsigned)e >= HV_CO_ERR__COUNT)
        return;
    t->errors[e]++;
    if (t->nissues < HV_CO_MAX_ISSUES) {
        t->issues[t->nissues].err = e;
        t->issues[t->nissues].offset = c->unit_offset;
    }
    if (t->nissues < UINT32_MAX)
        t->nissues++;
    if (e == HV_CO_ERR_NOMEM)
        c->nomem = true;
}

/* The lowest-index kernel named `name` (and of processor `proc` if given):
 * "first registered" is the only stable meaning when archs repeat names. */
static const struct hv_co_kernel *find(const struct hv_co_table *t, const char *name,
                                       const char *proc)
{
    if (!t || !t->priv || !name)
        return NULL;
    const struct hv_co_kernel *best = NULL;
    uint64_t key = hv_co_hash64(name, strlen(name));
    size_t pos = 0;
    uint32_t k;
    while ((k = hv_u64map_next(&t->priv->by_name, key, &pos)) != HV_U64MAP_NONE) {
        if (k >= t->nkernels)
            continue; /* left by a rolled-back object */
        const struct hv_co_kernel *cand = &t->kernels[k];
        if (strcmp(cand->name, name) != 0 || (proc && strcmp(cand->arch, proc) != 0))
            continue;
        if (!best || cand < best)
            best = cand;
    }
    return best;
}

const struct hv_co_kernel *hv_co_find(const struct hv_co_table *t, const char *name)
{
    return find(t, name, NULL);
}

const struct hv_co_kernel *hv_co_find_arch(const struct hv_co_table *t, const char *name,
                                           const char *proc)
{
    return proc ? find(t, name, proc) : NULL;
}

long hv_co_find_object(const struct hv_co_table *t, uint64_t hash)
{
    if (!t || !t->priv)
        return -1;
    size_t pos = 0;
    uint32_t o;
    long best = -1;
    while ((o = hv_u64map_next(&t->priv->by_hash, hash, &pos)) != HV_U64MAP_NONE)
        if (o < t->nobjects && t->objects[o].hash == hash && (best < 0 || (long)o < best))
            best = (long)o;
    return best;
}

enum hv_co_access hv_co_arg_access(const struct hv_co_arg *a)
{
    return a->actual_access != HV_CO_ACC_UNKNOWN ? a->actual_access : a->access;
}
