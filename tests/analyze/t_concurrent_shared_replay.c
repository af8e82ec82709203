/* concurrent-shared-replay: positive and negative cases. */
#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

#define EXEC_A 0x5700ull
#define EXEC_B 0x5800ull

/* Exec A accesses SC_OUT with access_a, exec B with access_b. */
static void two_execs(uint8_t access_a, uint8_t access_b, uint8_t origin)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 104, NULL);
    sc_setup(&t);
    struct tb_arg a[] = {{.value = SC_OUT, .index = 0, .access = access_a, .origin = origin}};
    struct tb_arg b[] = {{.value = SC_OUT, .index = 3, .access = access_b, .origin = origin}};
    struct tb_node na[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = a, .nargs = 1}};
    struct tb_node nb[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = b, .nargs = 1}};
    tb_instantiate(&t, EXEC_A, na, 1, NULL, 0);
    tb_instantiate(&t, EXEC_B, nb, 1, NULL, 0);
}

void test_concurrent_shared_positive(void)
{
    two_execs(HV_ACCESS_WRITE, HV_ACCESS_READ, HV_ARG_METADATA);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_CONCURRENT_SHARED_REPLAY);
    CHECK(g != NULL);
    CHECK(g && g->f.severity == HV_SEV_ERROR && g->f.a.exec == EXEC_A && g->f.b.exec == EXEC_B);
    CHECK(g && g->f.a.arg_index == 0 && g->f.b.arg_index == 3 && g->f.lo == SC_OUT);
    hv_findings_free(&out);

    /* Unknown access (inferred pointers): only possibly a write: warning. */
    two_execs(HV_ACCESS_UNKNOWN, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    g = tb_group(&out, HV_RULE_CONCURRENT_SHARED_REPLAY);
    CHECK(g && g->f.severity == HV_SEV_WARNING);
    hv_findings_free(&out);
}

void test_concurrent_shared_negative(void)
{
    /* Both only read. */
    two_execs(HV_ACCESS_READ, HV_ACCESS_READ, HV_ARG_METADATA);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Ordered by an event. */
    two_execs(HV_ACCESS_WRITE, HV_ACCESS_READ, HV_ARG_METADATA);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_event_record(&t, SC_EVENT, SC_MAIN);
    tb_stream_wait(&t, SC_SIDE, SC_EVENT);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Same stream. */
    two_execs(HV_ACCESS_WRITE, HV_ACCESS_WRITE, HV_ARG_METADATA);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);
}

#define EXEC_C 0x5900ull

/* Issue 18 (100k execs): a pending exec whose last replay ran earlier on the
 * stream of a newer replay covering its ranges leaves the pending list; its
 * races are reported against the newer one. The race itself is never lost:
 * covered, it is reported against the newest replay; not covered, the older
 * exec stays pending and is reported itself. */
void test_concurrent_shared_subsumed(void)
{
    /* A then C (same footprint: they write SC_OUT) on MAIN, B reads SC_OUT on
     * SIDE: one race, against C, the newest replay on MAIN. */
    two_execs(HV_ACCESS_WRITE, HV_ACCESS_READ, HV_ARG_METADATA);
    struct tb_arg c[] = {{.value = SC_OUT, .index = 0, .access = HV_ACCESS_WRITE, .origin = HV_ARG_METADATA}};
    struct tb_node nc[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = c, .nargs = 1}};
    tb_instantiate(&t, EXEC_C, nc, 1, NULL, 0);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_C, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 1);
    const struct hv_group *g = tb_group(&out, HV_RULE_CONCURRENT_SHARED_REPLAY);
    CHECK(g && g->f.a.exec == EXEC_C && g->f.b.exec == EXEC_B && g->f.lo == SC_OUT);
    hv_findings_free(&out);

    /* C writes another allocation: it does not cover A, so A's race with B
     * is still found against A. (An argument's range runs to the end of its
     * allocation: SC_TOKENS in the pool would cover SC_OUT.) */
    two_execs(HV_ACCESS_WRITE, HV_ACCESS_READ, HV_ARG_METADATA);
    tb_alloc(&t, SC_ELSEWHERE, 4096, HV_MEM_DEVICE);
    struct tb_arg d[] = {{.value = SC_ELSEWHERE, .index = 0, .access = HV_ACCESS_WRITE, .origin = HV_ARG_METADATA}};
    struct tb_node nd[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = d, .nargs = 1}};
    tb_instantiate(&t, EXEC_C, nd, 1, NULL, 0);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_C, SC_MAIN);
    tb_graph_launch(&t, EXEC_B, SC_SIDE);
    tb_engine_close(&t);
    g = tb_group(&out, HV_RULE_CONCURRENT_SHARED_REPLAY);
    CHECK(g && g->f.a.exec == EXEC_A && g->f.b.exec == EXEC_B && g->f.lo == SC_OUT);
    hv_findings_free(&out);

    /* An eager write on SIDE while A and then C (covering A) may run on
     * MAIN: write-during-replay, against C. */
    two_execs(HV_ACCESS_READ, HV_ACCESS_READ, HV_ARG_METADATA);
    struct tb_arg e[] = {{.value = SC_OUT, .index = 0, .access = HV_ACCESS_READ, .origin = HV_ARG_METADATA}};
    struct tb_node ne[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = e, .nargs = 1}};
    tb_instantiate(&t, EXEC_C, ne, 1, NULL, 0);
    tb_graph_launch(&t, EXEC_A, SC_MAIN);
    tb_graph_launch(&t, EXEC_C, SC_MAIN);
    tb_memset(&t, SC_SIDE, SC_OUT, 64);
    tb_engine_close(&t);
    g = tb_group(&out, HV_RULE_WRITE_DURING_REPLAY);
    CHECK(g && g->f.a.exec == EXEC_C && g->f.lo == SC_OUT);
    CHECK_EQ_U(out.ngroups, 1);
    hv_findings_free(&out);
}
