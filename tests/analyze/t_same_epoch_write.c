/* same-epoch-write: positive and negative cases. */
#include <string.h>

#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

static void open_(const char *knobs)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 100, knobs);
    sc_setup(&t);
}

void test_same_epoch_decode_loop(void)
{
    open_(NULL);
    sc_decode_loop(&t, TB_LEGACY, 5, 0);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 1);
    const struct hv_group *g = tb_group(&out, HV_RULE_SAME_EPOCH_WRITE);
    CHECK(g != NULL);
    if (g) {
        const struct hv_finding *f = &g->f;
        CHECK_EQ_U(g->count, 5);
        CHECK_EQ_U(f->lo, SC_BUF);
        CHECK_EQ_U(f->hi, SC_BUF + SC_BUF_BYTES);  /* exactly the copied buffer */
        CHECK_EQ_U(f->severity, HV_SEV_WARNING);
        CHECK_EQ_U(f->alloc_base, SC_POOL);
        CHECK_EQ_U(f->a.kind, HV_SIDE_COPY);
        CHECK_EQ_U(f->a.api, HV_API_hipMemcpyAsync);
        CHECK_EQ_U(f->a.dir, HV_DIR_H2D);
        CHECK_EQ_U(f->a.src, SC_PINNED);
        CHECK_EQ_U(f->a.src_mem, HV_MEM_HOST_PINNED);
        CHECK_EQ_U(f->a.hint, HV_HINT_BLIT);  /* 2 KiB <= 16 KiB default */
        CHECK_EQ_U(f->a.stream, TB_LEGACY);
        CHECK_EQ_U(f->a.epoch, f->b.epoch);
        CHECK_EQ_U(f->b.kind, HV_SIDE_REPLAY);
        CHECK_EQ_U(f->b.exec, SC_EXEC);
        CHECK_EQ_U(f->b.node_index, 0);
        CHECK_EQ_U(f->b.arg_index, 0);
        CHECK_EQ_U(f->b.access, HV_ACCESS_READ);
        CHECK(f->b.name && strcmp(f->b.name, SC_KERNEL) == 0);
    }
    hv_findings_free(&out);
}

void test_same_epoch_negatives(void)
{
    /* A stream synchronize between copy and replay: nothing. */
    open_(NULL);
    sc_decode_loop(&t, TB_LEGACY, 5, 1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* An event recorded after the copy and synchronized by the host. */
    open_(NULL);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_event_record(&t, SC_EVENT, SC_MAIN);
    tb_event_sync(&t, SC_EVENT);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* Writes the graph does not read: another buffer, a write-only arg. */
    open_(NULL);
    tb_copy(&t, SC_MAIN, SC_ELSEWHERE, SC_PINNED, 64, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_copy(&t, SC_MAIN, SC_OUT, SC_PINNED, 64, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);

    /* A failed copy changes nothing but is counted; a captured copy did not run. */
    open_(NULL);
    tb_failed_copy(&t, SC_MAIN, SC_BUF, SC_BUF_BYTES);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    CHECK_EQ_U(out.traces[0].failed_calls, 1);
    hv_findings_free(&out);
}

void test_same_epoch_engine_hint(void)
{
    /* 64 KiB > 16 KiB: SDMA; the knob raises the threshold; HSA_ENABLE_SDMA=0. */
    const char *knobs[] = {NULL, "GPU_FORCE_BLIT_COPY_SIZE=128", "HSA_ENABLE_SDMA=0"};
    const int want[] = {HV_HINT_SDMA, HV_HINT_BLIT, HV_HINT_BLIT_NO_SDMA};
    for (int k = 0; k < 3; k++) {
        open_(knobs[k]);
        tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, 65536, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        tb_graph_launch(&t, SC_EXEC, SC_MAIN);
        tb_engine_close(&t);
        const struct hv_group *g = tb_group(&out, HV_RULE_SAME_EPOCH_WRITE);
        CHECK(g && g->f.a.hint == want[k]);
        hv_findings_free(&out);
    }
}

void test_same_epoch_kernel_writer(void)
{
    /* An eager kernel writing SC_BUF (metadata: write) before the replay. */
    open_(NULL);
    tb_string(&t, 2, "prepare_inputs_kernel");
    struct tb_arg a[] = {{.value = SC_BUF, .index = 1, .access = HV_ACCESS_WRITE},
                         {.value = SC_TOKENS, .index = 0, .access = HV_ACCESS_READ}};
    tb_launch(&t, SC_MAIN, 2, a, 2);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_SAME_EPOCH_WRITE);
    CHECK(g != NULL);
    CHECK(g && g->f.a.kind == HV_SIDE_KERNEL && g->f.a.arg_index == 1 && g->f.lo == SC_BUF);
    CHECK(g && g->f.a.name && strcmp(g->f.a.name, "prepare_inputs_kernel") == 0);
    hv_findings_free(&out);
    /* Read-only args of an eager kernel are not writes. */
    open_(NULL);
    struct tb_arg r[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ}};
    tb_launch(&t, SC_MAIN, 2, r, 1);
    tb_graph_launch(&t, SC_EXEC, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(out.ngroups, 0);
    hv_findings_free(&out);
}
