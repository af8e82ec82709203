/* Field tables of every record kind; see fields.h. */
#include <string.h>

#include "format/fields.h"
#include "format/names.h"
#include "hipvis/trace.h"

#define F(nm, T, m, fm, fl) \
    { .name = nm, .off = offsetof(T, m), .size = sizeof(((T *)0)->m), .count = 1, .fmt = fm, .flags = fl }
#define ARR(nm, T, m, fm, fl)                                                                 \
    { .name = nm, .off = offsetof(T, m), .size = sizeof(((T *)0)->m[0]),                      \
      .count = sizeof(((T *)0)->m) / sizeof(((T *)0)->m[0]), .fmt = fm, .flags = fl }
#define ENUM(nm, T, m, fn, fl) \
    { .name = nm, .off = offsetof(T, m), .size = sizeof(((T *)0)->m), .count = 1, .fmt = HV_FMT_ENUM, .flags = fl, .names = fn }
#define BIT(nm, T, m, bit, fl) \
    { .name = nm, .off = offsetof(T, m), .size = sizeof(((T *)0)->m), .count = 1, .fmt = HV_FMT_BIT, .flags = fl, .mask = bit }
#define CHARS(nm, T, m) \
    { .name = nm, .off = offsetof(T, m), .size = 1, .count = sizeof(((T *)0)->m), .fmt = HV_FMT_CHARS }
#define LIST(tab) ((struct hv_field_list){ tab, sizeof(tab) / sizeof((tab)[0]) })
#define T_ HV_FLD_TERSE

/* ---- call records ---- */

#define C struct hv_call
static const struct hv_field call_fields[] = {
    F("api", C, api, HV_FMT_API, HV_FLD_NOTEXT),
    F("api_id", C, api, HV_FMT_U, HV_FLD_NOTEXT),
    F("op", C, api, HV_FMT_OP, HV_FLD_NOTEXT),
    F("result", C, result, HV_FMT_I, HV_FLD_NOTEXT),
    F("stream", C, stream, HV_FMT_HEX, 0),
    F("epoch", C, epoch, HV_FMT_EPOCH, 0),
    F("device", C, device, HV_FMT_I, 0),
    ENUM("stream_form", C, stream_form, hv_stream_form_name, T_),
    ENUM("capture", C, capture, hv_capture_name, T_),
    BIT("nested", C, flags, HV_CALL_NESTED, T_),
    BIT("capturing", C, flags, HV_CALL_CAPTURING, T_),
    BIT("argument_record", C, flags, HV_CALL_ARGS, HV_FLD_IFSET),   /* not derived yet: only --raw shows one */
    BIT("unsampled", C, flags, HV_CALL_UNSAMPLED, HV_FLD_IFSET),    /* HIPVIS_LAUNCH_EVERY: no kernel, no evidence */
};

static const struct hv_field copy_fields[] = {
    F("dst", C, a.copy.dst, HV_FMT_HEX, 0),
    F("src", C, a.copy.src, HV_FMT_HEX, 0),
    F("bytes", C, a.copy.bytes, HV_FMT_U, 0),
    F("kind", C, a.copy.kind, HV_FMT_U, 0),
    ENUM("dir", C, a.copy.dir, hv_dir_name, 0),
    ENUM("dst_mem", C, a.copy.dst_mem, hv_mem_name, 0),
    ENUM("src_mem", C, a.copy.src_mem, hv_mem_name, 0),
    BIT("async", C, a.copy.flags, HV_COPY_ASYNC, 0),
    BIT("peer", C, a.copy.flags, HV_COPY_PEER, T_),
    BIT("copy_2d", C, a.copy.flags, HV_COPY_2D, T_),
    F("dpitch", C, a.copy.dpitch, HV_FMT_U, T_),
    F("spitch", C, a.copy.spitch, HV_FMT_U, T_),
    F("height", C, a.copy.height, HV_FMT_U, T_),
    F("dst_device", C, a.copy.dst_device, HV_FMT_I, HV_FLD_TERSE_M1),
    F("src_device", C, a.copy.src_device, HV_FMT_I, HV_FLD_TERSE_M1),
    F("payload_hash", C, a.copy.payload_hash, HV_FMT_HEX, T_),
};

