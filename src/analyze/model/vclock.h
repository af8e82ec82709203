/*
 * vclock — sparse vector clocks over stream indexes.
 *
 * Happens-before between GPU streams only arises through a few edges (event
 * record -> stream wait, the legacy default stream's implicit barriers), so a
 * stream's clock usually names one to four other streams. A sorted small
 * array beats a dense |streams| vector in both memory (one copy per recorded
 * event) and time. Entry (s, q) means "every op of stream s with seq <= q is
 * ordered before this point".
 *
 * Storage only grows (realloc on a new entry), never per record.
 */
#ifndef HV_ANALYZE_VCLOCK_H
#define HV_ANALYZE_VCLOCK_H

#include <stdint.h>

struct hv_vc_entry {
    uint32_t stream;
    uint32_t pad;
    uint64_t seq;
};

struct hv_vclock {
    struct hv_vc_entry *e;
    uint32_t n, cap;
};

void hv_vc_init(struct hv_vclock *v);
void hv_vc_free(struct hv_vclock *v);
/* seq for stream, 0 when absent. */
uint64_t hv_vc_get(const struct hv_vclock *v, uint32_t stream);
/* v[stream] = max(v[stream], seq). Returns 0, -1 out of memory. */
int hv_vc_raise(struct hv_vclock *v, uint32_t stream, uint64_t seq);
/* v = max(v, w) entrywise. */
int hv_vc_join(struct hv_vclock *v, const struct hv_vclock *w);
/* v = w. */
int hv_vc_copy(struct hv_vclock *v, const struct hv_vclock *w);
static inline void hv_vc_reset(struct hv_vclock *v) { v->n = 0; }
/* Stream indexes are recycled when streams are destroyed. Stale entries are
 * harmless: seqs only grow, so an entry left by the old stream names seqs
 * below every op of the new one and can never order the new stream's work. */

#endif
