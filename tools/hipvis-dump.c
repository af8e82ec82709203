/*
 * hipvis-dump: prints a trace's records, one per line, as text or JSON lines.
 *
 *   hipvis-dump [--json] [--raw] [--header] [--stats] trace.zst   ("-": stdin)
 *
 * Records come in seq order (--raw: file order). JSON mode starts with a
 * {"type":"header"} object and ends with {"type":"footer"} when the trace has
 * one (and {"type":"stats"} with --stats). A damaged trace prints everything
 * valid, then the problem on stderr (byte offset, records salvaged).
 *
 * Exit: 0 clean; 2 usage, or a trace that is truncated, corrupt, foreign or
 * of a newer version; 1 an I/O or memory error.
 */
#include <stdio.h>
#include <string.h>

#include "format/record_print.h"
#include "hipvis/reader.h"

static int usage(FILE *o, int code)
{
    fputs("usage: hipvis-dump [--json] [--raw] [--header] [--stats] TRACE.zst|-\n"
          "  --json    JSON lines (header object first, footer object last)\n"
          "  --raw     records in file order, not seq order\n"
          "  --header  print the file header (always printed with --json)\n"
          "  --stats   print reader statistics at the end\n",
          o);
    return code;
}

static int exit_for(enum hv_read_status st)
{
    return st == HV_READ_IO || st == HV_READ_NOMEM ? 1 : 2;
}

static void report(const char *path, const struct hv_read_error *e)
{
    fprintf(stderr, "hipvis-dump: %s: %s at byte %llu: %s (%llu records salvaged)\n", path,
            hv_read_status_name(e->status), (unsigned long long)e->offset, e->what,
            (unsigned long long)e->records_salvaged);
}

int main(int argc, char **argv)
{
    int json = 0, raw = 0, header = 0, stats = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--raw"))
            raw = 1;
        else if (!strcmp(argv[i], "--header"))
            header = 1;
        else if (!strcmp(argv[i], "--stats"))
            stats = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return usage(stdout, 0);
        else if ((argv[i][0] == '-' && argv[i][1]) || path)
            return usage(stderr, 2);
        else
            path = argv[i];
    }
    if (!path)
        return usage(stderr, 2);

    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

    struct hv_reader *r;
    struct hv_read_error err;
    int rc = strcmp(path, "-") ? hv_reader_open(path, &r, &err)
                               : hv_reader_open_file(stdin, "<stdin>", &r, &err);
    if (rc < 0) {
        report(path, &err);
        return exit_for(err.status);
    }

    struct hv_printer p = { stdout, json ? HV_PRINT_JSON : HV_PRINT_TEXT, r };
    if (header || json)
        hv_print_header(&p, hv_reader_header(r));

    int status = 0;
    const struct hv_rec_header *rec;
    for (;;) {
        int n = raw ? hv_reader_next_raw(r, &rec) : hv_reader_next(r, &rec);
        if (n > 0) {
            hv_print_record(&p, rec);
            continue;
        }
        if (n == 0)
            break;
        /* Print what came before the problem first, so the message follows it. */
        fflush(stdout);
        const struct hv_read_error *e = hv_reader_error(r);
        report(path, e);
        if (!status || exit_for(e->status) == 1)
            status = exit_for(e->status);
        if (e->status != HV_READ_CORRUPT)
            break;   /* the reader resumes after a corrupt frame, nothing else */
    }

    const struct hv_file_footer *f = hv_reader_footer(r);
    if (f)
        hv_print_footer(&p, f);
    if (stats) {
        struct hv_reader_stats s;
        hv_reader_stats(r, &s);
        hv_print_stats(&p, &s);
    }
    hv_reader_close(r);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("hipvis-dump: writing output");
        return 1;
    }
    return status;
}