static const struct hv_field memset_fields[] = {
    F("dst", C, a.memset.dst, HV_FMT_HEX, 0),
    F("bytes", C, a.memset.bytes, HV_FMT_U, 0),
    F("value", C, a.memset.value, HV_FMT_HEX, 0),
    F("elem_size", C, a.memset.elem_size, HV_FMT_U, 0),
    F("pitch", C, a.memset.pitch, HV_FMT_U, T_),
    F("width", C, a.memset.width, HV_FMT_U, T_),
    F("height", C, a.memset.height, HV_FMT_U, T_),
};

static const struct hv_field launch_fields[] = {
    F("func", C, a.launch.func, HV_FMT_HEX, 0),
    F("kernel", C, a.launch.name_id, HV_FMT_STRID, 0),
    F("name_id", C, a.launch.name_id, HV_FMT_U, HV_FLD_NOTEXT),
    ARR("grid", C, a.launch.grid, HV_FMT_U, 0),
    ARR("block", C, a.launch.block, HV_FMT_U, 0),
    F("shmem", C, a.launch.shmem, HV_FMT_U, T_),
    F("kernarg_bytes", C, a.launch.kernarg_bytes, HV_FMT_U, T_),
    F("nptr", C, a.launch.nptr, HV_FMT_U, T_),
    ENUM("form", C, a.launch.form, hv_launch_form_name, T_),
    F("captured", C, a.launch.captured, HV_FMT_U, T_),
    F("event_start", C, a.launch.event_start, HV_FMT_HEX, T_),
    F("event_stop", C, a.launch.event_stop, HV_FMT_HEX, T_),
};

static const struct hv_field graph_fields[] = {
    F("graph", C, a.graph.graph, HV_FMT_HEX, 0),
    F("exec", C, a.graph.exec, HV_FMT_HEX, 0),
    F("flags", C, a.graph.flags, HV_FMT_HEX, T_),
    F("node", C, a.graph.node, HV_FMT_HEX, T_),
    F("nnodes", C, a.graph.nnodes, HV_FMT_U, T_),
    F("nedges", C, a.graph.nedges, HV_FMT_U, T_),
    BIT("nodes_recorded", C, a.graph.rec_flags, HV_GRAPH_NODES_RECORDED, T_),
    F("launch_index", C, a.graph.launch_index, HV_FMT_U, T_),
};

static const struct hv_field capture_fields[] = {
    F("graph", C, a.capture.graph, HV_FMT_HEX, 0),
    F("mode", C, a.capture.mode, HV_FMT_U, 0),
};

static const struct hv_field event_fields[] = {
    F("event", C, a.event.event, HV_FMT_HEX, 0),
    F("flags", C, a.event.flags, HV_FMT_HEX, T_),
    F("record_stream", C, a.event.record_stream, HV_FMT_HEX, T_),
    F("record_seq", C, a.event.record_seq, HV_FMT_U, T_),
    F("record_epoch", C, a.event.record_epoch, HV_FMT_EPOCH, T_),
};

static const struct hv_field sync_fields[] = {
    F("event", C, a.sync.event, HV_FMT_HEX, T_),
    F("completed_stream", C, a.sync.completed_stream, HV_FMT_HEX, 0),
    F("completed_seq", C, a.sync.completed_seq, HV_FMT_U, 0),
    F("new_epoch", C, a.sync.new_epoch, HV_FMT_EPOCH, 0),
};

static const struct hv_field stream_fields[] = {
    F("handle", C, a.stream.handle, HV_FMT_HEX, 0),
    F("flags", C, a.stream.flags, HV_FMT_HEX, T_),
    F("priority", C, a.stream.priority, HV_FMT_I, T_),
};

static const struct hv_field alloc_fields[] = {
    F("ptr", C, a.alloc.ptr, HV_FMT_HEX, 0),
    F("bytes", C, a.alloc.bytes, HV_FMT_U, 0),
    F("flags", C, a.alloc.flags, HV_FMT_HEX, T_),
    ENUM("mem", C, a.alloc.mem, hv_mem_name, 0),
};

static const struct hv_field device_fields[] = {
    F("target_device", C, a.raw[0], HV_FMT_I, 0),
};

