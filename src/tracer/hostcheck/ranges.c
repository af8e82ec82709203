/*
 * The table of in-flight ranges and the page protections that follow from
 * it (hc_int.h).
 *
 * A page's protection is what the ranges covering it ask for together:
 * none when an op writes it, read-only when ops only read it, the
 * program's read-write otherwise, and read-write as well once a fault gave
 * it back ("opened") until every range on it is released. Every change
 * (add, release, fault) recomputes the pages it touched from the table and
 * applies them with mprotect under one spin lock, so two threads never
 * leave a page in the other's stale state. Readers that only ask "is this
 * page ours at all" (the fault handler deciding whether to chain) read the
 * table through the sequence counter `gen` and take no lock.
 */
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracer/core/tracer.h"
#include "tracer/hostcheck/hc_int.h"

uint64_t hc_page = 4096;

static struct hc_op ops[HC_SLOTS];
static _Atomic uint8_t live[HC_SLOTS];
static _Atomic uint32_t top;               /* slots [0, top) may be live */
static _Atomic uint64_t gen;               /* odd while the table changes */
static _Atomic uint32_t owner;             /* the spin lock: holder's tid, 0 free */
static uint64_t opened[HC_OPENED];         /* page addresses */
static _Atomic uint32_t nopened;
static struct { _Atomic uint64_t lo, hi; } released[HC_RELEASED];
static _Atomic uint32_t nreleased;         /* entries written so far (ring index) */
static int stopped;                        /* the image ends: nothing more is protected (lock held) */

#define PROT_RW (PROT_READ | PROT_WRITE)
#define PROT_KEY 0x1000   /* page_prot(): read-write under hc_key (no PROT_* bit) */

int hc_key = -1;

/* Sets [addr, addr+len) to a page_prot() state. With a key allocated every
 * change names the key (hc_key or the default 0), so a page that carried
 * hc_key loses it when it is given back. */
static int set_prot(uint64_t addr, uint64_t len, int prot)
{
    void *p = (void *)(uintptr_t)addr;
    if (hc_key < 0)
        return mprotect(p, len, prot);
    return pkey_mprotect(p, len, prot == PROT_KEY ? PROT_RW : prot, prot == PROT_KEY ? hc_key : 0);
}

/* The thread's id: the tracer's copy (a traced thread), else the kernel's. */
static uint32_t self_tid(void)
{
    uint32_t t = hv_tls.tid;
    return t ? t : (uint32_t)syscall(SYS_gettid);
}

static void lock(uint32_t me)
{
    for (unsigned spins = 0;; spins++) {
        uint32_t free_ = 0;
        if (atomic_compare_exchange_weak_explicit(&owner, &free_, me, memory_order_acquire, memory_order_relaxed))
            return;
        if (spins > 64)
            sched_yield();   /* the holder does a few mprotect calls at most */
    }
}

static void unlock(void) { atomic_store_explicit(&owner, 0, memory_order_release); }

/* The table changes between begin() and end() (lock held). */
static void begin(void) { atomic_fetch_add_explicit(&gen, 1, memory_order_acq_rel); }
static void end(void) { atomic_fetch_add_explicit(&gen, 1, memory_order_release); }

static int covers_page(const struct hc_op *op, uint64_t page) { return page >= op->plo && page < op->phi; }

/* Whether addr lies in op's bytes (its rows, for a 2D op). */
static int covers_byte(const struct hc_op *op, uint64_t addr)
{
    if (addr < op->lo || addr >= op->hi)
        return 0;
    return !op->pitch || (addr - op->lo) % op->pitch < op->width;
}

static int is_opened(uint64_t page)
{
    uint32_t n = atomic_load_explicit(&nopened, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++)
        if (opened[i] == page)
            return 1;
    return 0;
}

