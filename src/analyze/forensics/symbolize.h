/* Offline symbolization from ELF symbol tables on disk (symbolize.c). */
#ifndef HV_ANALYZE_FORENSICS_SYMBOLIZE_H
#define HV_ANALYZE_FORENSICS_SYMBOLIZE_H

#include <stdint.h>

struct hv_symbolizer;

struct hv_symbolizer *hv_symbolizer_new(void);
void hv_symbolizer_free(struct hv_symbolizer *s);
/* Function of `path` containing ELF virtual address `vaddr`, with the
 * offset into it; NULL when unknown. Valid until hv_symbolizer_free. */
const char *hv_symbolize(struct hv_symbolizer *s, const char *path, uint64_t vaddr, uint64_t *off);

/* Source file and line of ELF virtual address `vaddr` of `path`, from its
 * DWARF (or separate debug info); 0, or -1 when there is none. *file is
 * valid until hv_symbolizer_free. */
int hv_symbolize_line(struct hv_symbolizer *s, const char *path, uint64_t vaddr, const char **file, int *line);

#endif
