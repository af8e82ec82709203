#include "tracer/core/kargs.h"

#include <string.h>
#include <sys/uio.h>

#include "tracer/core/allocmap.h"
#include "tracer/core/safecopy.h"
#include "tracer/core/kernels.h"

/* What a launch's scan carries from word to word. `span` holds the last
 * lookup's answer: a TensorIterator-style block holds hundreds of words
 * (sizes, strides, offsets and a few pointers into the same allocations),
 * and each word that falls in the same allocation or the same gap as the
 * previous lookup needs no binary search — a 1 KiB block costs a few
 * searches instead of 128. `memo` (the thread's launch_memo, or NULL)
 * carries the last HV_SPAN_MEMO_WAYS answers across launches: the next
 * launch's pointers fall in the same pool, so it searches none */
struct scan_state {
    struct hv_alloc_span span;
    struct hv_span_memo *memo;
    uint64_t version;   /* the map's, read once per launch, for the memo */
#if HV_LEAN & 4
    int raw;            /* HV_LEAN=4 (a measurement build) on a learnt launch: words recorded as read */
#define SCAN_RAW(st) ((st)->raw)
#else
#define SCAN_RAW(st) 0
#endif
};

HV_STEP_FN static int add_if_tracked(uint64_t value, uint32_t offset, uint16_t index, uint8_t access, uint8_t origin,
                          struct hv_karg *out, int n, int max, struct scan_state *st)
{
    if (n >= max || value == 0)
        return n;
    if (SCAN_RAW(st)) {
        out[n] = (struct hv_karg){value, 0, 0, offset, index, access, origin};
        return n + 1;
    }
    struct hv_alloc_span *span = &st->span;
    if (!hv_alloc_span_holds_hot(span, value) &&
        !(st->memo ? hv_alloc_span_memo(hv_hot.allocs, st->version, value, st->memo, span)
                   : hv_alloc_span_at(hv_hot.allocs, value, span)))
        *span = (struct hv_alloc_span){0};   /* no consistent answer: untracked, and nothing to reuse */
    int tracked = span->in;
    /* Metadata says it is a pointer: keep it even when we do not know the
     * allocation (memory from another allocator is still memory). */
    if (!tracked && origin == HV_ARG_INFERRED)
        return n;
    out[n] = (struct hv_karg){value, tracked ? span->r.base : 0, tracked ? span->r.bytes : 0, offset, index, access,
                              origin};
    return n + 1;
}

/*
 * Learnt pointer words. A by-value block is scanned in full on a kernel's
 * first HV_LEARN_SCANS launches and on one launch in HV_RESCAN_EVERY of
 * each thread after that; every word found to hold a tracked pointer sets
 * its bit in the kernel's hv_karg_learn. The other launches read only the
 * learnt words (and any word past HV_LEARN_WORDS). PyTorch's eager kernels
 * pass a ~1 KiB TensorIterator config whose data pointers sit at the same
 * offsets launch after launch: a full scan reads ~130 words, a learnt one
 * two to four. Graph nodes and launches on a capturing stream always scan
 * in full: a replay runs them again and again, and they are rare. What a
 * learnt launch can miss is a pointer at an offset no full scan of that
 * kernel has seen yet; the thread's next full scan learns it
 * (docs/kernel-args.md, "Learnt pointer words").
 */
#define HV_LEARN_SCANS 8u
#define HV_RESCAN_EVERY 64u
static __thread uint32_t rescan_tick __attribute__((tls_model("initial-exec")));

static void learn_word(struct hv_karg_learn *l, uint32_t byte_offset)
{
    uint32_t bit = byte_offset >> 3;
    if (!l || bit >= HV_LEARN_WORDS)
        return;
    uint64_t m = 1ull << (bit & 63);
    if (!(atomic_load_explicit(&l->ptr_words[bit >> 6], memory_order_relaxed) & m))
        atomic_fetch_or_explicit(&l->ptr_words[bit >> 6], m, memory_order_relaxed);
}

/* One word of a by-value block: a value inside a tracked allocation is
 * reported (and learnt when `l`). */
