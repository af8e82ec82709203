/*
 * hipvis-dump: prints a trace's records, one per line, as text or JSON lines.
 *
 *   hipvis-dump [--json] [--raw] [--header] [--stats] trace.zst   ("-": stdin)
 *
 * Thin main: the options, then hv_dump (src/format/dump.h), which says what
 * is printed in which order.
 *
 * Exit: 0 clean; 2 usage, or a trace that is truncated, corrupt, foreign or
 * of a newer version; 1 an I/O or memory error.
 */
#include "cli/cli.h"
#include "format/dump.h"

enum { OPT_JSON, OPT_RAW, OPT_HEADER, OPT_STATS };

static const struct hv_cli_opt dump_opts[] = {
    {"json", 0, HV_CLI_FLAG, OPT_JSON, NULL, "JSON lines (header object first, footer object last)"},
    {"raw", 0, HV_CLI_FLAG, OPT_RAW, NULL, "records in file order, not seq order"},
    {"header", 0, HV_CLI_FLAG, OPT_HEADER, NULL, "print the file header (always printed with --json)"},
    {"stats", 0, HV_CLI_FLAG, OPT_STATS, NULL, "print reader statistics at the end"},
    {0},
};

static const struct hv_cli dump_cli = {
    "hipvis-dump", "[options] TRACE.zst|-", dump_opts,
    "exit: 0 clean; 2 usage, or a trace that is truncated, corrupt, foreign or newer; 1 I/O or memory error\n", 0};

static int on_opt(void *ctx, int id, const char *arg)
{
    (void)arg;
    struct hv_dump_opts *a = ctx;
    switch (id) {
    case OPT_JSON: a->json = 1; break;
    case OPT_RAW: a->raw = 1; break;
    case OPT_HEADER: a->header = 1; break;
    case OPT_STATS: a->stats = 1; break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct hv_dump_opts a = {0};
    int first;
    int prc = hv_cli_parse(&dump_cli, argc, argv, on_opt, &a, &first);
    if (prc != HV_CLI_OK)
        return prc == HV_CLI_EXIT ? 0 : 2;
    if (argc - first != 1)
        return hv_cli_error(&dump_cli, argc - first ? "one trace at a time" : "no trace given");
    return hv_dump(argv[first], &a);
}
