/* trace-truncated / records-dropped at the engine level, and record-size
 * robustness (short records from an older writer, bogus counts). */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"
#include "scenarios.h"
#include "tcheck.h"

void test_input_health(void)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 105, NULL);
    struct hv_input_health h = {.read_status = 1, .read_status_name = "truncated", .offset = 1234,
                                .records_salvaged = 99, .what = "frame cut", .dropped = 7};
    hv_engine_finish(t.engine, &h);
    hv_findings_add_trace(&out, hv_engine_summary(t.engine));
    hv_engine_free(t.engine);
    const struct hv_group *g = tb_group(&out, HV_RULE_TRACE_TRUNCATED);
    CHECK(g && g->f.n1 == 1234 && g->f.n2 == 99 && g->f.severity == HV_SEV_WARNING);
    g = tb_group(&out, HV_RULE_RECORDS_DROPPED);
    CHECK(g && g->f.n1 == 7);
    CHECK_EQ_U(out.traces[0].read_offset, 1234);
    hv_findings_free(&out);

    /* No footer, read to the end without damage (a crash between frames):
     * still cut short, so a warning that fails the default gate. */
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 105, NULL);
    struct hv_input_health nf = {.offset = 4096, .records_salvaged = 50};
    hv_engine_finish(t.engine, &nf);
    hv_findings_add_trace(&out, hv_engine_summary(t.engine));
    hv_engine_free(t.engine);
    g = tb_group(&out, HV_RULE_TRACE_TRUNCATED);
    CHECK(g && g->f.n1 == 4096 && g->f.n2 == 50 && g->f.severity == HV_SEV_WARNING);
    CHECK_EQ_U(out.ngroups, 1);
    hv_findings_free(&out);

    /* Clean: nothing. */
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 105, NULL);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);
}

void test_record_robustness(void)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 106, NULL);
    sc_setup(&t);
    /* A call record cut short (older, smaller layout): zero-extended. */
    struct hv_call c;
    memset(&c, 0, sizeof c);
    c.h.type = HV_REC_CALL;
    c.h.size = 32;
    c.h.seq = 1000;
    c.api = HV_API_hipGraphLaunch;
    /* KARGS / edges claiming more entries than they hold: ignored, counted. */
    uint64_t kbuf[8], ebuf[8];
    memset(kbuf, 0, sizeof kbuf);
    struct hv_kargs *k = (struct hv_kargs *)kbuf;
    k->h.type = HV_REC_KARGS;
    k->h.size = sizeof *k;
    k->h.seq = 1001;
    k->count = 1000;
    struct hv_graph_edges *e = (struct hv_graph_edges *)ebuf;
    memset(ebuf, 0, sizeof ebuf);
    e->h.type = HV_REC_GRAPH_EDGES;
    e->h.size = sizeof *e;
    e->h.seq = 1002;
    e->exec = SC_EXEC;
    e->count = 50;
    /* A header smaller than a header: ignored. */
    struct hv_rec_header tiny = {.type = HV_REC_CALL, .size = 8};
    /* One batch, as hipvis-analyze feeds a reader batch: the same as four
     * hv_engine_feed calls, and it names the types it held. */
    const struct hv_rec_header *batch[] = {&c.h, &k->h, &e->h, &tiny};
    const struct hv_trace_summary *sum = hv_engine_summary(t.engine);
    uint64_t records = sum->records, replays = sum->replays;
    uint64_t types = hv_engine_feed_batch(t.engine, batch, 4);
    CHECK_EQ_U(types, 1ull << HV_REC_CALL | 1ull << HV_REC_KARGS | 1ull << HV_REC_GRAPH_EDGES);
    CHECK_EQ_U(sum->orphan_records, 2);
    CHECK_EQ_U(sum->records, records + 3);        /* not the tiny one */
    CHECK_EQ_U(sum->replays, replays + 1);        /* the short launch, zero-extended */
    tb_engine_close(&t);
    hv_findings_free(&out);
}

/* A driver that keeps records readable (hv_engine_records_stable) lets the
 * engine hold the last call by pointer; hv_engine_keep must copy it before
 * the driver reuses that memory: the launch's KARGS, fed after the memory
 * was scribbled over, still attach to the launch (a write at its pointer). */
void test_records_stable_keep(void)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 107, NULL);
    hv_engine_records_stable(t.engine);
    const struct hv_model *m = hv_engine_model(t.engine);
    size_t before = hv_imap_count(&m->writers);
    struct hv_call *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c)
        return;
    c->h.type = HV_REC_CALL;
    c->h.size = sizeof *c;
    c->h.seq = 2000;
    c->api = HV_API_hipLaunchKernel;
    c->a.launch.name_id = 1;
    hv_engine_feed(t.engine, &c->h);
    hv_engine_keep(t.engine);
    memset(c, 0xa5, sizeof *c);  /* the driver reuses its buffer */
    uint64_t buf[(sizeof(struct hv_kargs) + sizeof(struct hv_karg)) / 8 + 1];
    memset(buf, 0, sizeof buf);
    struct hv_kargs *k = (struct hv_kargs *)buf;
    struct hv_karg *a = (struct hv_karg *)(k + 1);
    k->h.type = HV_REC_KARGS;
    k->h.size = sizeof *k + sizeof *a;
    k->h.seq = 2000;
    k->count = 1;
    a->value = 0x7000;
    a->access = HV_ACCESS_WRITE;
    hv_engine_feed(t.engine, &k->h);
    CHECK_EQ_U(hv_engine_summary(t.engine)->orphan_records, 0);
    CHECK_EQ_U(hv_imap_count(&m->writers), before + 1);
    free(c);
    tb_engine_close(&t);
    hv_findings_free(&out);
}
