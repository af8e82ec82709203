/* Writing one byte per 4 KiB page: on virtual machines whose host backs a
 * page only on its first write through a mapping (firecracker here: 7-100 us
 * a page, whatever MAP_POPULATE or MADV_POPULATE_WRITE did), buffers that a
 * latency-bound path will fill are written this way first, off that path
 * (record/collector.c's spare rings, format/trace_writer.c's chunk and
 * compression buffers). */
#ifndef HIPVIS_UTIL_PAGES_H
#define HIPVIS_UTIL_PAGES_H

#include <stddef.h>

#define HV_PAGE_BYTES 4096u

/* Writes a zero into each page of [from, to), offsets into `mem`, starting
 * at `from` (a page boundary). */
static inline void hv_touch_pages(void *mem, size_t from, size_t to)
{
    for (size_t off = from; off < to; off += HV_PAGE_BYTES)
        ((volatile unsigned char *)mem)[off] = 0;
}

#endif
