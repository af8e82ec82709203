/*
 * The errata table and the rule runtime-erratum on synthetic traces: each
 * entry's trigger, positive and negative, and its verdict per release and
 * knobs (warning when the threads say the traced runtime has the bug, info
 * when the graph has the trigger on a runtime that does not or is not known
 * to, nothing without the trigger).
 * Usage: test_errata. Prints one line per test and "unit: N passed, M failed".
 */
#include <stdio.h>
#include <string.h>

#include "../analyze/scenarios.h"
#include "../analyze/tcheck.h"
#include "analyze/errata/errata.h"
#include "analyze/rules/rules.h"

int t_pass, t_fail;

#define EXEC 0x5500ull
#define MAIN 0x9100ull
#define K {.type = HV_NODE_KERNEL, .name_id = 1}

static struct hv_findings out;
static struct tb t;

static void open_(const char *version, const char *knobs)
{
    tb_runtime_version = version;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 7, knobs);
    tb_string(&t, 1, "reader");
    tb_stream_create(&t, MAIN, 0);
}

/* Replays exec `replays` times; the runtime-erratum groups are left in out. */
static void replay_close(int replays)
{
    for (int i = 0; i < replays; i++) {
        tb_graph_launch(&t, EXEC, MAIN);
        tb_stream_sync(&t, MAIN);
    }
    tb_engine_close(&t);
}

static void done(void)
{
    hv_findings_free(&out);
    tb_runtime_version = NULL;
}

static const struct hv_group *erratum(const char *id)
{
    for (size_t i = 0; i < out.ngroups; i++) {
        const struct hv_finding *f = &out.groups[i].f;
        if (f->rule == HV_RULE_RUNTIME_ERRATUM && (f->n1 & 0xff) < hv_nerrata &&
            strcmp(hv_errata[f->n1 & 0xff].id, id) == 0)
            return &out.groups[i];
    }
    return NULL;
}

static void test_table(void)
{
    CHECK(hv_nerrata >= 3 && hv_nerrata <= HV_ERRATA_MAX);
    for (size_t i = 0; i < hv_nerrata; i++) {
        const struct hv_erratum *e = &hv_errata[i];
        CHECK(e->id && e->threads && e->title && e->note && e->runtimes && e->trigger && e->effect &&
              e->workaround && e->fixed_in && e->fault && e->affects && e->match);
        CHECK(strncmp(e->note, e->id, strlen(e->id)) == 0);         /* a finding's note names the erratum */
        CHECK(strstr(e->threads, e->id + strlen("rocm-systems")) != NULL); /* its own thread is cited */
        CHECK(hv_erratum_find(e->id) == (int)i && hv_erratum_find(e->fault) == (int)i);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(hv_errata[j].id, e->id) != 0);
    }
    CHECK(hv_erratum_find("rocm-systems#1") == -1);

    unsigned a, b, c;
    CHECK(hv_rocm_release("7.2.70204 (libamdhip64.so.7.2.70204; ROCm 7.2.4)", &a, &b, &c) && a == 7 && b == 2 &&
          c == 4);
    CHECK(hv_rocm_release("7.2.70204 (libamdhip64.so.7.2.70204)", &a, &b, &c) && a == 7 && b == 2 && c == 4);
    CHECK(hv_rocm_release("5 (libamdhip64.so.5; ROCm 7.13.0)", &a, &b, &c) && a == 7 && b == 13 && c == 0);
    CHECK(hv_rocm_release("5 (libamdhip64.so.5)", &a, &b, &c) && a == 5 && b == 0);
    CHECK(!hv_rocm_release("synthetic", &a, &b, &c) && !hv_rocm_release("", &a, &b, &c));
}

