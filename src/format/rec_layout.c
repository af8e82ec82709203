/* Record sizes by type, and the consistency check of variable tails. */
#include <string.h>

#include "format/rec_layout.h"

/* The sizes trace.h gives the records: they are the format, so a change
 * here is a format change (fields are only ever appended; docs/trace-format.md). */
_Static_assert(sizeof(struct hv_rec_header) == 24 && sizeof(struct hv_call) == 120 &&
               sizeof(union hv_call_args) == 64 && sizeof(struct hv_string) == 32 &&
               sizeof(struct hv_graph_node) == 112 && sizeof(struct hv_graph_edges) == 48 &&
               sizeof(struct hv_karg) == 32 && sizeof(struct hv_kargs) == 48 && sizeof(struct hv_kernel_sym) == 64 &&
               sizeof(struct hv_codeobj_chunk) == 56 && sizeof(struct hv_codeobj_note) == 56 &&
               sizeof(struct hv_drops) == 72 && sizeof(struct hv_thread) == 32 && sizeof(struct hv_payload) == 48 &&
               sizeof(struct hv_epoch) == 48 && sizeof(struct hv_stack) == 32 && sizeof(struct hv_map) == 64 &&
               sizeof(struct hv_probe) == 88 && sizeof(struct hv_guard) == 96 && sizeof(struct hv_name) == 48 &&
               sizeof(struct hv_pyframe) == 16 && sizeof(struct hv_pystack) == 56 && sizeof(struct hv_mark) == 48 &&
               sizeof(struct hv_karg_name) == 16 && sizeof(struct hv_karg_names) == 48 &&
               sizeof(struct hv_file_header) == 5360 && sizeof(struct hv_file_footer) == 96 &&
               sizeof(struct hv_chunk_header) == 32,
               "record, header and footer sizes as trace.h defines them");

const unsigned short hv_rec_fixed_sizes[HV_REC__MAX] = {
    [HV_REC_CALL] = sizeof(struct hv_call),
    [HV_REC_STRING] = sizeof(struct hv_string),
    [HV_REC_GRAPH_NODE] = sizeof(struct hv_graph_node),
    [HV_REC_GRAPH_EDGES] = sizeof(struct hv_graph_edges),
    [HV_REC_KARGS] = sizeof(struct hv_kargs),
    [HV_REC_KERNEL] = sizeof(struct hv_kernel_sym),
    [HV_REC_CODEOBJ] = sizeof(struct hv_codeobj_chunk),
    [HV_REC_DROPS] = sizeof(struct hv_drops),
    [HV_REC_THREAD] = sizeof(struct hv_thread),
    [HV_REC_PAYLOAD] = sizeof(struct hv_payload),
    [HV_REC_EPOCH] = sizeof(struct hv_epoch),
    [HV_REC_CODEOBJ_NOTE] = sizeof(struct hv_codeobj_note),
    [HV_REC_GUARD] = sizeof(struct hv_guard),
    [HV_REC_STACK] = sizeof(struct hv_stack),
    [HV_REC_MAPS] = sizeof(struct hv_map),
    [HV_REC_PROBE] = sizeof(struct hv_probe),
    [HV_REC_NAME] = sizeof(struct hv_name),
    [HV_REC_PYSTACK] = sizeof(struct hv_pystack),
    [HV_REC_MARK] = sizeof(struct hv_mark),
    [HV_REC_KARG_NAMES] = sizeof(struct hv_karg_names),
    [HV_REC_HOST_ACCESS] = sizeof(struct hv_host_access),
    [HV_REC_HOSTCHECK] = sizeof(struct hv_hostcheck),
};

/* Reads a 32-bit count/len field at `off` (records are 8-aligned, but a
 * memcpy keeps UBSan and strict aliasing out of it). */
static uint64_t field32(const struct hv_rec_header *rec, size_t off)
{
    uint32_t v;
    memcpy(&v, (const char *)rec + off, sizeof v);
    return v;
}

