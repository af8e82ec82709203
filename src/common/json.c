/* The one JSON writer and its string escaper; see json.h. */
#include "common/json.h"
#include "common/grow.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sink ---- */

static int reserve(struct hv_json *w, size_t n)
{
    if (w->oom)
        return 0;
    size_t need = w->len + n + 1;   /* room for the NUL hv_json_take adds */
    if (need <= w->cap)
        return 1;
    if (!HV_GROW_TO(w->buf, need, w->cap, 256)) {
        w->oom = 1;
        return 0;
    }
    return 1;
}

static void put(struct hv_json *w, const char *s, size_t n)
{
    if (w->f) {
        fwrite(s, 1, n, w->f);
    } else if (reserve(w, n)) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
    }
}

static void putch(struct hv_json *w, char c)
{
    if (w->f)
        fputc(c, w->f);
    else
        put(w, &c, 1);
}

void hv_json_init(struct hv_json *w, FILE *f, unsigned flags)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->flags = flags;
}

void hv_json_init_buf(struct hv_json *w, unsigned flags)
{
    hv_json_init(w, NULL, flags);
}

char *hv_json_take(struct hv_json *w, size_t *len)
{
    int ok = reserve(w, 0);   /* room for the NUL, also when nothing was written */
    char *b = w->buf;
    size_t n = w->len;
    hv_json_init_buf(w, w->flags);
    if (!ok) {
        free(b);
        return NULL;
    }
    b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

int hv_json_error(const struct hv_json *w)
{
    return (w->f ? ferror(w->f) : w->oom) ? -1 : 0;
}

/* ---- the escaper ---- */

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* Overlong forms, surrogates, and code points past U+10FFFF. */
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0) ||
        (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
        return 0;
    return len;
}

/* The quoted string: runs that need no escape are written as they are. */
static void put_string(struct hv_json *w, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    int script = (w->flags & HV_JSON_SCRIPT) != 0;
    size_t start = 0;
    putch(w, '"');
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && !(script && c == '<')) {
            i++;
            continue;
        }
        size_t len = c >= 0x80 ? utf8_len(u + i, n - i) : 0;
        if (len) {
            i += len;
            continue;
        }
        put(w, s + start, i - start);
        char e[8];
        if (c == '"' || c == '\\') {
            e[0] = '\\';
            e[1] = (char)c;
            put(w, e, 2);
        } else if (c == '\n') {
            put(w, "\\n", 2);
        } else if (c == '\t') {
            put(w, "\\t", 2);
        } else if (c == '\r') {
            put(w, "\\r", 2);
        } else if (c < 0x80) {   /* other control characters, DEL, '<' in a script */
            snprintf(e, sizeof e, "\\u%04x", c);
            put(w, e, 6);
        } else {
            put(w, "\\ufffd", 6);
        }
        start = ++i;
    }
    put(w, s + start, n - start);
    putch(w, '"');
}

/* ---- structure ---- */

static unsigned char *more(struct hv_json *w)
{
    return &w->more[w->depth < HV_JSON_MAX_DEPTH ? w->depth : HV_JSON_MAX_DEPTH - 1];
}

/* What goes before a value or key: nothing after a key, else the comma
 * inside a container that holds a value already, then a requested line
 * break. */
static void pre(struct hv_json *w)
{
    if (w->keyed) {
        w->keyed = 0;
        return;
    }
    if (w->depth && *more(w))
        putch(w, ',');
    if (w->nl) {
        putch(w, '\n');
        w->nl = 0;
    }
    *more(w) = 1;
}

static void open_(struct hv_json *w, char c)
{
    pre(w);
    putch(w, c);
    w->depth++;
    *more(w) = 0;
}

static void close_(struct hv_json *w, char c)
{
    if (w->nl) {
        putch(w, '\n');
        w->nl = 0;
    }
    putch(w, c);
    if (w->depth)
        w->depth--;
}

void hv_json_obj(struct hv_json *w) { open_(w, '{'); }
void hv_json_obj_end(struct hv_json *w) { close_(w, '}'); }
void hv_json_arr(struct hv_json *w) { open_(w, '['); }
void hv_json_arr_end(struct hv_json *w) { close_(w, ']'); }

