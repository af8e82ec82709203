/*
 * hipvis-dump's body (dump.h): a trace's records, one per line, as text or
 * JSON lines, then the problems met.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "format/dump.h"
#include "format/record_print.h"
#include "hipvis/reader.h"

static int exit_for(enum hv_read_status st)
{
    return st == HV_READ_IO || st == HV_READ_NOMEM ? 1 : 2;
}

/* Problems met, for the closing {"type":"errors"} line of --json: a
 * consumer of JSON lines sees them without reading stderr. */
#define MAX_ERRORS 64
static struct hv_read_error errors[MAX_ERRORS];
static unsigned nerrors, errors_lost;

static void report(const char *path, const struct hv_read_error *e)
{
    fprintf(stderr, "hipvis-dump: %s: %s at byte %llu: %s (%llu records salvaged)\n", path,
            hv_read_status_name(e->status), (unsigned long long)e->offset, e->what,
            (unsigned long long)e->records_salvaged);
    if (nerrors < MAX_ERRORS)
        errors[nerrors++] = *e;
    else
        errors_lost++;
}

static void json_errors(const char *path)
{
    if (!nerrors)
        return;
    struct hv_json w;
    hv_json_init(&w, stdout, 0);
    hv_json_obj(&w);
    hv_json_kstr(&w, "type", "errors");
    hv_json_karr(&w, "errors");
    for (unsigned i = 0; i < nerrors; i++) {
        const struct hv_read_error *e = &errors[i];
        hv_json_obj(&w);
        hv_json_kstr(&w, "path", path);
        hv_json_kstr(&w, "status", hv_read_status_name(e->status));
        hv_json_ku64(&w, "offset", e->offset);
        hv_json_kstr(&w, "what", e->what);
        hv_json_ku64(&w, "records_salvaged", e->records_salvaged);
        hv_json_obj_end(&w);
    }
    hv_json_arr_end(&w);
    hv_json_ku64(&w, "errors_not_listed", errors_lost);
    hv_json_obj_end(&w);
    hv_json_eol(&w);
}

int hv_dump(const char *path, const struct hv_dump_opts *o)
{
    int json = o->json, raw = o->raw, header = o->header, stats = o->stats;

    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

    struct hv_reader *r;
    struct hv_read_error err;
    int rc = strcmp(path, "-") ? hv_reader_open(path, &r, &err)
                               : hv_reader_open_file(stdin, "<stdin>", &r, &err);
    if (rc < 0) {
        report(path, &err);
        if (json)
            json_errors(path);
        return fflush(stdout) != 0 ? 1 : exit_for(err.status);
    }

    struct hv_printer p = { stdout, json ? HV_PRINT_JSON : HV_PRINT_TEXT, r };
    if (header || json)
        hv_print_header(&p, hv_reader_header(r));

    int status = 0;
    const struct hv_rec_header *recs[HV_READER_BATCH_MAX];
    for (;;) {
        long n = raw ? hv_reader_next_raw(r, &recs[0]) : hv_reader_next_batch(r, recs, HV_READER_BATCH_MAX);
        if (n > 0) {
            for (long i = 0; i < n; i++)
                hv_print_record(&p, recs[i]);
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
    struct hv_reader_stats s;
    hv_reader_stats(r, &s);
    if (s.seq_gaps || s.seq_unresolved) {
        /* Loss the reader inferred from per-thread sequence numbers. */
        const struct hv_seq_gap *gaps;
        uint32_t ng = hv_reader_seq_gaps(r, &gaps);
        hv_print_loss(&p, &s, gaps, ng);
        fflush(stdout);
        if (s.seq_gaps)
            fprintf(stderr, "hipvis-dump: %s: %" PRIu64 " calls missing in %" PRIu64
                    " per-thread sequence gaps (first: tid %" PRIu32 " seqs %" PRIu64 "..%" PRIu64 ")\n",
                    path, s.seq_missing, s.seq_gaps, gaps[0].tid, gaps[0].first, gaps[0].last);
    }
    if (stats)
        hv_print_stats(&p, &s);
    if (json)
        json_errors(path);
    hv_reader_close(r);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("hipvis-dump: writing output");
        return 1;
    }
    return status;
}
