/*
 * tbuild — synthetic traces for analyzer tests and the bench, shaped like
 * what the tracer records: a call record per runtime call (seq, stream,
 * epoch, payload), followed under the same seq by the auxiliary records the
 * tracer adds (graph nodes/edges/kernel args at instantiate, kernel args at
 * eager launches, HV_REC_EPOCH at syncs). Records go either straight to an
 * engine (unit tests) or through the trace writer into a file.
 */
#ifndef HV_TESTS_ANALYZE_TBUILD_H
#define HV_TESTS_ANALYZE_TBUILD_H

#include <stdint.h>

#include "analyze/engine.h"
#include "format/trace_writer.h"
#include "hipvis/trace.h"

#define TB_MAX_STREAMS 16
#define TB_MAX_EVENTS 16
#define TB_MAX_STRINGS 16

struct tb {
    struct hv_engine *engine;        /* sink: engine, or */
    struct hv_trace_writer *writer;  /* sink: file */
    struct hv_findings *out;         /* for tb_engine_* */
    uint64_t seq, ts;
    uint32_t tid;
    int32_t device;
    struct { uint64_t id, epoch; } streams[TB_MAX_STREAMS];
    int nstreams;
    struct { uint64_t ev, stream, seq, epoch; } events[TB_MAX_EVENTS];
    int nevents;
    const char *strings[TB_MAX_STRINGS]; /* id -> text */
    uint64_t records;
};

/* A kernel node / eager launch argument. */
struct tb_arg {
    uint64_t value;
    uint16_t index;
    uint8_t access;                  /* enum hv_access */
    uint8_t origin;                  /* enum hv_arg_origin (0 -> metadata) */
};

/* A graph node for tb_instantiate. */
struct tb_node {
    uint16_t type;                   /* enum hv_node_type */
    uint32_t name_id;                /* kernel */
    const struct tb_arg *args;
    uint32_t nargs;
    uint64_t dst, src, bytes;        /* memcpy / memset */
    uint8_t dir;                     /* memcpy: enum hv_dir */
    uint8_t no_layout;               /* kernel: the tracer knew no argument layout (kernarg_bytes 0),
                                        as for a code object it could not decode */
};

/* The runtime version the next tb_*_open writes in the header (NULL:
 * "synthetic", no release). */
extern const char *tb_runtime_version;
/* The header's HV_HDR_* flags the next tb_*_open writes (0 by default). */
extern uint32_t tb_header_flags;

/* Engine-backed builder: findings land in *out. */
void tb_engine_open(struct tb *t, struct hv_findings *out, uint64_t pid, const char *knobs);
/* Finishes the engine (input-health rules) and frees it. */
void tb_engine_close(struct tb *t);
/* File-backed builder. Returns 0 or -errno. */
int tb_file_open(struct tb *t, const char *path, uint64_t pid, const char *knobs);
int tb_file_close(struct tb *t, int with_footer);
/* Ends the current chunk (one zstd frame) so a cut file keeps a valid prefix. */
void tb_flush(struct tb *t);

void tb_string(struct tb *t, uint32_t id, const char *text);
void tb_stream_create(struct tb *t, uint64_t stream, uint32_t flags);
void tb_alloc(struct tb *t, uint64_t ptr, uint64_t bytes, uint8_t mem);
void tb_free(struct tb *t, uint64_t ptr);
void tb_copy(struct tb *t, uint64_t stream, uint64_t dst, uint64_t src, uint64_t bytes, uint8_t dir, uint8_t src_mem,
             int async);
void tb_memset(struct tb *t, uint64_t stream, uint64_t dst, uint64_t bytes);
/* Async 2D D2D copy / memset: `rows` rows of `width` bytes, `pitch` apart. */
void tb_copy2d(struct tb *t, uint64_t stream, uint64_t dst, uint64_t pitch, uint64_t src, uint64_t width,
               uint64_t rows);
void tb_memset2d(struct tb *t, uint64_t stream, uint64_t dst, uint64_t pitch, uint64_t width, uint64_t rows);
void tb_launch(struct tb *t, uint64_t stream, uint32_t name_id, const struct tb_arg *args, uint32_t nargs);
/* An eager launch HIPVIS_LAUNCH_EVERY did not draw: flagged unsampled, no
 * kernel, no arguments. */
void tb_launch_undrawn(struct tb *t, uint64_t stream);
/* Instantiates `exec` from nodes (a linear chain unless edges are given as
 * from/to pairs). Node handles are 0x6000 + index. */
void tb_instantiate(struct tb *t, uint64_t exec, const struct tb_node *nodes, uint32_t nnodes,
                    const uint32_t *edges, uint32_t nedges);
/* Instantiates `exec` without recording its nodes (no HV_GRAPH_NODES_RECORDED). */
void tb_instantiate_bare(struct tb *t, uint64_t exec);
void tb_graph_launch(struct tb *t, uint64_t exec, uint64_t stream);
/* hipGraphNodeSetEnabled(exec, node `index` of tb_instantiate, on) as the
 * tracer records it: the call, then the node (empty when disabled). */
void tb_set_enabled(struct tb *t, uint64_t exec, uint32_t index, int on, uint16_t type);
void tb_exec_destroy(struct tb *t, uint64_t exec);
void tb_stream_sync(struct tb *t, uint64_t stream);
void tb_device_sync(struct tb *t);
void tb_event_record(struct tb *t, uint64_t ev, uint64_t stream);
void tb_stream_wait(struct tb *t, uint64_t stream, uint64_t ev);
void tb_event_sync(struct tb *t, uint64_t ev);
/* A call that failed: it must be counted and change nothing. */
void tb_failed_copy(struct tb *t, uint64_t stream, uint64_t dst, uint64_t bytes);

/* An auxiliary record (payload, probe...) after the last call: its header's
 * type and size are the caller's; seq, tid and time are filled in. */
void tb_aux(struct tb *t, void *rec);

/* Helpers over a findings store. */
size_t tb_count_rule(const struct hv_findings *s, int rule);
const struct hv_group *tb_group(const struct hv_findings *s, int rule);

#define TB_LEGACY (HV_STREAM_LEGACY | 0u)

#endif