/* Root 0 fans out to n children (nodes 1..n, out-edge i -> node i + 1). */
static void fanout(uint32_t n, int shared_child)
{
    struct tb_node nodes[40];
    uint32_t edges[2 * 40];
    for (uint32_t i = 0; i <= n; i++)
        nodes[i] = (struct tb_node)K;
    for (uint32_t i = 0; i < n; i++) {
        edges[2 * i] = 0;
        edges[2 * i + 1] = i + 1;
    }
    uint32_t ne = n;
    if (shared_child) {
        /* child 6 (out-edge 5) also waits for child 1: two dependencies */
        edges[2 * ne] = 1;
        edges[2 * ne++ + 1] = 6;
    }
    tb_instantiate(&t, EXEC, nodes, n + 1, edges, ne);
}

static void test_fanout(void)
{
    /* Classic executor selected: out-edges 5, 6, 7 (Q = 4) lose their wait. */
    open_("7.2.70200 (libamdhip64.so.7.2.70200; ROCm 7.13.0)", "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;");
    fanout(8, 0);
    replay_close(3);
    const struct hv_group *g = erratum("rocm-systems#11501");
    CHECK(g && g->f.severity == HV_SEV_WARNING && g->count == 3 && g->f.n2 == 3);
    CHECK(g && g->f.b.node_index == 6 && g->f.a.node_index == 0 && g->f.b.kind == HV_SIDE_REPLAY);
    CHECK(g && (g->f.n1 >> 8) == HV_ERRATUM_AFFECTED);
    CHECK(g && strstr(g->f.detail, "node 6 (reader) = out-edge 5 of node 0 (reader)") &&
          strstr(g->f.detail, "node 8 (reader) = out-edge 7") &&
          strstr(g->f.detail, "--arms one-queue"));
    CHECK(tb_count_rule(&out, HV_RULE_RUNTIME_ERRATUM) == 1);
    done();

    /* ROCm 7.2 at default flags: affected. */
    open_("7.2.70200 (libamdhip64.so.7.2.70200; ROCm 7.2.0)", NULL);
    fanout(8, 0);
    replay_close(1);
    g = erratum("rocm-systems#11501");
    CHECK(g && g->f.severity == HV_SEV_WARNING);
    done();

    /* A later release at default flags (segmented executor): info, the
     * trigger is there. */
    open_("5 (libamdhip64.so.5; ROCm 7.13.0)", NULL);
    fanout(8, 0);
    replay_close(1);
    g = erratum("rocm-systems#11501");
    CHECK(g && g->f.severity == HV_SEV_INFO && (g->f.n1 >> 8) == HV_ERRATUM_UNAFFECTED);
    CHECK(g && strstr(g->f.detail, "unaffected") != NULL);
    done();

    /* No release recorded: info (unknown). */
    open_(NULL, NULL);
    fanout(8, 0);
    replay_close(1);
    g = erratum("rocm-systems#11501");
    CHECK(g && g->f.severity == HV_SEV_INFO && (g->f.n1 >> 8) == HV_ERRATUM_UNKNOWN);
    done();

    /* No trigger: fan-out within the queue count, a wider queue count,
     * one queue, i mod Q == 0, a child with two dependencies, CUDA. */
    static const struct {
        const char *knobs;
        uint32_t n;
        int shared;
    } none[] = {
        {"DEBUG_HIP_GRAPH_CLASSIC_PATH=1;", 4, 0},
        {"DEBUG_HIP_GRAPH_CLASSIC_PATH=1;", 5, 0},                                  /* i = 4: 4 mod 4 == 0 */
        {"DEBUG_HIP_GRAPH_CLASSIC_PATH=1;DEBUG_HIP_FORCE_GRAPH_QUEUES=8;", 8, 0},
        {"DEBUG_HIP_GRAPH_CLASSIC_PATH=1;DEBUG_HIP_FORCE_GRAPH_QUEUES=8;", 9, 0},   /* i = 8 */
        {"DEBUG_HIP_GRAPH_CLASSIC_PATH=1;DEBUG_HIP_FORCE_GRAPH_QUEUES=1;", 8, 0},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        open_("5 (libamdhip64.so.5; ROCm 7.2.0)", none[i].knobs);
        fanout(none[i].n, none[i].shared);
        replay_close(1);
        CHECK_EQ_U(tb_count_rule(&out, HV_RULE_RUNTIME_ERRATUM), 0);
        done();
    }
    /* The shared child (two dependencies) keeps its wait; 7 and 8 do not. */
    open_("5 (libamdhip64.so.5; ROCm 7.2.0)", NULL);
    fanout(8, 1);
    replay_close(1);
    g = erratum("rocm-systems#11501");
    CHECK(g && g->f.n2 == 2 && g->f.b.node_index == 7);
    done();

    open_("13.0 (libcudart.so.13; CUDA)", "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;");
    fanout(8, 0);
    replay_close(1);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_RUNTIME_ERRATUM), 0);
    done();
}

