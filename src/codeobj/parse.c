/* parse.c - hv_co_parse: find the units in an image and dispatch them.
 *
 * .hip_fatbin sections hold one bundle per linked translation unit, each
 * padded with zeros to an alignment, so after a unit we skip zero bytes and
 * go on while the next bytes carry a known magic. Anything else after the
 * first unit is counted once and ends the walk: guessing resynchronisation
 * points in garbage would only invent objects. */
#include "codeobj/elf.h"
#include "codeobj/codeobj_int.h"

#include <errno.h>
#include <string.h>

enum kind { K_NONE, K_BUNDLE, K_CCOB, K_ELF };

static enum kind kind_of(const unsigned char *p, size_t n)
{
    if (n >= CO_BUNDLE_MAGIC_LEN && memcmp(p, CO_BUNDLE_MAGIC, CO_BUNDLE_MAGIC_LEN) == 0)
        return K_BUNDLE;
    if (n >= 4 && memcmp(p, CO_CCOB_MAGIC, 4) == 0)
        return K_CCOB;
    if (n >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0)
        return K_ELF;
    return K_NONE;
}

/* Extent of the unit at p, 0 with *err when it is unusable as a whole. */
static size_t unit_extent(enum kind k, const unsigned char *p, size_t max, enum hv_co_err *err)
{
    switch (k) {
    case K_BUNDLE:
        return co_bundle_extent(p, max, err);
    case K_CCOB:
        return co_ccob_extent(p, max, err);
    default:
        *err = HV_CO_ERR_UNKNOWN_FORMAT;
        return 0;
    }
}

int hv_co_parse(struct hv_co_table *t, const void *image, size_t len,
                const struct hv_co_opts *opts)
{
    if (!t || (!image && len))
        return -EINVAL;
    if (!co_table_ready(t))
        return -ENOMEM;
    struct co_ctx c = {.t = t, .opts = opts};
    c.max_decompressed = opts ? opts->max_decompressed : 0;
    const unsigned char *p = image;
    size_t off = 0;
    bool first = true;

    while (off < len && !c.nomem) {
        if (!first) {
            while (off < len && p[off] == 0)
                off++;
            if (off == len)
                break;
        }
        const unsigned char *q = p + off;
        size_t rem = len - off, ext;
        enum kind k = kind_of(q, rem);
        enum hv_co_err err = HV_CO_OK;
        c.unit_offset = off;
        if (k == K_ELF) {
            ext = co_parse_elf(&c, q, rem); /* counts its own failure */
            if (!ext)
                break;
        } else {
            ext = unit_extent(k, q, rem, &err);
            if (!ext) {
                co_issue(&c, err);
                break;
            }
            if (k == K_BUNDLE)
                co_parse_bundle(&c, q, ext, off);
            else
                co_parse_ccob(&c, q, ext, off);
        }
        off += ext;
        first = false;
    }
    return c.nomem ? -ENOMEM : c.added;
}

size_t hv_co_image_size(const void *image, size_t max)
{
    const unsigned char *p = image;
    enum hv_co_err err;
    if (!p)
        return 0;
    enum kind k = kind_of(p, max);
    if (k == K_ELF) {
        /* Bound by the ELF's own tables: what hipModuleLoadData gets has no
         * length, and the runtime sizes it the same way. */
        return co_elf_image_extent(p, max);
    }
    return unit_extent(k, p, max, &err);
}
