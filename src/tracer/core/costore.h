/*
 * Code-object bytes in the trace (HV_REC_CODEOBJ), so the offline tools can
 * re-decode and disassemble exactly what ran. Each distinct object (content
 * hash) is written at most once, and only when one of its kernels is first
 * used — launched, captured into a graph, or looked up with
 * hipModuleGetFunction — so a process that registers gigabytes of fat
 * binaries at start-up pays only for what it runs.
 *
 * Pieces are written by the thread that uses the kernel, into its own ring,
 * only while the ring stays at least half free: a code object must never
 * crowd out call records. What does not fit follows on that or another
 * thread's later launches. An object over the per-object cap or the process
 * budget (HIPVIS_CODEOBJ_MB), or whose image was unloaded before it could be
 * written, is not stored and an HV_REC_CODEOBJ_NOTE says why.
 * docs/kernel-args.md has the policy and how a reader reassembles objects.
 *
 * Hot path: one relaxed load of a global counter, plus one of the kernel's
 * own flag, when nothing is pending.
 */
#ifndef HV_TRACER_CORE_COSTORE_H
#define HV_TRACER_CORE_COSTORE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "tracer/core/kernels.h"
#include "tracer/core/tracer.h"

#define HV_CO_OBJECT_CAP ((uint64_t)32 << 20) /* bytes: larger objects are never stored */
#define HV_CO_MAX_CANDIDATES 8                /* objects per kernel (one per GPU processor) */

struct hv_co_store; /* one distinct code object */

/* The objects a kernel's launches may run: several when a fat binary
 * carries one per processor and the GPU's processor is not known. */
struct hv_co_use {
    _Atomic int settled;  /* 1 once its objects' storage was started */
    uint32_t n;
    struct hv_co_store *s[HV_CO_MAX_CANDIDATES];
    struct hv_co_use *next_all; /* every use, for the fork child's reset */
};

/* The store of object `hash` (len bytes at `bytes`, target string e.g.
 * "amdgcn-amd-amdhsa--gfx950"), created on first sight. `bytes` must stay
 * readable until hv_costore_forget. Cold path; NULL when out of memory. */
struct hv_co_store *hv_costore_object(uint64_t hash, const void *bytes, size_t len, const char *target);

/* The bytes of `s` are about to become unreadable (its image is being
 * unregistered): waits for a writer that is copying them, and never reads
 * them again. */
void hv_costore_forget(struct hv_co_store *s);

/* A kernel's candidate objects (n <= HV_CO_MAX_CANDIDATES); lives forever.
 * NULL when n is 0 or memory ran out. */
struct hv_co_use *hv_costore_use(struct hv_co_store *const *s, uint32_t n);

/* Objects whose storage started and is not finished, process-wide. */
extern _Atomic unsigned hv_costore_pending;

void hv_costore_touch_slow(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *k);

/* Kernel `k` was used by committed call `seq`: starts storing its objects
 * the first time, and writes pending pieces while the ring has room. */
static inline void hv_costore_touch(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *k)
{
    if (__builtin_expect(atomic_load_explicit(&hv_costore_pending, memory_order_relaxed) != 0 ||
                             (k && k->co && !atomic_load_explicit(&k->co->settled, memory_order_relaxed)),
                         0))
        hv_costore_touch_slow(t, seq, k);
}

/* One HV_REC_CODEOBJ_NOTE after committed call `seq` (see trace.h). */
void hv_costore_note(struct hv_thread_ctx *t, uint64_t seq, uint32_t kind, uint64_t hash, uint64_t value,
                     uint32_t count, const char *reason);

#endif
