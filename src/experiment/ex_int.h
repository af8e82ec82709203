/*
 * Internals of `hipvis experiment` (not an API; docs/experiment.md).
 *
 *   arms.c     the arm catalogue and each arm's environment for a runtime
 *              (knob names by runtime version)
 *   runner.c   one run of the job: fork, exec, log, timeout, exit status
 *   measure.c  one run's traces: symptoms, costs and what the host-access
 *              check covered, read back through the analyzer (engine,
 *              coverage, --diagnose) in this process
 *   decide.c   rates with Wilson intervals, arm outcomes, early stop, the
 *              verdict the differences support, the cheapest removing arm
 *   report.c   the decision report (text and JSON)
 */
#ifndef HV_EXPERIMENT_EX_INT_H
#define HV_EXPERIMENT_EX_INT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/findings.h"   /* struct hv_hostcheck_cov */

#define EX_MAX_ARMS 24
#define EX_MAX_ENV 6
#define EX_MAX_RUNS 1000

/* ---- arms (arms.c) ---- */

enum ex_kind { EX_BASELINE = 0, EX_PROBE, EX_GUARD, EX_KNOB, EX_CUSTOM };

struct ex_arm {
    char name[48];
    enum ex_kind kind;
    char what[160];                   /* what it changes and which hypothesis it bears on */
    char env[EX_MAX_ENV][160];        /* NAME=VALUE set for its runs */
    int nenv;
    int fix;                          /* a fix candidate (guards, knobs); baseline and probe are not */
    int hostcheck;                    /* runs with HIPVIS_HOSTCHECK: the host accesses it catches are symptoms */
};

/* Runtime family and version from a trace header's runtime_version /
 * runtime_path (or none known yet). */
struct ex_runtime {
    int cuda, known;
    unsigned major, minor, patch;
    char text[96];
};
void ex_runtime_parse(struct ex_runtime *rt, const char *version, const char *path);

/* Fills arms for `spec` (comma list: names from the catalogue, "default",
 * "guards", "knobs", or NAME:VAR=VAL+VAR=VAL for a custom arm) on runtime
 * rt. Arms that do not apply to rt (a HIP knob on CUDA) are left out with a
 * note in `skipped`. Returns the count, or -1 with `err` set. The baseline
 * is always arm 0. With the hostcheck arm in the list, the fix arms that
 * bear on a host race (copy-sync, stream-sync, event-sync) run with
 * HIPVIS_HOSTCHECK=1 too, so that they measure the symptom it catches. */
int ex_arms_build(const char *spec, const struct ex_runtime *rt, struct ex_arm *arms, int cap, char *skipped,
                  size_t skipped_len, char *err, size_t errlen);
/* The catalogue, one line per arm, for --help. */
void ex_arms_list(FILE *out);

/* ---- one run (runner.c, measure.c) ---- */

struct ex_run {
    int arm, index;
    /* the job */
    int exit_code, signal, timed_out, spawn_failed;
    int pattern_hit;
    double wall_s;
    /* its traces */
    int traces, unreadable;
    uint64_t replays, probed, probe_mismatch, same_epoch, unordered, rewrites, dropped_records;
    uint64_t host_accesses;           /* host-access-in-flight occurrences (HIPVIS_HOSTCHECK), info notes aside */
    double replay_interval_us;        /* median time between graph launches, 0 if < 2 */
    char runtime[64], runtime_path[256];
    char verdict[16];                 /* the first observed --diagnose verdict, or "" */
    char lead[16];                    /* the leading open hypothesis of the first diagnosis, or "" */
    uint32_t errata;                  /* bit i: a runtime-erratum finding of hv_errata[i] (docs/errata.md) */
    int symptom;                      /* job failure, a probe mismatch or a host access caught */
    /* What HIPVIS_HOSTCHECK protected, did not protect and lost, summed
     * over the run's traces by the analyzer (analyze/coverage.h); traces 0:
     * it did not run. */
    struct hv_hostcheck_cov hc;
};

struct ex_job {
    char **argv;
    double timeout_s;
    const char *libhipvis;
    regex_t *fail_re;
};

