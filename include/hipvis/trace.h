/*
 * hipvis/trace.h — the trace format: the one contract between the traced
 * process (preload library, sidecar transport) and every offline reader
 * (hipvis-dump, hipvis-analyze, the sidecar's streaming rules).
 *
 * Records are fixed-layout, little-endian, 8-byte aligned C structs. The
 * in-memory ring and the file hold the same bytes, so the hot path never
 * serializes: it fills a struct and publishes it. docs/trace-format.md has
 * the narrative description of the file; this header is normative.
 *
 * Compatibility rule: fields are only ever appended to a record (its `size`
 * grows); readers use `size` to skip what they do not know and zero-fill
 * what an older writer did not write. New record types get new numbers.
 */
#ifndef HV_HIPVIS_TRACE_H
#define HV_HIPVIS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "hipvis/api.h"

/* 2: chunks are encoded (HV_CHUNK_MAGIC_V2, docs/trace-format.md); readers read 1 and 2. */
#define HV_FORMAT_VERSION 2u

/* --------------------------------------------------------------------------
 * File layout
 *
 *   [skippable zstd frame  HV_FRAME_MAGIC_HEADER]  struct hv_file_header + strings
 *   [zstd frame] [zstd frame] ...                  each decompresses to a chunk:
 *                                                  struct hv_chunk_header + records
 *   [skippable zstd frame  HV_FRAME_MAGIC_FOOTER]  struct hv_file_footer (clean exit only)
 *
 * Every data frame is an independent zstd frame with a content checksum, so
 * `zstd -dc trace.zst` yields the raw chunks, a reader can resynchronise
 * after a damaged frame, and a process killed mid-write leaves a file whose
 * complete frames are all readable. Skippable frames are ignored by zstd(1).
 * ------------------------------------------------------------------------ */

/* zstd skippable frame magics (0x184D2A50..0x184D2A5F are skippable). */
#define HV_FRAME_MAGIC_HEADER 0x184D2A5Eu
#define HV_FRAME_MAGIC_FOOTER 0x184D2A5Fu

#define HV_FILE_MAGIC "HIPVIS\x01\x00"   /* 8 bytes, first bytes of the header payload */
#define HV_CHUNK_MAGIC 0x4B435648u        /* "HVCK" */
#define HV_FOOTER_MAGIC "HVEND\x01\x00\x00"

/* Which clock ts_ns counts. */
enum hv_clock {
    HV_CLOCK_MONOTONIC = 1,      /* CLOCK_MONOTONIC, ns */
    HV_CLOCK_TSC_MONOTONIC = 2,  /* TSC ticks converted to CLOCK_MONOTONIC ns by the
                                    writer from a calibration pair; same time base */
};

struct hv_file_header {
    char     magic[8];           /* HV_FILE_MAGIC */
    uint32_t format_version;     /* HV_FORMAT_VERSION */
    uint32_t header_size;        /* sizeof(struct hv_file_header) as written */
    uint64_t pid;
    uint64_t ppid;
    uint64_t start_ns;           /* CLOCK_MONOTONIC at trace start */
    uint64_t start_realtime_ns;  /* CLOCK_REALTIME at the same instant, for humans */
    uint32_t clock;              /* enum hv_clock */
    uint32_t transport;          /* enum hv_transport */
    uint32_t ring_kb;            /* per-thread ring size in effect */
    uint32_t flags;              /* HV_HDR_* */
    char     hipvis_version[32];
    char     host[64];
    char     runtime_path[256];  /* path of the real runtime resolved (dladdr), "" if none yet */
    char     runtime_version[64];
    char     exe[256];           /* /proc/self/exe at start */
    /* Environment knobs that change runtime scheduling/caching, "NAME=value;..."
     * (every DEBUG_HIP_*, DEBUG_CLR_*, AMD_*, HSA_*, GPU_* variable, and the
     * CUDA / NCCL ones that order work). */
    char     knobs[512];
    /* The command line (/proc/self/cmdline, read once when tracing is set
     * up): argc arguments, each NUL-terminated, in argv[0, argv_bytes).
     * HIPVIS_RECORD_ARGV=0 leaves it empty with HV_ARGV_OFF set; an
     * argument that did not fit is left out with every one after it, and
     * HV_ARGV_TRUNCATED says so. Older writers: all zero (not recorded). */
    uint32_t argc;
    uint32_t argv_bytes;
    uint32_t argv_flags;         /* HV_ARGV_* */
    uint32_t argv_pad;
    char     argv[4096];
};

#define HV_ARGV_TRUNCATED 0x1u   /* arguments beyond argv[] were not recorded */
#define HV_ARGV_OFF       0x2u   /* HIPVIS_RECORD_ARGV=0: not recorded on purpose */

enum hv_transport { HV_TRANSPORT_FILE = 1, HV_TRANSPORT_SHM = 2 };
#define HV_HDR_PAYLOADS 0x1u     /* copy payload records may be present */
#define HV_HDR_STACKS   0x2u     /* stack records may be present */
/* seq counts calls per thread (1, 2, 3... per tid) and ts_ns is an ordered
 * clock read after the call returned; readers merge threads by (ts_ns, tid,
 * per-thread seq) and renumber (docs/trace-format.md, "Per-thread
 * sequences"). Without it seq is one process-wide counter. */
#define HV_HDR_THREAD_SEQ 0x10u
/* HIPVIS_RECORD=args: the step's calls may be argument records
 * (HV_CALL_ARGS), and the process no longer advanced stream epochs at the
 * synchronizes it wrote so: the reader derives every epoch in the trace and
 * those records' fields from the merged records (src/format/derive.h,
 * docs/trace-format.md "Argument records"). A trace without the flag is
 * read as written. */
#define HV_HDR_DERIVE 0x80000u
/* Some environment knobs did not fit in hv_file_header.knobs: the ones
 * recorded are the scheduling knobs first, then the rest in environment
 * order (docs/trace-format.md, "Runtime knobs"). */
#define HV_HDR_KNOBS_TRUNCATED 0x100000u

