/* Writing one byte per 4 KiB page: on virtual machines whose host backs a
 * page only on its first write through a mapping (firecracker here: 7-100 us
 * a page, whatever MAP_POPULATE or MADV_POPULATE_WRITE did), buffers that a
 * latency-bound path will fill are written this way first, off that path
 * (record/collector.c's spare rings, format/trace_writer.c's chunk and
 * compression buffers).
 *
 * That cost is per page-table entry, so the same buffers are mapped for
 * transparent huge pages where the kernel allows them (hv_map_huge): a
 * 2 MiB page is one entry, and its first write costs what one 4 KiB page's
 * does (this VM, quiet: a 4 MiB ring's 1024 page writes took 14-38 ms in
 * 4 KiB pages, 0.3-0.5 ms in two huge pages). */
#ifndef HV_COMMON_PAGES_H
#define HV_COMMON_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#define HV_PAGE_BYTES 4096u
#define HV_HUGE_BYTES (2u << 20)

/* Writes a zero into each page of [from, to), offsets into `mem`, starting
 * at `from` (a page boundary). */
static inline void hv_touch_pages(void *mem, size_t from, size_t to)
{
    for (size_t off = from; off < to; off += HV_PAGE_BYTES)
        ((volatile unsigned char *)mem)[off] = 0;
}

/* Private anonymous memory of `len` bytes (zeroed, unpopulated), starting
 * on a 2 MiB boundary and marked MADV_HUGEPAGE, so that every whole 2 MiB
 * of it can be one huge page when the kernel's transparent huge pages are
 * "madvise" or "always" (with "never", or no huge page free, it is 4 KiB
 * pages as from a plain mmap). The part past the last 2 MiB boundary stays
 * in 4 KiB pages: callers that want it all huge ask for a multiple of
 * 2 MiB. Unmapped with munmap(p, len). NULL when mmap fails. */
static inline void *hv_map_huge(size_t len)
{
    size_t want = (len + HV_PAGE_BYTES - 1) & ~(size_t)(HV_PAGE_BYTES - 1);
    uint8_t *m = mmap(NULL, want + HV_HUGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)m + HV_HUGE_BYTES - 1) & ~(uintptr_t)(HV_HUGE_BYTES - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (m + HV_HUGE_BYTES > p)
        munmap(p + want, (size_t)(m + HV_HUGE_BYTES - p));
    /* Advice only: an older kernel or THP "never" refuses it, and the
     * memory works the same in 4 KiB pages. */
    (void)madvise(p, want, MADV_HUGEPAGE);
    return p;
}

#endif
