/* Enum -> name tables; see names.h. One table per enum, indexed by value. */
#include <stddef.h>

#include "format/names.h"
#include "hipvis/reader.h"
#include "hipvis/trace.h"

#define PICK(tab, v) ((v) < sizeof(tab) / sizeof((tab)[0]) ? (tab)[v] : NULL)
/* const char *fn(unsigned v): the name of v from the table of designated
 * entries [VALUE] = "name"; NULL for a value the table does not name. */
#define NAMES(fn, ...)                                  \
    const char *fn(unsigned v)                          \
    {                                                   \
        static const char *const t[] = { __VA_ARGS__ }; \
        return PICK(t, v);                              \
    }

NAMES(hv_rec_type_name,
      [HV_REC_CALL] = "call",           [HV_REC_STRING] = "string",
      [HV_REC_GRAPH_NODE] = "graph_node", [HV_REC_GRAPH_EDGES] = "graph_edges",
      [HV_REC_KARGS] = "kargs",         [HV_REC_KERNEL] = "kernel",
      [HV_REC_CODEOBJ] = "codeobj",     [HV_REC_DROPS] = "drops",
      [HV_REC_THREAD] = "thread",       [HV_REC_PAYLOAD] = "payload",
      [HV_REC_STACK] = "stack",         [HV_REC_MAPS] = "maps",
      [HV_REC_PROBE] = "probe",         [HV_REC_EPOCH] = "epoch",
      [HV_REC_CODEOBJ_NOTE] = "codeobj_note", [HV_REC_GUARD] = "guard",
      [HV_REC_NAME] = "name",           [HV_REC_PYSTACK] = "pystack",
      [HV_REC_MARK] = "mark",           [HV_REC_KARG_NAMES] = "karg_names",
      [HV_REC_HOST_ACCESS] = "host_access", [HV_REC_HOSTCHECK] = "hostcheck")

NAMES(hv_op_name,
      [HV_OP_OTHER] = "other",   [HV_OP_COPY] = "copy",     [HV_OP_MEMSET] = "memset",
      [HV_OP_LAUNCH] = "launch", [HV_OP_GRAPH] = "graph",   [HV_OP_CAPTURE] = "capture",
      [HV_OP_EVENT] = "event",   [HV_OP_SYNC] = "sync",     [HV_OP_STREAM] = "stream",
      [HV_OP_ALLOC] = "alloc",   [HV_OP_FREE] = "free",     [HV_OP_DEVICE] = "device",
      [HV_OP_MODULE] = "module", [HV_OP_MEMOP] = "memop")

NAMES(hv_drop_cause_name,
      [HV_DROP_RING_FULL] = "ring_full",     [HV_DROP_TOO_LARGE] = "too_large",
      [HV_DROP_NO_RING] = "no_ring",         [HV_DROP_WRITE_ERROR] = "write_error",
      [HV_DROP_FORK_DISCARD] = "fork_discard",
      [HV_DROP_IN_FLIGHT_AT_EXIT] = "in_flight_at_exit")

NAMES(hv_node_type_name,
      [HV_NODE_UNKNOWN] = "unknown",       [HV_NODE_KERNEL] = "kernel",
      [HV_NODE_MEMCPY] = "memcpy",         [HV_NODE_MEMSET] = "memset",
      [HV_NODE_HOST] = "host",             [HV_NODE_GRAPH] = "graph",
      [HV_NODE_EMPTY] = "empty",           [HV_NODE_EVENT_WAIT] = "event_wait",
      [HV_NODE_EVENT_RECORD] = "event_record", [HV_NODE_MEM_ALLOC] = "mem_alloc",
      [HV_NODE_MEM_FREE] = "mem_free",     [HV_NODE_CONDITIONAL] = "conditional",
      [HV_NODE_OTHER] = "other")

NAMES(hv_mem_name,
      [HV_MEM_UNKNOWN] = "unknown",              [HV_MEM_DEVICE] = "device",
      [HV_MEM_HOST_PINNED] = "host_pinned",      [HV_MEM_HOST_REGISTERED] = "host_registered",
      [HV_MEM_HOST_PAGEABLE] = "host_pageable",  [HV_MEM_MANAGED] = "managed")

NAMES(hv_dir_name,
      [HV_DIR_UNKNOWN] = "unknown", [HV_DIR_H2H] = "H2H", [HV_DIR_H2D] = "H2D",
      [HV_DIR_D2H] = "D2H",         [HV_DIR_D2D] = "D2D")

NAMES(hv_stream_form_name,
      [HV_STREAM_FORM_NONE] = "none",               [HV_STREAM_FORM_EXPLICIT] = "explicit",
      [HV_STREAM_FORM_LEGACY_NULL] = "legacy_null", [HV_STREAM_FORM_SPT_NULL] = "spt_null",
      [HV_STREAM_FORM_PER_THREAD] = "per_thread", [HV_STREAM_FORM_LEGACY_HANDLE] = "legacy_handle")

NAMES(hv_capture_name,
      [HV_CAPTURE_NONE] = "none", [HV_CAPTURE_ACTIVE] = "active",
      [HV_CAPTURE_INVALIDATED] = "invalidated")

NAMES(hv_launch_form_name,
      [HV_LAUNCH_PARAMS] = "params", [HV_LAUNCH_EXTRA] = "extra",
      [HV_LAUNCH_HOST_FUNC] = "host_func")

NAMES(hv_access_name,
      [HV_ACCESS_UNKNOWN] = "unknown", [HV_ACCESS_READ] = "read",
      [HV_ACCESS_WRITE] = "write",     [HV_ACCESS_READ_WRITE] = "read_write")

NAMES(hv_arg_origin_name, [HV_ARG_METADATA] = "metadata", [HV_ARG_INFERRED] = "inferred",
      [HV_ARG_CONFIRMED] = "confirmed")

NAMES(hv_codeobj_note_kind_name, [HV_CO_NOTE_PARSE] = "parse", [HV_CO_NOTE_NOT_STORED] = "not_stored")

NAMES(hv_thread_event_name, [HV_THREAD_FIRST_CALL] = "first_call", [HV_THREAD_EXIT] = "exit")

NAMES(hv_clock_name, [HV_CLOCK_MONOTONIC] = "monotonic", [HV_CLOCK_TSC_MONOTONIC] = "tsc_monotonic")

NAMES(hv_transport_name, [HV_TRANSPORT_FILE] = "file", [HV_TRANSPORT_SHM] = "shm")

/* Declared in hipvis/reader.h; lives here with the other names. */
const char *hv_read_status_name(enum hv_read_status s)
{
    static const char *const t[] = {
        [HV_READ_OK] = "ok",             [HV_READ_TRUNCATED] = "truncated",
        [HV_READ_CORRUPT] = "corrupt",   [HV_READ_FOREIGN] = "foreign",
        [HV_READ_VERSION] = "version",   [HV_READ_IO] = "io",
        [HV_READ_NOMEM] = "nomem",
    };
    const char *n = PICK(t, (unsigned)s);
    return n ? n : "?";
}
