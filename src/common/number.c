/* The one parser for numeric settings: see number.h. */
#include "common/number.h"

#include <stddef.h>

static int digit(char c, int base)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (base == 16 && c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int hv_num_u64(const char *s, unsigned flags, uint64_t *out, const char **end)
{
    int base = 10;
    if (!s)
        return -1;
    if ((flags & HV_NUM_HEX) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    uint64_t v = 0;
    const char *p = s;
    for (int d; (d = digit(*p, base)) >= 0; p++) {
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;   /* overflow */
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (p == s || (*p && !(flags & HV_NUM_SUFFIX)))
        return -1;
    if (end)
        *end = p;
    *out = v;
    return 0;
}

int hv_num_range(const char *s, unsigned flags, long long lo, long long hi, long long *out)
{
    int neg = 0;
    if (s && *s == '-' && (flags & HV_NUM_SIGNED)) {
        neg = 1;
        s++;
    }
    uint64_t u;
    if (hv_num_u64(s, flags & ~(unsigned)HV_NUM_SUFFIX, &u, NULL) != 0)
        return -1;
    if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
        return -1;
    long long v = neg ? (long long)(0 - u) : (long long)u;
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}
