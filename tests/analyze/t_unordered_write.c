/* unordered-write: positive and negative cases. */
#include "scenarios.h"
#include "tcheck.h"

#include <string.h>

static struct hv_findings out;
static struct tb t;

static void open_(void)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 101, NULL);
    sc_setup(&t);
}

void test_unordered_side_stream(void)
{
    open_();
    sc_side_stream_copy(&t, 4, 0);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_UNORDERED_WRITE);
    CHECK(g != NULL);
    CHECK(g && g->count == 4 && g->f.severity == HV_SEV_ERROR);
    CHECK(g && g->f.lo == SC_BUF && g->f.hi == SC_BUF + SC_BUF_BYTES);
    CHECK(g && g->f.a.stream == SC_SIDE && g->f.b.stream == SC_MAIN);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_SAME_EPOCH_WRITE), 0);
    hv_findings_free(&out);

    /* With an event wait: ordered. */
    open_();
    sc_side_stream_copy(&t, 4, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);
}

void test_unordered_orderings(void)
{
    /* Device synchronize between copy and replay. */
    open_();
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_device_sync(&t);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* A chain of waits: SIDE -> e1 -> THIRD -> e2 -> MAIN. */
    open_();
    tb_stream_create(&t, 0x9300, 1);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_event_record(&t, 0xe1, SC_SIDE);
    tb_stream_wait(&t, 0x9300, 0xe1);
    tb_event_record(&t, 0xe2, 0x9300);
    tb_stream_wait(&t, SC_MAIN, 0xe2);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Event recorded BEFORE the copy: does not order it. */
    open_();
    tb_event_record(&t, 0xe1, SC_SIDE);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_stream_wait(&t, SC_MAIN, 0xe1);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_UNORDERED_WRITE), 1);
    hv_findings_free(&out);
}

void test_unordered_legacy_barrier(void)
{
    /* Blocking stream then legacy stream: the legacy stream waits for it. */
    open_();
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_graph_launch(&t, SC_EXEC, TB_LEGACY);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Non-blocking stream then legacy stream: no implicit barrier. */
    open_();
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_graph_launch(&t, SC_EXEC, TB_LEGACY);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_UNORDERED_WRITE), 1);
    hv_findings_free(&out);
}

/* An inferred pointer keeps the rule's severity; the group says it is
 * inferred (the report counts and marks such groups). */
void test_unordered_inferred_kept(void)
{
    open_();
    struct tb_arg a[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_UNKNOWN, .origin = HV_ARG_INFERRED}};
    struct tb_node n[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = a, .nargs = 1}};
    tb_instantiate(&t, 0x5600, n, 1, NULL, 0);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_graph_launch(&t, 0x5600, SC_MAIN);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_UNORDERED_WRITE);
    CHECK(g && g->f.severity == HV_SEV_ERROR && g->f.b.origin == HV_ARG_INFERRED);
    hv_findings_free(&out);
}

/* Eager launches read too (the prefill step of decode_loop
 * --side-stream-copy): the same race as a replay, reported with the launch
 * as the reader. */
void test_unordered_eager_read(void)
{
    struct tb_arg rd[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ},
                          {.value = SC_OUT, .index = 1, .access = HV_ACCESS_WRITE}};
    struct tb_arg wr[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_WRITE}};

    open_();
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, rd, 2);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, rd, 2);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_UNORDERED_WRITE);
    CHECK(g && g->count == 2 && g->f.severity == HV_SEV_ERROR && g->f.b.kind == HV_SIDE_LAUNCH);
    CHECK(g && g->f.lo == SC_BUF && g->f.hi == SC_BUF + SC_BUF_BYTES && g->f.b.arg_index == 0 && g->f.b.value == SC_BUF);
    CHECK(g && g->f.a.stream == SC_SIDE && g->f.b.stream == SC_MAIN && g->f.b.name &&
          strcmp(g->f.b.name, SC_KERNEL) == 0);
    hv_findings_free(&out);

    /* Ordered by an event wait, by a host sync, or on the same stream: nothing. */
    open_();
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_event_record(&t, SC_EVENT, SC_SIDE);
    tb_stream_wait(&t, SC_MAIN, SC_EVENT);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, rd, 2);
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_stream_sync(&t, SC_SIDE);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, rd, 2);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, rd, 2);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* A launch that only writes the buffer does not read it. */
    open_();
    tb_copy(&t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_launch(&t, SC_MAIN, SC_KERNEL_ID, wr, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_UNORDERED_WRITE), 0);
    hv_findings_free(&out);
}