void hv_json_key(struct hv_json *w, const char *k)
{
    pre(w);
    put_string(w, k, strlen(k));
    putch(w, ':');
    w->keyed = 1;
}

void hv_json_nl(struct hv_json *w) { w->nl = 1; }
void hv_json_eol(struct hv_json *w) { putch(w, '\n'); }

/* ---- values ---- */

void hv_json_rawn(struct hv_json *w, const char *json, size_t n)
{
    pre(w);
    put(w, json, n);
}

void hv_json_raw(struct hv_json *w, const char *json) { hv_json_rawn(w, json, strlen(json)); }

void hv_json_strn(struct hv_json *w, const char *s, size_t n)
{
    pre(w);
    put_string(w, s, n);
}

void hv_json_str(struct hv_json *w, const char *s)
{
    if (!s)
        hv_json_null(w);
    else
        hv_json_strn(w, s, strlen(s));
}

void hv_json_hexbytes(struct hv_json *w, const void *p, size_t n)
{
    static const char digit[] = "0123456789abcdef";
    const unsigned char *b = p;
    char chunk[512];
    pre(w);
    putch(w, '"');
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; i < n && k + 2 <= sizeof chunk; i++) {
            chunk[k++] = digit[b[i] >> 4];
            chunk[k++] = digit[b[i] & 15];
        }
        put(w, chunk, k);
    }
    putch(w, '"');
}

static void num(struct hv_json *w, const char *text, int n)
{
    if (n > 0)
        hv_json_rawn(w, text, (size_t)n);
}

void hv_json_u64(struct hv_json *w, uint64_t v)
{
    char b[24];
    num(w, b, snprintf(b, sizeof b, "%" PRIu64, v));
}

void hv_json_i64(struct hv_json *w, int64_t v)
{
    char b[24];
    num(w, b, snprintf(b, sizeof b, "%" PRId64, v));
}

void hv_json_hex(struct hv_json *w, uint64_t v)
{
    char b[24];
    num(w, b, snprintf(b, sizeof b, "\"0x%" PRIx64 "\"", v));
}

void hv_json_fixed(struct hv_json *w, double v, int decimals)
{
    char b[352];   /* DBL_MAX in %f, with room for the decimals */
    if (!isfinite(v) || decimals < 0 || decimals > 17)
        hv_json_null(w);
    else
        num(w, b, snprintf(b, sizeof b, "%.*f", decimals, v));
}

void hv_json_bool(struct hv_json *w, int v) { hv_json_raw(w, v ? "true" : "false"); }
void hv_json_null(struct hv_json *w) { hv_json_raw(w, "null"); }

/* ---- key and value ---- */

void hv_json_kobj(struct hv_json *w, const char *k) { hv_json_key(w, k); hv_json_obj(w); }
void hv_json_karr(struct hv_json *w, const char *k) { hv_json_key(w, k); hv_json_arr(w); }
void hv_json_kstr(struct hv_json *w, const char *k, const char *s) { hv_json_key(w, k); hv_json_str(w, s); }
void hv_json_ku64(struct hv_json *w, const char *k, uint64_t v) { hv_json_key(w, k); hv_json_u64(w, v); }
void hv_json_ki64(struct hv_json *w, const char *k, int64_t v) { hv_json_key(w, k); hv_json_i64(w, v); }
void hv_json_khex(struct hv_json *w, const char *k, uint64_t v) { hv_json_key(w, k); hv_json_hex(w, v); }
void hv_json_kbool(struct hv_json *w, const char *k, int v) { hv_json_key(w, k); hv_json_bool(w, v); }
void hv_json_knull(struct hv_json *w, const char *k) { hv_json_key(w, k); hv_json_null(w); }

void hv_json_kcounts(struct hv_json *w, const struct hv_json_count *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        hv_json_ku64(w, c[i].k, c[i].v);
}

void hv_json_kfixed(struct hv_json *w, const char *k, double v, int decimals)
{
    hv_json_key(w, k);
    hv_json_fixed(w, v, decimals);
}
