/*
 * vclock — vector clocks over stream indexes, as persistent treaps.
 *
 * Entry (s, q) means "every op of stream s with seq <= q is ordered before
 * this point". Usually a stream's clock names one to four other streams, but
 * an adversarial (or just long-running) program can chain them: stream i
 * waits on an event of stream i-1 for 100k streams, and then every clock
 * names every earlier stream. Flat copies make that O(n^2) in time and
 * memory (10k streams: 59 s, 885 MB). So clocks are immutable, shared
 * treaps:
 *   - copy is a reference (O(1)); an event record keeps its stream's clock
 *     without copying it;
 *   - raise copies one root-to-leaf path (O(log n));
 *   - join is a union that returns a shared subtree untouched as soon as
 *     both sides hold the same one, so joining a clock with a relative that
 *     differs in d entries costs O(d log n), not O(n).
 * A node's priority is a fixed hash of its stream index, so a set of
 * streams always has the same shape, and two clocks derived from one
 * another keep sharing their subtrees. Nodes are reference counted and
 * freed when the last clock that reaches them goes (memory O(live clocks'
 * distinct paths)).
 *
 * Not thread-safe: a clock belongs to one model (one engine).
 */
#ifndef HV_ANALYZE_MODEL_VCLOCK_H
#define HV_ANALYZE_MODEL_VCLOCK_H

#include <stdint.h>

struct hv_vc_node;

struct hv_vclock {
    struct hv_vc_node *root;
};

void hv_vc_init(struct hv_vclock *v);
void hv_vc_free(struct hv_vclock *v);
/* seq for stream, 0 when absent. O(log n). */
uint64_t hv_vc_get(const struct hv_vclock *v, uint32_t stream);
/* v[stream] = max(v[stream], seq). Returns 0, -1 out of memory (v unchanged). */
int hv_vc_raise(struct hv_vclock *v, uint32_t stream, uint64_t seq);
/* v = max(v, w) entrywise. Returns 0, -1 out of memory (v unchanged). */
int hv_vc_join(struct hv_vclock *v, const struct hv_vclock *w);
/* v = w (shares w's nodes). Returns 0. */
int hv_vc_copy(struct hv_vclock *v, const struct hv_vclock *w);
/* v = {} */
static inline void hv_vc_reset(struct hv_vclock *v) { hv_vc_free(v); }
/* Calls fn for every entry, in stream order. O(n). */
void hv_vc_each(const struct hv_vclock *v, void (*fn)(void *ctx, uint32_t stream, uint64_t seq), void *ctx);
/* Entries in v (walks the tree: for tests and statistics). */
uint32_t hv_vc_count(const struct hv_vclock *v);
/* Stream indexes are recycled when streams are destroyed. Stale entries are
 * harmless: seqs only grow, so an entry left by the old stream names seqs
 * below every op of the new one and can never order the new stream's work. */

#endif
