/*
 * findings — what rules emit and how identical findings are grouped.
 *
 * A rule fills one `struct hv_finding` per occurrence and hands it to
 * hv_findings_add(). Occurrences with the same key (rule, pid, buffer range,
 * writer site, graph exec, node, argument, reader stream) fold into one group
 * with a count and first/last sequence numbers, so a decode loop that repeats
 * a hazard 100 000 times is one line in the report and memory stays bounded
 * by the number of distinct sites. Reports render groups; nothing here prints.
 */
#ifndef HV_ANALYZE_FINDINGS_H
#define HV_ANALYZE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "common/strset.h"
#include "common/u64map.h"

enum hv_severity { HV_SEV_NONE = 0, HV_SEV_INFO = 1, HV_SEV_WARNING = 2, HV_SEV_ERROR = 3 };

const char *hv_severity_name(int sev);
/* "error" | "warning" | "info" | "none" -> severity; -1 when unknown. */
int hv_severity_parse(const char *s);

/* What an op in a finding was. */
enum hv_side_kind {
    HV_SIDE_NONE = 0,
    HV_SIDE_COPY,        /* eager copy: dst/src/bytes/dir/mem kinds */
    HV_SIDE_MEMSET,      /* eager memset: dst/bytes */
    HV_SIDE_KERNEL,      /* eager kernel writing through a pointer argument */
    HV_SIDE_REPLAY,      /* graph launch: exec/node/arg */
    HV_SIDE_FREE,        /* release of an allocation: dst = base, bytes */
    HV_SIDE_TRACE,       /* the input itself (truncation, drops) */
    HV_SIDE_LAUNCH,      /* eager kernel launch reading through a pointer argument */
    HV_SIDE_SYNC,        /* a host observation of completion (sync, query, blocking copy) */
    HV_SIDE_HOST,        /* a host access (HIPVIS_HOSTCHECK): value = address, access, func = faulting pc */
};

/* Engine hint for a write (rocm-runtime-facts.md: small H2D copies run as blit
 * kernels on the stream's own queue, large ones on an SDMA engine). */
enum hv_hint {
    HV_HINT_NONE = 0,
    HV_HINT_BLIT,          /* blit kernel on the stream's queue */
    HV_HINT_SDMA,          /* SDMA engine */
    HV_HINT_BLIT_NO_SDMA,  /* would be SDMA, but HSA_ENABLE_SDMA=0 makes it a blit kernel */
    HV_HINT_FILL_KERNEL,   /* memset: fill kernel on the stream's queue */
    HV_HINT_KERNEL,        /* an ordinary kernel */
};
const char *hv_hint_text(int hint);

/* arg_index values that are not kernel argument numbers. */
#define HV_ARG_NONE  (-1)
#define HV_ARG_DST   (-2)   /* memcpy/memset node destination */
#define HV_ARG_SRC   (-3)   /* memcpy node source */

/* What the kernel's own code says of a pointer argument the trace only
 * inferred (analyze/diagnose/confirm.h), for hv_fside.deref. */
enum hv_deref {
    HV_DEREF_UNCHECKED = 0,  /* not looked at (a metadata pointer, or no confirmation ran) */
    HV_DEREF_NO_CODE,        /* no code object of the kernel: the trace has none, nor --code-object */
    HV_DEREF_NOT_STORED,     /* the tracer read the kernel's code object but did not store it */
    HV_DEREF_NO_DISASM,      /* no disassembler here (built without LLVM, or an unknown processor) */
    HV_DEREF_NOT_SEEN,       /* the code never loads the word and uses it as an address */
    HV_DEREF_SEEN,           /* it does: the side's origin is HV_ARG_CONFIRMED */
    HV_DEREF_NO_ARG,         /* the kernel has no such argument: a word read past its params array */
};
const char *hv_deref_name(int deref);
/* hv_fside.deref_uses: what the kernel's code does through the word. */
enum {
    HV_DEREF_USE_SCALAR_LOAD = 1u << 0,
    HV_DEREF_USE_VECTOR_LOAD = 1u << 1,
    HV_DEREF_USE_STORE = 1u << 2,
    HV_DEREF_USE_ATOMIC = 1u << 3,
    HV_DEREF_USE_PASSED_ON = 1u << 4,   /* stored to memory or live at a call */
};

/* One op taking part in a finding. Unused fields are 0 (indexes -1). */
struct hv_fside {
    uint8_t  kind;           /* enum hv_side_kind */
    uint8_t  dir;            /* enum hv_dir (copies) */
    uint8_t  src_mem, dst_mem; /* enum hv_mem (copies) */
    uint8_t  access, origin; /* enum hv_access / hv_arg_origin (kernel args) */
    uint8_t  hint;           /* enum hv_hint (writes) */
    uint8_t  node_type;      /* enum hv_node_type (replays) */
    uint16_t api;            /* enum hv_api */
    int16_t  arg_index;      /* kernel argument index or HV_ARG_* */
    int32_t  node_index;     /* graph node index, -1 none */
    uint32_t arg_offset;     /* kernel args: the pointer word's byte offset (HV_KARG_OFFSET_UNKNOWN) */
    uint8_t  deref;          /* enum hv_deref: an inferred pointer checked against the kernel's code */
    uint8_t  deref_uses;     /* HV_DEREF_USE_*: what the code does through the word */
    uint8_t  pad[2];
    uint64_t stream;         /* canonical stream id */
    uint64_t seq, epoch, ts_ns;
    uint64_t dst, src, bytes;/* copies/memsets; FREE: dst = base */
    uint64_t exec, node;     /* replays: exec and node handle */
    uint64_t value;          /* kernel argument pointer value */
    uint64_t func;           /* kernels: the function handle (names its arguments, HV_REC_KARG_NAMES) */
    const char *name;        /* kernel name; transient on input, owned by the store in groups */
};