/* The protection the table asks for at `page` (lock held). */
static int page_prot(uint64_t page)
{
    if (is_opened(page))
        return PROT_RW;
    int prot = PROT_RW;
    uint32_t n = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        if (!atomic_load_explicit(&live[i], memory_order_relaxed) || !covers_page(&ops[i], page))
            continue;
        if (ops[i].key)
            return PROT_KEY;   /* a managed page: no pinned range shares it */
        if (ops[i].write)
            prot = PROT_NONE;
        else if (prot != PROT_NONE)
            prot = PROT_READ;
    }
    return prot;
}

/* Where the protection may change inside [lo, hi): the pages' boundaries
 * of every range and opened page in it (lock held). */
static uint64_t bp[2 * HC_SLOTS + 2 * HC_OPENED + 2];

static uint32_t add_bp(uint32_t n, uint64_t x, uint64_t lo, uint64_t hi)
{
    if (x > lo && x < hi)
        bp[n++] = x;
    return n;
}

static void sort_unique(uint32_t *n)
{
    for (uint32_t i = 1; i < *n; i++)   /* insertion sort: a handful of points */
        for (uint32_t j = i; j > 0 && bp[j - 1] > bp[j]; j--) {
            uint64_t x = bp[j];
            bp[j] = bp[j - 1];
            bp[j - 1] = x;
        }
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (!k || bp[k - 1] != bp[i])
            bp[k++] = bp[i];
    *n = k;
}

/* Applies the table to the pages [lo, hi) (lock held): one mprotect per
 * run of equal protection. -1 when one failed. */
static int apply(uint64_t lo, uint64_t hi)
{
    uint32_t n = 0, nt = atomic_load_explicit(&top, memory_order_relaxed);
    bp[n++] = lo;
    bp[n++] = hi;
    for (uint32_t i = 0; i < nt; i++)
        if (atomic_load_explicit(&live[i], memory_order_relaxed)) {
            n = add_bp(n, ops[i].plo, lo, hi);
            n = add_bp(n, ops[i].phi, lo, hi);
        }
    uint32_t no = atomic_load_explicit(&nopened, memory_order_relaxed);
    for (uint32_t i = 0; i < no; i++) {
        n = add_bp(n, opened[i], lo, hi);
        n = add_bp(n, opened[i] + hc_page, lo, hi);
    }
    sort_unique(&n);
    int rc = 0;
    uint64_t run = bp[0];
    int prot = page_prot(bp[0]);
    for (uint32_t i = 1; i < n; i++) {
        int next = i + 1 < n ? page_prot(bp[i]) : -1;
        if (next == prot)
            continue;
        if (set_prot(run, bp[i] - run, prot) != 0)
            rc = -1;
        run = bp[i];
        prot = next;
    }
    return rc;
}

/* Whether b is a later op of a's stream over the same bytes with the same
 * protection: a loop copying one pinned buffer again and again before it
 * synchronizes. */
static int same_range(const struct hc_op *a, const struct hc_op *b)
{
    return a->stream == b->stream && a->lo == b->lo && a->hi == b->hi && a->pitch == b->pitch &&
           a->width == b->width && a->write == b->write && a->key == b->key && a->kind == b->kind && a->mem == b->mem;
}