struct hv_chunk_header {
    uint32_t magic;              /* HV_CHUNK_MAGIC */
    uint32_t chunk_index;        /* 0,1,2... in file order; a gap means a lost chunk */
    uint64_t nrecords;
    uint64_t first_seq;          /* smallest call seq in the chunk (0 if none) */
    uint64_t payload_bytes;      /* bytes of records after this header */
};

/* Drop causes. Every record that could not be delivered is counted under
 * exactly one cause, so written + sum(dropped) == made. */
enum hv_drop_cause {
    HV_DROP_RING_FULL = 0,       /* producer found its ring full */
    HV_DROP_TOO_LARGE,           /* record larger than the ring can ever hold */
    HV_DROP_NO_RING,             /* ring could not be allocated (out of memory) */
    HV_DROP_WRITE_ERROR,         /* the writer could not write the file */
    HV_DROP_FORK_DISCARD,        /* parent's pending records discarded in a fork child */
    HV_DROP_IN_FLIGHT_AT_EXIT,   /* still being emitted by another thread at the final drain */
    HV_DROP__COUNT
};

struct hv_file_footer {
    char     magic[8];           /* HV_FOOTER_MAGIC */
    uint64_t calls;              /* intercepted calls */
    uint64_t records_made;       /* records produced (calls + aux) */
    uint64_t records_written;
    uint64_t dropped[HV_DROP__COUNT];
    uint64_t chunks;
    uint64_t end_ns;
};

/* --------------------------------------------------------------------------
 * Records
 * ------------------------------------------------------------------------ */

enum hv_rec_type {
    HV_REC_CALL = 1,          /* struct hv_call: one intercepted runtime call */
    HV_REC_STRING = 2,        /* struct hv_string: string table entry */
    HV_REC_GRAPH_NODE = 3,    /* struct hv_graph_node */
    HV_REC_GRAPH_EDGES = 4,   /* struct hv_graph_edges + pairs */
    HV_REC_KARGS = 5,         /* struct hv_kargs + hv_karg[]: decoded pointer args */
    HV_REC_KERNEL = 6,        /* struct hv_kernel_sym: function handle -> name */
    HV_REC_CODEOBJ = 7,       /* struct hv_codeobj_chunk: code-object bytes (once per hash) */
    HV_REC_DROPS = 8,         /* struct hv_drops: cumulative drop counters */
    HV_REC_THREAD = 9,        /* struct hv_thread: thread start/exit/name */
    HV_REC_PAYLOAD = 10,      /* struct hv_payload: copy source bytes / hashes */
    HV_REC_STACK = 11,        /* reserved: stack table entry */
    HV_REC_MAPS = 12,         /* reserved: memory map snapshot */
    HV_REC_PROBE = 13,        /* reserved: three-point probe result */
    HV_REC_EPOCH = 14,        /* struct hv_epoch: a stream's epoch advanced */
    HV_REC_CODEOBJ_NOTE = 15, /* struct hv_codeobj_note: code-object content skipped, and why */
    HV_REC_GUARD = 16,        /* struct hv_guard: HIPVIS_GUARD synchronized before a graph launch */
    HV_REC_NAME = 35,         /* struct hv_name: hipvis_name() named a buffer */
    HV_REC_PYSTACK = 36,      /* struct hv_pystack: the calling thread's Python frames */
    HV_REC_MARK = 37,         /* struct hv_mark: region / step mark (hipvis, NVTX, roctx, profiler, signal) */
    HV_REC_KARG_NAMES = 38,   /* struct hv_karg_names + hv_karg_name[]: a kernel's argument names */
    HV_REC_HOST_ACCESS = 39,  /* struct hv_host_access + pc[]: the host touched memory an in-flight op uses */
    HV_REC_HOSTCHECK = 40,    /* struct hv_hostcheck: HIPVIS_HOSTCHECK's cumulative counts */
    HV_REC__MAX
};

/* Common to every record. `seq` is the process-wide order of calls (one
 * atomic counter across threads); auxiliary records carry the seq of the call
 * that produced them and follow it in the same thread's stream. */
struct hv_rec_header {
    uint16_t type;            /* enum hv_rec_type */
    uint16_t size;            /* bytes of the whole record, multiple of 8 */
    uint32_t tid;             /* kernel thread id (gettid) */
    uint64_t seq;
    uint64_t ts_ns;           /* see hv_file_header.clock; taken after the call returned */
};

/* How the caller named the stream; canonical ids below tell them apart. */
enum hv_stream_form {
    HV_STREAM_FORM_NONE = 0,      /* the API takes no stream */
    HV_STREAM_FORM_EXPLICIT,      /* a created stream handle */
    HV_STREAM_FORM_LEGACY_NULL,   /* 0 passed to a non-_spt API: legacy default stream */
    HV_STREAM_FORM_SPT_NULL,      /* 0 passed to an _spt API: this thread's default stream */
    HV_STREAM_FORM_PER_THREAD,    /* the hipStreamPerThread / cudaStreamPerThread handle */
    HV_STREAM_FORM_LEGACY_HANDLE, /* hipStreamLegacy ((hipStream_t)1, ROCm 6+): the legacy stream, but a
                                     synchronize on it waits for that stream only (ROCm CLR
                                     hipStreamSynchronize_common: finish() of the null stream, where a
                                     NULL handle waits for every blocking stream) */
};

/* Canonical stream ids. Explicit streams use their handle value; the legacy
 * null stream of a device is HV_STREAM_LEGACY|device; a thread's per-thread
 * default stream is HV_STREAM_PER_THREAD|tid. */
#define HV_STREAM_LEGACY      0x8000000000000000ull
#define HV_STREAM_PER_THREAD  0x4000000000000000ull
#define HV_EPOCH_UNKNOWN      UINT64_MAX

