/*
 * Internals of --diagnose (not an API): the evidence gathered from one
 * trace's records, and the diagnosis of one same-epoch-write group.
 */
#ifndef HV_ANALYZE_DIAGNOSE_DIAG_INT_H
#define HV_ANALYZE_DIAGNOSE_DIAG_INT_H

#include <stdint.h>

#include "analyze/diagnose/diagnose.h"
#include "analyze/diagnose/scalar_exposure.h"
#include "analyze/placement.h"

/* The hypotheses of ../shared/research/rocm-runtime-facts.md. H2 is split:
 * a device-side write landing after the copy stays H2, the host rewriting
 * the pinned source before the copy ran is "host-race" (H2b). */
enum hv_hyp { HV_HYP_H1 = 0, HV_HYP_HOST, HV_HYP_H2, HV_HYP_H3, HV_HYP_H4, HV_HYP__N };

/* ---- evidence from records (evidence.c) ---- */

struct dx_kernel { uint64_t func, hash; uint32_t name_id; };
struct dx_object { uint64_t hash, total, got; unsigned char *bytes; };

/* Host-source hashes (HV_REC_PAYLOAD) per pinned source address. */
struct dx_source {
    uint64_t src;
    uint64_t enqueued, rewritten, unchecked;
    uint64_t first_rewrite_seq;  /* the observing call */
    /* The latest rewrite seen (HV_PAYLOAD_OBSERVED): its observing call and
     * the source bytes then (none when only hashes were recorded), to tell
     * whether a changed byte is what reached the device copy. */
    uint64_t last_rewrite_seq;
    uint32_t last_len;
    unsigned char *last_bytes;
    /* Seqs of the copies the rewrite check covers (ascending: records come
     * in seq order): the check samples copies, so a probe's copy must be
     * among them for "not rewritten" to mean anything. */
    uint64_t *checked;
    size_t nchecked, capchecked;
};

/* Three-point probes (HV_REC_PROBE) per device address probed. */
enum { DX_PROBE_MATCH = 0, DX_PROBE_AFTER_COPY, DX_PROBE_PRE_REPLAY, DX_PROBE_POST_REPLAY, DX_PROBE__N };
/* Who changed the bytes an after-copy snapshot differs in: the host (the
 * rewritten source is what the device holds), a device-side write (the
 * source was checked and not rewritten, or the device bytes are not the
 * rewritten ones), or unknown (no rewrite check for that copy). */
enum { DX_AC_HOST = 0, DX_AC_DEVICE, DX_AC_UNKNOWN, DX_AC__N };
struct dx_probe {
    uint64_t addr, len;
    uint64_t by_point[DX_PROBE__N];   /* probed replays by first point that differs from the source */
    uint64_t after_copy_by[DX_AC__N]; /* by_point[DX_PROBE_AFTER_COPY] split by who changed the bytes */
    uint64_t failed;
    uint64_t first_seq;               /* replay of the first divergence */
    uint32_t first_off;               /* byte offset of its first differing byte */
    uint8_t want, got;                /* those bytes: source, snapshot */
    uint8_t first_point;
};

struct dx_guard { uint64_t stream, count; uint32_t modes; };

/* Placement of one exec's nodes, taken when its inventory completed. */
struct dx_place {
    uint64_t exec, inst_seq;
    uint32_t nnodes, roots, branches, collectives;
    uint8_t uses_parallel;
    uint64_t *node;                   /* node handles, exec->nodes order */
    uint8_t *flags;                   /* HV_PLACE_* */
};

#define DX_VEC(type, name) type *name; size_t n_##name, cap_##name

struct dx_trace {
    uint64_t pid;
    uint32_t hdr_flags;
    char path[256];
    char runtime[64], runtime_path[256];
    char knobs[512];
    int cuda;
    const char *(*string)(void *, uint32_t);
    void *string_ctx;
    size_t first_group;               /* findings groups added by this trace start here */
    DX_VEC(struct dx_kernel, kernels);
    DX_VEC(struct dx_object, objects);
    DX_VEC(struct dx_source, sources);
    DX_VEC(struct dx_probe, probes);
    DX_VEC(struct dx_guard, guards);
    DX_VEC(struct dx_place, places);
    uint64_t payload_records, probe_records, guard_records, codeobj_bytes;
    uint64_t launches_undrawn;        /* eager launches without kernel and arguments (HIPVIS_LAUNCH_EVERY):
                                         the engine's count, set at hv_diag_end_trace */
    struct hv_hostcheck_cov hostcheck;   /* what HIPVIS_HOSTCHECK protected: the engine's, likewise */
};

void dx_trace_init(struct dx_trace *t, const struct hv_file_header *hdr, const char *path, size_t first_group,
                   const char *(*string)(void *, uint32_t), void *ctx);