static inline int scan_word(const uint8_t *p, uint32_t off, uint32_t base_offset, uint16_t index, struct hv_karg *out,
                            int n, int max, struct scan_state *st, struct hv_karg_learn *l)
{
    uint64_t v;
    memcpy(&v, p + off, 8);
    /* Most words are sizes, strides and zeros below the lowest allocation:
     * in the gap the span already holds, they are skipped without a call.
     * The span was read during this launch; a word judged against it is
     * judged as of that moment, which is all a launch racing another
     * thread's allocation can ask. */
    if (v == 0 || (!st->span.in && v - st->span.lo < st->span.hi - st->span.lo))
        return n;
    int m = add_if_tracked(v, base_offset + off, index, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED, out, n, max, st);
    if (m > n && l)
        learn_word(l, base_offset + off);
    return m;
}

/* Scans [p, p+len) word by word for values inside tracked allocations. */
HV_STEP_FN static int scan_words(const uint8_t *p, size_t len, uint32_t base_offset, uint16_t index, struct hv_karg *out, int n,
                      int max, struct scan_state *st, struct hv_karg_learn *l)
{
    for (size_t off = 0; off + 8 <= len && n < max; off += 8)
        n = scan_word(p, (uint32_t)off, base_offset, index, out, n, max, st, l);
    return n;
}

/* The same, reading only the words learnt to hold pointers (and every word
 * past what is learnt). Word w of the block starts at byte base_offset + 8w,
 * whose bit is (base_offset + 8w) >> 3. */
HV_STEP_FN static int scan_learnt(const uint8_t *p, size_t len, uint32_t base_offset, uint16_t index, struct hv_karg *out, int n,
                       int max, struct scan_state *st, const struct hv_karg_learn *l)
{
    size_t words = len / 8;
    for (size_t w = 0; w < words && n < max;) {
        uint32_t bit = (base_offset + 8 * (uint32_t)w) >> 3;
        if (bit >= HV_LEARN_WORDS) {
            n = scan_word(p, 8 * (uint32_t)w, base_offset, index, out, n, max, st, NULL);
            w++;
            continue;
        }
        /* The learnt bits from this word's on, in this 64-bit chunk. */
        uint64_t bits = atomic_load_explicit(&l->ptr_words[bit >> 6], memory_order_relaxed) >> (bit & 63);
        if (!bits) {
            w += 64 - (bit & 63);     /* to the next chunk's first word */
            continue;
        }
        w += (size_t)__builtin_ctzll(bits);
        if (w < words)
            n = scan_word(p, 8 * (uint32_t)w, base_offset, index, out, n, max, st, NULL);
        w++;
    }
    return n;
}

/*
 * A params array without a layout: its length is written nowhere the tracer
 * can read. The HIP runtimes hipvis supports have no query for it
 * (hipFuncGetAttributes reports no argument size; hipKernelGetParamInfo,
 * where it exists, answers an index past the end through the thread's last
 * error, which the program would then read from hipGetLastError), and the
 * code object is what the tracer could not decode. So the scan is bounded:
 * entries are read up to HV_PARAMS_SCAN_MAX, a NULL entry, or the first one
 * whose first 8 bytes cannot be read, and each entry's first word that falls
 * in a tracked allocation is argument `index`'s pointer, origin inferred, at
 * an unknown offset. Past the array's end lies whatever the caller's stack
 * or heap holds, so every read goes through process_vm_readv on the process
 * itself, which stops instead of faulting: two system calls per launch of
 * such a kernel (the entries, then one word of each), none for a kernel
 * with a layout. Missed: a pointer past an argument's first 8 bytes. Possibly
 * invented: an entry past the end that points at a variable holding a
 * device pointer; the analyzer reports every inferred pointer as such and
 * says how to confirm it from the kernel's code (docs/kernel-args.md).
 * Two system calls cost about what a serving step's other recording does,
 * so eager launches are scanned as learnt words are (each thread's first
 * HV_LEARN_SCANS and one in HV_RESCAN_EVERY after that); graph nodes and
 * captured launches, which a replay runs again and again, every time.
 */
#define HV_PARAMS_SCAN_MAX 32