/* Memory kinds, from the tracer's allocation map. */
enum hv_mem {
    HV_MEM_UNKNOWN = 0,       /* not allocated through a traced call */
    HV_MEM_DEVICE,            /* hipMalloc & co */
    HV_MEM_HOST_PINNED,       /* hipHostMalloc */
    HV_MEM_HOST_REGISTERED,   /* hipHostRegister'ed pageable memory */
    HV_MEM_HOST_PAGEABLE,     /* host pointer not known to the runtime */
    HV_MEM_MANAGED,
};

/* Resolved copy direction (hipMemcpyDefault is resolved by address). */
enum hv_dir { HV_DIR_UNKNOWN = 0, HV_DIR_H2H, HV_DIR_H2D, HV_DIR_D2H, HV_DIR_D2D };

#define HV_COPY_ASYNC      0x1u   /* returns before completion */
#define HV_COPY_PEER       0x2u
#define HV_COPY_2D         0x4u

struct hv_copy_args {
    uint64_t dst, src;
    uint64_t bytes;           /* total bytes moved (width*height for 2D) */
    uint64_t dpitch, spitch;  /* 2D only */
    uint64_t height;          /* rows, 1 for 1D */
    uint32_t kind;            /* the runtime's memcpy kind as passed */
    uint8_t  dir;             /* enum hv_dir */
    uint8_t  dst_mem, src_mem;/* enum hv_mem */
    uint8_t  flags;           /* HV_COPY_* */
    int16_t  dst_device, src_device;  /* peer copies; -1 otherwise */
    uint32_t payload_hash;    /* low 32 bits of the source's hash at enqueue (hv_payload.hash) when
                                 hashed, else 0 */
};

struct hv_memset_args {
    uint64_t dst;
    uint64_t bytes;           /* total bytes written */
    uint64_t pitch, width, height;
    uint32_t value;
    uint8_t  elem_size;       /* 1, 2 or 4 */
    uint8_t  pad[3];
};

enum hv_launch_form {
    HV_LAUNCH_PARAMS = 1,     /* void **kernelParams */
    HV_LAUNCH_EXTRA = 2,      /* HIP_LAUNCH_PARAM_BUFFER_POINTER form */
    HV_LAUNCH_HOST_FUNC = 3,  /* hipLaunchHostFunc: host callback in stream order */
};

struct hv_launch_args {
    uint64_t func;            /* host stub (hipLaunchKernel) or hipFunction_t */
    uint32_t grid[3], block[3];
    uint32_t shmem;
    uint32_t kernarg_bytes;   /* size of the argument block when known, else 0 */
    uint32_t name_id;         /* string id of the kernel name, 0 unknown */
    uint16_t nptr;            /* pointer args in the following HV_REC_KARGS, if any */
    uint8_t  form;            /* enum hv_launch_form */
    uint8_t  captured;        /* 1: the stream was capturing, so this became a graph node */
    uint64_t event_start, event_stop; /* hipExtLaunchKernel / hipExtModuleLaunchKernel events */
};

#define HV_GRAPH_NODES_RECORDED 0x1u  /* HV_REC_GRAPH_NODE/EDGES follow */
#define HV_GRAPH_ENABLED_RECORDED 0x2u /* NodeSetEnabled / NodeGetEnabled: flags holds isEnabled */

struct hv_graph_args {
    uint64_t graph;           /* hipGraph_t (instantiate, destroy, update, Add*Node) */
    uint64_t exec;            /* hipGraphExec_t (instantiate output, launch, upload, ...) */
    uint64_t flags;           /* instantiate flags; with HV_GRAPH_ENABLED_RECORDED: isEnabled (0 / 1) */
    uint64_t node;            /* SetParams: node; instantiate: error node; Add*Node: the node made */
    uint32_t nnodes, nedges;  /* at instantiate; Add*Node: nnodes = its dependencies */
    uint32_t rec_flags;       /* HV_GRAPH_* */
    uint32_t launch_index;    /* per-exec replay counter (launch) */
};

struct hv_capture_args {
    uint64_t graph;           /* EndCapture output */
    uint32_t mode;
    uint32_t pad;
};

struct hv_event_args {
    uint64_t event;
    uint64_t flags;
    /* For waits: where the awaited event was last recorded, so the analyzer
     * can add the happens-before edge record -> wait without a lookup. */
    uint64_t record_stream;
    uint64_t record_seq;
    uint64_t record_epoch;
};

struct hv_sync_args {
    uint64_t event;           /* event sync/query */
    /* The stream whose epoch advanced (0 none: failed or not-ready query) and
     * the seq up to which its work is now known complete. The record alone
     * says what the observation covers (docs/trace-format.md, "Host
     * observations"): a device sync every stream of the call's device, a
     * legacy-null sync or query also the device's blocking streams; no
     * HV_REC_EPOCH per stream follows. */
    uint64_t completed_stream;
    uint64_t completed_seq;
    uint64_t new_epoch;
};

struct hv_stream_args {
    uint64_t handle;          /* created or destroyed stream */
    uint32_t flags;
    int32_t  priority;
};

struct hv_alloc_args {
    uint64_t ptr;
    uint64_t bytes;           /* for frees: size of the allocation freed, if known */
    uint32_t flags;
    uint8_t  mem;             /* enum hv_mem */
    uint8_t  pad[3];
};

struct hv_module_args {
    uint64_t module;          /* hipModule_t or fat-binary handle */
    uint64_t function;        /* hipFunction_t or host stub */
    uint64_t image_hash;      /* content hash of the code object(s) loaded */
    uint32_t name_id;         /* function name / module path string id */
    uint32_t nkernels;        /* kernels found in the image */
    uint32_t parse_errors;    /* code-object problems counted (see HV_REC_CODEOBJ) */
    uint32_t pad;
};

/* Stream memory operation (hipStreamWriteValue32/64, hipStreamWaitValue32/64,
 * one entry of hipStreamBatchMemOp). */
enum hv_memop_kind { HV_MEMOP_WRITE = 1, HV_MEMOP_WAIT = 2 };

