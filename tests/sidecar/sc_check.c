/*
 * Accounting check over one process's trace files (TEST-ONLY), read with the
 * one reader:
 *
 *   sc_check [--expect-calls N] [--require-footer] TRACE.zst [TRACE.zst...]
 *
 * Sums, over the files: records in them, footer records_written, footer
 * drops by cause, footer calls. Prints one line
 *   files F records R written W dropped D calls C footers K ring_full X in_flight Y last_seq S
 * and exits 1 when: a footer's written + dropped != made, records read !=
 * the footers' written (for files with a footer), or with --expect-calls N,
 * records + dropped != N or the footers' calls != N.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipvis/reader.h"

int main(int argc, char **argv)
{
    long long expect = -1;
    int require_footer = 0, files = 0, footers = 0, bad = 0;
    uint64_t records = 0, written = 0, dropped = 0, calls = 0, last_seq = 0, by[HV_DROP__COUNT] = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--expect-calls") && i + 1 < argc) {
            expect = atoll(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--require-footer")) {
            require_footer = 1;
            continue;
        }
        struct hv_reader *rd;
        struct hv_read_error err;
        if (hv_reader_open(argv[i], &rd, &err) != 0) {
            printf("%s: %s: %s\n", argv[i], hv_read_status_name(err.status), err.what);
            return 1;
        }
        files++;
        const struct hv_rec_header *rec;
        uint64_t n = 0;
        int rc;
        while ((rc = hv_reader_next_raw(rd, &rec)) == 1) {
            n++;
            if (rec->seq > last_seq)
                last_seq = rec->seq;
        }
        if (rc < 0)
            printf("%s: %s after %" PRIu64 " records\n", argv[i], hv_reader_error(rd)->what, n);
        records += n;
        const struct hv_file_footer *f = hv_reader_footer(rd);
        if (f) {
            uint64_t d = 0;
            for (int k = 0; k < HV_DROP__COUNT; k++) {
                d += f->dropped[k];
                by[k] += f->dropped[k];
            }
            footers++;
            written += f->records_written;
            dropped += d;
            calls += f->calls;
            if (f->records_written + d != f->records_made || f->records_written != n) {
                printf("%s: footer written %" PRIu64 " + dropped %" PRIu64 " vs made %" PRIu64 ", %" PRIu64
                       " records read\n", argv[i], f->records_written, d, f->records_made, n);
                bad = 1;
            }
        } else if (require_footer) {
            printf("%s: no footer\n", argv[i]);
            bad = 1;
        }
        hv_reader_close(rd);
    }
    printf("files %d records %" PRIu64 " written %" PRIu64 " dropped %" PRIu64 " calls %" PRIu64 " footers %d"
           " ring_full %" PRIu64 " in_flight %" PRIu64 " last_seq %" PRIu64 "\n", files, records, written, dropped,
           calls, footers, by[HV_DROP_RING_FULL], by[HV_DROP_IN_FLIGHT_AT_EXIT], last_seq);
    if (expect >= 0 && (records + dropped != (uint64_t)expect || calls != (uint64_t)expect)) {
        printf("expected %lld calls: records + dropped = %" PRIu64 ", footer calls = %" PRIu64 "\n", expect,
               records + dropped, calls);
        bad = 1;
    }
    return bad;
}
