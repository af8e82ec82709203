/* Stream memory operations: hipStreamWriteValue / hipStreamWaitValue and
 * their CUDA twins, and batches of them. */
#include <string.h>

#include "tracer/intercept/common/intercept.h"

void hv_trace_memop(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                    const struct hv_memop_args *m)
{
    struct hv_call *c = hv_begin_on(t, api, r, s, NULL);
    c->a.memop = *m;
    hv_call_commit(t, c);
}

/* The entry layout of hipStreamBatchMemOpParams and CUstreamBatchMemOpParams
 * (48 bytes; operation numbers alike: wait 32 = 1, write 32 = 2, wait 64 = 4,
 * write 64 = 5). */
struct batch_entry {
    uint32_t operation;
    uint32_t pad;
    uint64_t address;
    uint64_t value;           /* value (32) or value64 */
    uint32_t flags;
    uint32_t pad2;
    uint64_t alias;
    uint64_t pad3;
};
_Static_assert(sizeof(struct batch_entry) == 48, "batch memop entry");

void hv_trace_memop_batch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s, const void *entries,
                          unsigned count)
{
    const struct batch_entry *e = entries;
    unsigned recorded = 0;
    for (unsigned i = 0; e && i < count; i++) {
        struct hv_memop_args m = {.addr = e[i].address, .flags = e[i].flags, .mask = UINT64_MAX,
                                  .index = (uint16_t)i};
        switch (e[i].operation) {
        case 1: m.op = HV_MEMOP_WAIT, m.size = 4, m.value = (uint32_t)e[i].value, m.mask = UINT32_MAX; break;
        case 2: m.op = HV_MEMOP_WRITE, m.size = 4, m.value = (uint32_t)e[i].value; break;
        case 4: m.op = HV_MEMOP_WAIT, m.size = 8, m.value = e[i].value; break;
        case 5: m.op = HV_MEMOP_WRITE, m.size = 8, m.value = e[i].value; break;
        default: continue;  /* barrier, flush: no write, no edge */
        }
        hv_trace_memop(t, api, r, s, &m);
        recorded++;
    }
    if (!recorded)  /* the call itself is always recorded */
        hv_trace_memop(t, api, r, s, &(struct hv_memop_args){.mask = UINT64_MAX});
}