/* rocm-systems#11357's shape: S(0) -> R(3), W(1) -> D(2) -> R(3); created
 * S, W, D, R, so R takes S's stream and D W's. extra: W -> R as well. */
static void disabled_shape(int extra, uint16_t dtype)
{
    struct tb_node nodes[4] = {K, K, K, K};
    nodes[2].type = dtype;
    nodes[2].bytes = 64;
    uint32_t edges[] = {0, 3, 1, 2, 2, 3, 1, 3};
    tb_instantiate(&t, EXEC, nodes, 4, edges, extra ? 4 : 3);
}

static void test_disabled(void)
{
    open_("5 (libamdhip64.so.5; ROCm 7.13.0)", "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;");
    disabled_shape(0, HV_NODE_KERNEL);
    tb_set_enabled(&t, EXEC, 2, 0, HV_NODE_KERNEL);
    replay_close(2);
    const struct hv_group *g = erratum("rocm-systems#11357");
    CHECK(g && g->f.severity == HV_SEV_WARNING && g->count == 2 && g->f.n2 == 1);
    CHECK(g && g->f.b.node_index == 3 && g->f.a.node_index == 1);
    CHECK(g && strstr(g->f.detail, "node 3 (reader) after node 1 (reader) through disabled node 2") != NULL);
    done();

    /* A disabled memcpy node too; the segmented default: info. */
    open_("5 (libamdhip64.so.5; ROCm 7.13.0)", NULL);
    disabled_shape(0, HV_NODE_MEMCPY);
    tb_set_enabled(&t, EXEC, 2, 0, HV_NODE_MEMCPY);
    replay_close(1);
    g = erratum("rocm-systems#11357");
    CHECK(g && g->f.severity == HV_SEV_INFO && (g->f.n1 >> 8) == HV_ERRATUM_UNAFFECTED);
    done();

    /* No trigger: enabled, re-enabled, another path, one queue, a memset. */
    for (int k = 0; k < 5; k++) {
        open_("5 (libamdhip64.so.5; ROCm 7.13.0)", k == 3 ? "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;"
                                                            "DEBUG_HIP_FORCE_GRAPH_QUEUES=1;"
                                                          : "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;");
        disabled_shape(k == 2, k == 4 ? HV_NODE_MEMSET : HV_NODE_KERNEL);
        if (k)
            tb_set_enabled(&t, EXEC, 2, 0, k == 4 ? HV_NODE_MEMSET : HV_NODE_KERNEL);
        if (k == 1)
            tb_set_enabled(&t, EXEC, 2, 1, HV_NODE_KERNEL);
        replay_close(1);
        CHECK_EQ_U(tb_count_rule(&out, HV_RULE_RUNTIME_ERRATUM), 0);
        done();
    }
}

/* K(0) -> C(1): C copies `bytes` device to host. */
static void sdma_shape(uint64_t bytes, int dep)
{
    struct tb_node nodes[2] = {K, {.type = HV_NODE_MEMCPY, .dst = SC_PINNED, .src = SC_OUT, .bytes = bytes,
                                   .dir = HV_DIR_D2H}};
    uint32_t edges[] = {0, 1};
    tb_instantiate(&t, EXEC, nodes, 2, edges, dep ? 1 : 0);
}

