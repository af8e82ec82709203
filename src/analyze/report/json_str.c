/* JSON string escaping shared by the JSON and Perfetto writers. */
#include "analyze/report/report.h"

void hv_json_str(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20 || *p >= 0x7f)
                fprintf(out, "\\u%04x", *p);  /* bytes, not code points: names are ASCII in practice */
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}
