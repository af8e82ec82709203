/* The one JSON string escaper; see json_str.h. */
#include "common/json_str.h"

#include <string.h>

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

void hv_json_strn(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        size_t len = utf8_len(u + i, n - i);
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else if (len)
            fwrite(u + i, 1, len, out);
        else
            fputs("\\ufffd", out);
        i += len ? len : 1;
    }
    fputc('"', out);
}

void hv_json_str(FILE *out, const char *s)
{
    if (!s)
        fputs("null", out);
    else
        hv_json_strn(out, s, strlen(s));
}