struct hv_memop_args {
    uint64_t addr;
    uint64_t value;
    uint64_t mask;            /* waits: ANDed with the memory before comparing (all ones: none) */
    uint32_t flags;           /* waits: 0 GEQ, 1 EQ, 2 AND, 3 NOR (HIP and CUDA number them alike) */
    uint8_t  op;              /* enum hv_memop_kind */
    uint8_t  size;            /* 4 or 8 */
    uint16_t index;           /* entry of a batch, 0 otherwise */
};

union hv_call_args {
    struct hv_copy_args    copy;
    struct hv_memset_args  memset;
    struct hv_launch_args  launch;
    struct hv_graph_args   graph;
    struct hv_capture_args capture;
    struct hv_event_args   event;
    struct hv_sync_args    sync;
    struct hv_stream_args  stream;
    struct hv_alloc_args   alloc;
    struct hv_module_args  module;
    struct hv_memop_args   memop;
    uint64_t               raw[8];
};

#define HV_CALL_NESTED   0x1u   /* made from inside another traced call (runtime-internal) */
#define HV_CALL_CAPTURING 0x2u  /* the stream was capturing at the call */
/* As written (HV_HDR_DERIVE traces): the record holds the call's argument
 * words in a.raw[] (the first 8, 8 bytes each) and no stream; the reader
 * replaces them by the record the full fillers write, and clears the flag. */
#define HV_CALL_ARGS 0x4u
/* An eager launch not drawn by HIPVIS_LAUNCH_EVERY: its kernel was not
 * looked up (no name, no layout) and its pointer arguments, Python site
 * and code-object check were not recorded. */
#define HV_CALL_UNSAMPLED 0x8u

enum hv_capture_status { HV_CAPTURE_NONE = 0, HV_CAPTURE_ACTIVE = 1, HV_CAPTURE_INVALIDATED = 2 };

struct hv_call {
    struct hv_rec_header h;   /* type HV_REC_CALL */
    uint16_t api;             /* enum hv_api */
    uint8_t  stream_form;     /* enum hv_stream_form */
    uint8_t  flags;           /* HV_CALL_* */
    int32_t  result;          /* exactly what the runtime returned */
    int32_t  device;          /* current device of the thread, -1 unknown */
    uint32_t capture;         /* enum hv_capture_status of the stream */
    uint64_t stream;          /* canonical stream id, 0 for APIs without a stream */
    uint64_t epoch;           /* the stream's epoch when the call was made */
    union hv_call_args a;
};

/* String table entry: ids are per-process, assigned on first use. */
struct hv_string {
    struct hv_rec_header h;   /* type HV_REC_STRING */
    uint32_t id;
    uint32_t len;             /* bytes of text, no NUL */
    /* char text[len], then zero padding to 8 */
};

/* Graph node types, runtime-neutral (the HIP and CUDA enums differ). */
enum hv_node_type {
    HV_NODE_UNKNOWN = 0, HV_NODE_KERNEL, HV_NODE_MEMCPY, HV_NODE_MEMSET, HV_NODE_HOST,
    HV_NODE_GRAPH, HV_NODE_EMPTY, HV_NODE_EVENT_WAIT, HV_NODE_EVENT_RECORD,
    HV_NODE_MEM_ALLOC, HV_NODE_MEM_FREE, HV_NODE_CONDITIONAL, HV_NODE_OTHER
};

/* One node of a graph walked at instantiate (or after an exec update). The
 * owning call's seq ties nodes to the instantiate record; `graph` is the
 * graph walked (child graphs are walked too, with parent_node set). */
struct hv_graph_node {
    struct hv_rec_header h;   /* type HV_REC_GRAPH_NODE */
    uint64_t exec;            /* the exec this inventory belongs to */
    uint64_t graph;
    uint64_t node;            /* node handle */
    uint64_t parent_node;     /* child-graph node holding this graph, 0 top level */
    uint32_t index;           /* position in hipGraphGetNodes order */
    uint16_t type;            /* enum hv_node_type */
    uint16_t nptr;            /* kernel: pointer args in the following HV_REC_KARGS */
    union {
        struct { uint64_t func; uint32_t grid[3], block[3]; uint32_t shmem, name_id, kernarg_bytes, pad; } kernel;
        struct { uint64_t dst, src, bytes; uint32_t kind; uint8_t dir, dst_mem, src_mem, pad; } memcpy;
        struct { uint64_t dst, bytes; uint32_t value, elem_size; } memset;
        struct { uint64_t event; } event;
        struct { uint64_t fn, user; } host;
        struct { uint64_t graph; } child;
        uint64_t raw[6];
    } u;
};

/* Edges of one graph: pairs of node indexes (from, to) into the graph's
 * HV_REC_GRAPH_NODE records; long edge lists are split over several records. */
struct hv_graph_edges {
    struct hv_rec_header h;   /* type HV_REC_GRAPH_EDGES */
    uint64_t exec;
    uint64_t graph;
    uint32_t count;           /* pairs in this record */
    uint32_t pad;
    /* uint32_t pairs[count][2] follow, padded to 8 */
};

enum hv_access { HV_ACCESS_UNKNOWN = 0, HV_ACCESS_READ, HV_ACCESS_WRITE, HV_ACCESS_READ_WRITE };
enum hv_arg_origin {
    HV_ARG_METADATA = 1,      /* from the code object's kernel metadata: exact */
    HV_ARG_INFERRED = 2,      /* an 8-byte word of the args equal to a tracked allocation */
    /* Never in a trace: the analyzer's verdict on an inferred word that the
     * kernel's own code loads and dereferences (docs/kernel-args.md). */
    HV_ARG_CONFIRMED = 3,
};

/* hv_karg.offset of a word found without a layout in a params array: the
 * first 8 bytes of argument `index`, whose offset in the block is unknown. */
#define HV_KARG_OFFSET_UNKNOWN UINT32_MAX

struct hv_karg {
    uint64_t value;           /* pointer value passed */
    uint64_t alloc_base;      /* start of the tracked allocation it falls in, 0 unknown */
    uint64_t alloc_bytes;
    uint32_t offset;          /* byte offset in the argument block, or HV_KARG_OFFSET_UNKNOWN */
    uint16_t index;           /* argument index (the layout's or the params array's), 0 in a block without layout */
    uint8_t  access;          /* enum hv_access */
    uint8_t  origin;          /* enum hv_arg_origin */
};