struct hv_finding {
    uint16_t rule;           /* enum hv_rule_id (rules/rules.h) */
    uint8_t  severity;       /* enum hv_severity */
    uint8_t  alloc_mem;      /* enum hv_mem of the allocation holding [lo, hi) */
    uint32_t pad;
    uint64_t pid;
    uint64_t lo, hi;         /* the affected byte range, 0/0 none */
    uint64_t alloc_base, alloc_bytes, alloc_seq;
    struct hv_fside a;       /* the earlier op: writer, earlier replay, free */
    struct hv_fside b;       /* the later op: the replay or write that is exposed */
    uint64_t n1, n2;         /* rule-specific numbers (documented per rule) */
    const char *note;        /* rule-specific qualifier; transient on input */
    /* Rule-specific detail of this occurrence (values seen, bytes changed).
     * Not part of the group key: a group keeps its first occurrence's. */
    const char *detail;
};

struct hv_group {
    struct hv_finding f;     /* first occurrence; strings owned by the store */
    uint64_t count;
    uint64_t first_seq, last_seq;  /* of the exposed op (b.seq, or a.seq when b is empty) */
    uint64_t last_a_seq;
    uint64_t *occ;           /* with keep_all: (a.seq, b.seq) per occurrence */
    size_t nocc, capocc;
};

/* The host-access check (HIPVIS_HOSTCHECK, docs/hostcheck.md): what it
 * protected and what it could not, from its HV_REC_HOSTCHECK counts. Per
 * trace (traces 0 or 1) in hv_trace_summary, summed in hv_coverage; the
 * counts are those of the traces with a counts record only. */
struct hv_hostcheck_cov {
    uint64_t traces;            /* traces it ran in: the header's HV_HDR_HOSTCHECK, or a counts record */
    uint64_t traces_counted;    /* of them, with a counts record (written at exit) */
    uint64_t protected_ops;     /* in-flight operations whose range was protected */
    uint64_t skipped_managed;   /* not protected: managed memory, no protection key on the CPU */
    uint64_t skipped_full;      /* not protected: the table of in-flight ranges was full */
    uint64_t skipped_other;     /* not protected: ROCm registered memory, a 3D copy, or mprotect refused */
    uint64_t skipped_graph;     /* graph replays' host sides not protected (docs/hostcheck.md "Graphs") */
    uint64_t accesses;          /* host accesses recorded */
    uint64_t lost;              /* host accesses not recorded: the queue was full */
};

/* Per-trace facts for the summary; filled by the engine and the tool. */
struct hv_trace_summary {
    char    *path;
    uint64_t pid, ppid;
    uint32_t flags;                   /* the header's HV_HDR_*: which evidence was recorded */
    char     exe[256];
    char     runtime[64];
    char     knobs[512];
    /* The traced command line (hv_file_header.argv): argc NUL-terminated
     * arguments in argv[0, argv_bytes); argc 0 when not recorded. */
    uint32_t argc, argv_bytes, argv_flags;   /* HV_ARGV_* */
    char     argv[4096];
    uint64_t records, calls, failed_calls;
    uint64_t failed_launches, failed_copies;  /* kernel/graph launches, copies/memsets that returned an error */
    uint64_t first_failed_seq;
    uint16_t first_failed_api;
    int32_t  first_failed_result;
    uint64_t copies, memsets, launches, replays, instantiates, syncs, allocs, frees;
    uint64_t launches_unsampled;      /* eager launches HIPVIS_LAUNCH_EVERY did not draw: no kernel, no arguments */
    /* Eager launches whose kernel's argument layout the tracer did not know
     * (pointers, if any, only inferred from a bounded scan), and their
     * pointer arguments only inferred (confirmation from the kernel's code
     * is per finding, not counted here). Graph replays: below. */
    uint64_t unknown_layout_launches, inferred_launch_args;
    uint64_t streams, execs, execs_no_inventory, replays_unknown_exec, captured_skipped;
    /* Coverage of the replays (analyze/coverage.h): checked, and why not. */
    uint64_t replays_checked, replays_no_inventory, replays_unknown_layout;
    /* Kernel-node runs (summed over replays: a node run 100 times counts
     * 100) whose layout was unknown, and their arguments only inferred. */
    uint64_t unknown_layout_nodes, inferred_args;
    struct hv_hostcheck_cov hostcheck;   /* analyze/coverage.h: hv_coverage_hostcheck */
    uint64_t orphan_records;          /* aux records with no call to attach to */
    uint64_t first_ts, last_ts, last_seq;
    uint64_t blit_max_bytes;
    uint64_t peak_writer_segments, peak_allocs;
    /* input health */
    int      read_status;             /* enum hv_read_status */
    char     read_status_name[32];
    uint64_t read_offset, records_salvaged;
    char     read_what[256];
    int      has_footer;
    uint64_t dropped, late_records, chunk_gaps;
};