int hc_table_add(const struct hc_op *op)
{
    uint32_t me = self_tid(), slot = HC_SLOTS;
    lock(me);
    if (stopped) {
        unlock();
        return -2;
    }
    /* A later op of the same stream over the same range takes the earlier
     * one's slot: the stream completes them in order, so the pages stay
     * protected exactly until the later one is observed, an access in
     * between is reported against an op that is certainly still in flight,
     * and the pages need no mprotect (they are protected already). */
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < nt; i++)
        if (atomic_load_explicit(&live[i], memory_order_relaxed) && same_range(&ops[i], op) && ops[i].ts <= op->ts) {
            begin();
            ops[i] = *op;
            end();
            unlock();
            return 0;
        }
    for (uint32_t i = 0; i < HC_SLOTS && slot == HC_SLOTS; i++)
        if (!atomic_load_explicit(&live[i], memory_order_relaxed))
            slot = i;
    if (slot == HC_SLOTS) {
        unlock();
        return -1;
    }
    begin();
    ops[slot] = *op;
    atomic_store_explicit(&live[slot], 1, memory_order_relaxed);
    if (slot >= atomic_load_explicit(&top, memory_order_relaxed))
        atomic_store_explicit(&top, slot + 1, memory_order_relaxed);
    end();
    int rc = 0;
    if (apply(op->plo, op->phi) != 0) {
        /* Part of the range may be another kind of mapping (a file, the
         * runtime's own): leave it all as it was. */
        begin();
        atomic_store_explicit(&live[slot], 0, memory_order_relaxed);
        end();
        apply(op->plo, op->phi);
        rc = -2;
    }
    unlock();
    return rc;
}

/* Drops opened pages no live range covers any more (lock held, inside begin/end). */
static void prune_opened(void)
{
    uint32_t n = atomic_load_explicit(&nopened, memory_order_relaxed), k = 0, nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        int covered = 0;
        for (uint32_t j = 0; j < nt && !covered; j++)
            covered = atomic_load_explicit(&live[j], memory_order_relaxed) && covers_page(&ops[j], opened[i]);
        if (covered)
            opened[k++] = opened[i];
    }
    atomic_store_explicit(&nopened, k, memory_order_relaxed);
}

/* Takes slot i out (lock held, inside begin/end) and remembers its pages
 * for a fault that raced the release. */
static void take_out(uint32_t i)
{
    atomic_store_explicit(&live[i], 0, memory_order_relaxed);
    uint32_t r = atomic_fetch_add_explicit(&nreleased, 1, memory_order_relaxed) % HC_RELEASED;
    atomic_store_explicit(&released[r].lo, ops[i].plo, memory_order_relaxed);
    atomic_store_explicit(&released[r].hi, ops[i].phi, memory_order_relaxed);
}

/* Releases the slots marked in `out` (lock held): table first, then pages. */
static void release_marked(const uint8_t *out)
{
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    begin();
    for (uint32_t i = 0; i < nt; i++)
        if (out[i])
            take_out(i);
    prune_opened();
    end();
    for (uint32_t i = 0; i < nt; i++)
        if (out[i])
            apply(ops[i].plo, ops[i].phi);
}

static uint8_t marked[HC_SLOTS];   /* lock held */

uint32_t hc_table_release(const struct hv_obs *o, uint64_t upto)
{
    uint32_t me = self_tid(), n = 0;
    lock(me);
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < nt; i++) {
        marked[i] = atomic_load_explicit(&live[i], memory_order_relaxed) && ops[i].ts < upto &&
                    hv_obs_covers(o, ops[i].stream);
        n += marked[i];
    }
    if (n)
        release_marked(marked);
    unlock();
    return n;
}

void hc_table_forget(uint64_t lo, uint64_t hi)
{
    uint32_t me = self_tid(), n = 0;
    lock(me);
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < nt; i++) {
        marked[i] = atomic_load_explicit(&live[i], memory_order_relaxed) && ops[i].lo >= lo && ops[i].hi <= hi;
        n += marked[i];
    }
    if (n)
        release_marked(marked);
    unlock();
}

void hc_table_clear(int child)
{
    uint32_t me = self_tid();
    if (child)
        atomic_store_explicit(&owner, 0, memory_order_relaxed);   /* its holder is not in this process */
    lock(me);
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < nt; i++)
        marked[i] = atomic_load_explicit(&live[i], memory_order_relaxed);
    release_marked(marked);
    begin();
    atomic_store_explicit(&nopened, 0, memory_order_relaxed);
    atomic_store_explicit(&top, 0, memory_order_relaxed);
    end();
    /* At exit or exec the handler goes: a page protected after this would
     * fault with nobody to give it back. A fork child goes on checking. */
    stopped = !child;
    unlock();
}