static const struct hv_field module_fields[] = {
    F("module", C, a.module.module, HV_FMT_HEX, 0),
    F("function", C, a.module.function, HV_FMT_HEX, T_),
    F("image_hash", C, a.module.image_hash, HV_FMT_HEX, T_),
    F("name", C, a.module.name_id, HV_FMT_STRID, T_),
    F("name_id", C, a.module.name_id, HV_FMT_U, HV_FLD_NOTEXT),
    F("nkernels", C, a.module.nkernels, HV_FMT_U, T_),
    F("parse_errors", C, a.module.parse_errors, HV_FMT_U, T_),
};

static const struct hv_field memop_fields[] = {
    F("addr", C, a.memop.addr, HV_FMT_HEX, 0),
    F("value", C, a.memop.value, HV_FMT_HEX, 0),
    F("mask", C, a.memop.mask, HV_FMT_HEX, T_),
    F("flags", C, a.memop.flags, HV_FMT_U, T_),
    F("memop", C, a.memop.op, HV_FMT_U, 0),
    F("size", C, a.memop.size, HV_FMT_U, 0),
    F("index", C, a.memop.index, HV_FMT_U, T_),
};

static const struct hv_field other_fields[] = {
    ARR("raw", C, a.raw, HV_FMT_HEX, T_),
};
#undef C

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

static const struct hv_field string_fields[] = {
    F("id", struct hv_string, id, HV_FMT_U, 0),
    F("len", struct hv_string, len, HV_FMT_U, HV_FLD_NOTEXT),
};

#define N struct hv_graph_node
static const struct hv_field node_fields[] = {
    F("exec", N, exec, HV_FMT_HEX, 0),
    F("graph", N, graph, HV_FMT_HEX, 0),
    F("node", N, node, HV_FMT_HEX, 0),
    F("parent_node", N, parent_node, HV_FMT_HEX, T_),
    F("index", N, index, HV_FMT_U, 0),
    ENUM("node_type", N, type, hv_node_type_name, 0),
    F("nptr", N, nptr, HV_FMT_U, T_),
};
static const struct hv_field node_kernel_fields[] = {
    F("func", N, u.kernel.func, HV_FMT_HEX, 0),
    F("kernel", N, u.kernel.name_id, HV_FMT_STRID, 0),
    F("name_id", N, u.kernel.name_id, HV_FMT_U, HV_FLD_NOTEXT),
    ARR("grid", N, u.kernel.grid, HV_FMT_U, 0),
    ARR("block", N, u.kernel.block, HV_FMT_U, 0),
    F("shmem", N, u.kernel.shmem, HV_FMT_U, T_),
    F("kernarg_bytes", N, u.kernel.kernarg_bytes, HV_FMT_U, T_),
};
static const struct hv_field node_memcpy_fields[] = {
    F("dst", N, u.memcpy.dst, HV_FMT_HEX, 0),
    F("src", N, u.memcpy.src, HV_FMT_HEX, 0),
    F("bytes", N, u.memcpy.bytes, HV_FMT_U, 0),
    F("kind", N, u.memcpy.kind, HV_FMT_U, 0),
    ENUM("dir", N, u.memcpy.dir, hv_dir_name, 0),
    ENUM("dst_mem", N, u.memcpy.dst_mem, hv_mem_name, 0),
    ENUM("src_mem", N, u.memcpy.src_mem, hv_mem_name, 0),
};
static const struct hv_field node_memset_fields[] = {
    F("dst", N, u.memset.dst, HV_FMT_HEX, 0),
    F("bytes", N, u.memset.bytes, HV_FMT_U, 0),
    F("value", N, u.memset.value, HV_FMT_HEX, 0),
    F("elem_size", N, u.memset.elem_size, HV_FMT_U, 0),
};
static const struct hv_field node_event_fields[] = { F("event", N, u.event.event, HV_FMT_HEX, 0) };
static const struct hv_field node_host_fields[] = {
    F("fn", N, u.host.fn, HV_FMT_HEX, 0),
    F("user", N, u.host.user, HV_FMT_HEX, 0),
};
static const struct hv_field node_child_fields[] = { F("child_graph", N, u.child.graph, HV_FMT_HEX, 0) };
static const struct hv_field node_raw_fields[] = { ARR("raw", N, u.raw, HV_FMT_HEX, T_) };
#undef N

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

static const struct hv_field edges_fields[] = {
    F("exec", struct hv_graph_edges, exec, HV_FMT_HEX, 0),
    F("graph", struct hv_graph_edges, graph, HV_FMT_HEX, 0),
    F("count", struct hv_graph_edges, count, HV_FMT_U, 0),
};

