/* write-during-replay: positive and negative cases. */
#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

static void open_(void)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 102, NULL);
    sc_setup(&t);
}

void test_write_during_replay_positive(void)
{
    open_();
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    /* Next step's input copied on a non-blocking stream while the replay may run. */
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    /* And a memset of the buffer the graph writes. */
    tb_memset(&t, SC_SIDE, SC_OUT, 256);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_WRITE_DURING_REPLAY), 2);
    const struct hv_group *g = tb_group(&out, HV_RULE_WRITE_DURING_REPLAY);
    CHECK(g && g->f.a.kind == HV_SIDE_REPLAY && g->f.a.exec == SC_EXEC && g->f.b.kind == HV_SIDE_COPY);
    CHECK(g && g->f.lo == SC_BUF && g->f.severity == HV_SEV_ERROR);
    hv_findings_free(&out);
}

void test_write_during_replay_negative(void)
{
    /* Host synchronized the replay's stream first. */
    open_();
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_stream_sync(&t, SC_MAIN);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* The writing stream waits for an event recorded after the replay. */
    open_();
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_event_record(&t, SC_EVENT, SC_MAIN);
    tb_stream_wait(&t, SC_SIDE, SC_EVENT);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Same stream: program order. Another range: no overlap. */
    open_();
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_copy(&t, SC_SIDE, SC_ELSEWHERE, SC_PINNED, 64, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_WRITE_DURING_REPLAY), 0);
    hv_findings_free(&out);
}
