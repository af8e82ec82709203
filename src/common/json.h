/*
 * The one JSON writer: every JSON hipvis writes (hipvis-dump --json, the
 * analyzer's JSON, Perfetto and HTML reports, --diagnose, the forensic
 * queries, the experiment's report, the sidecar's alerts) goes through it,
 * so a path or a name is escaped the same way everywhere and no emitter
 * counts its own commas.
 *
 * Strings: valid UTF-8 passes through unchanged (a non-ASCII path
 * round-trips); '"', '\\' and control characters are escaped; bytes that
 * are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
 *
 * The writer places the commas: a value (or a key) written into an object
 * or array that already holds one is preceded by ','. Top-level values
 * are not separated: JSON-lines output ends each with hv_json_eol().
 */
#ifndef HV_COMMON_JSON_H
#define HV_COMMON_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* '<' inside strings as \u003c: the JSON can sit in an HTML <script>
 * element, where "</script" or "<!--" would end or change it. */
#define HV_JSON_SCRIPT 0x1u

#define HV_JSON_MAX_DEPTH 32

struct hv_json {
    FILE *f;                 /* the sink; NULL: the buffer below */
    char *buf;
    size_t len, cap;
    int oom;                 /* the buffer could not grow: what it holds is cut short */
    unsigned flags;          /* HV_JSON_* */
    unsigned depth;          /* open objects and arrays */
    unsigned char more[HV_JSON_MAX_DEPTH];  /* the container at this depth holds a value already */
    unsigned char keyed;     /* a key was written: its value follows without a comma */
    unsigned char nl;        /* hv_json_nl: the next token starts a new line */
};

/* A writer onto `f`. */
void hv_json_init(struct hv_json *w, FILE *f, unsigned flags);
/* A writer into a growing buffer (hv_json_take returns it). */
void hv_json_init_buf(struct hv_json *w, unsigned flags);
/* The buffer written so far, NUL-terminated (*len without the NUL), now the
 * caller's to free; NULL if it ran out of memory. The writer is reset. */
char *hv_json_take(struct hv_json *w, size_t *len);
/* 0, or -1 if anything could not be written (file error, out of memory). */
int hv_json_error(const struct hv_json *w);

void hv_json_obj(struct hv_json *w);
void hv_json_obj_end(struct hv_json *w);
void hv_json_arr(struct hv_json *w);
void hv_json_arr_end(struct hv_json *w);
/* The key of the next value in the current object. */
void hv_json_key(struct hv_json *w, const char *k);

/* NUL-terminated `s` as a string; NULL writes null. */
void hv_json_str(struct hv_json *w, const char *s);
/* `n` bytes of `s` as a string. */
void hv_json_strn(struct hv_json *w, const char *s, size_t n);
/* `n` bytes as a string of lowercase hex digits, two a byte. */
void hv_json_hexbytes(struct hv_json *w, const void *p, size_t n);
void hv_json_u64(struct hv_json *w, uint64_t v);
void hv_json_i64(struct hv_json *w, int64_t v);
/* An address, handle or hash: the string "0x..." (JSON numbers lose
 * precision past 2^53). */
void hv_json_hex(struct hv_json *w, uint64_t v);
/* `v` with `decimals` digits after the point; null if it is not finite. */
void hv_json_fixed(struct hv_json *w, double v, int decimals);
void hv_json_bool(struct hv_json *w, int v);
void hv_json_null(struct hv_json *w);
/* A value that is JSON already (written by a writer before, or a number
 * formatted by the caller), as it is. */
void hv_json_raw(struct hv_json *w, const char *json);
void hv_json_rawn(struct hv_json *w, const char *json, size_t n);

/* Key and value in one call. */
void hv_json_kobj(struct hv_json *w, const char *k);
void hv_json_karr(struct hv_json *w, const char *k);
void hv_json_kstr(struct hv_json *w, const char *k, const char *s);
void hv_json_ku64(struct hv_json *w, const char *k, uint64_t v);
void hv_json_ki64(struct hv_json *w, const char *k, int64_t v);
void hv_json_khex(struct hv_json *w, const char *k, uint64_t v);
void hv_json_kfixed(struct hv_json *w, const char *k, double v, int decimals);
void hv_json_kbool(struct hv_json *w, const char *k, int v);
void hv_json_knull(struct hv_json *w, const char *k);

/* A run of counters, "name":value each, from a table of them. */
struct hv_json_count {
    const char *k;
    uint64_t v;
};
void hv_json_kcounts(struct hv_json *w, const struct hv_json_count *c, size_t n);
/* The same from the entries themselves: HV_JSON_COUNTS(w, {"runs", n}, {"hangs", h}). */
#define HV_JSON_COUNTS(w, ...)                                                  \
    hv_json_kcounts(w, (const struct hv_json_count[]){__VA_ARGS__},            \
                    sizeof((const struct hv_json_count[]){__VA_ARGS__}) / sizeof(struct hv_json_count))

/* Layout: the next value or closing bracket of the current container
 * starts on a new line (after the comma, if one is due). */
void hv_json_nl(struct hv_json *w);
/* Ends a line after a top-level value (JSON lines, or a document's end). */
void hv_json_eol(struct hv_json *w);

#endif
