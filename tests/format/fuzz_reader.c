/*
 * libFuzzer target for the trace reader (make fuzz): any byte string is
 * opened, read to the end in both modes (seq order with decode workers, file
 * order without), resynchronising after corrupt
 * frames, and every record, header, footer and stats line is printed in
 * both formats, so the printer's use of counts and lengths is fuzzed too.
 */
#include <stdint.h>
#include <stdio.h>

#include "format/record_print.h"
#include "hipvis/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    for (int raw = 0; raw < 2; raw++) {
        FILE *f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
        if (!f)
            return 0;
        struct hv_reader *r;
        struct hv_read_error err;
        if (hv_reader_open_file(f, "fuzz", &r, &err) == 0) {
            hv_reader_set_decode_threads(r, raw ? 0 : 2);   /* both decode paths */
            struct hv_printer p = { sink, raw ? HV_PRINT_TEXT : HV_PRINT_JSON, r };
            hv_print_header(&p, hv_reader_header(r));
            const struct hv_rec_header *rec;
            for (int errors = 0; errors < 64;) {
                int rc = raw ? hv_reader_next_raw(r, &rec) : hv_reader_next(r, &rec);
                if (rc > 0) {
                    hv_print_record(&p, rec);
                    continue;
                }
                if (rc == 0 || hv_reader_error(r)->status != HV_READ_CORRUPT)
                    break;
                errors++;
            }
            if (hv_reader_footer(r))
                hv_print_footer(&p, hv_reader_footer(r));
            struct hv_reader_stats st;
            hv_reader_stats(r, &st);
            hv_print_stats(&p, &st);
            hv_reader_close(r);
        }
        fclose(f);
    }
    return 0;
}
