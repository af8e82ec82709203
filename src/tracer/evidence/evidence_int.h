/*
 * Evidence's own declarations, shared by src/tracer/evidence/{ev_hooks,
 * payload,probe,stacks,hostmem,srchash}.c and by nothing outside the
 * folder (the rest of the library uses evidence.h).
 */
#ifndef HV_TRACER_EVIDENCE_EVIDENCE_INT_H
#define HV_TRACER_EVIDENCE_EVIDENCE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tracer/evidence/evidence.h"
#include "tracer/evidence/srchash_int.h"   /* hv_hash64 */

/* Copies n bytes of host memory at src (kind `mem`) into dst without ever
 * faulting: directly for memory the runtime allocated or registered for
 * the host and for memory hostmem.c knows is host memory, through
 * hv_safe_read when unsure; never for managed memory (a CPU read migrates
 * its pages). 1 when all was read. */
int hv_read_host(void *dst, uint64_t src, uint64_t n, uint8_t mem);
/* Whether [p, p+n) is ordinary readable host memory (hostmem.c): 1 yes,
 * 0 no, -1 unknown right now (use hv_safe_read). */
int hv_host_readable(uint64_t p, uint64_t n);
void hv_hostmem_setup(void);

void hv_payload_setup(const struct hv_config *cfg);
/* Stages and hashes ev's source when the options want it (sets staged, hash, hashed). */
HV_HOT_FN void hv_payload_hash(struct hv_copy_ev *ev);
HV_HOT_FN void hv_payload_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev);
HV_HOT_FN void hv_payload_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);

void hv_probe_setup(const struct hv_config *cfg);
void hv_probe_copy(struct hv_thread_ctx *t, const struct hv_copy_ev *ev);
void hv_probe_observed(struct hv_thread_ctx *t, uint64_t seq, const struct hv_obs *o, uint64_t upto);
void hv_probe_replay_before(struct hv_thread_ctx *t, uint64_t stream, uint8_t form, uint64_t exec, uint16_t api);
void hv_probe_replay_after(struct hv_thread_ctx *t, uint64_t seq, int32_t r);

#endif
