/* stale-capture-pointer: positive and negative cases. */
#include <string.h>

#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

static void open_(void)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 103, NULL);
    sc_setup(&t);
}

void test_stale_capture_realloc(void)
{
    open_();
    sc_stale_capture(&t, 0);
    tb_engine_close(&t);
    /* All three pointer args lived in the freed pool segment. */
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_STALE_CAPTURE_POINTER), 3);
    const struct hv_group *g = NULL;
    for (size_t i = 0; i < out.ngroups; i++)
        if (out.groups[i].f.rule == HV_RULE_STALE_CAPTURE_POINTER && out.groups[i].f.b.arg_index == 0)
            g = &out.groups[i];
    CHECK(g != NULL);
    if (g) {
        CHECK_EQ_U(g->count, 2);  /* two replays after the re-allocation, one group */
        CHECK(g->f.note && strcmp(g->f.note, "re-allocated") == 0);
        CHECK_EQ_U(g->f.a.kind, HV_SIDE_FREE);
        CHECK_EQ_U(g->f.a.api, HV_API_hipFree);
        CHECK_EQ_U(g->f.alloc_base, SC_POOL);
        CHECK_EQ_U(g->f.b.value, SC_BUF);
        CHECK_EQ_U(g->f.severity, HV_SEV_ERROR);
    }
    hv_findings_free(&out);
}

void test_stale_capture_freed(void)
{
    open_();
    tb_free(&t, SC_POOL);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_STALE_CAPTURE_POINTER);
    CHECK(g && g->f.note && strcmp(g->f.note, "freed") == 0);
    hv_findings_free(&out);
}

void test_stale_capture_negative(void)
{
    /* Re-instantiated after the re-allocation: the graph holds the new pointer. */
    open_();
    sc_stale_capture(&t, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Freeing something the graph does not use. */
    open_();
    tb_alloc(&t, 0x7d0000000000ull, 4096, HV_MEM_DEVICE);
    tb_free(&t, 0x7d0000000000ull);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);
}
