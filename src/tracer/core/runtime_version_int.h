/*
 * The runtime's version for the trace header, found without calling the
 * runtime.
 *
 * Why not hipRuntimeGetVersion / hipDriverGetVersion: the header is written
 * at the first traced call, under the tracer's setup lock, and that call may
 * be __hipRegisterFatBinary from a static constructor. In ROCm CLR both
 * version queries run HIP_INIT (device enumeration, runtime threads), which
 * would initialise the runtime earlier than the program does, and any
 * exported HIP function the runtime called back during that init would
 * re-enter the tracer's activation and wait on the lock it holds. So the
 * version is read from what is already on disk: the soname's full version
 * of the library the real functions came from (realpath of
 * libamdhip64.so.7 -> libamdhip64.so.7.2.70204), and the ROCm release from
 * <rocm>/.info/version next to it when present.
 */
#ifndef HV_TRACER_CORE_RUNTIME_VERSION_INT_H
#define HV_TRACER_CORE_RUNTIME_VERSION_INT_H

#include <stddef.h>

/* Fills buf with e.g. "7.2.70204 (libamdhip64.so.7.2.70204; ROCm 7.2.4)",
 * "" when runtime_path is empty. Never calls the runtime. */
void hv_runtime_version(const char *runtime_path, char *buf, size_t len);

#endif