/* Pointer arguments of one launch or graph kernel node. */
struct hv_kargs {
    struct hv_rec_header h;   /* type HV_REC_KARGS */
    uint64_t owner_node;      /* graph node handle, 0 for an eager launch */
    uint64_t func;
    uint32_t count;
    uint32_t name_id;
    /* struct hv_karg args[count] follow */
};

/* A kernel function handle became known (registration, module lookup). */
struct hv_kernel_sym {
    struct hv_rec_header h;   /* type HV_REC_KERNEL */
    uint64_t func;            /* host stub or hipFunction_t */
    uint64_t module;
    uint64_t code_object_hash;/* 0 if no code object describes it */
    uint32_t name_id;
    uint32_t kernarg_bytes;   /* 0 unknown */
    uint32_t nargs;           /* from metadata, 0 unknown */
    uint32_t pad;
};

/* Code-object bytes, stored once per distinct content hash, split in pieces. */
struct hv_codeobj_chunk {
    struct hv_rec_header h;   /* type HV_REC_CODEOBJ */
    uint64_t hash;
    uint64_t total_bytes;
    uint64_t offset;          /* of this piece in the code object */
    uint32_t len;             /* bytes in this piece */
    uint32_t arch_id;         /* string id of the target, e.g. amdgcn-amd-amdhsa--gfx950 */
    /* uint8_t bytes[len], padded to 8 */
};

/* Why code-object content is missing: a unit of an image that could not be
 * decoded (kind PARSE, after the module call that loaded the image, one
 * record per reason), or an object whose bytes were not stored (kind
 * NOT_STORED, after the call that first used one of its kernels). Reasons
 * are strings so the list can grow without a format change: PARSE uses the
 * decoder's names ("HV_CO_ERR_ELF_TRUNCATED", docs/kernel-args.md lists
 * them), NOT_STORED "disabled", "over_object_cap", "over_budget",
 * "image_unloaded". */
enum hv_codeobj_note_kind { HV_CO_NOTE_PARSE = 1, HV_CO_NOTE_NOT_STORED = 2 };

struct hv_codeobj_note {
    struct hv_rec_header h;   /* type HV_REC_CODEOBJ_NOTE */
    uint64_t hash;            /* PARSE: the image's hv_module_args.image_hash; NOT_STORED: the object's */
    uint64_t value;           /* PARSE: image offset of the first unit skipped for this reason,
                                 UINT64_MAX unknown; NOT_STORED: bytes not stored */
    uint32_t kind;            /* enum hv_codeobj_note_kind */
    uint32_t count;           /* PARSE: units skipped for this reason; NOT_STORED: 1 */
    uint32_t reason_id;       /* string id of the reason */
    uint32_t pad;
};

struct hv_drops {
    struct hv_rec_header h;   /* type HV_REC_DROPS; tid = thread the counts belong to */
    uint64_t dropped[HV_DROP__COUNT];  /* cumulative for that thread */
};

enum hv_thread_event { HV_THREAD_FIRST_CALL = 1, HV_THREAD_EXIT = 2 };
struct hv_thread {
    struct hv_rec_header h;   /* type HV_REC_THREAD */
    uint32_t event;           /* enum hv_thread_event */
    uint32_t name_id;
};

struct hv_payload {
    struct hv_rec_header h;   /* type HV_REC_PAYLOAD; seq = the copy's seq (when 0/2) or the
                                 observing call's (when 1): enum hv_payload_when below */
    uint64_t src;
    uint32_t len;             /* bytes captured (<= HIPVIS_PAYLOAD_BYTES) */
    uint32_t when;            /* 0 at enqueue, 1 when first observed complete (hv_payload_when) */
    uint64_t hash;            /* XXH3-64 (seed 0) of the whole source range (older traces:
                                 XXH64; hashes are compared within one trace) */
    /* uint8_t bytes[len], padded to 8 */
};

struct hv_epoch {
    struct hv_rec_header h;   /* type HV_REC_EPOCH; seq = the sync call's seq */
    uint64_t stream;
    uint64_t epoch;           /* new epoch */
    uint64_t completed_seq;   /* all work enqueued on the stream before this seq is complete */
};

#define HV_REC_ALIGN 8u
#define HV_REC_MAX_BYTES 65528u  /* size is a uint16_t multiple of 8 */

static inline size_t hv_rec_padded(size_t n) { return (n + (HV_REC_ALIGN - 1)) & ~(size_t)(HV_REC_ALIGN - 1); }

/* ==========================================================================
 * Evidence records (docs/evidence.md). Appended as one block:
 * payload `when` values, stacks, memory maps and three-point probes.
 * ======================================================================== */

#define HV_HDR_PROBES   0x4u     /* three-point probe records may be present */

/* hv_payload.when. Hashes are XXH3-64 (seed 0) of the copy's whole 1D
 * source range (docs/evidence.md "Why XXH3"; XXH64 in older traces, whose
 * hashes are likewise compared only with each other); hv_copy_args.payload_hash
 * holds the low 32 bits of the enqueue one. */
enum hv_payload_when {
    HV_PAYLOAD_ENQUEUE = 0,   /* right after the async H2D copy was enqueued; seq = the copy */
    /* The source hashed differently when the host first observed the copy
     * complete: it was rewritten while the copy could still be pending.
     * seq = the observing call (sync, query, blocking copy); the copy is
     * the pending async H2D copy from `src` whose enqueue hash differs. */
    HV_PAYLOAD_OBSERVED = 1,
    HV_PAYLOAD_UNCHECKED = 2, /* like ENQUEUE, but the copy will not be re-hashed (pending list full) */
};

/* A caller stack (HIPVIS_STACKS=1), after the call it belongs to. Stacks
 * are deduplicated per process: the first use of a stack defines it
 * (nframes > 0), later uses refer to it by id (nframes 0). */
