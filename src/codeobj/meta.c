/* meta.c - NT_AMDGPU_METADATA (msgpack) -> hv_co_kernel / hv_co_arg.
 *
 * Schema: LLVM AMDGPUUsage, "Code Object V3+ Metadata". Only fields hipvis
 * uses are read; unknown keys are ignored so newer compilers keep working.
 * A kernel missing something we rely on is skipped (counted), never
 * half-filled: a wrong argument table would mislabel buffers later. */
#include "codeobj/codeobj_int.h"

#include <msgpack.h>
#include <string.h>

static const msgpack_object *get(const msgpack_object *map, const char *key)
{
    if (map->type != MSGPACK_OBJECT_MAP)
        return NULL;
    size_t klen = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == klen &&
            memcmp(k->via.str.ptr, key, klen) == 0)
            return &map->via.map.ptr[i].val;
    }
    return NULL;
}

static bool get_u32(const msgpack_object *map, const char *key, uint32_t *out)
{
    const msgpack_object *v = get(map, key);
    if (!v || v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
        return false;
    *out = (uint32_t)v->via.u64;
    return true;
}

static int32_t get_count(const msgpack_object *map, const char *key)
{
    uint32_t v;
    return get_u32(map, key, &v) && v <= INT32_MAX ? (int32_t)v : -1;
}

static bool get_bool(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = get(map, key);
    return v && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean;
}

/* The string at key as an arena copy; "" (not NULL) when absent so callers
 * can print and compare without checks. NULL only when memory ran out. */
static const char *get_str(struct co_ctx *c, const msgpack_object *map, const char *key,
                           bool *present)
{
    const msgpack_object *v = get(map, key);
    bool ok = v && v->type == MSGPACK_OBJECT_STR;
    if (present)
        *present = ok;
    return hv_arena_strndup(&c->t->priv->arena, ok ? v->via.str.ptr : "",
                            ok ? v->via.str.size : 0);
}

/* Match a string against a table of names; index, or `other` if unlisted,
 * or 0 when the key is absent (every enum reserves 0 for "absent"). */
static uint8_t lookup(const msgpack_object *map, const char *key, const char *const *names,
                      unsigned count, uint8_t other)
{
    const msgpack_object *v = get(map, key);
    if (!v || v->type != MSGPACK_OBJECT_STR)
        return 0;
    for (unsigned i = 1; i < count; i++)
        if (names[i] && strlen(names[i]) == v->via.str.size &&
            memcmp(names[i], v->via.str.ptr, v->via.str.size) == 0)
            return (uint8_t)i;
    return other;
}

static const char *const kinds[] = {
    [HV_CO_VK_BY_VALUE] = "by_value",
    [HV_CO_VK_GLOBAL_BUFFER] = "global_buffer",
    [HV_CO_VK_DYNAMIC_SHARED_POINTER] = "dynamic_shared_pointer",
    [HV_CO_VK_IMAGE] = "image",
    [HV_CO_VK_PIPE] = "pipe",
    [HV_CO_VK_QUEUE] = "queue",
    [HV_CO_VK_SAMPLER] = "sampler",
    [HV_CO_VK_HIDDEN] = NULL, /* by prefix, below */
};
static const char *const spaces[] = {
    [HV_CO_AS_GLOBAL] = "global",   [HV_CO_AS_CONSTANT] = "constant",
    [HV_CO_AS_LOCAL] = "local",     [HV_CO_AS_PRIVATE] = "private",
    [HV_CO_AS_GENERIC] = "generic", [HV_CO_AS_REGION] = "region",
};
static const char *const accesses[] = {
    [HV_CO_ACC_READ_ONLY] = "read_only",
    [HV_CO_ACC_WRITE_ONLY] = "write_only",
    [HV_CO_ACC_READ_WRITE] = "read_write",
};
#define COUNT(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

/* false: the argument is unusable (reason counted by the caller). */
static bool decode_arg(struct co_ctx *c, const msgpack_object *m, struct hv_co_arg *a)
{
    bool has_kind;
    if (m->type != MSGPACK_OBJECT_MAP || !get_u32(m, ".offset", &a->offset) ||
        !get_u32(m, ".size", &a->size))
        return false;
    a->value_kind_raw = get_str(c, m, ".value_kind", &has_kind);
    a->name = get_str(c, m, ".name", NULL);
    if (!a->value_kind_raw || !a->name) {
        co_issue(c, HV_CO_ERR_NOMEM);
        return false;
    }
    if (!has_kind)
        return false;
    a->value_kind = strncmp(a->value_kind_raw, "hidden_", 7) == 0
                        ? HV_CO_VK_HIDDEN
                        : lookup(m, ".value_kind", kinds, COUNT(kinds), HV_CO_VK_UNKNOWN);
    a->address_space = lookup(m, ".address_space", spaces, COUNT(spaces), HV_CO_AS_OTHER);
    a->access = lookup(m, ".access", accesses, COUNT(accesses), HV_CO_ACC_OTHER);
    a->actual_access = lookup(m, ".actual_access", accesses, COUNT(accesses), HV_CO_ACC_OTHER);
    a->is_const = get_bool(m, ".is_const");
    a->is_restrict = get_bool(m, ".is_restrict");
    a->is_volatile = get_bool(m, ".is_volatile");
    return true;
}

/* Append one kernel; false when it was skipped (reason counted). */
static bool decode_kernel(struct co_ctx *c, const msgpack_object *m, const struct co_meta_in *in)
{
    struct hv_co_table *t = c->t;
    struct hv_co_kernel k = {0};
    bool has_name;

    if (m->type != MSGPACK_OBJECT_MAP) {
        co_issue(c, HV_CO_ERR_KERNEL_BAD);
        return false;
    }
    k.name = get_str(c, m, ".name", &has_name);
    k.symbol = get_str(c, m, ".symbol", NULL);
    if (!k.name || !k.symbol) {
        co_issue(c, HV_CO_ERR_NOMEM);
        return false;
    }
    if (!has_name || !k.name[0] || !get_u32(m, ".kernarg_segment_size", &k.kernarg_size)) {
        co_issue(c, HV_CO_ERR_KERNEL_BAD);
        return false;
    }
    if (!get_u32(m, ".kernarg_segment_align", &k.kernarg_align))
        k.kernarg_align = 0;
    k.sgpr_count = get_count(m, ".sgpr_count");
    k.vgpr_count = get_count(m, ".vgpr_count");
    k.arch = in->proc;
    k.object = in->obj;
    k.code_object_hash = in->hash;

    const msgpack_object *args = get(m, ".args");
    if (args) { /* a kernel without parameters may omit .args */
        if (args->type != MSGPACK_OBJECT_ARRAY) {
            co_issue(c, HV_CO_ERR_ARG_BAD);
            return false;
        }
        k.nargs = args->via.array.size;
        struct hv_co_arg *a = NULL;
        if (k.nargs) {
            a = hv_arena_alloc(&t->priv->arena, (size_t)k.nargs * sizeof(*a));
            if (!a) {
                co_issue(c, HV_CO_ERR_NOMEM);
                return false;
            }
        }
        for (uint32_t i = 0; i < k.nargs; i++)
            if (!decode_arg(c, &args->via.array.ptr[i], &a[i])) {
                if (!c->nomem)
                    co_issue(c, HV_CO_ERR_ARG_BAD);
                return false;
            }
        k.args = a;
    }
    struct hv_co_kernel *slot = co_table_new_kernel(t);
    if (!slot) {
        co_issue(c, HV_CO_ERR_NOMEM);
        return false;
    }
    *slot = k;
    t->nkernels++;
    return true;
}

int co_parse_meta(struct co_ctx *c, const unsigned char *p, size_t n,
                  const struct co_meta_in *in, const char **target)
{
    msgpack_unpacked root;
    size_t off = 0;
    int added = -1;

    *target = NULL;
    if (!co_msgpack_plausible(p, n)) {
        co_issue(c, HV_CO_ERR_MSGPACK_BAD);
        return -1;
    }
    msgpack_unpacked_init(&root);
    msgpack_unpack_return r = msgpack_unpack_next(&root, (const char *)p, n, &off);
    if (r == MSGPACK_UNPACK_NOMEM_ERROR) {
        co_issue(c, HV_CO_ERR_NOMEM);
        goto out;
    }
    if (r != MSGPACK_UNPACK_SUCCESS && r != MSGPACK_UNPACK_EXTRA_BYTES) {
        co_issue(c, HV_CO_ERR_MSGPACK_BAD);
        goto out;
    }
    const msgpack_object *kernels = get(&root.data, "amdhsa.kernels");
    if (!kernels || kernels->type != MSGPACK_OBJECT_ARRAY) {
        co_issue(c, HV_CO_ERR_METADATA_BAD);
        goto out;
    }
    bool has_target;
    const char *tgt = get_str(c, &root.data, "amdhsa.target", &has_target);
    if (!tgt) {
        co_issue(c, HV_CO_ERR_NOMEM);
        goto out;
    }
    if (has_target && tgt[0])
        *target = tgt;
    added = 0;
    for (uint32_t i = 0; i < kernels->via.array.size && !c->nomem; i++)
        added += decode_kernel(c, &kernels->via.array.ptr[i], in);
out:
    msgpack_unpacked_destroy(&root);
    return added;
}
