/*
 * Names of the enums of include/hipvis/trace.h, as printed by hipvis-dump
 * and used as JSON values. They are part of the JSON output's contract, so
 * the analyzer reuses them rather than spelling its own.
 *
 * Every function returns NULL for a value it does not know (a newer writer),
 * so callers can fall back to printing the number.
 */
#ifndef HV_FORMAT_NAMES_H
#define HV_FORMAT_NAMES_H

const char *hv_rec_type_name(unsigned type);      /* "call", "string", ... */
const char *hv_op_name(unsigned op);              /* "copy", "memset", ... */
const char *hv_drop_cause_name(unsigned cause);   /* "ring_full", ... */
const char *hv_node_type_name(unsigned type);     /* "kernel", "memcpy", ... */
const char *hv_mem_name(unsigned mem);            /* "device", "host_pinned", ... */
const char *hv_dir_name(unsigned dir);            /* "H2D", ... */
const char *hv_stream_form_name(unsigned form);   /* "explicit", "legacy_null", ... */
const char *hv_capture_name(unsigned status);     /* "none", "active", "invalidated" */
const char *hv_launch_form_name(unsigned form);   /* "params", "extra", "host_func" */
const char *hv_access_name(unsigned access);      /* "read", "write", ... */
const char *hv_arg_origin_name(unsigned origin);  /* "metadata", "inferred", "confirmed" */
const char *hv_thread_event_name(unsigned event); /* "first_call", "exit" */
const char *hv_codeobj_note_kind_name(unsigned kind); /* "parse", "not_stored" */
const char *hv_clock_name(unsigned clock);        /* "monotonic", "tsc_monotonic" */
const char *hv_transport_name(unsigned t);        /* "file", "shm" */

#endif