static void test_sdma(void)
{
    open_("5 (libamdhip64.so.5; ROCm 7.13.0)", NULL);
    sdma_shape(64 * 1024, 1);
    replay_close(1);
    const struct hv_group *g = erratum("rocm-systems#11403");
    CHECK(g && g->f.severity == HV_SEV_INFO && (g->f.n1 >> 8) == HV_ERRATUM_UNKNOWN);
    CHECK(g && g->f.b.node_index == 1 && g->f.a.node_index == 0 && strstr(g->f.detail, "--arms no-sdma"));
    done();

    /* Before 7.2 there is no segmented executor, and the classic one has no
     * segments: info, unaffected. */
    for (int k = 0; k < 2; k++) {
        open_(k ? "5 (libamdhip64.so.5; ROCm 7.13.0)" : "6.4.60400 (libamdhip64.so.6.4.60400)",
              k ? "DEBUG_HIP_GRAPH_CLASSIC_PATH=1;" : NULL);
        sdma_shape(64 * 1024, 1);
        replay_close(1);
        g = erratum("rocm-systems#11403");
        CHECK(g && g->f.severity == HV_SEV_INFO && (g->f.n1 >> 8) == HV_ERRATUM_UNAFFECTED);
        done();
    }

    /* No trigger: a blit-sized copy, SDMA off, no producer, a larger blit
     * size. */
    static const struct {
        const char *knobs;
        uint64_t bytes;
        int dep;
    } none[] = {
        {NULL, 8 * 1024, 1},
        {"HSA_ENABLE_SDMA=0;", 64 * 1024, 1},
        {NULL, 64 * 1024, 0},
        {"GPU_FORCE_BLIT_COPY_SIZE=128;", 64 * 1024, 1},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        open_("5 (libamdhip64.so.5; ROCm 7.13.0)", none[i].knobs);
        sdma_shape(none[i].bytes, none[i].dep);
        replay_close(1);
        CHECK_EQ_U(tb_count_rule(&out, HV_RULE_RUNTIME_ERRATUM), 0);
        done();
    }
}

/* The classic schedule the triggers use, on the threads' own examples. */
static void test_streams(void)
{
    open_(NULL, NULL);
    disabled_shape(0, HV_NODE_KERNEL);
    tb_copy(&t, MAIN, SC_BUF, SC_PINNED, 8, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1); /* ends the inventory */
    const struct hv_model *m = hv_engine_model(t.engine);
    uint32_t xi = hv_exec_find(m, EXEC);
    struct hv_topo topo;
    uint32_t s[4];
    CHECK(xi != HV_NO_INDEX && hv_topo_build(&m->execs[xi], &topo) == 0);
    CHECK(hv_topo_branchy(&topo) && hv_topo_classic_streams(&topo, 4, s) == 0);
    CHECK(s[0] == 0 && s[1] == 1 && s[2] == 1 && s[3] == 0);   /* S 0, W 1, D on W's, R on S's */
    CHECK(hv_topo_classic_streams(&topo, 1, s) == 0 && s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0);
    hv_topo_free(&topo);
    tb_engine_close(&t);
    done();
}

int main(void)
{
#define RUN(fn)                                                              \
    do {                                                                     \
        int before = t_fail;                                                 \
        fn();                                                                \
        printf("  %s  unit %s\n", t_fail == before ? "ok  " : "FAIL", #fn);  \
    } while (0)
    RUN(test_table);
    RUN(test_fanout);
    RUN(test_disabled);
    RUN(test_sdma);
    RUN(test_streams);
    printf("unit: %d passed, %d failed\n", t_pass, t_fail);
    return t_fail ? 1 : 0;
}
