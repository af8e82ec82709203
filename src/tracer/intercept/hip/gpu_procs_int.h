/*
 * Which AMDGPU processors ("gfx942") this machine's GPUs are, so that of a
 * fat binary's per-processor code objects only the one that runs is stored
 * and named. Read without the runtime — the answer is needed at start-up,
 * inside __hipRegisterFunction, before the runtime is usable: from
 * HSA_OVERRIDE_GFX_VERSION when set (the runtime then reports every GPU as
 * that processor), else from the KFD topology in sysfs the runtime itself
 * enumerates.
 */
#ifndef HV_TRACER_INTERCEPT_HIP_GPU_PROCS_INT_H
#define HV_TRACER_INTERCEPT_HIP_GPU_PROCS_INT_H

#define HV_GPU_PROCS_MAX 8

/* Number of distinct processors found (0: unknown, e.g. no GPU) and their
 * names in procs[]. Computed once; thread-safe. */
int hv_gpu_procs(const char *const **procs);

/* "gfx" name of a KFD gfx_target_version (major*10000 + minor*100 +
 * stepping, stepping in hex: 90010 -> gfx90a); 0 on success. */
int hv_gfx_name(unsigned version, char *out, unsigned outlen);

#endif
