/*
 * The traces a run made and their totals (launch_summary.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/report/next.h"
#include "common/grow.h"
#include "cli/launch_summary.h"
#include "common/strset.h"
#include "hipvis/reader.h"

#define LISTED_MAX 8   /* traces named one per line; past that, a total */

struct hv_launch_traces {
    char dir[PATH_MAX];               /* the template's directory; "" the current one */
    char plain[NAME_MAX * 2 + 32];    /* fnmatch pattern of the file name */
    char suffixed[NAME_MAX * 2 + 40]; /* ... with the ".N" of a name that was taken */
    struct hv_strset before;          /* matching names there before the launch */
    int was_empty;                    /* the directory held nothing (or was not there) */
};

/* Appends s[0..n) to the pattern at *o: %p and %h any text, %% a '%', the
 * characters fnmatch gives a meaning escaped. -1 when it does not fit. */
static int to_pattern(const char *s, size_t n, char *pat, size_t cap, size_t *o)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '%' && i + 1 < n && (s[i + 1] == 'p' || s[i + 1] == 'h' || s[i + 1] == '%')) {
            c = s[++i] == '%' ? '%' : '*';
        } else if (strchr("*?[\\", c)) {
            if (*o + 1 >= cap)
                return -1;
            pat[(*o)++] = '\\';
        }
        if (*o + 1 >= cap)
            return -1;
        pat[(*o)++] = c;
    }
    pat[*o] = '\0';
    return 0;
}

/* The two patterns of file name `base`: as expanded, and with ".N" before
 * its extension (hv_path_suffixed's rule: the last '.', not a leading one). */
static int patterns(struct hv_launch_traces *t, const char *base)
{
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t o = 0, s = 0;
    if (to_pattern(base, strlen(base), t->plain, sizeof t->plain, &o) != 0 ||
        to_pattern(base, stem, t->suffixed, sizeof t->suffixed, &s) != 0 ||
        to_pattern(".", 1, t->suffixed, sizeof t->suffixed, &s) != 0 || s + 8 >= sizeof t->suffixed)
        return -1;
    memcpy(t->suffixed + s, "[0-9]*", 7);
    s += 6;
    return to_pattern(base + stem, strlen(base + stem), t->suffixed, sizeof t->suffixed, &s);
}

static int matches(const struct hv_launch_traces *t, const char *name)
{
    return fnmatch(t->plain, name, FNM_PERIOD) == 0 || fnmatch(t->suffixed, name, FNM_PERIOD) == 0;
}

struct hv_launch_traces *hv_launch_traces_before(const char *tmpl)
{
    const char *slash = strrchr(tmpl, '/');
    size_t dlen = slash ? (size_t)(slash - tmpl) + (slash == tmpl) : 0;
    if (memchr(tmpl, '%', dlen) || dlen >= PATH_MAX)
        return NULL;
    struct hv_launch_traces *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    memcpy(t->dir, tmpl, dlen);
    if (patterns(t, slash ? slash + 1 : tmpl) != 0) {
        free(t);
        return NULL;
    }
    t->was_empty = 1;
    DIR *d = opendir(*t->dir ? t->dir : ".");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        t->was_empty = 0;
        if (matches(t, e->d_name) && hv_strset_intern(&t->before, e->d_name) == HV_U64MAP_NONE)
            break;
    }
    if (d)
        closedir(d);
    return t;
}

static int by_version(const void *a, const void *b) { return strverscmp(*(char *const *)a, *(char *const *)b); }

/* The new trace files' names, sorted (pids in numeric order); *n of them. */
static char **new_names(const struct hv_launch_traces *t, size_t *n)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(*t->dir ? t->dir : ".");
    for (struct dirent *e; d && (e = readdir(d));) {
        struct stat st;
        if (!matches(t, e->d_name) || hv_strset_find(&t->before, e->d_name) != HV_U64MAP_NONE ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (!HV_GROW(v, *n, cap, 16))
            break;
        if (!(v[*n] = strdup(e->d_name)))
            break;
        (*n)++;
    }
    if (d)
        closedir(d);
    if (*n)
        qsort(v, *n, sizeof *v, by_version);
    return v;
}

/* 82114 -> "82,114". */
static const char *grouped(uint64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

struct totals {
    uint64_t calls, records, dropped;
    size_t traces, unfinished, foreign;
};

/* One trace's line, without its end (the caller adds "; next: ..." or a
 * newline); 0 when there is nothing to say past the counts (listed or not). */
static int trace_line(const char *path, struct totals *sum, int listed, FILE *out)
{
    struct hv_file_footer f;
    char a[32], b[32], c[32];
    int rc = hv_reader_footer_peek(path, &f);
    if (rc < 0) {
        sum->foreign++;
        fprintf(out, "hipvis: %s: not a hipvis trace, or unreadable", path);
        return 1;
    }
    sum->traces++;
    if (rc > 0) {
        sum->unfinished++;
        fprintf(out, "hipvis: trace %s: no footer: its process did not finish (killed, or still running)", path);
        return 1;
    }
    uint64_t dropped = 0;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        dropped += f.dropped[k];
    sum->calls += f.calls;
    sum->records += f.records_written;
    sum->dropped += dropped;
    if (!listed && !dropped)
        return 0;
    fprintf(out, "hipvis: trace %s: %s calls, %s records, %s dropped%s", path, grouped(f.calls, a),
            grouped(f.records_written, b), grouped(dropped, c),
            f.dropped[HV_DROP_WRITE_ERROR] ? " (write errors: see above)" : "");
    return 1;
}

/* The path of `name` as the tracer named it: in the template's directory. */
static const char *in_dir(const struct hv_launch_traces *t, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", t->dir, *t->dir && strcmp(t->dir, "/") ? "/" : "", name);
    return buf;
}

void hv_launch_summary(struct hv_launch_traces *t, FILE *out)
{
    if (!t)
        return;
    size_t n = 0;
    char **names = new_names(t, &n);
    const char *dir = *t->dir ? t->dir : ".";
    char q[PATH_MAX * 4 + 8], path[PATH_MAX * 2];
    struct totals sum = {0};
    for (size_t i = 0; i < n; i++) {
        if (trace_line(in_dir(t, names[i], path, sizeof path), &sum, n <= LISTED_MAX, out))
            fprintf(out, n == 1 ? "; next: hipvis-analyze %s\n" : "\n", hv_shell_quote(path, q, sizeof q));
    }
    if (n == 0)
        fprintf(out, "hipvis: no trace written to %s\n", dir);
    if (n > 1) {
        char a[32], b[32], c[32];
        fprintf(out, "hipvis: %zu traces: %s calls, %s records, %s dropped", sum.traces, grouped(sum.calls, a),
                grouped(sum.records, b), grouped(sum.dropped, c));
        if (sum.unfinished)
            fprintf(out, ", %zu without a footer", sum.unfinished);
        /* The directory when it holds only this run's files; else each. */
        fputs("; next: hipvis-analyze", out);
        for (size_t i = 0; i < (t->was_empty ? 1 : n); i++)
            fprintf(out, " %s", hv_shell_quote(t->was_empty ? dir : in_dir(t, names[i], path, sizeof path), q,
                                               sizeof q));
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    hv_launch_traces_free(t);
}

void hv_launch_traces_free(struct hv_launch_traces *t)
{
    if (t)
        hv_strset_free(&t->before);
    free(t);
}
