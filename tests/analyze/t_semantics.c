/*
 * docs/semantics.md rules the analyzer applies to records, positive and
 * negative: exact 2D rows (C3/C4, M3/M4: no bounding box), tall strided
 * writes kept as one segment but matched row by row, and inferred
 * arguments keeping every rule's severity, same-epoch-write included.
 */
#include "scenarios.h"
#include "tcheck.h"

static struct hv_findings out;
static struct tb t;

#define EX2 0x5700ull
#define PITCH 1024ull
#define WIDTH 64ull

static void open_(void)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 100, NULL);
    sc_setup(&t);
}

/* An exec whose one memcpy node reads [src, src+bytes). */
static void reader(uint64_t src, uint64_t bytes)
{
    struct tb_node n[] = {{.type = HV_NODE_MEMCPY, .dst = SC_ELSEWHERE, .src = src, .bytes = bytes}};
    tb_instantiate(&t, EX2, n, 1, NULL, 0);
}

/* 2D copy (or memset) of `rows` rows of 64 B at pitch 1024 into SC_POOL on
 * SC_MAIN, then a replay on SC_MAIN reading [lo, lo+n): findings. */
static size_t strided_then_read(int memset_, uint64_t rows, uint64_t lo, uint64_t n, uint64_t *flo, uint64_t *fhi)
{
    open_();
    reader(lo, n);
    if (memset_)
        tb_memset2d(&t, SC_MAIN, SC_POOL, PITCH, WIDTH, rows);
    else
        tb_copy2d(&t, SC_MAIN, SC_POOL, PITCH, SC_ELSEWHERE, WIDTH, rows);
    tb_graph_launch(&t, EX2, SC_MAIN);
    tb_engine_close(&t);
    const struct hv_group *g = tb_group(&out, HV_RULE_SAME_EPOCH_WRITE);
    *flo = g ? g->f.lo : 0;
    *fhi = g ? g->f.hi : 0;
    size_t k = tb_count_rule(&out, HV_RULE_SAME_EPOCH_WRITE);
    hv_findings_free(&out);
    return k;
}

void test_semantics_2d_rows(void)
{
    uint64_t lo, hi;
    for (int ms = 0; ms < 2; ms++) {
        /* 4 rows (exact segments) and 3000 rows (one strided segment). */
        const uint64_t rowsv[] = {4, 3000};
        for (int k = 0; k < 2; k++) {
            uint64_t rows = rowsv[k];
            /* Between rows 0 and 1: no byte written there. */
            CHECK_EQ_U(strided_then_read(ms, rows, SC_POOL + 128, 512, &lo, &hi), 0);
            /* Row 1 exactly. */
            CHECK_EQ_U(strided_then_read(ms, rows, SC_POOL + PITCH, WIDTH, &lo, &hi), 1);
            CHECK_EQ_U(lo, SC_POOL + PITCH);
            CHECK_EQ_U(hi, SC_POOL + PITCH + WIDTH);
            /* A read from the middle of a gap into row 2 starts at row 2. */
            CHECK_EQ_U(strided_then_read(ms, rows, SC_POOL + PITCH + 512, PITCH, &lo, &hi), 1);
            CHECK_EQ_U(lo, SC_POOL + 2 * PITCH);
            CHECK_EQ_U(hi, SC_POOL + 2 * PITCH + WIDTH);
            /* Past the last row. */
            CHECK_EQ_U(strided_then_read(ms, rows, SC_POOL + rows * PITCH, 64, &lo, &hi), 0);
        }
    }
}

/* The bytes between the rows keep their own last writer: a side-stream copy
 * into a gap, then a 2D copy on the main stream, then a replay reading the
 * gap on the main stream is an unordered write (the side copy), not a
 * same-epoch write of the 2D copy. */
void test_semantics_2d_gap_keeps_writer(void)
{
    open_();
    reader(SC_POOL + 128, 64);
    tb_copy(&t, SC_SIDE, SC_POOL + 128, SC_PINNED, 64, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_copy2d(&t, SC_MAIN, SC_POOL, PITCH, SC_ELSEWHERE, WIDTH, 4);
    tb_graph_launch(&t, EX2, SC_MAIN);
    tb_engine_close(&t);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_UNORDERED_WRITE), 1);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_SAME_EPOCH_WRITE), 0);
    hv_findings_free(&out);
}

/* An inferred argument is reported at the rule's severity, as a metadata
 * one, and the group keeps its origin: the report marks it and says how to
 * confirm it, rather than hiding it below --fail-on. */
void test_semantics_inferred_rule_severity(void)
{
    for (int inferred = 0; inferred < 2; inferred++) {
        open_();
        struct tb_arg a[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ,
                              .origin = inferred ? HV_ARG_INFERRED : HV_ARG_METADATA}};
        struct tb_node n[] = {{.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = a, .nargs = 1}};
        tb_instantiate(&t, EX2, n, 1, NULL, 0);
        tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        tb_graph_launch(&t, EX2, SC_MAIN);
        tb_engine_close(&t);
        const struct hv_group *g = tb_group(&out, HV_RULE_SAME_EPOCH_WRITE);
        CHECK(g != NULL);
        if (g) {
            CHECK_EQ_U(g->f.severity, HV_SEV_WARNING);
            CHECK_EQ_U(g->f.b.origin, inferred ? HV_ARG_INFERRED : HV_ARG_METADATA);
        }
        hv_findings_free(&out);
    }
}
