/* Field tables of every record kind; see fields.h. */
#include <string.h>

#include "format/fields.h"
#include "format/names.h"
#include "hipvis/trace.h"

/*
 * A row names a member of the struct T_ (P_ is the path to the part that
 * holds it: "a.copy.", "u.kernel.", or nothing) and says how to show it;
 * its name, offset, size and count come from the member itself, so the
 * tables state only what trace.h cannot: which members print, in what
 * order, how. F: a member in an HV_FMT_ format; E: an enum, through its
 * names function; B: one bit of a flags member; A: an array; S: a char[]
 * text. FN and EN name the row otherwise than its member.
 */
#define SIZE(m) sizeof(((T_ *)0)->P_ m)
#define ROW(nm, m, sz, n, f, fl, extra) \
    { .name = nm, .off = offsetof(T_, P_ m), .size = sz, .count = n, .fmt = HV_FMT_##f, .flags = fl, extra }
#define FN(nm, m, f, fl) ROW(nm, m, SIZE(m), 1, f, fl, .mask = 0)
#define F(m, f, fl) FN(#m, m, f, fl)
#define EN(nm, m, fn, fl) ROW(nm, m, SIZE(m), 1, ENUM, fl, .names = fn)
#define E(m, fn, fl) EN(#m, m, fn, fl)
#define B(nm, m, bit, fl) ROW(nm, m, SIZE(m), 1, BIT, fl, .mask = bit)
#define A(m, f, fl) ROW(#m, m, SIZE(m[0]), SIZE(m) / SIZE(m[0]), f, fl, .mask = 0)
#define S(m) ROW(#m, m, 1, SIZE(m), CHARS, 0, .mask = 0)
/* A string id: its text as `nm`, the id itself in JSON only. */
#define TEXT_ID(nm, m, fl) FN(nm, m, STRID, fl), F(m, U, HV_FLD_NOTEXT)
#define LIST(tab) ((struct hv_field_list){ tab, sizeof(tab) / sizeof((tab)[0]) })
#define TERSE HV_FLD_TERSE
#define P_

/* Members a call's args and a graph node's parameters share. */
#define COPY_MOVE F(dst, HEX, 0), F(src, HEX, 0), F(bytes, U, 0), F(kind, U, 0), E(dir, hv_dir_name, 0), \
    E(dst_mem, hv_mem_name, 0), E(src_mem, hv_mem_name, 0)
#define MEMSET_WRITE F(dst, HEX, 0), F(bytes, U, 0), F(value, HEX, 0), F(elem_size, U, 0)
#define KERNEL_LAUNCH F(func, HEX, 0), TEXT_ID("kernel", name_id, 0), A(grid, U, 0), A(block, U, 0), \
    F(shmem, U, TERSE), F(kernarg_bytes, U, TERSE)

/* ---- call records ---- */

#define T_ struct hv_call
static const struct hv_field call_fields[] = {
    FN("api", api, API, HV_FLD_NOTEXT), FN("api_id", api, U, HV_FLD_NOTEXT), FN("op", api, OP, HV_FLD_NOTEXT),
    F(result, I, HV_FLD_NOTEXT), F(stream, HEX, 0), F(epoch, EPOCH, 0), F(device, I, 0),
    E(stream_form, hv_stream_form_name, TERSE), E(capture, hv_capture_name, TERSE),
    B("nested", flags, HV_CALL_NESTED, TERSE), B("capturing", flags, HV_CALL_CAPTURING, TERSE),
    B("argument_record", flags, HV_CALL_ARGS, HV_FLD_IFSET),   /* not derived yet: only --raw shows one */
    B("unsampled", flags, HV_CALL_UNSAMPLED, HV_FLD_IFSET),    /* HIPVIS_LAUNCH_EVERY: no kernel, no evidence */
};

#undef P_
#define P_ a.copy.
static const struct hv_field copy_fields[] = {
    COPY_MOVE, B("async", flags, HV_COPY_ASYNC, 0), B("peer", flags, HV_COPY_PEER, TERSE),
    B("copy_2d", flags, HV_COPY_2D, TERSE), F(dpitch, U, TERSE), F(spitch, U, TERSE), F(height, U, TERSE),
    F(dst_device, I, HV_FLD_TERSE_M1), F(src_device, I, HV_FLD_TERSE_M1), F(payload_hash, HEX, TERSE),
};

#undef P_
#define P_ a.memset.
static const struct hv_field memset_fields[] = {
    MEMSET_WRITE, F(pitch, U, TERSE), F(width, U, TERSE), F(height, U, TERSE),
};

#undef P_
#define P_ a.launch.
static const struct hv_field launch_fields[] = {
    KERNEL_LAUNCH, F(nptr, U, TERSE), E(form, hv_launch_form_name, TERSE), F(captured, U, TERSE),
    F(event_start, HEX, TERSE), F(event_stop, HEX, TERSE),
};

#undef P_
#define P_ a.graph.
static const struct hv_field graph_fields[] = {
    F(graph, HEX, 0), F(exec, HEX, 0), F(flags, HEX, TERSE), F(node, HEX, TERSE), F(nnodes, U, TERSE),
    F(nedges, U, TERSE), B("nodes_recorded", rec_flags, HV_GRAPH_NODES_RECORDED, TERSE),
    F(launch_index, U, TERSE),
};

#undef P_
#define P_ a.capture.
static const struct hv_field capture_fields[] = { F(graph, HEX, 0), F(mode, U, 0) };

#undef P_
#define P_ a.event.
static const struct hv_field event_fields[] = {
    F(event, HEX, 0), F(flags, HEX, TERSE), F(record_stream, HEX, TERSE), F(record_seq, U, TERSE),
    F(record_epoch, EPOCH, TERSE),
};

#undef P_
#define P_ a.sync.
static const struct hv_field sync_fields[] = {
    F(event, HEX, TERSE), F(completed_stream, HEX, 0), F(completed_seq, U, 0), F(new_epoch, EPOCH, 0),
};

#undef P_
#define P_ a.stream.
static const struct hv_field stream_fields[] = { F(handle, HEX, 0), F(flags, HEX, TERSE), F(priority, I, TERSE) };

#undef P_
#define P_ a.alloc.
static const struct hv_field alloc_fields[] = {
    F(ptr, HEX, 0), F(bytes, U, 0), F(flags, HEX, TERSE), E(mem, hv_mem_name, 0),
};

#undef P_
#define P_ a.
static const struct hv_field device_fields[] = { FN("target_device", raw[0], I, 0) };
static const struct hv_field other_fields[] = { A(raw, HEX, TERSE) };

#undef P_
#define P_ a.module.
static const struct hv_field module_fields[] = {
    F(module, HEX, 0), F(function, HEX, TERSE), F(image_hash, HEX, TERSE), TEXT_ID("name", name_id, TERSE),
    F(nkernels, U, TERSE), F(parse_errors, U, TERSE),
};

#undef P_
#define P_ a.memop.
static const struct hv_field memop_fields[] = {
    F(addr, HEX, 0), F(value, HEX, 0), F(mask, HEX, TERSE), F(flags, U, TERSE), FN("memop", op, U, 0),
    F(size, U, 0), F(index, U, TERSE),
};
#undef P_
#define P_
#undef T_

struct hv_field_list hv_call_fields(void) { return LIST(call_fields); }

struct hv_field_list hv_call_op_fields(enum hv_op op)
{
    switch (op) {
    case HV_OP_COPY:    return LIST(copy_fields);
    case HV_OP_MEMSET:  return LIST(memset_fields);
    case HV_OP_LAUNCH:  return LIST(launch_fields);
    case HV_OP_GRAPH:   return LIST(graph_fields);
    case HV_OP_CAPTURE: return LIST(capture_fields);
    case HV_OP_EVENT:   return LIST(event_fields);
    case HV_OP_SYNC:    return LIST(sync_fields);
    case HV_OP_STREAM:  return LIST(stream_fields);
    case HV_OP_ALLOC:
    case HV_OP_FREE:    return LIST(alloc_fields);
    case HV_OP_DEVICE:  return LIST(device_fields);
    case HV_OP_MODULE:  return LIST(module_fields);
    case HV_OP_MEMOP:   return LIST(memop_fields);
    default:            return LIST(other_fields);
    }
}

/* ---- auxiliary records ---- */

#define T_ struct hv_string
static const struct hv_field string_fields[] = { F(id, U, 0), F(len, U, HV_FLD_NOTEXT) };
#undef T_

#define T_ struct hv_graph_node
static const struct hv_field node_fields[] = {
    F(exec, HEX, 0), F(graph, HEX, 0), F(node, HEX, 0), F(parent_node, HEX, TERSE), F(index, U, 0),
    EN("node_type", type, hv_node_type_name, 0), F(nptr, U, TERSE),
};
#undef P_
#define P_ u.kernel.
static const struct hv_field node_kernel_fields[] = { KERNEL_LAUNCH };
#undef P_
#define P_ u.memcpy.
static const struct hv_field node_memcpy_fields[] = { COPY_MOVE };
#undef P_
#define P_ u.memset.
static const struct hv_field node_memset_fields[] = { MEMSET_WRITE };
#undef P_
#define P_ u.
static const struct hv_field node_event_fields[] = { FN("event", event.event, HEX, 0) };
static const struct hv_field node_host_fields[] = { FN("fn", host.fn, HEX, 0), FN("user", host.user, HEX, 0) };
static const struct hv_field node_child_fields[] = { FN("child_graph", child.graph, HEX, 0) };
static const struct hv_field node_raw_fields[] = { A(raw, HEX, TERSE) };
#undef P_
#define P_
#undef T_

struct hv_field_list hv_graph_node_fields(unsigned node_type)
{
    switch (node_type) {
    case HV_NODE_KERNEL:       return LIST(node_kernel_fields);
    case HV_NODE_MEMCPY:       return LIST(node_memcpy_fields);
    case HV_NODE_MEMSET:       return LIST(node_memset_fields);
    case HV_NODE_EVENT_WAIT:
    case HV_NODE_EVENT_RECORD: return LIST(node_event_fields);
    case HV_NODE_HOST:         return LIST(node_host_fields);
    case HV_NODE_GRAPH:        return LIST(node_child_fields);
    default:                   return LIST(node_raw_fields);
    }
}

#define T_ struct hv_graph_edges
static const struct hv_field edges_fields[] = { F(exec, HEX, 0), F(graph, HEX, 0), F(count, U, 0) };
#undef T_

#define T_ struct hv_kargs
static const struct hv_field kargs_fields[] = {
    F(owner_node, HEX, TERSE), F(func, HEX, 0), TEXT_ID("kernel", name_id, 0), F(count, U, 0),
};
#undef T_

#define T_ struct hv_karg
static const struct hv_field karg_fields[] = {
    F(value, HEX, 0), F(alloc_base, HEX, 0), F(alloc_bytes, U, 0), F(offset, U, 0), F(index, U, 0),
    E(access, hv_access_name, 0), E(origin, hv_arg_origin_name, 0),
};
#undef T_

#define T_ struct hv_karg_names
static const struct hv_field karg_names_fields[] = {
    F(func, HEX, 0), F(code_object_hash, HEX, TERSE), FN("kernel", name_id, STRID, 0), F(count, U, 0),
};
#undef T_

#define T_ struct hv_karg_name
static const struct hv_field karg_name_fields[] = {
    F(index, U, 0), F(offset, U, 0), F(size, U, 0), F(kind, U, 0), FN("name", name_id, STRID, 0),
};
#undef T_

#define T_ struct hv_kernel_sym
static const struct hv_field kernel_fields[] = {
    F(func, HEX, 0), F(module, HEX, 0), F(code_object_hash, HEX, TERSE), TEXT_ID("kernel", name_id, 0),
    F(kernarg_bytes, U, TERSE), F(nargs, U, TERSE),
};
#undef T_

#define T_ struct hv_codeobj_chunk
static const struct hv_field codeobj_fields[] = {
    F(hash, HEX, 0), F(total_bytes, U, 0), F(offset, U, 0), F(len, U, 0), TEXT_ID("arch", arch_id, 0),
};
#undef T_

#define T_ struct hv_codeobj_note
static const struct hv_field codeobj_note_fields[] = {
    E(kind, hv_codeobj_note_kind_name, 0), TEXT_ID("reason", reason_id, 0), F(count, U, 0), F(hash, HEX, 0),
    F(value, U, 0),
};
#undef T_

#define T_ struct hv_thread
static const struct hv_field thread_fields[] = { E(event, hv_thread_event_name, 0), TEXT_ID("name", name_id, TERSE) };
#undef T_

#define T_ struct hv_payload
static const struct hv_field payload_fields[] = { F(src, HEX, 0), F(len, U, 0), F(when, U, 0), F(hash, HEX, 0) };
#undef T_

#define T_ struct hv_stack
static const struct hv_field stack_fields[] = { F(id, U, 0), F(nframes, U, 0) };
#undef T_

#define T_ struct hv_map
static const struct hv_field map_fields[] = {
    F(generation, U, 0), F(index, U, 0), F(count, U, 0), F(lo, HEX, 0), F(hi, HEX, 0), F(bias, HEX, 0),
};
#undef T_

#define T_ struct hv_probe
static const struct hv_field probe_fields[] = {
    F(copy_seq, U, 0), F(replay_seq, U, 0), F(exec, HEX, 0), F(stream, HEX, 0), F(addr, HEX, 0), F(src, HEX, 0),
    F(len, U, 0), F(have, HEX, 0), F(status, U, 0), F(copy_api, API, 0), F(replay_api, API, 0),
};
#undef T_

#define T_ struct hv_guard
static const struct hv_field guard_fields[] = {
    F(mode, U, 0), F(exec, HEX, 0), F(stream, HEX, 0), F(copy_seq, U, 0), F(copy_dst, HEX, 0),
    F(copy_bytes, U, 0), F(completed_seq, U, 0), F(wait_ns, U, 0), F(count, U, 0), F(result, I, 0),
};
#undef T_

#define T_ struct hv_epoch
static const struct hv_field epoch_fields[] = { F(stream, HEX, 0), F(epoch, EPOCH, 0), F(completed_seq, U, 0) };
#undef T_

#define T_ struct hv_name
static const struct hv_field name_fields[] = { F(ptr, HEX, 0), F(bytes, U, 0), FN("name", name_id, STRID, 0) };
#undef T_

#define T_ struct hv_pystack
static const struct hv_field pystack_fields[] = {
    F(nframes, U, 0), F(status, U, 0), F(why, U, 0), F(py_version, HEX, 0), F(truncated, U, TERSE),
    F(target, HEX, TERSE), F(id, U, TERSE),
};
#undef T_

#define T_ struct hv_mark
static const struct hv_field mark_fields[] = {
    F(kind, U, 0), F(source, U, 0), F(depth, U, 0), FN("name", name_id, STRID, 0), F(id, U, TERSE),
    F(skipped, U, TERSE),
};
#undef T_

#define T_ struct hv_host_access
static const struct hv_field host_access_fields[] = {
    F(addr, HEX, 0), F(access, U, 0), F(access_tid, U, 0), F(access_ts, U, TERSE), F(access_after, U, TERSE),
    F(op_api, API, 0), F(op_kind, U, 0), E(op_mem, hv_mem_name, 0), F(op_stream, HEX, 0), F(op_lo, HEX, 0),
    F(op_bytes, U, 0), F(flags, U, TERSE), F(nframes, U, 0), F(npy, U, 0),
};
#undef T_

#define T_ struct hv_hostcheck
static const struct hv_field hostcheck_fields[] = {
    F(protected_ops, U, 0), F(skipped_managed, U, 0), F(skipped_full, U, 0), F(skipped_other, U, 0),
    F(accesses, U, 0), F(unrelated, U, 0), F(lost, U, 0), F(released, U, 0), F(skipped_graph, U, 0),
};
#undef T_

struct hv_field_list hv_rec_fields(unsigned type)
{
    switch (type) {
    case HV_REC_STRING:      return LIST(string_fields);
    case HV_REC_GRAPH_NODE:  return LIST(node_fields);
    case HV_REC_GRAPH_EDGES: return LIST(edges_fields);
    case HV_REC_KARGS:       return LIST(kargs_fields);
    case HV_REC_KERNEL:      return LIST(kernel_fields);
    case HV_REC_CODEOBJ:     return LIST(codeobj_fields);
    case HV_REC_CODEOBJ_NOTE: return LIST(codeobj_note_fields);
    case HV_REC_THREAD:      return LIST(thread_fields);
    case HV_REC_PAYLOAD:     return LIST(payload_fields);
    case HV_REC_EPOCH:       return LIST(epoch_fields);
    case HV_REC_GUARD:       return LIST(guard_fields);
    case HV_REC_STACK:       return LIST(stack_fields);
    case HV_REC_MAPS:        return LIST(map_fields);
    case HV_REC_PROBE:       return LIST(probe_fields);
    case HV_REC_NAME:        return LIST(name_fields);
    case HV_REC_PYSTACK:     return LIST(pystack_fields);
    case HV_REC_MARK:        return LIST(mark_fields);
    case HV_REC_KARG_NAMES:  return LIST(karg_names_fields);
    case HV_REC_HOST_ACCESS: return LIST(host_access_fields);
    case HV_REC_HOSTCHECK:   return LIST(hostcheck_fields);
    default:                 return (struct hv_field_list){ NULL, 0 };  /* drops: by cause */
    }
}

struct hv_field_list hv_karg_fields(void) { return LIST(karg_fields); }
struct hv_field_list hv_karg_name_fields(void) { return LIST(karg_name_fields); }

/* ---- file header and footer ---- */

#define T_ struct hv_file_header
static const struct hv_field header_fields[] = {
    F(format_version, U, 0), F(header_size, U, HV_FLD_NOTEXT), F(pid, U, 0), F(ppid, U, 0), F(start_ns, U, 0),
    F(start_realtime_ns, U, 0), E(clock, hv_clock_name, 0), E(transport, hv_transport_name, 0),
    F(ring_kb, U, 0), B("payloads", flags, HV_HDR_PAYLOADS, 0), B("stacks", flags, HV_HDR_STACKS, 0),
    B("argument_records", flags, HV_HDR_DERIVE, HV_FLD_IFSET),   /* HIPVIS_RECORD=args: the reader derives */
    S(hipvis_version), S(host), S(runtime_path), S(runtime_version), S(exe), S(knobs),
};

/* Appended later: printed only for headers that hold them (hv_print_header). */
static const struct hv_field header_argv_fields[] = {
    F(argc, U, HV_FLD_NOTEXT), B("argv_truncated", argv_flags, HV_ARGV_TRUNCATED, 0),
    B("argv_off", argv_flags, HV_ARGV_OFF, 0),
};
#undef T_

#define T_ struct hv_file_footer
static const struct hv_field footer_fields[] = {
    F(calls, U, 0), F(records_made, U, 0), F(records_written, U, 0), F(chunks, U, 0), F(end_ns, U, 0),
};
#undef T_

struct hv_field_list hv_header_fields(void) { return LIST(header_fields); }
struct hv_field_list hv_header_argv_fields(void) { return LIST(header_argv_fields); }
struct hv_field_list hv_footer_fields(void) { return LIST(footer_fields); }

uint64_t hv_field_get(const struct hv_field *f, const void *base, unsigned i)
{
    const unsigned char *p = (const unsigned char *)base + f->off + (size_t)i * f->size;
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (f->size) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 2: memcpy(&v16, p, 2); return v16;
    case 4: memcpy(&v32, p, 4); return v32;
    default: memcpy(&v64, p, 8); return v64;
    }
}

int64_t hv_field_get_signed(const struct hv_field *f, const void *base, unsigned i)
{
    uint64_t v = hv_field_get(f, base, i);
    unsigned shift = 64u - 8u * f->size;
    return shift ? (int64_t)(v << shift) >> shift : (int64_t)v;
}
