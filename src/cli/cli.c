/*
 * One getopt_long front end for every tool (see cli.h for why and how).
 */
#include "cli/cli.h"
#include "common/number.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Long options get ids past any char so that getopt's answer says which
 * table entry matched, and so that optopt after an error tells a long
 * option (>= LONG_BASE) from a short one. */
#define LONG_BASE 256

static size_t count_opts(const struct hv_cli *c)
{
    size_t n = 0;
    while (c->opts && c->opts[n].name)
        n++;
    return n;
}

#define HELP_COL 26

static void print_opt(FILE *out, const char *shortpart, const char *name, const char *metavar, const char *help)
{
    char left[160];
    int n = snprintf(left, sizeof left, "  %s--%s%s%s", shortpart, name, metavar ? " " : "", metavar ? metavar : "");
    if (n < 0)
        return;
    fputs(left, out);
    if (!help || !*help) {
        fputc('\n', out);
        return;
    }
    if (n >= HELP_COL - 1)
        fprintf(out, "\n%*s", HELP_COL, "");
    else
        fprintf(out, "%*s", HELP_COL - n, "");
    /* Continuation lines of the help text line up under its first line. */
    for (const char *p = help; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        fwrite(p, 1, len, out);
        fputc('\n', out);
        if (!nl)
            break;
        p = nl + 1;
        if (*p)
            fprintf(out, "%*s", HELP_COL, "");
    }
}

void hv_cli_usage(const struct hv_cli *c, FILE *out)
{
    fprintf(out, "usage: %s %s\n", c->prog, c->synopsis ? c->synopsis : "[options]");
    size_t n = count_opts(c);
    for (size_t i = 0; i < n; i++) {
        const struct hv_cli_opt *o = &c->opts[i];
        char sp[8] = "";
        if (o->short_name)
            snprintf(sp, sizeof sp, "-%c, ", o->short_name);
        print_opt(out, sp, o->name, o->takes_value ? o->metavar ? o->metavar : "VALUE" : NULL, o->help);
    }
    print_opt(out, "-h, ", "help", NULL, "this text");
    print_opt(out, "", "version", NULL, "the version");
    fputs("Options take their value as --opt=VALUE or --opt VALUE.\n", out);
    if (c->footer)
        fputs(c->footer, out);
}

int hv_cli_error(const struct hv_cli *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: %s %s\nTry '%s --help' for more.\n", c->prog, c->synopsis ? c->synopsis : "[options]",
            c->prog);
    return HV_CLI_USAGE;
}

/* "--name" for a long id, "-c" for a short one. */
static void opt_label(const struct hv_cli *c, int val, char *buf, size_t cap)
{
    size_t n = count_opts(c);
    if (val >= LONG_BASE && (size_t)(val - LONG_BASE) < n)
        snprintf(buf, cap, "--%s", c->opts[val - LONG_BASE].name);
    else if (val > 0 && val < LONG_BASE)
        snprintf(buf, cap, "-%c", val);
    else
        snprintf(buf, cap, "?");
}

/* The text of an unrecognised long option as the user typed it, without
 * any "=value" (the value may be long or private). */
static void unknown_label(const char *arg, char *buf, size_t cap)
{
    size_t len = strcspn(arg, "=");
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, arg, len);
    buf[len] = '\0';
}

