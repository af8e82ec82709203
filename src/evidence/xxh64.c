/*
 * XXH64 (seed 0), the hash of copy sources in HV_REC_PAYLOAD: the same
 * function that keys code objects (src/codeobj/hash.c), so the one
 * implementation serves both. Checked against the published xxHash vectors
 * in tests/evidence/t_evidence_units.c.
 */
#include "codeobj/codeobj.h"
#include "evidence/evidence.h"

uint64_t hv_hash64(const void *data, size_t len) { return hv_co_hash64(data, len); }