/* ---- the fault path: async-signal-safe ---- */

static int in_released(uint64_t page)
{
    uint32_t n = atomic_load_explicit(&nreleased, memory_order_relaxed);
    for (uint32_t k = 0; k < HC_RELEASED && k < n; k++) {
        uint64_t lo = atomic_load_explicit(&released[k].lo, memory_order_relaxed);
        uint64_t hi = atomic_load_explicit(&released[k].hi, memory_order_relaxed);
        if (page >= lo && page < hi)
            return 1;
    }
    return 0;
}

/* Whether any live range or recent release covers `page`, read without
 * the lock: a page we protected was entered before its mprotect, so a
 * fault on it always finds its range here. */
static int maybe_ours(uint64_t page)
{
    for (;;) {
        uint64_t g = atomic_load_explicit(&gen, memory_order_acquire);
        if (g & 1) {
            sched_yield();
            continue;
        }
        int hit = in_released(page);
        uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
        for (uint32_t i = 0; i < nt && !hit; i++) {
            uint64_t plo = __atomic_load_n(&ops[i].plo, __ATOMIC_RELAXED);
            uint64_t phi = __atomic_load_n(&ops[i].phi, __ATOMIC_RELAXED);
            hit = atomic_load_explicit(&live[i], memory_order_relaxed) && page >= plo && page < phi;
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&gen, memory_order_relaxed) == g)
            return hit;
    }
}

enum hc_verdict hc_table_fault(uint64_t addr, int write, uint32_t tid, struct hc_op *hit)
{
    uint64_t page = addr & ~(hc_page - 1);
    if (atomic_load_explicit(&owner, memory_order_acquire) == tid) {
        /* This thread was changing the table when a handler of the program
         * touched protected memory: the table is mid-change, so the page
         * is given back without it (the next change of its ranges
         * recomputes it). */
        uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
        for (uint32_t i = 0; i < nt; i++)
            if (atomic_load_explicit(&live[i], memory_order_relaxed) && covers_page(&ops[i], page)) {
                set_prot(page, hc_page, PROT_RW);
                return HC_UNRELATED;
            }
        return HC_NOT_OURS;
    }
    if (!maybe_ours(page))
        return HC_NOT_OURS;
    lock(tid);
    int covered = 0, best = -1;
    uint32_t nt = atomic_load_explicit(&top, memory_order_relaxed);
    for (uint32_t i = 0; i < nt; i++) {
        if (!atomic_load_explicit(&live[i], memory_order_relaxed) || !covers_page(&ops[i], page))
            continue;
        covered = 1;
        /* Under a read-only range only a write faults (a key denies reads
         * too: such a read is not reported and opens the page); a range
         * the op writes is touched by any access. Prefer the op that
         * writes. */
        if (covers_byte(&ops[i], addr) && (write || ops[i].write) && (best < 0 || (!ops[best].write && ops[i].write)))
            best = (int)i;
    }
    if (!covered) {
        int retry = in_released(page);
        unlock();
        return retry ? HC_RETRY : HC_NOT_OURS;
    }
    if (best >= 0)
        *hit = ops[best];
    uint32_t no = atomic_load_explicit(&nopened, memory_order_relaxed);
    if (no < HC_OPENED) {
        begin();
        opened[no] = page;
        atomic_store_explicit(&nopened, no + 1, memory_order_relaxed);
        end();
        if (set_prot(page, hc_page, page_prot(page)) != 0)
            set_prot(page, hc_page, PROT_RW);
    } else {
        /* No room to remember the page: its ranges are given back whole. */
        for (uint32_t i = 0; i < nt; i++)
            marked[i] = atomic_load_explicit(&live[i], memory_order_relaxed) && covers_page(&ops[i], page);
        release_marked(marked);
    }
    unlock();
    return best >= 0 ? HC_HIT : HC_UNRELATED;
}
