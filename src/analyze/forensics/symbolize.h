/* Offline symbolization from ELF symbol tables on disk (symbolize.c). */
#ifndef HV_FORENSICS_SYMBOLIZE_H
#define HV_FORENSICS_SYMBOLIZE_H

#include <stdint.h>

struct hv_symbolizer;

struct hv_symbolizer *hv_symbolizer_new(void);
void hv_symbolizer_free(struct hv_symbolizer *s);
/* Function of `path` containing ELF virtual address `vaddr`, with the
 * offset into it; NULL when unknown. Valid until hv_symbolizer_free. */
const char *hv_symbolize(struct hv_symbolizer *s, const char *path, uint64_t vaddr, uint64_t *off);

#endif
