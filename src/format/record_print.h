/*
 * Record -> one line of text or JSON (hipvis-dump, and any tool that shows
 * records). Both modes walk the tables of fields.h, so a field has one name
 * everywhere.
 *
 * Text:  #seq ts_ns tid api(result) stream=0x.. epoch=N field=value ...
 *        #seq ts_ns tid type field=value ...           (auxiliary records)
 * JSON:  {"seq":N,"ts_ns":N,"tid":N,"type":"call","api":"hipMemcpy",...}
 * Pointers and handles are hex strings in JSON ("0x7f..."), since JSON
 * numbers lose precision above 2^53.
 */
#ifndef HV_FORMAT_RECORD_PRINT_H
#define HV_FORMAT_RECORD_PRINT_H

#include <stdio.h>

#include "hipvis/reader.h"

enum hv_print_mode { HV_PRINT_TEXT, HV_PRINT_JSON };

struct hv_printer {
    FILE *out;
    enum hv_print_mode mode;
    const struct hv_reader *strings;   /* resolves string ids; NULL: ids only */
};

void hv_print_record(const struct hv_printer *p, const struct hv_rec_header *rec);
void hv_print_header(const struct hv_printer *p, const struct hv_file_header *h);
void hv_print_footer(const struct hv_printer *p, const struct hv_file_footer *f);
void hv_print_stats(const struct hv_printer *p, const struct hv_reader_stats *s);
/* Per-thread seq gaps (traces with HV_HDR_THREAD_SEQ): totals and the listed
 * gaps ("# loss ..." lines, or one {"type":"loss"} object). */
void hv_print_loss(const struct hv_printer *p, const struct hv_reader_stats *s, const struct hv_seq_gap *gaps,
                   uint32_t ngaps);

#endif
