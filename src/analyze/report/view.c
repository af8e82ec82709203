/* view: --window and --clock for the timeline exports. See view.h. */
#include "analyze/report/view.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hv_view_init(struct hv_view *v)
{
    memset(v, 0, sizeof *v);
    v->seq_hi = UINT64_MAX;
}

/* "1.5s" -> ns. Returns 0, 1 when s is a bare integer (a seq), -1 bad. */
static int parse_time(const char *s, size_t n, int64_t *ns, uint64_t *seq)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    if (buf[0] >= '0' && buf[0] <= '9') {
        unsigned long long u = strtoull(buf, &end, 10);
        if (!*end && !errno) {
            *seq = u;
            return 1;
        }
    }
    double d = strtod(buf, &end);
    if (end == buf || errno || d < 0)
        return -1;
    double scale;
    if (!strcmp(end, "ns"))
        scale = 1;
    else if (!strcmp(end, "us"))
        scale = 1e3;
    else if (!strcmp(end, "ms"))
        scale = 1e6;
    else if (!strcmp(end, "s"))
        scale = 1e9;
    else
        return -1;
    if (d * scale > 9e18)
        return -1;
    *ns = (int64_t)(d * scale);
    return 0;
}

int hv_view_parse_window(struct hv_view *v, const char *s, char *err, size_t errlen)
{
    const char *colon = strchr(s, ':');
    int64_t t[2] = {0, 0};
    uint64_t q[2] = {0, 0};
    int k0 = -1, k1 = -1;
    if (colon) {
        k0 = parse_time(s, (size_t)(colon - s), &t[0], &q[0]);
        k1 = parse_time(colon + 1, strlen(colon + 1), &t[1], &q[1]);
    }
    if (k0 < 0 || k1 < 0 || k0 != k1) {
        snprintf(err, errlen, "expected SEQ_A:SEQ_B (call seqs) or T_A:T_B (times from the trace's start with "
                              "a unit ns|us|ms|s, e.g. 1.5s:2s), got '%s'", s);
        return -1;
    }
    if (k0 == 1) {
        if (q[1] < q[0]) {
            snprintf(err, errlen, "'%s': SEQ_B is before SEQ_A", s);
            return -1;
        }
        v->seq_lo = q[0];
        v->seq_hi = q[1];
    } else {
        if (t[1] < t[0]) {
            snprintf(err, errlen, "'%s': the end is before the start", s);
            return -1;
        }
        v->has_time = 1;
        v->t_lo = t[0];
        v->t_hi = t[1];
    }
    return 0;
}

/* baseTimeNanoseconds of a torch.profiler (Kineto) Chrome trace: scanned
 * for, not parsed, as these files run to gigabytes. */
static int torch_base(const char *path, int64_t *base, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "torch=%s: %s", path, strerror(errno));
        return -1;
    }
    static const char key[] = "\"baseTimeNanoseconds\"";
    char buf[65536 + sizeof key];
    size_t keep = 0;
    int found = -1;
    for (;;) {
        size_t n = fread(buf + keep, 1, sizeof buf - keep - 1, f);
        size_t len = keep + n;
        int eof = n == 0 || feof(f) || ferror(f);
        buf[len] = 0;
        char *p = memmem(buf, len, key, sizeof key - 1);
        if (p && (size_t)(p - buf) + sizeof key + 40 >= len && !eof && p != buf) {
            /* the number may run past this read: keep from the key on */
            keep = len - (size_t)(p - buf);
            memmove(buf, p, keep);
            continue;
        }
        if (p) {
            p += sizeof key - 1;
            while (*p == ' ' || *p == ':' || *p == '\t' || *p == '\n' || *p == '\r')
                p++;
            char *end;
            errno = 0;
            long long b = strtoll(p, &end, 10);
            if (end != p && !errno) {
                *base = b;
                found = 0;
            }
            break;
        }
        if (eof)
            break;
        /* keep the tail, in case the key straddles two reads */
        keep = len < 128 ? len : 128;
        memmove(buf, buf + len - keep, keep);
    }
    fclose(f);
    if (found != 0)
        snprintf(err, errlen, "torch=%s: no \"baseTimeNanoseconds\" number in it (not a torch.profiler "
                              "Chrome trace?)", path);
    return found == 0 ? 0 : -1;
}

int hv_view_parse_clock(struct hv_view *v, const char *s, char *err, size_t errlen)
{
    char *end;
    if (!strcmp(s, "monotonic")) {
        v->clock = HV_VIEW_MONOTONIC;
        return 0;
    }
    if (!strcmp(s, "realtime")) {
        v->clock = HV_VIEW_REALTIME;
        return 0;
    }
    if (!strncmp(s, "offset=", 7) || !strncmp(s, "base=", 5)) {
        const char *num = strchr(s, '=') + 1;
        errno = 0;
        long long x = strtoll(num, &end, 10);
        if (end != num && !*end && !errno) {
            v->clock = s[0] == 'o' ? HV_VIEW_OFFSET : HV_VIEW_BASE;
            v->clock_arg = x;
            return 0;
        }
    } else if (!strncmp(s, "torch=", 6)) {
        if (torch_base(s + 6, &v->clock_arg, err, errlen) != 0)
            return -1;
        v->clock = HV_VIEW_BASE;
        return 0;
    }
    snprintf(err, errlen, "expected monotonic|realtime|offset=NS|base=NS|torch=FILE, got '%s'", s);
    return -1;
}

int64_t hv_view_offset(const struct hv_view *v, const struct hv_file_header *h)
{
    int64_t to_real = h ? (int64_t)(h->start_realtime_ns - h->start_ns) : 0;
    switch (v->clock) {
    case HV_VIEW_REALTIME: return to_real;
    case HV_VIEW_OFFSET: return v->clock_arg;
    case HV_VIEW_BASE: return to_real - v->clock_arg;
    default: return 0;
    }
}

const char *hv_view_text(const struct hv_view *v, char *buf, size_t len)
{
    static const char *const clocks[] = {"monotonic", "realtime", "offset", "base"};
    int n = snprintf(buf, len, "clock %s", clocks[v->clock]);
    if (n > 0 && (size_t)n < len && (v->clock == HV_VIEW_OFFSET || v->clock == HV_VIEW_BASE))
        n += snprintf(buf + n, len - (size_t)n, "=%" PRId64, v->clock_arg);
    if (n > 0 && (size_t)n < len && (v->seq_lo || v->seq_hi != UINT64_MAX))
        n += snprintf(buf + n, len - (size_t)n, ", window seq %" PRIu64 ":%" PRIu64, v->seq_lo, v->seq_hi);
    if (n > 0 && (size_t)n < len && v->has_time)
        snprintf(buf + n, len - (size_t)n, ", window %.6f s:%.6f s from the trace's start", (double)v->t_lo / 1e9,
                 (double)v->t_hi / 1e9);
    return buf;
}