struct hv_stack {
    struct hv_rec_header h;   /* type HV_REC_STACK; seq = the call */
    uint32_t id;              /* stack table id, from 1; 0: not entered in the table (full) */
    uint32_t nframes;         /* pcs that follow; 0 = reference to a stack defined earlier */
    /* uint64_t pc[nframes]: return addresses, innermost first, hipvis's own frames removed */
};
#define HV_STACK_MAX_FRAMES 64u

/* One loaded object of a memory-map snapshot, so stacks can be symbolized
 * offline: ELF virtual address = pc - bias, looked up in `path` on disk. A
 * snapshot is taken before the first stack and whenever the set of loaded
 * objects changed (dlopen/dlclose); it replaces the previous one. */
struct hv_map {
    struct hv_rec_header h;   /* type HV_REC_MAPS; seq = the call after which it was taken */
    uint64_t lo, hi;          /* address range of the object's PT_LOAD segments */
    uint64_t bias;            /* load bias (dl_iterate_phdr dlpi_addr) */
    uint32_t generation;      /* snapshot number, from 1 */
    uint32_t index;           /* position in the snapshot (0 starts a new one) */
    uint32_t count;           /* objects in the snapshot */
    uint32_t path_len;        /* bytes of path, no NUL */
    /* char path[path_len], padded to 8 */
};

/* Three-point probe (HIPVIS_PROBE): device-to-device snapshots of a range
 * written by an H2D copy, taken on the copy's stream right after the copy,
 * right before a graph launch and right after it, read back later. */
enum hv_probe_point {
    HV_PROBE_SOURCE = 0,      /* the copy's host source at enqueue (what should be there) */
    HV_PROBE_AFTER_COPY,
    HV_PROBE_PRE_REPLAY,
    HV_PROBE_POST_REPLAY,
    HV_PROBE__POINTS
};
#define HV_PROBE_HAVE(point) (1u << (point))
/* Flags in `have` beside the points: the host source re-read when the
 * snapshots were read back. SAME: it still held the enqueued bytes (so the
 * copy read them: an after-copy difference is a device-side write).
 * REACHED: it had changed, and every after-copy byte that differs from the
 * enqueued source is the host's new byte (the rewrite reached the copy). */
#define HV_PROBE_SRC_SAME    0x100u
#define HV_PROBE_SRC_REACHED 0x200u

enum hv_probe_status {
    HV_PROBE_OK = 0,
    HV_PROBE_ENQUEUE_FAILED,  /* a snapshot copy was refused by the runtime */
    HV_PROBE_READ_FAILED,     /* the read-back failed */
    HV_PROBE_LAUNCH_FAILED,   /* the graph launch itself failed */
};

struct hv_probe {
    struct hv_rec_header h;   /* type HV_REC_PROBE; seq = the call at which it was read back */
    uint64_t copy_seq;        /* the H2D copy */
    uint64_t replay_seq;      /* the graph launch between the pre and post snapshots */
    uint64_t exec;
    uint64_t stream;          /* canonical stream of copy and launch */
    uint64_t addr;            /* device range probed */
    uint64_t src;             /* host source of that range */
    uint32_t len;             /* bytes per point */
    uint32_t have;            /* HV_PROBE_HAVE bits of the points read */
    uint32_t status;          /* enum hv_probe_status */
    uint16_t copy_api, replay_api;
    /* uint8_t bytes[HV_PROBE__POINTS][len] in hv_probe_point order (points not
     * read are zero), padded to 8 */
};

/* ==========================================================================
 * Guard records (docs/case-study-rocm-hip-3902.md). HIPVIS_GUARD
 * makes the tracer apply a synchronization pattern before a graph launch
 * that reads a range an H2D copy on the launch stream wrote in the current
 * epoch (what same-epoch-write reports), so a fix can be tried on the real
 * job without editing it. Return values are never changed; timing is.
 * ======================================================================== */

enum hv_guard_mode {
    HV_GUARD_OFF = 0,
    HV_GUARD_STREAM_SYNC,        /* hipStreamSynchronize(launch stream) */
    HV_GUARD_EVENT_SYNC,         /* event recorded on the launch stream, host waits (system-scope fence) */
    HV_GUARD_EVENT_SYNC_NOFENCE, /* the same, event created with hipEventDisableSystemFence: order only */
    HV_GUARD_RELEASE_EVENT,      /* hipEventReleaseToSystem event recorded on the launch stream; no host wait */
    HV_GUARD_COPY_SYNC,          /* at the copy instead: event after an async pinned H2D copy, host waits
                                    before the program can touch the source again (the host race) */
    HV_GUARD__MODES
};

struct hv_guard {
    struct hv_rec_header h;   /* type HV_REC_GUARD; seq = the latest call before the guard (it is no call;
                                 copy-sync: the copy); an HV_REC_EPOCH follows when the host waited */
    uint64_t exec;            /* the graph exec about to be launched (0 for copy-sync) */
    uint64_t stream;          /* canonical launch stream */
    uint64_t copy_seq;        /* the H2D copy (launch stream, current epoch) into a range the exec reads;
                                 copy-sync: the H2D or D2H copy waited for */
    uint64_t copy_dst, copy_bytes;
    uint64_t completed_seq;   /* host-waiting modes: ops of `stream` with seq <= this are complete; else 0 */
    uint64_t wait_ns;         /* host time the pattern took */
    uint64_t count;           /* guarded launches in this process so far, this one included */
    uint32_t mode;            /* enum hv_guard_mode */
    int32_t  result;          /* the runtime's result for the pattern's first failing call, 0 if none */
};

/* ==========================================================================
 * Names, Python frames and regions (docs/names.md). Records of
 * what the user calls things: buffers named through hipvis_name(), the
 * Python lines that made a call, and the regions and marks a program sets
 * (hipvis_region_push, NVTX, roctx, profiler start/stop, SIGUSR2).
 * ======================================================================== */

