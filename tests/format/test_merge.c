/*
 * Per-thread sequences (HV_HDR_THREAD_SEQ): the reader merges threads by
 * (timestamp, tid, position in the thread), renumbers calls 1..N, gives
 * auxiliary records their call's number, translates same-thread references
 * and reports per-thread gaps as loss. Synthetic traces: the "truth" is a
 * global order of calls made by simulated threads; the file holds them the
 * way the writer thread drains rings (a batch of one thread, then another).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/trace_writer.h"
#include "harness.h"
#include "tutil.h"

static int write_flagged(const char *path, const struct hv_reclist *l, size_t chunk_bytes)
{
    struct hv_file_header h;
    struct hv_trace_writer *w;
    hv_gen_header(&h, 77);
    h.flags |= HV_HDR_THREAD_SEQ;
    unlink(path);
    int rc = hv_trace_writer_open(path, &h, 1, &w);
    if (rc < 0)
        return rc;
    hv_trace_writer_set_chunk_bytes(w, chunk_bytes);
    for (size_t i = 0; i < l->n; i++)
        if ((rc = hv_trace_writer_add(w, hv_reclist_get(l, i))) < 0)
            return rc;
    return hv_trace_writer_close(w, NULL);
}

static struct hv_call mk_call(uint32_t tid, uint64_t tseq, uint64_t ts, uint16_t api)
{
    struct hv_call c;
    memset(&c, 0, sizeof c);
    c.h = (struct hv_rec_header){HV_REC_CALL, sizeof c, tid, tseq, ts};
    c.api = api;
    c.device = 0;
    c.stream = 0x1000 + tid;
    c.a.raw[7] = tid * 1000000ull + tseq;   /* identifies the call in the merged output */
    return c;
}

static struct hv_epoch mk_epoch(uint32_t tid, uint64_t tseq, uint64_t ts, uint64_t completed)
{
    struct hv_epoch e;
    memset(&e, 0, sizeof e);
    e.h = (struct hv_rec_header){HV_REC_EPOCH, sizeof e, tid, tseq, ts};
    e.stream = 0x1000 + tid;
    e.epoch = tseq;
    e.completed_seq = completed;
    return e;
}

static size_t read_merged(const char *path, struct hv_reclist *out, struct hv_reader_stats *st,
                          const struct hv_seq_gap **gaps, uint32_t *ngaps, struct hv_reader **keep)
{
    struct hv_reader *r;
    struct hv_read_error err;
    if (hv_reader_open(path, &r, &err) < 0)
        return (size_t)-1;
    int nerr;
    size_t n = tu_read_all(r, 0, out, NULL, &nerr);
    hv_reader_stats(r, st);
    if (gaps)
        *ngaps = hv_reader_seq_gaps(r, gaps);
    if (keep)
        *keep = r;
    else
        hv_reader_close(r);
    return nerr ? (size_t)-1 : n;
}

/*
 * Thread 1 hands work to thread 2 through a lock: 1's release happens after
 * its call's timestamp, 2's call after the acquire, so ts orders them. The
 * writer drained thread 2's ring before thread 1's, so the file is not in
 * that order; the merged output is, and each call's epoch record (completed
 * up to its own call, a same-thread reference) follows it, renumbered.
 */
