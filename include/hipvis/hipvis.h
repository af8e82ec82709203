/*
 * hipvis/hipvis.h — the small public API of libhipvis.so, for programs that
 * want their trace to speak their language: buffer names, regions, marks,
 * and the per-thread recording switch. Installed by `make install`; the
 * Python module `hipvis` (python/hipvis) wraps the same functions.
 *
 * Every function is safe to call from any thread, at any time (before the
 * first GPU call too), costs nothing the GPU runtime sees, and never changes
 * what the program does. Strings are copied: the caller keeps ownership.
 *
 * The program need not link libhipvis.so. The declarations are weak, so a
 * program built with this header runs without hipvis (the functions are
 * then NULL); call through the HIPVIS_CALL macro, or test the symbol:
 *
 *     #include <hipvis/hipvis.h>
 *     HIPVIS_CALL(hipvis_name, d_cu_seqlens, 257 * sizeof(int), "cu_seqlens_q");
 *     HIPVIS_CALL(hipvis_region_push, "decode");
 *     ...
 *     HIPVIS_CALL(hipvis_region_pop);
 *
 * and run it under LD_PRELOAD=libhipvis.so (or `hipvis run`). Define
 * HIPVIS_STRONG before the include to link -lhipvis directly instead.
 */
#ifndef HV_HIPVIS_HIPVIS_H
#define HV_HIPVIS_HIPVIS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(HIPVIS_STRONG) || !defined(__GNUC__)
#define HIPVIS_DECL
#else
#define HIPVIS_DECL __attribute__((weak))
#endif

/* Calls hipvis function `fn` when libhipvis.so is loaded, else does nothing. */
#define HIPVIS_CALL(fn, ...) do { if (fn) fn(__VA_ARGS__); } while (0)

/* Names the device (or host) range [ptr, ptr + bytes) `name` from this
 * point of the trace on: every finding on a byte of it says `name` (text:
 * `buffer  "cu_seqlens_q" 0x...`, JSON: "buffer": {"name": "cu_seqlens_q", ...}).
 * bytes 0 names the whole allocation that holds ptr. A later call for the
 * same ptr renames it; name NULL or "" removes the name. The Python line
 * that called it is recorded with it when HIPVIS_PYFRAMES=1 (the default). */
HIPVIS_DECL void hipvis_name(const void *ptr, size_t bytes, const char *name);

/* Opens a region on the calling thread (nested; closed by hipvis_region_pop).
 * Findings name the innermost region open around each of their calls:
 * `region decode > step`. NVTX (nvtxRangePush, via NVTX_INJECTION64_PATH,
 * which hipvis run sets) and roctx (roctxRangePushA) ranges are recorded the
 * same way. */
HIPVIS_DECL void hipvis_region_push(const char *name);
HIPVIS_DECL void hipvis_region_pop(void);

/* An instant mark ("step"): findings say how many marks of the same text
 * came before their calls (`after mark "step" #12`). */
HIPVIS_DECL void hipvis_mark(const char *name);

/* 0: stop recording the calling thread's runtime calls (they still go
 * through hipvis, unrecorded); 1: record again. For in-process A/B timing
 * of hipvis's cost; a trace with switched-off blocks is for timing, not for
 * analysis (the calls made while off are missing). Other threads are not
 * affected. */
HIPVIS_DECL void hipvis_record_this_thread(int on);

/* Measurement only: turns the defaults' evidence features off for the whole
 * process while their bit is set (1: Python frames, 2: the host-source
 * rewrite check), as configured again once cleared. For comparing in one
 * process what each costs; blocks run with a feature off lack its records.
 * Returns 0, or -1 when not recording. */
HIPVIS_DECL int hipvis_measure_features_off(unsigned mask);

#ifdef __cplusplus
}
#endif

#endif
