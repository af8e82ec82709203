/* host-source-rewritten and three-point-probe: positive and negative cases. */
#include <stdlib.h>
#include <string.h>

#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

static void open_(void)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 100, NULL);
    sc_setup(&t);
}

/* 8 int32 elements: 0..7, with element [1] set to `one`. */
static void fill(int32_t *v, int32_t one)
{
    for (int i = 0; i < 8; i++)
        v[i] = i;
    v[1] = one;
}

/* The tracer's HV_REC_PAYLOAD after the last call. */
static void payload(uint32_t when, uint64_t src, uint64_t hash, const int32_t *bytes, uint32_t len)
{
    _Alignas(8) unsigned char buf[sizeof(struct hv_payload) + 64];
    struct hv_payload *p = (struct hv_payload *)buf;
    memset(buf, 0, sizeof buf);
    p->h.type = HV_REC_PAYLOAD;
    p->h.size = (uint16_t)hv_rec_padded(sizeof *p + len);
    p->src = src;
    p->len = len;
    p->when = when;
    p->hash = hash;
    if (len)
        memcpy(p + 1, bytes, len);
    tb_aux(&t, p);
}

/* Copy of 32 bytes from the pinned buffer, then a replay, with the host
 * observing completion by a stream sync; `rewritten`: the tracer found the
 * source changed at that observation. */
static void step(int rewritten, uint64_t src)
{
    int32_t a[8], b[8];
    fill(a, 1);
    fill(b, 995);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, 32, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    payload(HV_PAYLOAD_ENQUEUE, SC_PINNED, 0x1111, a, 32);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_stream_sync(&t, SC_MAIN);
    if (rewritten)
        payload(HV_PAYLOAD_OBSERVED, src, 0x2222, b, 32);
}

void test_host_source_rewritten_positive(void)
{
    open_();
    step(1, SC_PINNED);
    uint64_t copy_seq = t.seq - 2, sync_seq = t.seq;
    step(1, SC_PINNED);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_HOST_SOURCE_REWRITTEN);
    CHECK(g != NULL);
    if (g) {
        const struct hv_finding *f = &g->f;
        CHECK_EQ_U(g->count, 2);
        CHECK_EQ_U(f->severity, HV_SEV_ERROR);
        CHECK_EQ_U(f->lo, SC_BUF);
        CHECK_EQ_U(f->hi, SC_BUF + 32);
        CHECK_EQ_U(f->a.kind, HV_SIDE_COPY);
        CHECK_EQ_U(f->a.seq, copy_seq);          /* both sequence points */
        CHECK_EQ_U(f->a.src, SC_PINNED);
        CHECK_EQ_U(f->b.kind, HV_SIDE_SYNC);
        CHECK_EQ_U(f->b.seq, sync_seq);
        CHECK_EQ_U(f->b.api, HV_API_hipStreamSynchronize);
        CHECK_EQ_U(f->n1, 4);                    /* element [1] changed */
        CHECK_EQ_U(f->n2, 2);                    /* 1 -> 995: two bytes differ */
        CHECK(f->detail && strstr(f->detail, "(int32 [1]): 1 at enqueue, 995 when observed"));
    }
    hv_findings_free(&out);
}

void test_host_source_rewritten_negative(void)
{
    /* No rewrite observed: the tracer records nothing at the sync. */
    open_();
    step(0, SC_PINNED);
    step(0, SC_PINNED);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_HOST_SOURCE_REWRITTEN), 0);
    hv_findings_free(&out);

    /* A changed hash for another source names no copy of this one. */
    open_();
    step(1, SC_PINNED + 0x100);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_HOST_SOURCE_REWRITTEN), 0);
    hv_findings_free(&out);

    /* A copy already seen complete at an earlier sync is not blamed for a
     * later copy's rewrite: the newer pending copy is. */
    open_();
    step(0, SC_PINNED);
    uint64_t old_copy = t.seq - 2;
    step(1, SC_PINNED);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_HOST_SOURCE_REWRITTEN);
    CHECK(g && g->count == 1 && g->f.a.seq != old_copy && g->f.a.seq == old_copy + 3);
    hv_findings_free(&out);

    /* Copies the tracer could not check are counted, as info. */
    open_();
    int32_t a[8];
    fill(a, 1);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, 32, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    payload(HV_PAYLOAD_UNCHECKED, SC_PINNED, 0x1111, a, 32);
    tb_engine_close(&t);
    g = tb_group(&out, HV_RULE_HOST_SOURCE_REWRITTEN);
    CHECK(g && g->f.severity == HV_SEV_INFO && g->f.n1 == 1);
    hv_findings_free(&out);
}

