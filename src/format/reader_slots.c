/*
 * Chunk buffers ("slots"). Window entries point straight into the decoded
 * chunk they came from, so records are never copied on the normal path; a
 * slot is reused once none of its records is in the window or handed out.
 *
 * A record whose seq is far ahead stays in the window long after its chunk
 * was read, pinning the whole buffer. When pinned buffers pass
 * HV_RD_PIN_BYTES, the oldest one's remaining records are copied to their own
 * allocations ("evacuated"): memory stays bounded whatever the seq pattern,
 * and only damaged or pathological traces ever take that path.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "format/reader_int.h"
#include "common/grow.h"

int hv_rd_slot_take(struct hv_reader *r, uint32_t *id)
{
    if (!r->nidle) {
        /* Both arrays hold slots_cap entries: the slots grow first, and
         * slots_cap moves only once the idle list has grown as well. */
        uint32_t cap = r->slots_cap;
        if (!HV_GROW(r->slots, r->nslots, cap, 16) || !HV_GROW(r->idle, r->nslots, r->slots_cap, 16))
            return -1;
        memset(&r->slots[r->nslots], 0, sizeof r->slots[0]);
        r->idle[r->nidle++] = r->nslots++;
    }
    *id = r->idle[--r->nidle];
    struct hv_slot *s = &r->slots[*id];
    r->idle_bytes -= s->cap;
    s->busy = 1;
    s->inflight = 0;
    s->live = 0;
    s->age = r->next_age++;
    r->pinned += s->cap;
    return 0;
}

/* A chunk buffer is written whole as soon as it is filled: map its new
 * pages in one call rather than one page fault each (a fault costs several
 * microseconds in a VM; a chunk buffer of 1 MiB is 256 of them). Only for
 * large buffers; where the kernel lacks MADV_POPULATE_WRITE (before 5.14)
 * the pages fault in as before. */
static void prefault(uint8_t *b, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    const uintptr_t pg = 4096;
    if (n < (256u << 10))
        return;
    uintptr_t lo = ((uintptr_t)b + pg - 1) & ~(pg - 1), hi = ((uintptr_t)b + n) & ~(pg - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)b;
    (void)n;
#endif
}

/* Only while the slot is being filled: nothing points into it yet. */
int hv_rd_slot_reserve(struct hv_reader *r, uint32_t id, size_t bytes)
{
    struct hv_slot *s = &r->slots[id];
    if (s->cap >= bytes)
        return 0;
    uint8_t *b = realloc(s->buf, bytes);
    if (!b)
        return -1;
    prefault(b + s->cap, bytes - s->cap);
    r->pinned += bytes - s->cap;
    s->buf = b;
    s->cap = bytes;
    return 0;
}

void hv_rd_slot_drop(struct hv_reader *r, uint32_t id)
{
    struct hv_slot *s = &r->slots[id];
    if (!s->busy)
        return;
    s->busy = 0;
    r->pinned -= s->cap;
    /* Keep buffers warm for the next chunks, within a budget. */
    if (r->idle_bytes + s->cap > HV_RD_IDLE_BYTES) {
        free(s->buf);
        s->buf = NULL;
        s->cap = 0;
    }
    r->idle_bytes += s->cap;
    r->idle[r->nidle++] = id;
}

void hv_rd_release(struct hv_reader *r, const struct hv_rel *e)
{
    if (e->slot == HV_RD_SLOT_EVAC) {
        free((void *)e->rec);
        return;
    }
    struct hv_slot *s = &r->slots[e->slot];
    /* The slot the cursor still walks is dropped when the cursor leaves it. */
    if ((s->live -= e->n) == 0 && e->slot != r->cur)
        hv_rd_slot_drop(r, e->slot);
}

struct evac_ctx {
    struct hv_reader *r;
    uint32_t id;
    int failed;
};

static void evac_one(struct hv_ent *e, void *arg)
{
    struct evac_ctx *c = arg;
    if (e->slot != c->id)
        return;
    void *copy = malloc(e->bytes);
    if (!copy) {
        c->failed = 1;
        return;
    }
    memcpy(copy, e->rec, e->bytes);
    e->rec = copy;
    e->slot = HV_RD_SLOT_EVAC;
    c->r->slots[c->id].live--;
}

int hv_rd_evacuate(struct hv_reader *r)
{
    /* Only window entries are evacuated: the sorted suffix joins them first. */
    if (r->pinned > HV_RD_PIN_BYTES && r->rn && hv_rd_flush_sorted(r) < 0)
        return -1;
    while (r->pinned > HV_RD_PIN_BYTES) {
        uint32_t oldest = HV_RD_SLOT_NONE;
        for (uint32_t i = 0; i < r->nslots; i++)
            if (r->slots[i].busy && !r->slots[i].inflight && i != r->cur &&
                (oldest == HV_RD_SLOT_NONE || r->slots[i].age < r->slots[oldest].age))
                oldest = i;
        if (oldest == HV_RD_SLOT_NONE)
            return 0;
        struct evac_ctx c = { r, oldest, 0 };
        hv_reorder_foreach(&r->win, evac_one, &c);
        if (c.failed)
            return -1;
        hv_rd_slot_drop(r, oldest);
    }
    return 0;
}

static void free_evacuated(struct hv_ent *e, void *arg)
{
    (void)arg;
    if (e->slot == HV_RD_SLOT_EVAC)
        free((void *)e->rec);
}

void hv_rd_slots_free(struct hv_reader *r)
{
    hv_reorder_foreach(&r->win, free_evacuated, NULL);
    for (uint32_t i = 0; i < r->nslots; i++)
        free(r->slots[i].buf);
    free(r->slots);
    free(r->idle);
    r->slots = NULL;
    r->idle = NULL;
    r->nslots = r->slots_cap = r->nidle = 0;
}