static void test_merge_handoff_order(void)
{
    struct hv_reclist l = {0}, out = {0};
    /* truth: T1#1@100, T2#1@150, T1#2@200, T2#2@250, T2#3@260, T1#3@300 */
    struct hv_call c;
    struct hv_epoch e;
    c = mk_call(20, 1, 150, 2), hv_reclist_add(&l, &c);
    c = mk_call(20, 2, 250, 2), hv_reclist_add(&l, &c);
    c = mk_call(20, 3, 260, 60), hv_reclist_add(&l, &c);   /* a sync: completed_seq is its own call */
    ((struct hv_call *)(void *)(l.bytes + l.off[l.n - 1]))->a.sync.completed_seq = 3;
    e = mk_epoch(20, 3, 255 /* stamped before the call: must still follow it */, 3), hv_reclist_add(&l, &e);
    c = mk_call(10, 1, 100, 2), hv_reclist_add(&l, &c);
    c = mk_call(10, 2, 200, 2), hv_reclist_add(&l, &c);
    c = mk_call(10, 3, 300, 2), hv_reclist_add(&l, &c);
    e = mk_epoch(10, 3, 301, 2), hv_reclist_add(&l, &e);    /* completed up to the thread's call #2 */
    const char *path = tu_path("merge1.zst");
    CHECK(write_flagged(path, &l, 1 << 20) == 0);
    struct hv_reader_stats st;
    size_t n = read_merged(path, &out, &st, NULL, NULL, NULL);
    CHECKF(n == 8, "%zu records", n);
    static const struct { uint32_t tid; uint64_t tseq; uint16_t type; } want[] = {
        {10, 1, HV_REC_CALL}, {20, 1, HV_REC_CALL}, {10, 2, HV_REC_CALL}, {20, 2, HV_REC_CALL},
        {20, 3, HV_REC_CALL}, {20, 3, HV_REC_EPOCH}, {10, 3, HV_REC_CALL}, {10, 3, HV_REC_EPOCH},
    };
    uint64_t g = 0;
    for (size_t i = 0; i < n; i++) {
        const struct hv_rec_header *h = hv_reclist_get(&out, i);
        CHECKF(h->tid == want[i].tid && h->type == want[i].type, "record %zu: tid %u type %u", i, h->tid, h->type);
        if (h->type == HV_REC_CALL) {
            const struct hv_call *cc = (const void *)h;
            CHECKF(cc->a.raw[7] == want[i].tid * 1000000ull + want[i].tseq, "record %zu is the wrong call", i);
            CHECKF(h->seq == ++g, "call %zu numbered %llu, want %llu", i, (unsigned long long)h->seq,
                   (unsigned long long)g);
        } else {
            CHECKF(h->seq == g, "aux record %zu numbered %llu, want its call's %llu", i, (unsigned long long)h->seq,
                   (unsigned long long)g);
        }
    }
    /* References: T2's sync completes its own call (global 5); T1's epoch
     * completes T1's call #2 (global 3). */
    CHECK(((const struct hv_call *)(const void *)hv_reclist_get(&out, 4))->a.sync.completed_seq == 5);
    CHECK(((const struct hv_epoch *)(const void *)hv_reclist_get(&out, 5))->completed_seq == 5);
    CHECK(((const struct hv_epoch *)(const void *)hv_reclist_get(&out, 7))->completed_seq == 3);
    CHECK(st.seq_gaps == 0 && st.seq_missing == 0 && st.seq_unresolved == 0 && st.late_records == 0);
    hv_reclist_free(&l);
    hv_reclist_free(&out);
}

/* Calls that raced on the host may carry equal timestamps: they are
 * concurrent, and the reader orders them by tid, deterministically. */
static void test_merge_equal_ts_by_tid(void)
{
    struct hv_reclist l = {0}, out = {0};
    struct hv_call c;
    c = mk_call(9, 1, 500, 2), hv_reclist_add(&l, &c);
    c = mk_call(7, 1, 500, 2), hv_reclist_add(&l, &c);
    c = mk_call(8, 1, 500, 2), hv_reclist_add(&l, &c);
    const char *path = tu_path("merge2.zst");
    CHECK(write_flagged(path, &l, 1 << 20) == 0);
    struct hv_reader_stats st;
    CHECK(read_merged(path, &out, &st, NULL, NULL, NULL) == 3);
    CHECK(hv_reclist_get(&out, 0)->tid == 7 && hv_reclist_get(&out, 1)->tid == 8 && hv_reclist_get(&out, 2)->tid == 9);
    CHECK(hv_reclist_get(&out, 2)->seq == 3);
    hv_reclist_free(&l);
    hv_reclist_free(&out);
}

/* Missing per-thread numbers are loss: counted, with tid and range; a
 * reference into the gap cannot resolve (0, counted); a reused tid starting
 * again at 1 is a new thread, not a gap. */