static int scan_params(void **params, struct hv_karg *out, int max, struct scan_state *st)
{
    void *entry[HV_PARAMS_SCAN_MAX];
    uint64_t word[HV_PARAMS_SCAN_MAX];
    struct iovec local[HV_PARAMS_SCAN_MAX], remote[HV_PARAMS_SCAN_MAX];
    for (unsigned i = 0; i < HV_PARAMS_SCAN_MAX; i++) {
        local[i] = (struct iovec){&entry[i], sizeof entry[i]};
        remote[i] = (struct iovec){&params[i], sizeof params[i]};
    }
    ssize_t got = hv_safe_readv(local, remote, HV_PARAMS_SCAN_MAX);
    unsigned m = got > 0 ? (unsigned)((size_t)got / sizeof entry[0]) : 0, k = 0;
    for (; k < m && entry[k]; k++) {
        local[k] = (struct iovec){&word[k], sizeof word[k]};
        remote[k] = (struct iovec){entry[k], sizeof word[k]};
    }
    got = k ? hv_safe_readv(local, remote, k) : 0;
    m = got > 0 ? (unsigned)((size_t)got / sizeof word[0]) : 0;
    int n = 0;
    for (unsigned i = 0; i < m && n < max; i++)
        n = add_if_tracked(word[i], HV_KARG_OFFSET_UNKNOWN, (uint16_t)i, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED, out, n,
                           max, st);
    return n;
}

int hv_kargs_collect(const struct hv_kernel_info *k, void **params, const void *block, size_t block_bytes,
                     struct hv_karg *out, int max, int learnt, struct hv_span_memo *memo)
{
    struct scan_state st = {.memo = memo, .version = memo ? hv_alloc_version_hot() : 0};
    int n = 0;
    if (!k || k->nargs == 0) {
        /* No layout: a packed block is scanned word by word; a params
         * array, entry by entry within a bound (scan_params). A kernel
         * whose layout says it takes no explicit argument has none. */
        if (block)
            return scan_words(block, block_bytes, 0, 0, out, 0, max, &st, NULL);
        if (!params || (k && k->kernarg_bytes))
            return 0;
        uint32_t tick = ++rescan_tick;
        return !learnt || tick <= HV_LEARN_SCANS || tick % HV_RESCAN_EVERY == 0 ? scan_params(params, out, max, &st)
                                                                                : 0;
    }
    struct hv_karg_learn *l = k->learn;
    int full = !learnt || !l || atomic_load_explicit(&l->full_scans, memory_order_relaxed) < HV_LEARN_SCANS ||
               ++rescan_tick % HV_RESCAN_EVERY == 0;
#if HV_LEAN & 4
    st.raw = !full;
#endif
    for (uint32_t i = 0; i < k->nargs && n < max; i++) {
        const struct hv_kernel_arg *a = &k->args[i];
        const uint8_t *src = params ? params[i]
                             : (block && a->offset + a->size <= block_bytes ? (const uint8_t *)block + a->offset : NULL);
        if (!src || a->kind == HV_ARGK_HIDDEN)
            continue;
        if (a->kind == HV_ARGK_POINTER && a->size == 8) {
            uint64_t v;
            memcpy(&v, src, 8);
            n = add_if_tracked(v, a->offset, (uint16_t)i, a->access, HV_ARG_METADATA, out, n, max, &st);
        } else if (a->size >= 8) {
            n = full ? scan_words(src, a->size, a->offset, (uint16_t)i, out, n, max, &st, l)
                     : scan_learnt(src, a->size, a->offset, (uint16_t)i, out, n, max, &st, l);
        }
    }
    if (full && l && atomic_load_explicit(&l->full_scans, memory_order_relaxed) < HV_LEARN_SCANS)
        atomic_fetch_add_explicit(&l->full_scans, 1, memory_order_relaxed);
    return n;
}

void hv_kargs_emit(struct hv_thread_ctx *t, uint64_t seq, uint64_t owner_node, uint64_t func, uint32_t name_id,
                   const struct hv_karg *args, int n)
{
    if (n <= 0)
        return;
    struct hv_kargs *rec = hv_aux_begin(t, HV_REC_KARGS, (uint32_t)(sizeof *rec + (size_t)n * sizeof *args), seq);
    if (!rec)
        return;
    rec->owner_node = owner_node;
    rec->func = func;
    rec->count = (uint32_t)n;
    rec->name_id = name_id;
    memcpy(rec + 1, args, (size_t)n * sizeof *args);
    hv_aux_commit(t, rec);
}