int hv_cli_parse(const struct hv_cli *c, int argc, char **argv, hv_cli_fn fn, void *ctx, int *first_operand)
{
    size_t n = count_opts(c);
    struct option *lo = calloc(n + 3, sizeof *lo);
    char *shorts = malloc(2 * n + 8);
    if (!lo || !shorts) {
        free(lo);
        free(shorts);
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return HV_CLI_USAGE;
    }
    /* '+': stop at the first operand (a launcher's command keeps its own
     * options); ':': report a missing value as ':' rather than '?'. */
    char *s = shorts;
    if (c->stop_at_operand)
        *s++ = '+';
    *s++ = ':';
    *s++ = 'h';
    for (size_t i = 0; i < n; i++) {
        lo[i] = (struct option){c->opts[i].name, c->opts[i].takes_value ? required_argument : no_argument, NULL,
                                LONG_BASE + (int)i};
        if (c->opts[i].short_name) {
            *s++ = (char)c->opts[i].short_name;
            if (c->opts[i].takes_value)
                *s++ = ':';
        }
    }
    *s = '\0';
    const int help_id = LONG_BASE + (int)n, version_id = LONG_BASE + (int)n + 1;
    lo[n] = (struct option){"help", no_argument, NULL, help_id};
    lo[n + 1] = (struct option){"version", no_argument, NULL, version_id};

    int rc = HV_CLI_OK;
    opterr = 0;
    optind = 0;   /* glibc: full re-initialisation, so a second parse works */
    for (;;) {
        int r = getopt_long(argc, argv, shorts, lo, NULL);
        if (r == -1)
            break;
        char label[128];
        if (r == '?') {
            if (optopt >= LONG_BASE) {
                opt_label(c, optopt, label, sizeof label);
                rc = hv_cli_error(c, "option '%s' takes no value", label);
            } else if (optopt) {
                rc = hv_cli_error(c, "unknown option '-%c'", optopt);
            } else {
                unknown_label(argv[optind - 1], label, sizeof label);
                /* glibc lands here for an ambiguous prefix too: say which. */
                char cands[256] = "";
                size_t plen = strlen(label), nc = 0, used = 0;
                for (size_t i = 0; plen > 2 && label[0] == '-' && label[1] == '-' && i < n + 2; i++) {
                    const char *nm = lo[i].name;
                    if (strncmp(nm, label + 2, plen - 2) == 0 && used + strlen(nm) + 5 < sizeof cands) {
                        used += (size_t)snprintf(cands + used, sizeof cands - used, "%s--%s", nc ? ", " : "", nm);
                        nc++;
                    }
                }
                if (nc > 1)
                    rc = hv_cli_error(c, "option '%s' is ambiguous: %s", label, cands);
                else
                    rc = hv_cli_error(c, "unknown option '%s'", label);
            }
            break;
        }
        if (r == ':') {
            opt_label(c, optopt, label, sizeof label);
            rc = hv_cli_error(c, "option '%s' needs a value", label);
            break;
        }
        if (r == 'h' || r == help_id) {
            hv_cli_usage(c, stdout);
            rc = HV_CLI_EXIT;
            break;
        }
        if (r == version_id) {
            printf("%s %s\n", c->prog, HIPVIS_VERSION);
            rc = HV_CLI_EXIT;
            break;
        }
        size_t idx = n;
        if (r >= LONG_BASE)
            idx = (size_t)(r - LONG_BASE);
        else
            for (size_t i = 0; i < n; i++)
                if (c->opts[i].short_name == r)
                    idx = i;
        if (idx >= n) {
            rc = hv_cli_error(c, "unknown option '-%c'", r);
            break;
        }
        int v = fn(ctx, c->opts[idx].id, c->opts[idx].takes_value ? optarg : NULL);
        if (v == -1) {
            rc = hv_cli_error(c, "--%s: bad value '%s'", c->opts[idx].name, optarg ? optarg : "");
            break;
        }
        if (v < 0) {
            rc = HV_CLI_USAGE;
            break;
        }
    }
    if (rc == HV_CLI_EXIT && fflush(stdout) != 0)
        rc = HV_CLI_USAGE;
    if (first_operand)
        *first_operand = optind;
    free(lo);
    free(shorts);
    return rc;
}

/* Numbers go through the one settings parser (conf/number.h): digits only,
 * so " 5", "+5" and "5 " are errors, not 5. */
int hv_cli_int(const char *s, long lo, long hi, int *out)
{
    long long v;
    if (hv_num_range(s, HV_NUM_SIGNED, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int hv_cli_u64(const char *s, uint64_t *out) { return hv_num_u64(s, HV_NUM_HEX, out, NULL); }

int hv_cli_scaled(const char *s, const char *units, const uint64_t *scale, uint64_t *out)
{
    uint64_t v;
    const char *end;
    if (hv_num_u64(s, HV_NUM_SUFFIX, &v, &end) != 0)
        return -1;
    uint64_t mul = 1;
    if (*end) {
        const char *u = strchr(units, *end);
        if (!u || end[1])
            return -1;
        mul = scale[u - units];
    }
    if (mul && v > UINT64_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

int hv_cli_size(const char *s, uint64_t *bytes)
{
    static const uint64_t scale[] = {1024ull, 1024ull * 1024, 1024ull * 1024 * 1024};
    return hv_cli_scaled(s, "KMG", scale, bytes);
}

int hv_cli_age(const char *s, uint64_t *seconds)
{
    static const uint64_t scale[] = {1, 60, 3600, 86400};
    return hv_cli_scaled(s, "smhd", scale, seconds);
}
