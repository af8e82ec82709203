/* Ring layout and the consumer side; the producer side is inline in ring.h. */
#include "ring/ring.h"

#include <string.h>

size_t hv_ring_footprint(uint64_t capacity)
{
    return hv_rec_padded(sizeof(struct hv_ring)) + (size_t)capacity;
}

struct hv_ring *hv_ring_init(void *mem, uint64_t capacity, uint32_t tid)
{
    struct hv_ring *r = mem;
    memset(r, 0, sizeof *r);
    r->capacity = capacity;
    r->tid = tid;
    r->data_offset = HV_RING_DATA_OFFSET;
    atomic_store_explicit(&r->state, HV_RING_LIVE, memory_order_relaxed);
    return r;
}

void *hv_ring_reserve_slow(struct hv_ring *r, uint32_t len, uint64_t head)
{
    uint64_t cap = r->capacity;
    uint64_t off = head & (cap - 1);
    uint64_t to_end = cap - off;
    /* A record that would straddle the end costs the padding too. */
    uint64_t need = len <= to_end ? len : to_end + len;
    if (len > cap / 2) {
        hv_ring_bump(&r->dropped[HV_DROP_TOO_LARGE]);
        return NULL;
    }
    /* Acquire pairs with the consumer's release of tail: the bytes it gave
     * back are no longer being read when we overwrite them. */
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (head + need - tail > cap) {
        r->limit = head;   /* the next record looks again */
        hv_ring_bump(&r->dropped[HV_DROP_RING_FULL]);
        return NULL;
    }
    /* Where the record starts (after the padding, at the next lap), and the
     * limit from there: the free space or that lap's end, the lesser. */
    uint64_t at = len > to_end ? head + to_end : head;
    uint64_t lap_end = (at & ~(cap - 1)) + cap;
    r->limit = tail + cap < lap_end ? tail + cap : lap_end;
    uint8_t *data = hv_ring_data(r);
    if (len > to_end) {
        struct hv_rec_header *pad = (struct hv_rec_header *)(data + off);
        pad->type = HV_RING_PAD_TYPE;
        pad->size = 0; /* padding runs to the end of the buffer, whatever its length */
        /* The padding is published together with the record by commit. */
        atomic_store_explicit(&r->head, at, memory_order_relaxed);
        return data;
    }
    return data + off;
}

/* hv_ring_read stopping at the first record boundary at or past `limit`. */
static long read_until(struct hv_ring *r, uint64_t *pos, uint64_t limit, hv_ring_visit_fn fn, void *ctx)
{
    uint64_t cap = r->capacity;
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* Acquire pairs with the producer's release in commit: every byte below
     * head is fully written. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    const uint8_t *data = hv_ring_data(r);
    uint64_t at = *pos;
    long n = 0;

    /* The indexes may come from another process's shared segment: a
     * position that is not 8-aligned would make every header read below a
     * misaligned access. */
    if (cap == 0 || (cap & (cap - 1)) != 0 || head < tail || head - tail > cap || at < tail || at > head ||
        at % HV_REC_ALIGN != 0)
        return -1;
    while (at < head && at < limit) {
        uint64_t off = at & (cap - 1);
        const struct hv_rec_header *rec = (const struct hv_rec_header *)(data + off);
        if (rec->type == HV_RING_PAD_TYPE) {
            at += cap - off;
            continue;
        }
        uint64_t size = rec->size;
        if (size < sizeof(struct hv_rec_header) || size % HV_REC_ALIGN != 0 || off + size > cap || at + size > head) {
            *pos = at;
            return -1;
        }
        if (fn)
            fn(rec, ctx);
        at += size;
        n++;
    }
    *pos = at;
    return n;
}

long hv_ring_read(struct hv_ring *r, uint64_t *pos, hv_ring_visit_fn fn, void *ctx)
{
    return read_until(r, pos, UINT64_MAX, fn, ctx);
}

void hv_ring_release(struct hv_ring *r, uint64_t pos)
{
    /* Release: we are done reading these bytes before the producer may reuse them. */
    atomic_store_explicit(&r->tail, pos, memory_order_release);
}

/* The drain gives space back every this many bytes, not only at the end:
 * a pass that is slow (the writer thread preempted, or its buffers' pages
 * written for the first time: 20-70 ms for a full 4 MiB ring on a loaded
 * VM) then frees the ring's first part for its producer while it copies the
 * rest, instead of holding all of it until the end. One release store per
 * 256 KiB (~2,200 call records). */
#define HV_RING_RELEASE_STEP (256u * 1024u)

long hv_ring_drain(struct hv_ring *r, hv_ring_visit_fn fn, void *ctx)
{
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* What was published when the drain began: a producer that keeps
     * writing does not keep the consumer on this ring. */
    uint64_t end = atomic_load_explicit(&r->head, memory_order_acquire);
    long total = 0;
    do {
        uint64_t from = pos;
        long n = read_until(r, &pos, end - pos > HV_RING_RELEASE_STEP ? pos + HV_RING_RELEASE_STEP : end, fn, ctx);
        if (pos != from)
            hv_ring_release(r, pos);
        if (n < 0)
            return -1;
        total += n;
        if (pos == from)
            break;
    } while (pos < end);
    return total;
}

uint64_t hv_ring_dropped_total(const struct hv_ring *r)
{
    uint64_t sum = 0;
    for (int i = 0; i < HV_DROP__COUNT; i++)
        sum += atomic_load_explicit(&r->dropped[i], memory_order_relaxed);
    return sum;
}