typedef void (*hv_finding_observer)(void *ctx, const struct hv_finding *f, const struct hv_group *g,
                                    int is_new);

struct hv_findings {
    struct hv_group *groups;
    size_t ngroups, capgroups;
    struct hv_u64map index;  /* hash of a group's key -> group index */
    struct hv_trace_summary *traces;
    size_t ntraces, captraces;
    struct hv_strset strings;   /* interned strings */
    int keep_all;
    hv_finding_observer observer;
    void *observer_ctx;
    int observer_new_only;   /* the observer wants new groups only: repeats may be counted lazily */
    uint64_t total;          /* occurrences added */
};

void hv_findings_init(struct hv_findings *s);
void hv_findings_free(struct hv_findings *s);
/* Adds one occurrence. Returns its group, or NULL out of memory. */
const struct hv_group *hv_findings_add(struct hv_findings *s, const struct hv_finding *f);
/* Index of a group (stable while the store lives; pointers are not). */
static inline size_t hv_findings_index(const struct hv_findings *s, const struct hv_group *g)
{
    return (size_t)(g - s->groups);
}
/* Groups ordered for reporting: most severe first, then pid, then count. The
 * array is owned by the caller (free()). */
const struct hv_group **hv_findings_sorted(const struct hv_findings *s);
/* Keeps a copy of a trace's summary (path duplicated). Returns 0 or -1. */
int hv_findings_add_trace(struct hv_findings *s, const struct hv_trace_summary *t);
/* Over every trace: launches HIPVIS_LAUNCH_EVERY recorded without kernel
 * and arguments (returned), and all launches (*launches, may be NULL). */
uint64_t hv_findings_launches_unsampled(const struct hv_findings *s, uint64_t *launches);
/* Over every trace: hv_trace_summary's kernel-argument coverage, summed. */
struct hv_arg_coverage {
    uint64_t unknown_layout_nodes, inferred_args;        /* node runs, summed over replays */
    uint64_t unknown_layout_launches, inferred_launch_args;
};
void hv_findings_arg_coverage(const struct hv_findings *s, struct hv_arg_coverage *c);
/* Highest severity among groups (HV_SEV_NONE when none). */
int hv_findings_max_severity(const struct hv_findings *s);
/* Groups / occurrences at or above sev. */
size_t hv_findings_count_at(const struct hv_findings *s, int sev, uint64_t *occurrences);
/* The side of f that reads or writes through a kernel argument the trace
 * only inferred to be a pointer (origin HV_ARG_INFERRED, not confirmed from
 * the kernel's code), or NULL. */
const struct hv_fside *hv_finding_inferred(const struct hv_finding *f);
/* Groups at or above sev that rest on such an argument. */
size_t hv_findings_count_inferred(const struct hv_findings *s, int sev);
/*
 * One bug, seen in several places. The store keys a group by everything
 * that locates it (pid, addresses, exec and stream handles), which is what
 * --all and the Perfetto export need; a reader wants one entry per bug: the
 * same writer call and the same reading kernel argument, however many graph
 * execs (one per captured batch size) and ranks (one process each) hit it.
 * A bug's members are the groups that agree on rule, severity, qualifier,
 * the writer's kind/API/direction/kernel, and the reader's kind/API/kernel/
 * argument; findings about the input itself stay per trace.
 */
struct hv_bug {
    size_t first, n;         /* members: sorted[first .. first+n) */
    uint64_t count;          /* occurrences over all members */
    size_t npids, nexecs;    /* distinct processes; distinct (pid, exec) of the exposed replay */
};

/* Reorders `sorted` (from hv_findings_sorted, n groups) so that each bug's
 * members are adjacent, bugs in the order of their first member, and fills
 * *bugs (owned by the caller). Returns the number of bugs, or (size_t)-1
 * out of memory. */
size_t hv_findings_bugs(const struct hv_group **sorted, size_t n, struct hv_bug **bugs);

/*
 * Input health: can this trace support a conclusion at all? A run in which
 * runtime calls failed and no copy, memset, launch or replay succeeded
 * (wrong library path, no device) has nothing to analyze, and "0 findings"
 * from it would read as "clean".
 */
int hv_trace_unusable(const struct hv_trace_summary *t);
/* No trace did any device work and at least one had failed calls: the
 * analyzer's exit status says so whatever --fail-on is. */
int hv_findings_unusable(const struct hv_findings *s);

/* A stable copy of str owned by the store (NULL stays NULL). */
const char *hv_findings_intern(struct hv_findings *s, const char *str);

#endif