void dx_trace_free(struct dx_trace *t);
void dx_trace_feed(struct dx_trace *t, const struct hv_rec_header *rec);
void dx_trace_graph(struct dx_trace *t, const struct hv_model *m, uint32_t exec);
/* Lookups used by the verdict. NULL when nothing was recorded. */
const struct dx_source *dx_source_of(const struct dx_trace *t, uint64_t src);
const struct dx_probe *dx_probe_of(const struct dx_trace *t, uint64_t lo, uint64_t hi);
const struct dx_place *dx_place_of(const struct dx_trace *t, uint64_t exec, uint64_t before_seq);
uint64_t dx_guarded(const struct dx_trace *t, uint64_t stream, uint32_t *modes);
/* Code-object hash of the kernel named `name` (0 unknown). */
uint64_t dx_kernel_hash(const struct dx_trace *t, const char *name);
/* Hands the trace's complete code objects to the classifier (origin "trace"). */
void dx_trace_objects(const struct dx_trace *t, struct hv_sx *sx);

/* ---- one diagnosis (verdict.c) ---- */

#define DX_MAX_ITEMS 24
#define DX_HYP(h) (1u << (h))
struct dx_item {
    int8_t w[HV_HYP__N];              /* weight for each hypothesis (+ supports, - refutes): ranks the open ones */
    uint8_t symptom;                  /* DX_HYP bits: this item is the recorded symptom of those hypotheses */
    uint8_t excludes;                 /* DX_HYP bits: the recorded facts rule those out */
    char text[320];
};

/* What the recorded facts say about one hypothesis. */
enum dx_status { DX_CONSISTENT = 0, DX_OBSERVED, DX_EXCLUDED };

struct dx_diag {
    /* the group: its finding (HV_RULE_SAME_EPOCH_WRITE, or HV_RULE_THREE_POINT_PROBE in an A/B run; pid,
     * buffer, the write as side a, the reading replay as side b), its place in the store and its count */
    struct hv_finding f;
    size_t group;
    uint64_t count, first_seq, last_seq;
    char kernel[128];
    char trace[256];
    char runtime[64];
    /* the answer */
    struct dx_item items[DX_MAX_ITEMS];
    int nitems;
    int score[HV_HYP__N];
    uint8_t status[HV_HYP__N];        /* enum dx_status */
    uint8_t order[HV_HYP__N];         /* observed first, then consistent, then excluded; by score within */
    int verdict;                      /* enum hv_hyp: the best observed one; -1 undetermined */
    struct hv_sx_result sx;
};

/* A runtime-erratum group, for the errata ranking (errata_rank.c). */
struct dx_erratum {
    uint64_t pid;
    size_t group;                     /* index into out->groups */
    char trace[256];
};

struct hv_diag {
    struct hv_findings *out;
    struct hv_sx *sx;                  /* borrowed (hv_diag_new) */
    struct dx_trace cur;
    int in_trace;
    struct dx_diag *v;
    size_t n, cap;
    uint64_t traces, groups_seen;
    struct dx_erratum *errata;        /* every runtime-erratum group, most likely first once ranked */
    size_t nerrata, caperrata;
};

/* ---- runtime errata (errata_rank.c) ---- */

/* Notes the runtime-erratum groups of the trace just finished. */
void dx_errata_collect(struct hv_diag *d, const struct dx_trace *t);
/* Ranked: errata the threads say the traced runtime has first, then by
 * occurrences. The text and JSON sections of the report. */
void dx_errata_rank(struct hv_diag *d);
void dx_errata_text(FILE *out, const struct hv_diag *d);
struct hv_json;
void dx_errata_json(struct hv_json *w, const struct hv_diag *d);

/* Diagnoses one same-epoch-write group of the current trace. */
void dx_diagnose(struct hv_diag *d, const struct hv_group *g, size_t gi, struct dx_diag *out);

/* ---- fixed knowledge (hypotheses.c) ---- */

/* What was measured about a fix pattern against a hypothesis's symptom. */
enum dx_fix_result {
    DX_FIX_REMOVES = 0,               /* removed every stale read of the fault model (where: `measured`) */
    DX_FIX_DOES_NOT,                  /* measured and the stale reads remained */
    DX_FIX_UNTESTED,                  /* a pattern from the public cases, never measured: not ranked */
};
struct dx_fix {
    const char *pattern, *cost, *guard;
    enum dx_fix_result result;
    const char *measured;             /* where removal (or not) was measured */
};
const char *dx_hyp_id(int h);         /* "H1", "host-race", ... */
const char *dx_hyp_title(int h);
const char *dx_hyp_confirm(int h);    /* observables that would confirm it */
const char *dx_hyp_refute(int h);
/* The cheapest next run that would decide it; "ADDR:LEN" stands for the
 * group's buffer (diag_report.c fills it in). */
const char *dx_hyp_next_run(int h);
/* Fix patterns: measured removals first, cheapest measured cost first, then
 * those measured not to remove it, then untested ones; *n set. */
const struct dx_fix *dx_hyp_fixes(int h, int *n);
const char *dx_status_name(int s);    /* "observed", "consistent", "excluded" */

#endif
