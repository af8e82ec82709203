/* Enum -> name tables; see names.h. One table per enum, indexed by value. */
#include <stddef.h>

#include "format/names.h"
#include "hipvis/reader.h"
#include "hipvis/trace.h"

#define PICK(tab, v) ((v) < sizeof(tab) / sizeof((tab)[0]) ? (tab)[v] : NULL)

const char *hv_rec_type_name(unsigned type)
{
    static const char *const t[HV_REC__MAX] = {
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
        [HV_REC_HOST_ACCESS] = "host_access", [HV_REC_HOSTCHECK] = "hostcheck",
    };
    return PICK(t, type);
}

const char *hv_op_name(unsigned op)
{
    static const char *const t[HV_OP__COUNT] = {
        [HV_OP_OTHER] = "other",   [HV_OP_COPY] = "copy",     [HV_OP_MEMSET] = "memset",
        [HV_OP_LAUNCH] = "launch", [HV_OP_GRAPH] = "graph",   [HV_OP_CAPTURE] = "capture",
        [HV_OP_EVENT] = "event",   [HV_OP_SYNC] = "sync",     [HV_OP_STREAM] = "stream",
        [HV_OP_ALLOC] = "alloc",   [HV_OP_FREE] = "free",     [HV_OP_DEVICE] = "device",
        [HV_OP_MODULE] = "module", [HV_OP_MEMOP] = "memop",
    };
    return PICK(t, op);
}

const char *hv_drop_cause_name(unsigned cause)
{
    static const char *const t[HV_DROP__COUNT] = {
        [HV_DROP_RING_FULL] = "ring_full",     [HV_DROP_TOO_LARGE] = "too_large",
        [HV_DROP_NO_RING] = "no_ring",         [HV_DROP_WRITE_ERROR] = "write_error",
        [HV_DROP_FORK_DISCARD] = "fork_discard",
        [HV_DROP_IN_FLIGHT_AT_EXIT] = "in_flight_at_exit",
    };
    return PICK(t, cause);
}

const char *hv_node_type_name(unsigned type)
{
    static const char *const t[] = {
        [HV_NODE_UNKNOWN] = "unknown",       [HV_NODE_KERNEL] = "kernel",
        [HV_NODE_MEMCPY] = "memcpy",         [HV_NODE_MEMSET] = "memset",
        [HV_NODE_HOST] = "host",             [HV_NODE_GRAPH] = "graph",
        [HV_NODE_EMPTY] = "empty",           [HV_NODE_EVENT_WAIT] = "event_wait",
        [HV_NODE_EVENT_RECORD] = "event_record", [HV_NODE_MEM_ALLOC] = "mem_alloc",
        [HV_NODE_MEM_FREE] = "mem_free",     [HV_NODE_CONDITIONAL] = "conditional",
        [HV_NODE_OTHER] = "other",
    };
    return PICK(t, type);
}

const char *hv_mem_name(unsigned mem)
{
    static const char *const t[] = {
        [HV_MEM_UNKNOWN] = "unknown",              [HV_MEM_DEVICE] = "device",
        [HV_MEM_HOST_PINNED] = "host_pinned",      [HV_MEM_HOST_REGISTERED] = "host_registered",
        [HV_MEM_HOST_PAGEABLE] = "host_pageable",  [HV_MEM_MANAGED] = "managed",
    };
    return PICK(t, mem);
}

const char *hv_dir_name(unsigned dir)
{
    static const char *const t[] = {
        [HV_DIR_UNKNOWN] = "unknown", [HV_DIR_H2H] = "H2H", [HV_DIR_H2D] = "H2D",
        [HV_DIR_D2H] = "D2H",         [HV_DIR_D2D] = "D2D",
    };
    return PICK(t, dir);
}

const char *hv_stream_form_name(unsigned form)
{
    static const char *const t[] = {
        [HV_STREAM_FORM_NONE] = "none",               [HV_STREAM_FORM_EXPLICIT] = "explicit",
        [HV_STREAM_FORM_LEGACY_NULL] = "legacy_null", [HV_STREAM_FORM_SPT_NULL] = "spt_null",
        [HV_STREAM_FORM_PER_THREAD] = "per_thread", [HV_STREAM_FORM_LEGACY_HANDLE] = "legacy_handle",
    };
    return PICK(t, form);
}

const char *hv_capture_name(unsigned status)
{
    static const char *const t[] = {
        [HV_CAPTURE_NONE] = "none", [HV_CAPTURE_ACTIVE] = "active",
        [HV_CAPTURE_INVALIDATED] = "invalidated",
    };
    return PICK(t, status);
}

const char *hv_launch_form_name(unsigned form)
{
    static const char *const t[] = {
        [HV_LAUNCH_PARAMS] = "params", [HV_LAUNCH_EXTRA] = "extra",
        [HV_LAUNCH_HOST_FUNC] = "host_func",
    };
    return PICK(t, form);
}

const char *hv_access_name(unsigned access)
{
    static const char *const t[] = {
        [HV_ACCESS_UNKNOWN] = "unknown", [HV_ACCESS_READ] = "read",
        [HV_ACCESS_WRITE] = "write",     [HV_ACCESS_READ_WRITE] = "read_write",
    };
    return PICK(t, access);
}

const char *hv_arg_origin_name(unsigned origin)
{
    static const char *const t[] = { [HV_ARG_METADATA] = "metadata", [HV_ARG_INFERRED] = "inferred" };
    return PICK(t, origin);
}

const char *hv_codeobj_note_kind_name(unsigned kind)
{
    static const char *const t[] = { [HV_CO_NOTE_PARSE] = "parse", [HV_CO_NOTE_NOT_STORED] = "not_stored" };
    return PICK(t, kind);
}

const char *hv_thread_event_name(unsigned event)
{
    static const char *const t[] = { [HV_THREAD_FIRST_CALL] = "first_call", [HV_THREAD_EXIT] = "exit" };
    return PICK(t, event);
}

const char *hv_clock_name(unsigned clock)
{
    static const char *const t[] = {
        [HV_CLOCK_MONOTONIC] = "monotonic", [HV_CLOCK_TSC_MONOTONIC] = "tsc_monotonic",
    };
    return PICK(t, clock);
}

const char *hv_transport_name(unsigned tr)
{
    static const char *const t[] = { [HV_TRANSPORT_FILE] = "file", [HV_TRANSPORT_SHM] = "shm" };
    return PICK(t, tr);
}

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
