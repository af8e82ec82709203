/*
 * Trace file naming (internal to the writer): template expansion and
 * exclusive creation with a numbered suffix. Async-signal-safe in spirit:
 * no stdio, no allocation, no global state (it runs in the preload library's
 * writer thread and in fork children).
 */
#ifndef HV_FORMAT_TRACE_PATH_INT_H
#define HV_FORMAT_TRACE_PATH_INT_H

#include <stddef.h>
#include <stdint.h>

/* Expands %p (pid), %h (host, '/' replaced by '_'), %% ('%'); any other
 * '%' sequence is kept as written. `host` need not be NUL-terminated within
 * host_cap bytes. Returns the length, or -ENAMETOOLONG if it does not fit. */
int hv_path_expand(const char *tmpl, uint64_t pid, const char *host, size_t host_cap, char *buf, size_t cap);

/* Writes `path` with ".n" inserted before the extension of its last
 * component ("t.zst" -> "t.1.zst", "t" -> "t.1", "dir.d/t" -> "dir.d/t.1",
 * ".hidden" -> ".hidden.1"). Returns the length or -ENAMETOOLONG. */
int hv_path_suffixed(const char *path, unsigned n, char *buf, size_t cap);

/* Creates `path` with O_EXCL (mode 0644, umask applies); when taken, tries
 * suffixes .1 ... .max_suffix. Returns the fd with the name used in `out`,
 * or -errno. */
int hv_path_create_excl(const char *path, unsigned max_suffix, char *out, size_t cap);

#endif
