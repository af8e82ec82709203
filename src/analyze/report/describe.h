/*
 * describe — the words reports use for trace values (stream ids, memory
 * kinds, directions, access kinds). Shared by the text, JSON and Perfetto
 * reports so the three say the same thing the same way.
 */
#ifndef HV_ANALYZE_REPORT_DESCRIBE_H
#define HV_ANALYZE_REPORT_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

/* "legacy:0", "per-thread:1234", or "0x55d0c0a0" for an explicit handle. */
const char *hv_stream_text(uint64_t id, char *buf, size_t len);
const char *hv_mem_text(int mem);        /* "device", "pinned", "pageable", ... */
const char *hv_dir_text(int dir);        /* "H2D", ... */
const char *hv_access_text(int access);  /* "read", "write", "read-write", "unknown" */
const char *hv_origin_text(int origin);  /* "metadata", "inferred" */
const char *hv_node_type_text(int type); /* "kernel", "memcpy", ... */
const char *hv_side_kind_text(int kind); /* "copy", "memset", "kernel", "replay", "free", "trace", "launch" */
/* What a side did to the buffer: "write", "replay", "read", "release",
 * "observe"; NULL for a side that is no op (none, trace). */
const char *hv_side_role(int kind);
/* "arg 3", "dst", "src" or "" */
const char *hv_arg_text(int arg_index, char *buf, size_t len);
/* 2048 -> "2 KiB", 1536 -> "1536 B" */
const char *hv_bytes_text(uint64_t n, char *buf, size_t len);

/* The side of f reading or writing through a kernel argument that is not
 * a pointer by metadata (origin inferred or confirmed), or NULL. */
struct hv_finding;
struct hv_fside;
const struct hv_fside *hv_pointer_side(const struct hv_finding *f);
/* What is known of that argument, in a sentence: where the word is, why it
 * is taken for a pointer, what the kernel's code says of it (deref). */
const char *hv_pointer_text(const struct hv_fside *s, char *buf, size_t len);

#endif
