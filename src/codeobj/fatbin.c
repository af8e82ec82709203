/* fatbin.c - from __hipRegisterFatBinary's wrapper pointer to a bounded image.
 *
 * The wrapper gives a pointer and no length. The bundle lives in the
 * .hip_fatbin section of a loaded object, so the loaded segment that holds
 * it is a hard bound: we never read past the end of mapped memory even when
 * the bundle header is garbage. */
#include "codeobj/codeobj_int.h"

#include <errno.h>
#include <link.h>
#include <stdint.h>

struct extent_query {
    uintptr_t addr;
    size_t bytes;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct extent_query *q = arg;
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        /* p_filesz, not p_memsz: past it is .bss, mapped but not ours. */
        uintptr_t hi = lo + ph->p_filesz;
        if (q->addr >= lo && q->addr < hi) {
            q->bytes = hi - q->addr;
            return 1;
        }
    }
    return 0;
}

size_t hv_co_mapped_extent(const void *p)
{
    struct extent_query q = {.addr = (uintptr_t)p, .bytes = 0};
    if (p)
        dl_iterate_phdr(find_segment, &q);
    return q.bytes;
}

int hv_co_fatbin_image(const void *wrapper, size_t max, const void **image, size_t *len)
{
    if (!wrapper || !image || !len)
        return -EINVAL;
    const struct hv_co_fatbin_wrapper *w = wrapper;
    if (w->magic != HV_CO_FATBIN_MAGIC)
        return -EPROTO;
    if (!w->binary)
        return -EINVAL;
    if (!max)
        max = hv_co_mapped_extent(w->binary);
    if (!max)
        return -ERANGE;
    size_t n = hv_co_image_size(w->binary, max);
    if (!n)
        return -ERANGE;
    *image = w->binary;
    *len = n;
    return 0;
}
