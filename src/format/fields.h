/*
 * Field tables: name, place and presentation of every field of every record
 * kind, header and footer. hipvis-dump's text and JSON output are both driven
 * by these tables (record_print.c), so the two cannot disagree, and the
 * analyzer can use the same names when it reports a record's fields.
 *
 * Offsets are from the start of the described struct (for records: of the
 * record, header included). Records handed out by the reader are at least
 * sizeof their struct, so every listed field is readable.
 */
#ifndef HV_FORMAT_FIELDS_H
#define HV_FORMAT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/api.h"

enum hv_field_fmt {
    HV_FMT_U,        /* unsigned decimal */
    HV_FMT_I,        /* signed decimal */
    HV_FMT_HEX,      /* pointer, handle, hash: "0x..." (a JSON string) */
    HV_FMT_EPOCH,    /* unsigned; HV_EPOCH_UNKNOWN shown as unknown (JSON null) */
    HV_FMT_ENUM,     /* `names` of the value, the number when it has no name */
    HV_FMT_API,      /* api id -> its name */
    HV_FMT_OP,       /* api id -> its op class name */
    HV_FMT_BIT,      /* boolean: (value & mask) != 0 */
    HV_FMT_STRID,    /* string-table id -> its text (JSON null when unknown) */
    HV_FMT_CHARS,    /* char[count], NUL-terminated within it */
};

#define HV_FLD_TERSE    0x1u  /* text mode leaves it out when 0 */
#define HV_FLD_TERSE_M1 0x2u  /* text mode leaves it out when -1 */
#define HV_FLD_NOTEXT   0x4u  /* text mode prints it elsewhere (or not at all) */
/* Every mode leaves it out when 0: a field added after traces without it
 * were written, so that what they print stays byte for byte as it was
 * (tests/format/check_v1.py). */
#define HV_FLD_IFSET    0x8u

struct hv_field {
    const char *name;
    uint16_t off;
    uint16_t size;           /* bytes of one element: 1, 2, 4 or 8 */
    uint16_t count;          /* elements; > 1 prints an array; CHARS: array length */
    uint8_t fmt;             /* enum hv_field_fmt */
    uint8_t flags;           /* HV_FLD_* */
    uint32_t mask;           /* HV_FMT_BIT */
    const char *(*names)(unsigned);   /* HV_FMT_ENUM */
};

struct hv_field_list {
    const struct hv_field *f;
    size_t n;
};

/* Fields every call record has (api, result, stream, epoch, ...). */
struct hv_field_list hv_call_fields(void);
/* The payload fields of an op class (struct hv_call's union, by op). */
struct hv_field_list hv_call_op_fields(enum hv_op op);
/* The fixed fields of a record type other than HV_REC_CALL; graph nodes add
 * hv_graph_node_fields(). Empty for types without a known layout. */
struct hv_field_list hv_rec_fields(unsigned type);
/* The union part of a graph node, by enum hv_node_type. */
struct hv_field_list hv_graph_node_fields(unsigned node_type);
struct hv_field_list hv_karg_fields(void);    /* one struct hv_karg */
struct hv_field_list hv_karg_name_fields(void);  /* one struct hv_karg_name */
struct hv_field_list hv_header_fields(void);  /* struct hv_file_header */
struct hv_field_list hv_header_argv_fields(void);  /* its command line, when header_size covers it */
struct hv_field_list hv_footer_fields(void);  /* struct hv_file_footer, less dropped[] */

/* Element i of a field, zero-extended (hv_field_get) or sign-extended. */
uint64_t hv_field_get(const struct hv_field *f, const void *base, unsigned i);
int64_t hv_field_get_signed(const struct hv_field *f, const void *base, unsigned i);

#endif