static void test_merge_gaps(void)
{
    struct hv_reclist l = {0}, out = {0};
    struct hv_call c;
    struct hv_epoch e;
    c = mk_call(5, 1, 10, 2), hv_reclist_add(&l, &c);
    c = mk_call(5, 2, 20, 2), hv_reclist_add(&l, &c);
    c = mk_call(5, 6, 60, 2), hv_reclist_add(&l, &c);        /* 3..5 lost */
    e = mk_epoch(5, 6, 61, 4), hv_reclist_add(&l, &e);       /* refers into the gap */
    c = mk_call(6, 3, 30, 2), hv_reclist_add(&l, &c);        /* thread 6 lost its first two */
    c = mk_call(5, 1, 90, 2), hv_reclist_add(&l, &c);        /* tid 5 reused by a new thread */
    c = mk_call(5, 2, 95, 2), hv_reclist_add(&l, &c);
    const char *path = tu_path("merge3.zst");
    CHECK(write_flagged(path, &l, 1 << 20) == 0);
    struct hv_reader_stats st;
    const struct hv_seq_gap *gaps;
    uint32_t ngaps;
    struct hv_reader *r;
    CHECK(read_merged(path, &out, &st, &gaps, &ngaps, &r) == 7);
    CHECKF(st.seq_gaps == 2 && st.seq_missing == 5 && ngaps == 2, "gaps %llu missing %llu listed %u",
           (unsigned long long)st.seq_gaps, (unsigned long long)st.seq_missing, ngaps);
    /* In merged order thread 6's gap (ts 30) is seen before thread 5's (ts 60). */
    CHECK(gaps[0].tid == 6 && gaps[0].first == 1 && gaps[0].last == 2);
    CHECK(gaps[1].tid == 5 && gaps[1].first == 3 && gaps[1].last == 5);
    CHECK(st.seq_unresolved == 1);
    const struct hv_epoch *ep = (const void *)hv_reclist_get(&out, 4);
    CHECK(ep->h.type == HV_REC_EPOCH && ep->completed_seq == 0 && ep->h.seq == 4);
    hv_reader_close(r);

    /* hipvis-dump shows the loss in its summary. */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 | grep -c 'calls missing' ", hv_t_dump_path, path);
    FILE *p = popen(cmd, "r");
    CHECK(p);
    int lines = 0;
    CHECK(fscanf(p, "%d", &lines) == 1);
    pclose(p);
    CHECKF(lines >= 1, "hipvis-dump printed no loss line");

    /* The analyzer makes it a warning finding, which fails a CI gate. Findings
     * carry "pid" right after the severity; the per-bug summary ("bugs") does not. */
    const char *an = tu_tool("hipvis-analyze");
    snprintf(cmd, sizeof cmd, "%s --json %s 2>/dev/null | grep -c '\"rule\":\"records-dropped\",\"severity\":\"warning\",\"pid\"'; "
             "%s %s >/dev/null 2>&1; echo $?", an, path, an, path);
    p = popen(cmd, "r");
    CHECK(p);
    int findings = 0, status = -1;
    CHECK(fscanf(p, "%d %d", &findings, &status) == 2);
    pclose(p);
    /* >= 1: the report may also list the finding in its per-bug blocks. */
    CHECKF(findings >= 1 && status == 1, "records-dropped findings %d, exit status %d", findings, status);
    hv_reclist_free(&l);
    hv_reclist_free(&out);
}

/*
 * Many threads, long: a random global order of calls with increasing
 * timestamps, each with 0-2 auxiliary records referring to its own call or
 * one of its thread's recent ones; the file holds ring-sized batches of one
 * thread at a time over many chunks. The merged output is exactly the truth.
 */
