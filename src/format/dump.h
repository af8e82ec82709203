/*
 * hipvis-dump's work once its options are parsed (tools/hipvis-dump.c is the
 * thin main): prints one trace's records, one per line, as text or JSON
 * lines.
 *
 * Records come in seq order (raw: file order). JSON mode starts with a
 * {"type":"header"} object and ends with {"type":"footer"} when the trace has
 * one (and {"type":"stats"} with stats, {"type":"errors"} after problems). A
 * damaged trace prints everything valid, then the problem on stderr (byte
 * offset, records salvaged).
 */
#ifndef HV_FORMAT_DUMP_H
#define HV_FORMAT_DUMP_H

struct hv_dump_opts {
    int json, raw, header, stats;
};

/* Dumps the trace at `path` ("-": stdin) to stdout. Returns the exit
 * status: 0 clean; 2 a trace that is truncated, corrupt, foreign or of a
 * newer version; 1 an I/O or memory error. */
int hv_dump(const char *path, const struct hv_dump_opts *o);

#endif
