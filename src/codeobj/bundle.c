/* bundle.c - plain clang offload bundles.
 *
 * Layout (clang OffloadBundler.cpp, all little-endian):
 *   "__CLANG_OFFLOAD_BUNDLE__"  u64 count
 *   count x { u64 offset, u64 size, u64 id_len, id[id_len] }   (no NUL)
 *   entry bytes at bundle + offset
 * Ids look like "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" or
 * "host-x86_64-unknown-linux-gnu-" (the host entry is empty). */
#include "codeobj/codeobj_int.h"

#include <string.h>

#define HDR (CO_BUNDLE_MAGIC_LEN + 8)
#define ENTRY_FIXED 24
/* Limits on what a sane bundle holds; they stop a garbage count from making
 * us read far into memory we were not given a bound for (the fat-binary
 * wrapper case). */
#define MAX_ENTRIES 4096
#define MAX_ID_LEN 1024

struct entry {
    uint64_t off, size;
    const char *id;
    size_t id_len;
};

/* Entry i's header at *pos; advances *pos. false when it runs past max. */
static bool read_entry(const unsigned char *p, size_t max, size_t *pos, struct entry *e)
{
    if (!co_in(max, *pos, ENTRY_FIXED))
        return false;
    e->off = co_le64(p + *pos);
    e->size = co_le64(p + *pos + 8);
    uint64_t idl = co_le64(p + *pos + 16);
    if (idl > MAX_ID_LEN || !co_in(max, *pos + ENTRY_FIXED, idl))
        return false;
    e->id = (const char *)p + *pos + ENTRY_FIXED;
    e->id_len = (size_t)idl;
    *pos += ENTRY_FIXED + (size_t)idl;
    return true;
}

size_t co_bundle_extent(const unsigned char *p, size_t max, enum hv_co_err *err)
{
    *err = HV_CO_OK;
    if (max < HDR || memcmp(p, CO_BUNDLE_MAGIC, CO_BUNDLE_MAGIC_LEN) != 0) {
        *err = max < HDR ? HV_CO_ERR_BUNDLE_TRUNCATED : HV_CO_ERR_UNKNOWN_FORMAT;
        return 0;
    }
    uint64_t n = co_le64(p + CO_BUNDLE_MAGIC_LEN);
    if (n > MAX_ENTRIES) {
        *err = HV_CO_ERR_BUNDLE_TRUNCATED;
        return 0;
    }
    size_t pos = HDR, end;
    struct entry e;
    for (uint64_t i = 0; i < n; i++)
        if (!read_entry(p, max, &pos, &e)) {
            *err = HV_CO_ERR_BUNDLE_TRUNCATED;
            return 0;
        }
    end = pos;
    pos = HDR;
    for (uint64_t i = 0; i < n; i++) {
        read_entry(p, max, &pos, &e);
        if (!co_in(max, e.off, e.size))
            continue; /* counted by co_parse_bundle; the rest still counts */
        if (e.off + e.size > end)
            end = (size_t)(e.off + e.size);
    }
    return end;
}

static bool has_prefix(const struct entry *e, const char *pfx)
{
    size_t n = strlen(pfx);
    return e->id_len >= n && memcmp(e->id, pfx, n) == 0;
}

/* Device entries name an amdgcn triple after the offload kind
 * (hip, hipv4, openmp): "<kind>-amdgcn-amd-amdhsa-<env>-<target id>". */
static bool is_amdgcn(const struct entry *e)
{
    const char *dash = memchr(e->id, '-', e->id_len);
    static const char triple[] = "amdgcn-amd-amdhsa-";
    if (!dash)
        return false;
    size_t rest = e->id_len - (size_t)(dash + 1 - e->id);
    return rest >= sizeof(triple) - 1 && memcmp(dash + 1, triple, sizeof(triple) - 1) == 0;
}

void co_parse_bundle(struct co_ctx *c, const unsigned char *p, size_t len, size_t base)
{
    struct hv_co_table *t = c->t;
    uint64_t n = co_le64(p + CO_BUNDLE_MAGIC_LEN); /* extent already validated */
    size_t pos = HDR;
    struct entry e;
    size_t outer = c->unit_offset;

    for (uint64_t i = 0; i < n && !c->nomem; i++) {
        read_entry(p, len, &pos, &e);
        if (!c->compressed)
            c->unit_offset = base + (size_t)e.off;
        if (has_prefix(&e, "host-")) {
            t->nhost++;
        } else if (!is_amdgcn(&e)) {
            co_issue(c, HV_CO_ERR_BUNDLE_UNKNOWN_TRIPLE);
        } else if (!co_in(len, e.off, e.size) || e.off == 0) {
            co_issue(c, HV_CO_ERR_BUNDLE_ENTRY_OOB);
        } else {
            c->bundle_id = hv_arena_strndup(&t->priv->arena, e.id, e.id_len);
            if (!c->bundle_id)
                co_issue(c, HV_CO_ERR_NOMEM);
            else
                co_parse_elf(c, p + e.off, (size_t)e.size);
        }
        c->unit_offset = outer;
    }
    c->bundle_id = NULL;
}