#define HV_HDR_PYFRAMES 0x10000u  /* HV_REC_PYSTACK records may be present (HIPVIS_PYFRAMES=1|first) */
/* HIPVIS_PYFRAMES=first: a stack is recorded at the first call on each target
 * only, never when a later call on it comes from other Python lines, so a
 * call without a record of its own shows the first call's lines, not its
 * own (docs/names.md "The first call (the default) or every site"). */
#define HV_HDR_PYFRAMES_FIRST 0x40000u
#define HV_HDR_REGIONS  0x20000u  /* HIPVIS_START=profiler|signal: data calls outside regions not recorded */

/* hipvis_name(ptr, bytes, name): from this point of the trace the range
 * [ptr, ptr+bytes) is called `name`. seq = the latest call of the process
 * when it was named (it is no call). A HV_REC_PYSTACK with the same seq and
 * tid may follow (the Python line that named it). */
struct hv_name {
    struct hv_rec_header h;   /* type HV_REC_NAME */
    uint64_t ptr;
    uint64_t bytes;           /* 0: from ptr to the end of its allocation */
    uint32_t name_id;         /* string id; 0 removes the name */
    uint32_t pad;
};

/* Why a Python stack was taken. Writes, replays, launches and allocations
 * are keyed by (native call site, target, innermost Python frames): a new
 * key records its stack in full (with a new id), a known one that differs
 * from the previous call's for the same (site, target) records a reference
 * (nframes 0, its id); a call that repeats the previous one records nothing,
 * so its stack is the latest one recorded for its target (`why`, `target`).
 * Targets: a copy/memset destination, a graph exec, a kernel, an allocation.
 * Captures, instantiations and names are recorded in full every time (id 0). */
enum hv_py_why {
    HV_PY_AT_WRITE = 1,       /* first copy / memset into this destination from this site */
    HV_PY_AT_REPLAY = 2,      /* first launch of this graph exec from this site */
    HV_PY_AT_LAUNCH = 3,      /* first launch of this kernel from this site */
    HV_PY_AT_CAPTURE = 4,     /* stream capture begin / end */
    HV_PY_AT_INSTANTIATE = 5,
    HV_PY_AT_ALLOC = 6,
    HV_PY_AT_NAME = 7,        /* hipvis_name() */
    HV_PY_AT_MARK = 8,        /* a region / mark */
    HV_PY_AT_HOST_ACCESS = 9, /* reserved: HV_REC_HOST_ACCESS carries its Python frames itself */
};

enum hv_py_status {
    HV_PY_OK = 0,
    HV_PY_NO_THREAD = 1,      /* the thread has no Python thread state (a native thread) */
    HV_PY_UNSUPPORTED = 2,    /* this CPython version's frame layout is not known: py_version says which */
    HV_PY_UNREADABLE = 3,     /* a frame could not be read (bounds-checked reads refused or failed) */
    HV_PY_SITES_FULL = 4,     /* the table of (site, target) pairs is full: no more stacks are taken */
};

struct hv_pyframe {
    uint32_t file_id;         /* string id of co_filename */
    uint32_t func_id;         /* string id of co_qualname (co_name before 3.11) */
    int32_t  line;            /* -1 unknown */
    uint32_t pad;
};

/* The Python stack of the thread that made call `seq`, innermost first. */
struct hv_pystack {
    struct hv_rec_header h;   /* type HV_REC_PYSTACK; seq = the call (or the name / mark) */
    uint32_t nframes;
    uint8_t  status;          /* enum hv_py_status */
    uint8_t  why;             /* enum hv_py_why */
    uint16_t pad;
    uint32_t py_version;      /* PY_VERSION_HEX of the interpreter, 0 unknown */
    uint32_t truncated;       /* frames beyond HV_PY_MAX_FRAMES not recorded */
    uint64_t target;          /* the destination, exec or kernel the dedupe keyed on; 0 none */
    uint32_t id;              /* stack id (from 1) defined by this record (nframes > 0) or referred to
                                 (nframes 0, status OK); 0: not in the table */
    uint32_t pad2;
    /* struct hv_pyframe frames[nframes] */
};
#define HV_PY_MAX_FRAMES 32u

enum hv_mark_kind {
    HV_MARK_PUSH = 1,         /* a nested range opens (hipvis_region_push, nvtxRangePush, roctxRangePush) */
    HV_MARK_POP = 2,          /* the innermost open range of this thread closes */
    HV_MARK_POINT = 3,        /* an instant mark (hipvis_mark, nvtxMark, roctxMark) */
    HV_MARK_START = 4,        /* a start/end range opens (nvtxRangeStart, roctxRangeStart): id */
    HV_MARK_END = 5,          /* ... and closes, by id */
    HV_MARK_RECORD_ON = 6,    /* HIPVIS_START: recording of data calls resumed (profiler start, SIGUSR2, delay) */
    HV_MARK_RECORD_OFF = 7,   /* ... and paused; skipped = data calls not recorded so far */
};

enum hv_mark_source { HV_MARK_HIPVIS = 1, HV_MARK_NVTX = 2, HV_MARK_ROCTX = 3, HV_MARK_PROFILER = 4,
                      HV_MARK_SIGNAL = 5,
                      HV_MARK_TIMER = 6 /* HIPVIS_START_DELAY_MS / HIPVIS_DURATION_MS (hipvis run --delay) */ };

struct hv_mark {
    struct hv_rec_header h;   /* type HV_REC_MARK; seq = the latest call of the process (it is no call) */
    uint8_t  kind;            /* enum hv_mark_kind */
    uint8_t  source;          /* enum hv_mark_source */
    uint16_t depth;           /* PUSH/POP: nesting depth of this thread after the mark */
    uint32_t name_id;         /* string id of the message, 0 none */
    uint64_t id;              /* START/END: the range id */
    uint64_t skipped;         /* RECORD_ON/OFF: data calls not recorded so far (HIPVIS_START) */
};

/* ==========================================================================
 * Kernel argument names (docs/names.md). Where a code object's
 * metadata names a kernel's arguments (amdhsa.kernels[].args[].name: HIP
 * built with -fhip-kernel-arg-name, OpenCL with -cl-kernel-arg-info), the
 * tracer records them once when it binds the kernel to a handle, right
 * after that call's HV_REC_KERNEL, so a finding can say which parameter of
 * the kernel saw the buffer. No record when no argument has a name.
 * ======================================================================== */

