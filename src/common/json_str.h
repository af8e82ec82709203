/*
 * The one JSON string escaper: every JSON writer (hipvis-dump, the analyzer's
 * JSON / Perfetto / diagnose / forensics output, the sidecar's alerts) goes
 * through it, so a path or name prints the same everywhere.
 *
 * Valid UTF-8 passes through unchanged (a non-ASCII path round-trips); '"',
 * '\\' and control characters are escaped; bytes that are not valid UTF-8
 * become U+FFFD, so the output is always valid JSON.
 */
#ifndef HV_FORMAT_JSON_STR_H
#define HV_FORMAT_JSON_STR_H

#include <stddef.h>
#include <stdio.h>

/* `n` bytes of `s` as a quoted JSON string. */
void hv_json_strn(FILE *out, const char *s, size_t n);
/* NUL-terminated `s` as a quoted JSON string; NULL prints null. */
void hv_json_str(FILE *out, const char *s);

#endif