static const struct hv_field kargs_fields[] = {
    F("owner_node", struct hv_kargs, owner_node, HV_FMT_HEX, T_),
    F("func", struct hv_kargs, func, HV_FMT_HEX, 0),
    F("kernel", struct hv_kargs, name_id, HV_FMT_STRID, 0),
    F("name_id", struct hv_kargs, name_id, HV_FMT_U, HV_FLD_NOTEXT),
    F("count", struct hv_kargs, count, HV_FMT_U, 0),
};

static const struct hv_field karg_fields[] = {
    F("value", struct hv_karg, value, HV_FMT_HEX, 0),
    F("alloc_base", struct hv_karg, alloc_base, HV_FMT_HEX, 0),
    F("alloc_bytes", struct hv_karg, alloc_bytes, HV_FMT_U, 0),
    F("offset", struct hv_karg, offset, HV_FMT_U, 0),
    F("index", struct hv_karg, index, HV_FMT_U, 0),
    ENUM("access", struct hv_karg, access, hv_access_name, 0),
    ENUM("origin", struct hv_karg, origin, hv_arg_origin_name, 0),
};

static const struct hv_field karg_names_fields[] = {
    F("func", struct hv_karg_names, func, HV_FMT_HEX, 0),
    F("code_object_hash", struct hv_karg_names, code_object_hash, HV_FMT_HEX, T_),
    F("kernel", struct hv_karg_names, name_id, HV_FMT_STRID, 0),
    F("count", struct hv_karg_names, count, HV_FMT_U, 0),
};

static const struct hv_field karg_name_fields[] = {
    F("index", struct hv_karg_name, index, HV_FMT_U, 0),
    F("offset", struct hv_karg_name, offset, HV_FMT_U, 0),
    F("size", struct hv_karg_name, size, HV_FMT_U, 0),
    F("kind", struct hv_karg_name, kind, HV_FMT_U, 0),
    F("name", struct hv_karg_name, name_id, HV_FMT_STRID, 0),
};

static const struct hv_field kernel_fields[] = {
    F("func", struct hv_kernel_sym, func, HV_FMT_HEX, 0),
    F("module", struct hv_kernel_sym, module, HV_FMT_HEX, 0),
    F("code_object_hash", struct hv_kernel_sym, code_object_hash, HV_FMT_HEX, T_),
    F("kernel", struct hv_kernel_sym, name_id, HV_FMT_STRID, 0),
    F("name_id", struct hv_kernel_sym, name_id, HV_FMT_U, HV_FLD_NOTEXT),
    F("kernarg_bytes", struct hv_kernel_sym, kernarg_bytes, HV_FMT_U, T_),
    F("nargs", struct hv_kernel_sym, nargs, HV_FMT_U, T_),
};

static const struct hv_field codeobj_fields[] = {
    F("hash", struct hv_codeobj_chunk, hash, HV_FMT_HEX, 0),
    F("total_bytes", struct hv_codeobj_chunk, total_bytes, HV_FMT_U, 0),
    F("offset", struct hv_codeobj_chunk, offset, HV_FMT_U, 0),
    F("len", struct hv_codeobj_chunk, len, HV_FMT_U, 0),
    F("arch", struct hv_codeobj_chunk, arch_id, HV_FMT_STRID, 0),
    F("arch_id", struct hv_codeobj_chunk, arch_id, HV_FMT_U, HV_FLD_NOTEXT),
};

static const struct hv_field codeobj_note_fields[] = {
    ENUM("kind", struct hv_codeobj_note, kind, hv_codeobj_note_kind_name, 0),
    F("reason", struct hv_codeobj_note, reason_id, HV_FMT_STRID, 0),
    F("reason_id", struct hv_codeobj_note, reason_id, HV_FMT_U, HV_FLD_NOTEXT),
    F("count", struct hv_codeobj_note, count, HV_FMT_U, 0),
    F("hash", struct hv_codeobj_note, hash, HV_FMT_HEX, 0),
    F("value", struct hv_codeobj_note, value, HV_FMT_U, 0),
};

static const struct hv_field thread_fields[] = {
    ENUM("event", struct hv_thread, event, hv_thread_event_name, 0),
    F("name", struct hv_thread, name_id, HV_FMT_STRID, T_),
    F("name_id", struct hv_thread, name_id, HV_FMT_U, HV_FLD_NOTEXT),
};