#define MT_THREADS 6
#define MT_CALLS 120000
static void test_merge_many_threads(void)
{
    struct hv_gen g;
    hv_gen_init(&g, 99);
    struct hv_reclist truth = {0}, file = {0}, out = {0};
    struct hv_reclist per[MT_THREADS] = {{0}};
    uint64_t tseq[MT_THREADS] = {0}, ts = 1000;
    for (size_t i = 0; i < MT_CALLS; i++) {
        unsigned t = (unsigned)(hv_gen_rand(&g) % MT_THREADS);
        ts += hv_gen_rand(&g) % 3;   /* equal stamps happen */
        struct hv_call c = mk_call(100 + t, ++tseq[t], ts, 60);
        uint64_t back = hv_gen_rand(&g) % 50;
        c.a.sync.completed_seq = back < tseq[t] ? tseq[t] - back : tseq[t];
        hv_reclist_add(&per[t], &c);
        unsigned naux = (unsigned)(hv_gen_rand(&g) % 3);
        for (unsigned k = 0; k < naux; k++) {
            struct hv_epoch e = mk_epoch(100 + t, tseq[t], ts + hv_gen_rand(&g) % 5, tseq[t]);
            hv_reclist_add(&per[t], &e);
        }
    }
    /* The truth, in merged order: sort calls by (ts, tid) keeping their aux behind. */
    size_t pos[MT_THREADS] = {0};
    for (;;) {
        int best = -1;
        uint64_t bts = 0;
        for (int t = 0; t < MT_THREADS; t++) {
            if (pos[t] >= per[t].n)
                continue;
            uint64_t x = hv_reclist_get(&per[t], pos[t])->ts_ns;
            if (best < 0 || x < bts) {
                best = t;
                bts = x;
            }
        }
        if (best < 0)
            break;
        do {
            hv_reclist_add(&truth, hv_reclist_get(&per[best], pos[best]));
            pos[best]++;
        } while (pos[best] < per[best].n && hv_reclist_get(&per[best], pos[best])->type != HV_REC_CALL);
    }
    /* The file: batches of up to 3000 records of one thread at a time. */
    memset(pos, 0, sizeof pos);
    for (size_t left = truth.n; left;) {
        for (int t = 0; t < MT_THREADS; t++) {
            size_t k = hv_gen_rand(&g) % 3000;
            for (; k && pos[t] < per[t].n; k--, left--)
                hv_reclist_add(&file, hv_reclist_get(&per[t], pos[t]++));
        }
    }
    const char *path = tu_path("merge4.zst");
    CHECK(write_flagged(path, &file, 64 << 10) == 0);
    struct hv_reader_stats st;
    size_t n = read_merged(path, &out, &st, NULL, NULL, NULL);
    CHECKF(n == truth.n, "%zu of %zu", n, truth.n);
    CHECKF(st.late_records == 0 && st.seq_gaps == 0 && st.seq_unresolved == 0, "late %llu gaps %llu unres %llu",
           (unsigned long long)st.late_records, (unsigned long long)st.seq_gaps,
           (unsigned long long)st.seq_unresolved);
    /* Global numbers of each thread's calls, to check translated references. */
    uint64_t *gmap[MT_THREADS];
    for (int t = 0; t < MT_THREADS; t++)
        gmap[t] = calloc(tseq[t] + 1, sizeof **gmap);
    uint64_t gs = 0;
    for (size_t i = 0; i < n; i++) {
        const struct hv_rec_header *a = hv_reclist_get(&truth, i), *b = hv_reclist_get(&out, i);
        CHECKF(a->type == b->type && a->tid == b->tid && a->ts_ns == b->ts_ns && a->size == b->size,
               "record %zu differs from the truth", i);
        unsigned t = a->tid - 100;
        if (a->type == HV_REC_CALL) {
            const struct hv_call *ca = (const void *)a, *cb = (const void *)b;
            CHECKF(ca->a.raw[7] == cb->a.raw[7], "call %zu is another call", i);
            gmap[t][a->seq] = ++gs;
            CHECK(b->seq == gs);
            CHECKF(cb->a.sync.completed_seq == gmap[t][ca->a.sync.completed_seq], "call %zu reference", i);
        } else {
            CHECK(b->seq == gs && ((const struct hv_epoch *)(const void *)b)->completed_seq == gs);
        }
    }
    for (int t = 0; t < MT_THREADS; t++) {
        free(gmap[t]);
        hv_reclist_free(&per[t]);
    }
    hv_reclist_free(&truth);
    hv_reclist_free(&file);
    hv_reclist_free(&out);
}

void hv_tests_merge(void)
{
    RUN(test_merge_handoff_order);
    RUN(test_merge_equal_ts_by_tid);
    RUN(test_merge_gaps);
    RUN(test_merge_many_threads);
}
