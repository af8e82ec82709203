/*
 * `hipvis experiment`: runs a job several times per arm (baseline, probes,
 * each guard mode, runtime knobs that bear on the hypotheses of
 * ROCm/hip#3902), each run traced, counts the symptom per arm and writes a
 * decision report (docs/experiment.md). The launcher (tools/hipvis.c)
 * dispatches to it.
 */
#ifndef HV_EXPERIMENT_EXPERIMENT_H
#define HV_EXPERIMENT_EXPERIMENT_H

/* argv[0] is "experiment"; libhipvis is the tracer every run preloads.
 * Returns the process exit status. */
int hv_experiment_main(int argc, char **argv, const char *libhipvis);

#endif
