/*
 * One command-line parser for every hipvis tool (getopt_long underneath).
 *
 * A tool describes its options once, in a table; the same table drives the
 * parsing and the --help text, so the two cannot drift. Every tool gets the
 * same behaviour for free:
 *   --opt=value and --opt value (and -o value / -ovalue for short options),
 *   --help / -h (usage on stdout, exit 0), --version (exit 0),
 *   "PROG: unknown option '-x'", "PROG: option '--opt' needs a value",
 *   "PROG: option '--flag' takes no value", unambiguous long prefixes.
 *
 *   static const struct hv_cli_opt opts[] = {
 *       {"json", 0, HV_CLI_FLAG, OPT_JSON, NULL, "JSON report on stdout"},
 *       {"output-dir", 'o', HV_CLI_VALUE, OPT_OUT, "DIR", "trace files (default .)"},
 *       {0},
 *   };
 *   static const struct hv_cli cli = {"hipvis-x", "[options] TRACE...", opts, "exit: ...\n"};
 *   int first;
 *   int rc = hv_cli_parse(&cli, argc, argv, on_opt, &ctx, &first);
 *   if (rc != HV_CLI_OK) return rc == HV_CLI_EXIT ? 0 : 2;
 *   // operands: argv[first .. argc-1] (getopt moves them behind the options)
 */
#ifndef HV_CLI_CLI_H
#define HV_CLI_CLI_H

#include <stdint.h>
#include <stdio.h>

enum { HV_CLI_FLAG = 0, HV_CLI_VALUE = 1 };

struct hv_cli_opt {
    const char *name;     /* long name without "--"; NULL ends the table */
    int short_name;       /* 'o', or 0 for long-only */
    int takes_value;      /* HV_CLI_FLAG or HV_CLI_VALUE */
    int id;               /* handed to the callback; the tool's own numbering */
    const char *metavar;  /* shown in --help after the name ("FILE") */
    const char *help;     /* one line; continuation lines may start with '\n' */
};

struct hv_cli {
    const char *prog;          /* "hipvis-analyze": prefixes every message */
    const char *synopsis;      /* after "usage: PROG " */
    const struct hv_cli_opt *opts;
    const char *footer;        /* printed after the option list, or NULL */
    int stop_at_operand;       /* 1: options end at the first operand (launchers) */
};

/* Called once per option in command-line order. `arg` is NULL for a flag.
 * Returns 0, or -1 for a bad value (the parser then prints
 * "PROG: --opt: bad value 'arg'" unless the callback printed something
 * itself and returns -2). */
typedef int (*hv_cli_fn)(void *ctx, int id, const char *arg);

enum { HV_CLI_OK = 0, HV_CLI_EXIT = 1, HV_CLI_USAGE = 2 };

/* fn may be NULL for a table without options.
 * HV_CLI_OK with *first_operand set; HV_CLI_EXIT after --help/--version
 * (exit 0); HV_CLI_USAGE after printing why (exit 2). */
int hv_cli_parse(const struct hv_cli *c, int argc, char **argv, hv_cli_fn fn, void *ctx, int *first_operand);

/* Usage text from the table (what --help prints). */
void hv_cli_usage(const struct hv_cli *c, FILE *out);

/* Prints "PROG: <message>" and a hint to run --help; returns HV_CLI_USAGE. */
int hv_cli_error(const struct hv_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Value parsers shared by the tools: 0, or -1 when `s` is not entirely a
 * number in range. */
int hv_cli_int(const char *s, long lo, long hi, int *out);
int hv_cli_u64(const char *s, uint64_t *out);
/* "256M" -> bytes, "1h" -> seconds: a number and one optional unit letter
 * from `units`, scaled by scale[index of the letter]. */
int hv_cli_scaled(const char *s, const char *units, const uint64_t *scale, uint64_t *out);
int hv_cli_size(const char *s, uint64_t *bytes);    /* K M G, powers of 1024 */
int hv_cli_age(const char *s, uint64_t *seconds);   /* s m h d */

#endif