/* Runs the job once for `arm` into directory `dir` (created 0700): traces
 * DIR/hipvis.%p.zst, the job's stdout+stderr in DIR/job.log. Fills the job
 * fields of r. */
void ex_run_job(const struct ex_job *job, const struct ex_arm *arm, const char *dir, struct ex_run *r);
/* Reads every trace in dir into r (symptoms, costs, runtime, diagnosis). */
void ex_measure(const char *dir, struct ex_run *r);

/* ---- decision (decide.c) ---- */

struct ex_interval { double lo, hi; };
/* 95% Wilson score interval of k successes in n. */
struct ex_interval ex_wilson(uint64_t k, uint64_t n);

enum ex_outcome { EX_UNDECIDED = 0, EX_REMOVED, EX_PERSISTS, EX_REFERENCE };

struct ex_arm_stats {
    uint64_t runs, symptom_runs, failures, hangs, pattern_hits, probe_mismatch, probed, unreadable;
    uint64_t host_accesses, host_access_runs;
    /* An arm run with the check: its counts summed over the runs; the runs
     * without the symptom where it did not look (ex_hc_blind), and those
     * where it looked but left some operations unprotected. */
    struct hv_hostcheck_cov hc;
    uint64_t hc_blind_runs, hc_partial_runs;
    /* The runs its rate is over: all of them, less the blind ones when it is
     * judged on the host accesses the check catches (ref: the hostcheck arm). */
    uint64_t judged_runs;
    struct ex_interval rate;
    double median_wall_s, median_interval_us, cost_ratio;   /* cost_ratio: vs baseline, 0 unknown */
    const char *cost_basis;           /* "replay interval" or "wall time" */
    enum ex_outcome outcome;
    /* The arm its outcome is judged against: the baseline, or the hostcheck
     * arm when that one caught host accesses and the baseline showed no
     * symptom (for the arms run with the check). Its cost is measured
     * against cost_ref: the hostcheck arm for the other arms run with the
     * check (the check's own cost aside), else the baseline. */
    int ref, cost_ref;
    char runtimes[160];               /* distinct runtime versions seen */
    char verdicts[64];                /* distinct observed --diagnose verdicts */
};

struct ex_decision {
    int clean;                        /* no symptom in any baseline run */
    int cheapest;                     /* arm index of the cheapest removing fix, -1 none */
    char verdict[24];                 /* "H1" .. "H4", "host-race", "race", "undetermined", "no-symptom" */
    char basis[24];                   /* "observed", "experiment", "none" */
    char why[2048];                   /* the differences that support it */
    char cause[320];                  /* what the baseline traces say (findings, diagnoses) */
    /* A runtime erratum the baseline traces match whose workaround arm
     * removed the symptom: its hv_errata index and that arm; -1 none. */
    int erratum, erratum_arm;
};

/* Why run r of arm cannot show "no host access" though it ran with the
 * check: "not run" (no trace ran with it), "no counts" (no trace holds its
 * counts record), "none protected" (it protected no operation), "accesses
 * lost"; NULL when it could (or the arm runs without the check). */
const char *ex_hc_blind(const struct ex_arm *arm, const struct ex_run *r);

void ex_stats(const struct ex_arm *arms, int narms, const struct ex_run *runs, size_t nruns,
              struct ex_arm_stats *st);
/* 1 when every arm is decided (early stop). */
int ex_all_decided(const struct ex_arm_stats *st, int narms);
void ex_decide(const struct ex_arm *arms, int narms, const struct ex_arm_stats *st, const struct ex_run *runs,
               size_t nruns, struct ex_decision *d);

/* ---- report (report.c) ---- */

struct ex_meta {
    char **argv;
    int rounds, max_runs, stopped_early;
    double timeout_s;
    const char *fail_pattern, *dir, *skipped;
    struct ex_runtime rt;
};
void ex_report_text(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d);
void ex_report_json(FILE *out, const struct ex_meta *m, const struct ex_arm *arms, int narms,
                    const struct ex_arm_stats *st, const struct ex_decision *d, const struct ex_run *runs,
                    size_t nruns);

#endif
