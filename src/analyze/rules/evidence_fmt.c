/* Rendering recorded bytes for findings (see evidence_fmt.h). */
#include "analyze/rules/evidence_fmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

size_t hv_bytes_diff(const uint8_t *a, const uint8_t *b, size_t n, size_t *ndiff)
{
    size_t first = n, d = 0;
    for (size_t i = 0; i < n; i++) {
        if (a[i] == b[i])
            continue;
        if (first == n)
            first = i;
        d++;
    }
    if (ndiff)
        *ndiff = d;
    return first;
}

static int as_int32(size_t n) { return n >= 4 && n % 4 == 0; }

const char *hv_elem_name(char *buf, size_t len, size_t n, size_t off)
{
    if (as_int32(n))
        snprintf(buf, len, "int32 [%zu]", off / 4);
    else
        snprintf(buf, len, "byte [%zu]", off);
    return buf;
}

const char *hv_elem_value(char *buf, size_t len, const uint8_t *a, size_t n, size_t off)
{
    if (as_int32(n)) {
        int32_t v;
        memcpy(&v, a + off / 4 * 4, 4);
        snprintf(buf, len, "%" PRId32, v);
    } else {
        snprintf(buf, len, "0x%02x", a[off]);
    }
    return buf;
}

const char *hv_bytes_view(char *buf, size_t len, const uint8_t *b, size_t n, size_t from, size_t max)
{
    size_t w = as_int32(n) ? 4 : 1, count = n / w, used = 0;
    if (!len)
        return buf;
    buf[0] = '\0';
    for (size_t i = from; i < count && i < from + max && used + 16 < len; i++) {
        int k;
        if (w == 4) {
            int32_t v;
            memcpy(&v, b + 4 * i, 4);
            k = snprintf(buf + used, len - used, "%s%" PRId32, i != from ? "," : from ? "[...," : "[", v);
        } else {
            k = snprintf(buf + used, len - used, "%s%02x", i != from ? "," : from ? "[...," : "[", b[i]);
        }
        used += (size_t)k;
    }
    snprintf(buf + used, len - used, "%s]", from + max < count ? ",..." : "");
    if (from >= count)
        snprintf(buf, len, "[]");
    return buf;
}

const char *hv_probe_point_name(unsigned point)
{
    static const char *const names[] = {"none", "after-copy", "pre-replay", "post-replay"};
    return point < sizeof names / sizeof names[0] ? names[point] : "?";
}