/* A host access's pcs and Python frames (two 16-bit counts). */
static uint64_t host_access_tail(const struct hv_rec_header *rec)
{
    uint16_t n[2];
    memcpy(n, (const char *)rec + offsetof(struct hv_host_access, nframes), sizeof n);
    return n[0] * 8ull + n[1] * (uint64_t)sizeof(struct hv_pyframe);
}

size_t hv_rec_tail_bytes(const struct hv_rec_header *rec)
{
    switch (rec->type) {
    case HV_REC_STRING:      return field32(rec, offsetof(struct hv_string, len));
    case HV_REC_GRAPH_EDGES: return field32(rec, offsetof(struct hv_graph_edges, count)) * 8u;
    case HV_REC_KARGS:       return field32(rec, offsetof(struct hv_kargs, count)) * sizeof(struct hv_karg);
    case HV_REC_CODEOBJ:     return field32(rec, offsetof(struct hv_codeobj_chunk, len));
    case HV_REC_PAYLOAD:     return field32(rec, offsetof(struct hv_payload, len));
    case HV_REC_STACK:       return field32(rec, offsetof(struct hv_stack, nframes)) * 8u;
    case HV_REC_MAPS:        return field32(rec, offsetof(struct hv_map, path_len));
    case HV_REC_PROBE:       return field32(rec, offsetof(struct hv_probe, len)) * (uint64_t)HV_PROBE__POINTS;
    case HV_REC_PYSTACK:     return field32(rec, offsetof(struct hv_pystack, nframes)) * sizeof(struct hv_pyframe);
    case HV_REC_KARG_NAMES:  return field32(rec, offsetof(struct hv_karg_names, count)) * sizeof(struct hv_karg_name);
    case HV_REC_HOST_ACCESS: return host_access_tail(rec);
    default:                 return 0;
    }
}

_Static_assert(HV_REC_PYSTACK < 64 && HV_REC_PROBE < 64 && HV_REC_KARG_NAMES < 64 && HV_REC_HOST_ACCESS < 64,
               "tail types fit HV_REC_TAIL_TYPES");
_Static_assert(offsetof(struct hv_host_access, npy) == offsetof(struct hv_host_access, nframes) + 2,
               "host_access_tail reads both counts at once");

const char *hv_rec_check(const struct hv_rec_header *rec)
{
    size_t fixed = hv_rec_fixed_size(rec->type);
    switch (rec->type) {
    case HV_REC_STRING: case HV_REC_GRAPH_EDGES: case HV_REC_KARGS:
    case HV_REC_CODEOBJ: case HV_REC_PAYLOAD: case HV_REC_STACK: case HV_REC_MAPS: case HV_REC_PROBE:
    case HV_REC_PYSTACK: case HV_REC_KARG_NAMES: case HV_REC_HOST_ACCESS:
        if (rec->size < fixed)
            return "variable-length record shorter than its fixed part";
        /* 64-bit sum: count * 32 cannot overflow, nor can the addition. */
        if ((uint64_t)fixed + hv_rec_tail_bytes(rec) > rec->size)
            return "record's count/len runs past its size";
        return NULL;
    default:
        return NULL;   /* fixed layouts are zero-filled; unknown types are opaque */
    }
}

void hv_header_argv_sanitize(struct hv_file_header *h)
{
    uint32_t n = h->argv_bytes < sizeof h->argv ? h->argv_bytes : (uint32_t)sizeof h->argv;
    while (n > 0 && h->argv[n - 1] != '\0')
        n--;   /* an unterminated last argument is dropped, not printed cut */
    uint32_t argc = 0;
    for (uint32_t i = 0; i < n; i++)
        argc += h->argv[i] == '\0';
    if (n < h->argv_bytes)
        h->argv_flags |= HV_ARGV_TRUNCATED;
    h->argv_bytes = n;
    h->argc = argc;
    memset(h->argv + n, 0, sizeof h->argv - n);
}