struct hv_karg_name {
    uint32_t offset;          /* byte offset in the kernel's argument block */
    uint32_t size;            /* bytes */
    uint16_t index;           /* explicit argument index: hv_karg.index of metadata-origin args */
    uint8_t  kind;            /* enum hv_karg_name_kind */
    uint8_t  pad;
    uint32_t name_id;         /* string id of the name, 0 none */
};

enum hv_karg_name_kind { HV_KARG_BY_VALUE = 0, HV_KARG_POINTER = 1 };

struct hv_karg_names {
    struct hv_rec_header h;   /* type HV_REC_KARG_NAMES; seq = the call that bound the kernel */
    uint64_t func;            /* host stub or hipFunction_t (as in HV_REC_KERNEL) */
    uint64_t code_object_hash;/* the object the names come from */
    uint32_t name_id;         /* string id of the kernel name */
    uint32_t count;           /* entries that follow: the kernel's explicit arguments, in order */
    /* struct hv_karg_name args[count] */
};

/* ==========================================================================
 * Host accesses during in-flight operations (HIPVIS_HOSTCHECK; docs/hostcheck.md).
 * While an async operation that writes a host-visible range (a D2H copy into
 * pinned memory, a memset of pinned or managed memory, a kernel writing
 * managed memory) or reads one (an H2D copy from pinned memory) is in
 * flight, eager or a node of a graph replay, the tracer revokes the host's
 * access to the pages it covers (PROT_NONE for writes, PROT_READ for reads)
 * until the host first observes it complete. A host access in between faults once: the fault handler
 * records it, gives the page back and the program continues unchanged.
 * ======================================================================== */

#define HV_HDR_HOSTCHECK 0x100000u /* HIPVIS_HOSTCHECK: HV_REC_HOST_ACCESS / HV_REC_HOSTCHECK may be present */

/* What the in-flight op does to the range the access fell in. */
enum hv_hc_kind {
    HV_HC_COPY_DST = 1,       /* an async copy writes it (D2H into pinned or registered memory) */
    HV_HC_COPY_SRC = 2,       /* an async copy reads it (H2D from pinned or registered memory) */
    HV_HC_MEMSET = 3,         /* an async memset writes it */
    HV_HC_KERNEL_WRITE = 4,   /* a kernel writes it through a pointer argument (metadata: write / read-write) */
    HV_HC_KERNEL_ARG = 5,     /* a kernel may read or write it (argument access unknown: host writes only) */
};

#define HV_HC_IN_CALL   0x1u  /* the accessing thread was inside a traced runtime call (the runtime's own access
                                 to a buffer the program handed it, or a host function) */
#define HV_HC_NO_PYTHON 0x2u  /* Python frames were not read (no interpreter, or none safely readable) */

/*
 * One host access to a range an in-flight op uses. The header names the
 * op: tid = the op's thread, seq = the op's call (readers renumber it as
 * any auxiliary record's), ts_ns = when the record was written, after the
 * access (the handler only queues it: a fault handler cannot take the
 * tracer's locks; the queue is written out at the next observation, copy
 * or exit, possibly by another thread, whose ring holds it).
 */
struct hv_host_access {
    struct hv_rec_header h;   /* type HV_REC_HOST_ACCESS; tid/seq: the in-flight op's call */
    uint64_t addr;            /* the faulting address */
    uint64_t access_ts;       /* ordered ticks of the access (the clock of the headers) */
    uint64_t access_after;    /* the accessing thread's latest call seq before the access (per thread: not
                                 renumbered; 0 none) */
    uint64_t op_lo, op_bytes; /* the op's range on this side */
    uint64_t op_stream;       /* canonical stream of the op */
    uint32_t access_tid;      /* the thread that touched the memory */
    uint16_t op_api;
    uint8_t  op_kind;         /* enum hv_hc_kind */
    uint8_t  op_mem;          /* enum hv_mem of the range */
    uint8_t  access;          /* HV_ACCESS_READ or HV_ACCESS_WRITE (x86-64: the page-fault error code) */
    uint8_t  flags;           /* HV_HC_* */
    uint16_t nframes;         /* native return addresses that follow; pc[0] is the faulting instruction */
    uint16_t npy;             /* Python frames after them (struct hv_pyframe), innermost first */
    uint16_t pad[3];
    /* uint64_t pc[nframes]; struct hv_pyframe py[npy] */
};
#define HV_HC_MAX_FRAMES 16u
#define HV_HC_MAX_PY 4u

/* HIPVIS_HOSTCHECK's counts so far (cumulative, process-wide; the last one
 * written holds the totals). */
struct hv_hostcheck {
    struct hv_rec_header h;   /* type HV_REC_HOSTCHECK; seq = the latest call of the writing thread */
    uint64_t protected_ops;   /* ops whose range was protected */
    uint64_t skipped_managed; /* ops on managed memory not protected (the driver migrates it: docs/hostcheck.md) */
    uint64_t skipped_full;    /* ops not protected: the table of in-flight ranges was full */
    uint64_t skipped_other;   /* ops not protected: ROCm registered memory, or mprotect refused the range */
    uint64_t accesses;        /* host accesses recorded (HV_REC_HOST_ACCESS) */
    uint64_t unrelated;       /* faults on a protected page outside every in-flight range (page shared with
                                 other data): the page was given back, nothing recorded */
    uint64_t lost;            /* accesses not recorded: the handler's queue was full */
    uint64_t released;        /* ops released by an observation of their completion */
    /* Appended (a record of an older writer is 88 bytes: read as 0). */
    uint64_t skipped_graph;   /* host sides of graph replays' nodes not protected: the exec's nodes are not
                                 known in-process, a node's kind or parameters are not read, a memcpy node's
                                 host side is pageable, or the graph holds a host or event-record node */
};

#endif
