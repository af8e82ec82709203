#include "preload/kargs.h"

#include <string.h>

#include "preload/allocmap.h"
#include "preload/kernels.h"

/* `span` carries the last lookup's answer across the words of one launch:
 * a TensorIterator-style block holds hundreds of words (sizes, strides,
 * offsets and a few pointers into the same allocations), and each word that
 * falls in the same allocation or the same gap as the previous lookup needs
 * no binary search — a 1 KiB block costs a few searches instead of 128. */
static int add_if_tracked(uint64_t value, uint32_t offset, uint16_t index, uint8_t access, uint8_t origin,
                          struct hv_karg *out, int n, int max, struct hv_alloc_span *span)
{
    if (n >= max || value == 0)
        return n;
    if (!hv_alloc_span_holds(hv_hot.allocs, span, value) && !hv_alloc_span_at(hv_hot.allocs, value, span))
        *span = (struct hv_alloc_span){0};   /* no consistent answer: untracked, and nothing to reuse */
    int tracked = span->in;
    /* Metadata says it is a pointer: keep it even when we do not know the
     * allocation (memory from another allocator is still memory). */
    if (!tracked && origin == HV_ARG_INFERRED)
        return n;
    out[n] = (struct hv_karg){value, tracked ? span->r.base : 0, tracked ? span->r.bytes : 0, offset, index, access,
                              origin};
    return n + 1;
}

/* Scans [p, p+len) word by word for values inside tracked allocations. */
static int scan_words(const uint8_t *p, size_t len, uint32_t base_offset, uint16_t index, struct hv_karg *out, int n,
                      int max, struct hv_alloc_span *span)
{
    for (size_t off = 0; off + 8 <= len && n < max; off += 8) {
        uint64_t v;
        memcpy(&v, p + off, 8);
        n = add_if_tracked(v, base_offset + (uint32_t)off, index, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED, out, n, max,
                           span);
    }
    return n;
}

int hv_kargs_collect(uint64_t func, void **params, const void *block, size_t block_bytes, struct hv_karg *out,
                     int max)
{
    const struct hv_kernel_info *k = hv_kernels_find(func);
    struct hv_alloc_span span = {0};
    int n = 0;
    if (!k || k->nargs == 0) {
        /* Without a layout a params array has no known length; only a packed
         * block can be scanned. */
        return block ? scan_words(block, block_bytes, 0, 0, out, 0, max, &span) : 0;
    }
    for (uint32_t i = 0; i < k->nargs && n < max; i++) {
        const struct hv_kernel_arg *a = &k->args[i];
        const uint8_t *src = params ? params[i]
                             : (block && a->offset + a->size <= block_bytes ? (const uint8_t *)block + a->offset : NULL);
        if (!src || a->kind == HV_ARGK_HIDDEN)
            continue;
        if (a->kind == HV_ARGK_POINTER && a->size == 8) {
            uint64_t v;
            memcpy(&v, src, 8);
            n = add_if_tracked(v, a->offset, (uint16_t)i, a->access, HV_ARG_METADATA, out, n, max, &span);
        } else if (a->size >= 8) {
            n = scan_words(src, a->size, a->offset, (uint16_t)i, out, n, max, &span);
        }
    }
    return n;
}

void hv_kargs_emit(struct hv_thread_ctx *t, uint64_t seq, uint64_t owner_node, uint64_t func, uint32_t name_id,
                   const struct hv_karg *args, int n)
{
    if (n <= 0)
        return;
    struct hv_kargs *rec = hv_aux_begin(t, HV_REC_KARGS, (uint32_t)(sizeof *rec + (size_t)n * sizeof *args), seq);
    if (!rec)
        return;
    rec->owner_node = owner_node;
    rec->func = func;
    rec->count = (uint32_t)n;
    rec->name_id = name_id;
    memcpy(rec + 1, args, (size_t)n * sizeof *args);
    hv_aux_commit(t, rec);
}
