/*
 * errata — published runtime bugs of the ordering class, as a table the
 * analyzer matches traces against (rule runtime-erratum) and prints
 * (`hipvis-analyze --errata`, docs/errata.md).
 *
 * One entry per erratum: the public threads it comes from, the releases
 * and architectures they say are affected, the trigger as a predicate over
 * the analyzer's model (graph topology, node kinds, disabled nodes, copy
 * engine, sizes, the knobs the process ran with), the effect, the
 * workaround, the release that fixes it where one is public, the
 * `hipvis experiment` arm that tests the workaround, and the runtime
 * double's fault model that reproduces it. Every statement of an entry is
 * read from its threads; what a thread does not say is said to be "not
 * stated" / "not public", and an inference from a thread is marked so.
 *
 * Adding an erratum: one entry in errata.c (its text, `affects` and
 * `match`), one test in tests/errata, `make errata-doc`.
 */
#ifndef HV_ANALYZE_ERRATA_H
#define HV_ANALYZE_ERRATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/graph_topo.h"
#include "analyze/model/model.h"

/* Does the traced runtime have the erratum? */
enum hv_erratum_verdict {
    HV_ERRATUM_UNKNOWN = 0,      /* the threads do not say for this release (or none was recorded) */
    HV_ERRATUM_AFFECTED,         /* the threads say this release / these knobs have it */
    HV_ERRATUM_UNAFFECTED,       /* the threads say it does not arise here */
};
const char *hv_erratum_verdict_name(int v);  /* "affected", "unaffected", "unknown" */

/* The runtime a trace ran on, from its header. */
struct hv_errata_rt {
    int cuda;                    /* a CUDA runtime: no HIP erratum applies */
    int known;                   /* a ROCm release was recorded */
    unsigned major, minor, patch;
    uint32_t queues;             /* DEBUG_HIP_FORCE_GRAPH_QUEUES, default 4 */
    const char *classic;         /* the knob selecting the classic graph executor, NULL none */
    int sdma_disabled;           /* HSA_ENABLE_SDMA=0 */
    uint64_t blit_max_bytes;     /* GPU_FORCE_BLIT_COPY_SIZE (KiB) in bytes, default 16 KiB */
};
/* From hv_file_header.runtime_version / knobs (either may be NULL). */
void hv_errata_rt_parse(struct hv_errata_rt *rt, const char *runtime_version, const char *knobs, int cuda);

/* The ROCm release in a recorded runtime version: "... ROCm 7.2.4" (the
 * install's .info/version), else the soname's "7.2.70204" (major.minor.
 * MMmmpp), else a bare "7.2.4" or "7". 1 found, 0 not. */
int hv_rocm_release(const char *version, unsigned *major, unsigned *minor, unsigned *patch);

/* One place in a graph that matches an erratum's trigger: exec node slots
 * (indexes into hv_exec.nodes). */
struct hv_erratum_hit {
    uint32_t node;               /* the node whose ordering is lost */
    uint32_t from;               /* the node it is no longer ordered after */
    uint32_t via;                /* the node the lost edge went through (disabled node), UINT32_MAX none */
    uint32_t edge;               /* the out-edge index that lost its wait, UINT32_MAX none */
};

struct hv_erratum {
    const char *id;              /* "rocm-systems#11501": the thread a finding names */
    const char *threads;         /* every public thread of it, with its state when read */
    const char *title;
    const char *note;            /* the finding's one-line note (starts with the id) */
    const char *runtimes;        /* affected releases and architectures, as the threads say */
    const char *trigger;         /* what in a trace matches, in words */
    const char *effect;
    const char *workaround;
    const char *fixed_in;        /* "not public" where no thread names a release */
    const char *arm;             /* the hipvis experiment arm testing the workaround, NULL none */
    const char *arm_env;         /* what that arm sets, for a rerun by hand */
    const char *arm_note;        /* what the arm shows (a program-change fix has none) */
    const char *fault;           /* the runtime double's fault model (HIPDOUBLE_FAULT) */
    /* Verdict for the traced runtime; *why: one static sentence saying why. */
    int (*affects)(const struct hv_errata_rt *rt, const char **why);
    /* Matches in exec x (top-level topology t): up to cap hits stored,
     * the total returned. -1 out of memory. */
    long (*match)(const struct hv_model *m, const struct hv_exec *x, const struct hv_topo *t,
                  const struct hv_errata_rt *rt, struct hv_erratum_hit *hits, size_t cap);
};

/* Entries the table may grow to (rules keep per-entry state in arrays). */
#define HV_ERRATA_MAX 16
extern const struct hv_erratum hv_errata[];
extern const size_t hv_nerrata;
/* Index of the entry with that id or fault model name, -1 none. */
int hv_erratum_find(const char *id_or_fault);

/* The table for humans (`hipvis-analyze --errata`) and as docs/errata.md. */
void hv_errata_print(FILE *out);
void hv_errata_markdown(FILE *out);

#endif