static const struct hv_field payload_fields[] = {
    F("src", struct hv_payload, src, HV_FMT_HEX, 0),
    F("len", struct hv_payload, len, HV_FMT_U, 0),
    F("when", struct hv_payload, when, HV_FMT_U, 0),
    F("hash", struct hv_payload, hash, HV_FMT_HEX, 0),
};

static const struct hv_field stack_fields[] = {
    F("id", struct hv_stack, id, HV_FMT_U, 0),
    F("nframes", struct hv_stack, nframes, HV_FMT_U, 0),
};

static const struct hv_field map_fields[] = {
    F("generation", struct hv_map, generation, HV_FMT_U, 0),
    F("index", struct hv_map, index, HV_FMT_U, 0),
    F("count", struct hv_map, count, HV_FMT_U, 0),
    F("lo", struct hv_map, lo, HV_FMT_HEX, 0),
    F("hi", struct hv_map, hi, HV_FMT_HEX, 0),
    F("bias", struct hv_map, bias, HV_FMT_HEX, 0),
};

static const struct hv_field probe_fields[] = {
    F("copy_seq", struct hv_probe, copy_seq, HV_FMT_U, 0),
    F("replay_seq", struct hv_probe, replay_seq, HV_FMT_U, 0),
    F("exec", struct hv_probe, exec, HV_FMT_HEX, 0),
    F("stream", struct hv_probe, stream, HV_FMT_HEX, 0),
    F("addr", struct hv_probe, addr, HV_FMT_HEX, 0),
    F("src", struct hv_probe, src, HV_FMT_HEX, 0),
    F("len", struct hv_probe, len, HV_FMT_U, 0),
    F("have", struct hv_probe, have, HV_FMT_HEX, 0),
    F("status", struct hv_probe, status, HV_FMT_U, 0),
    F("copy_api", struct hv_probe, copy_api, HV_FMT_API, 0),
    F("replay_api", struct hv_probe, replay_api, HV_FMT_API, 0),
};

static const struct hv_field guard_fields[] = {
    F("mode", struct hv_guard, mode, HV_FMT_U, 0),
    F("exec", struct hv_guard, exec, HV_FMT_HEX, 0),
    F("stream", struct hv_guard, stream, HV_FMT_HEX, 0),
    F("copy_seq", struct hv_guard, copy_seq, HV_FMT_U, 0),
    F("copy_dst", struct hv_guard, copy_dst, HV_FMT_HEX, 0),
    F("copy_bytes", struct hv_guard, copy_bytes, HV_FMT_U, 0),
    F("completed_seq", struct hv_guard, completed_seq, HV_FMT_U, 0),
    F("wait_ns", struct hv_guard, wait_ns, HV_FMT_U, 0),
    F("count", struct hv_guard, count, HV_FMT_U, 0),
    F("result", struct hv_guard, result, HV_FMT_I, 0),
};

static const struct hv_field epoch_fields[] = {
    F("stream", struct hv_epoch, stream, HV_FMT_HEX, 0),
    F("epoch", struct hv_epoch, epoch, HV_FMT_EPOCH, 0),
    F("completed_seq", struct hv_epoch, completed_seq, HV_FMT_U, 0),
};

static const struct hv_field name_fields[] = {
    F("ptr", struct hv_name, ptr, HV_FMT_HEX, 0),
    F("bytes", struct hv_name, bytes, HV_FMT_U, 0),
    F("name", struct hv_name, name_id, HV_FMT_STRID, 0),
};

static const struct hv_field pystack_fields[] = {
    F("nframes", struct hv_pystack, nframes, HV_FMT_U, 0),
    F("status", struct hv_pystack, status, HV_FMT_U, 0),
    F("why", struct hv_pystack, why, HV_FMT_U, 0),
    F("py_version", struct hv_pystack, py_version, HV_FMT_HEX, 0),
    F("truncated", struct hv_pystack, truncated, HV_FMT_U, HV_FLD_TERSE),
    F("target", struct hv_pystack, target, HV_FMT_HEX, HV_FLD_TERSE),
    F("id", struct hv_pystack, id, HV_FMT_U, HV_FLD_TERSE),
};