/* A probe record: source 0..7, snapshots equal to it except element [1] of
 * the points listed in `bad` (HV_PROBE_HAVE bits), which hold 996. */
static void probe(uint64_t copy_seq, uint64_t replay_seq, uint32_t bad)
{
    _Alignas(8) unsigned char buf[sizeof(struct hv_probe) + 4 * 32];
    struct hv_probe *p = (struct hv_probe *)buf;
    memset(buf, 0, sizeof buf);
    p->h.type = HV_REC_PROBE;
    p->h.size = sizeof buf;
    p->copy_seq = copy_seq;
    p->replay_seq = replay_seq;
    p->exec = SC_EXEC;
    p->stream = SC_MAIN;
    p->addr = SC_BUF;
    p->src = SC_PINNED;
    p->len = 32;
    p->have = 0xf;
    p->copy_api = HV_API_hipMemcpyAsync;
    p->replay_api = HV_API_hipGraphLaunch;
    for (unsigned i = 0; i < HV_PROBE__POINTS; i++)
        fill((int32_t *)(void *)(buf + sizeof *p + 32 * i), (bad & HV_PROBE_HAVE(i)) ? 996 : 1);
    tb_aux(&t, p);
}

static const struct hv_group *probe_run(uint32_t bad)
{
    open_();
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, 32, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_stream_sync(&t, SC_MAIN);
    probe(t.seq - 2, t.seq - 1, bad);
    tb_engine_close(&t);
    return tb_group(&out, HV_RULE_THREE_POINT_PROBE);
}

void test_three_point_probe(void)
{
    /* All three match: info, point none, the reader named. */
    const struct hv_group *g = probe_run(0);
    CHECK(g && g->f.severity == HV_SEV_INFO && g->f.n1 == 0);
    CHECK(g && g->f.detail && strstr(g->f.detail, "the graph reads it: node 0 " SC_KERNEL " arg 0"));
    hv_findings_free(&out);

    /* Stale right after the copy (ROCm/ATOM#1468): after-copy. */
    uint32_t all = HV_PROBE_HAVE(HV_PROBE_AFTER_COPY) | HV_PROBE_HAVE(HV_PROBE_PRE_REPLAY) |
                   HV_PROBE_HAVE(HV_PROBE_POST_REPLAY);
    g = probe_run(all);
    CHECK(g && g->f.severity == HV_SEV_ERROR && g->f.n1 == HV_PROBE_AFTER_COPY && g->f.n2 == 4);
    CHECK(g && g->f.a.kind == HV_SIDE_COPY && g->f.b.kind == HV_SIDE_REPLAY && g->f.b.exec == SC_EXEC);
    CHECK(g && g->f.detail && strstr(g->f.detail, "copied 1, after-copy 996, pre-replay 996, post-replay 996"));
    hv_findings_free(&out);

    /* Changed between copy and launch. */
    g = probe_run(HV_PROBE_HAVE(HV_PROBE_PRE_REPLAY) | HV_PROBE_HAVE(HV_PROBE_POST_REPLAY));
    CHECK(g && g->f.n1 == HV_PROBE_PRE_REPLAY && g->f.severity == HV_SEV_ERROR);
    hv_findings_free(&out);

    /* Only after the graph ran: inside the graph, a warning. */
    g = probe_run(HV_PROBE_HAVE(HV_PROBE_POST_REPLAY));
    CHECK(g && g->f.n1 == HV_PROBE_POST_REPLAY && g->f.severity == HV_SEV_WARNING);
    hv_findings_free(&out);
}