static const struct hv_field mark_fields[] = {
    F("kind", struct hv_mark, kind, HV_FMT_U, 0),
    F("source", struct hv_mark, source, HV_FMT_U, 0),
    F("depth", struct hv_mark, depth, HV_FMT_U, 0),
    F("name", struct hv_mark, name_id, HV_FMT_STRID, 0),
    F("id", struct hv_mark, id, HV_FMT_U, HV_FLD_TERSE),
    F("skipped", struct hv_mark, skipped, HV_FMT_U, HV_FLD_TERSE),
};

#define HA struct hv_host_access
static const struct hv_field host_access_fields[] = {
    F("addr", HA, addr, HV_FMT_HEX, 0),
    F("access", HA, access, HV_FMT_U, 0),
    F("access_tid", HA, access_tid, HV_FMT_U, 0),
    F("access_ts", HA, access_ts, HV_FMT_U, T_),
    F("access_after", HA, access_after, HV_FMT_U, T_),
    F("op_api", HA, op_api, HV_FMT_API, 0),
    F("op_kind", HA, op_kind, HV_FMT_U, 0),
    ENUM("op_mem", HA, op_mem, hv_mem_name, 0),
    F("op_stream", HA, op_stream, HV_FMT_HEX, 0),
    F("op_lo", HA, op_lo, HV_FMT_HEX, 0),
    F("op_bytes", HA, op_bytes, HV_FMT_U, 0),
    F("flags", HA, flags, HV_FMT_U, T_),
    F("nframes", HA, nframes, HV_FMT_U, 0),
    F("npy", HA, npy, HV_FMT_U, 0),
};

#define HK struct hv_hostcheck
static const struct hv_field hostcheck_fields[] = {
    F("protected_ops", HK, protected_ops, HV_FMT_U, 0),
    F("skipped_managed", HK, skipped_managed, HV_FMT_U, 0),
    F("skipped_full", HK, skipped_full, HV_FMT_U, 0),
    F("skipped_other", HK, skipped_other, HV_FMT_U, 0),
    F("accesses", HK, accesses, HV_FMT_U, 0),
    F("unrelated", HK, unrelated, HV_FMT_U, 0),
    F("lost", HK, lost, HV_FMT_U, 0),
    F("released", HK, released, HV_FMT_U, 0),
};

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

#define H struct hv_file_header
static const struct hv_field header_fields[] = {
    F("format_version", H, format_version, HV_FMT_U, 0),
    F("header_size", H, header_size, HV_FMT_U, HV_FLD_NOTEXT),
    F("pid", H, pid, HV_FMT_U, 0),
    F("ppid", H, ppid, HV_FMT_U, 0),
    F("start_ns", H, start_ns, HV_FMT_U, 0),
    F("start_realtime_ns", H, start_realtime_ns, HV_FMT_U, 0),
    ENUM("clock", H, clock, hv_clock_name, 0),
    ENUM("transport", H, transport, hv_transport_name, 0),
    F("ring_kb", H, ring_kb, HV_FMT_U, 0),
    BIT("payloads", H, flags, HV_HDR_PAYLOADS, 0),
    BIT("stacks", H, flags, HV_HDR_STACKS, 0),
    BIT("argument_records", H, flags, HV_HDR_DERIVE, HV_FLD_IFSET),   /* HIPVIS_RECORD=args: the reader derives */
    CHARS("hipvis_version", H, hipvis_version),
    CHARS("host", H, host),
    CHARS("runtime_path", H, runtime_path),
    CHARS("runtime_version", H, runtime_version),
    CHARS("exe", H, exe),
    CHARS("knobs", H, knobs),
};

/* Appended later: printed only for headers that hold them (hv_print_header). */
static const struct hv_field header_argv_fields[] = {
    F("argc", H, argc, HV_FMT_U, HV_FLD_NOTEXT),
    BIT("argv_truncated", H, argv_flags, HV_ARGV_TRUNCATED, 0),
    BIT("argv_off", H, argv_flags, HV_ARGV_OFF, 0),
};
#undef H

static const struct hv_field footer_fields[] = {
    F("calls", struct hv_file_footer, calls, HV_FMT_U, 0),
    F("records_made", struct hv_file_footer, records_made, HV_FMT_U, 0),
    F("records_written", struct hv_file_footer, records_written, HV_FMT_U, 0),
    F("chunks", struct hv_file_footer, chunks, HV_FMT_U, 0),
    F("end_ns", struct hv_file_footer, end_ns, HV_FMT_U, 0),
};

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
