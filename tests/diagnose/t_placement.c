/* placement.c and the parallel-queue-read rule on synthetic graphs: which
 * nodes the HIP runtime would start on a parallel queue before the launch
 * stream's earlier work, under the knobs that change it. */
#include <string.h>

#include "analyze/placement.h"
#include "dtest.h"

static struct hv_findings out;
static struct tb t;

/* Places exec SC_EXEC built from nodes/edges under `knobs`; flags -> f[]. */
static struct hv_place place(const char *knobs, const struct tb_node *n, uint32_t nn, const uint32_t *e, uint32_t ne,
                             int cuda)
{
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 7, knobs);
    tb_string(&t, SC_KERNEL_ID, SC_KERNEL);
    tb_string(&t, 2, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    tb_instantiate(&t, SC_EXEC, n, nn, e, ne);
    tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, 8, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1); /* ends the inventory */
    const struct hv_model *m = hv_engine_model(t.engine);
    struct hv_place_cfg c;
    hv_place_config(&c, knobs, cuda);
    struct hv_place p;
    uint32_t x = hv_exec_find(m, SC_EXEC);
    CHECK(x != HV_NO_INDEX && hv_place_compute(m, &m->execs[x], &c, &p) == 0);
    tb_engine_close(&t);
    hv_findings_free(&out);
    return p;
}

#define K(id) {.type = HV_NODE_KERNEL, .name_id = (id)}
#define EARLY(f) (((f) & HV_PLACE_UNORDERED) != 0)

void test_placement_shapes(void)
{
    struct tb_node n[8] = {K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1)};

    /* Linear chain: one queue, nothing early. */
    struct hv_place p = place(NULL, n, 3, NULL, 0, 0);
    CHECK(!p.uses_parallel && p.roots == 1 && !EARLY(p.flags[0]) && !EARLY(p.flags[2]));
    hv_place_free(&p);

    /* Two roots joined by a third node (decode_loop --fork-join): both
     * roots may start early (7.2.4 segment scheduler), so may the join. */
    static const uint32_t fork[] = {0, 2, 1, 2};
    p = place(NULL, n, 3, fork, 2, 0);
    CHECK(p.uses_parallel && p.roots == 2);
    CHECK((p.flags[0] & HV_PLACE_ROOT) && (p.flags[1] & HV_PLACE_ROOT) && (p.flags[2] & HV_PLACE_INHERITED));
    CHECK(strstr(hv_place_reason(p.flags[1]), "segment scheduler") != NULL);
    hv_place_free(&p);

    /* The classic executor waits for the launch stream before level 0. */
    p = place("DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0;", n, 3, fork, 2, 0);
    CHECK(p.uses_parallel && (p.flags[1] & HV_PLACE_PARALLEL) && !EARLY(p.flags[0]) && !EARLY(p.flags[1]) &&
          !EARLY(p.flags[2]));
    hv_place_free(&p);

    /* One graph queue, or a CUDA runtime: no parallel queues at all. */
    p = place("DEBUG_HIP_FORCE_GRAPH_QUEUES=1;", n, 3, fork, 2, 0);
    CHECK(!p.uses_parallel && !p.flags[0] && !p.flags[1]);
    hv_place_free(&p);
    p = place(NULL, n, 3, fork, 2, 1);
    CHECK(!p.uses_parallel && !EARLY(p.flags[1]));
    hv_place_free(&p);
}

void test_placement_dropped_wait(void)
{
    /* Root 0 fans out to 6 children (edges in list order): with the
     * classic executor, children at out-edge index >= 4 lose their wait
     * (rocm-systems#11499); a grandchild of a dropped child inherits. */
    struct tb_node n[8] = {K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1)};
    static const uint32_t fan[] = {0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 6, 7};
    struct hv_place p = place("DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0;", n, 8, fan, 7, 0);
    CHECK(p.uses_parallel && p.max_out == 6 && p.branches == 1);
    CHECK(!EARLY(p.flags[0]) && !EARLY(p.flags[1]) && !EARLY(p.flags[4]));
    CHECK((p.flags[2] & HV_PLACE_PARALLEL) && !EARLY(p.flags[2]));
    CHECK((p.flags[5] & HV_PLACE_DROPPED) && (p.flags[6] & HV_PLACE_DROPPED));
    CHECK((p.flags[7] & HV_PLACE_INHERITED) && !(p.flags[7] & HV_PLACE_DROPPED));
    hv_place_free(&p);

    /* DEBUG_HIP_FORCE_GRAPH_QUEUES=6: index 4 and 5 keep their waits. */
    p = place("DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0;DEBUG_HIP_FORCE_GRAPH_QUEUES=6;", n, 8, fan, 7, 0);
    CHECK(!EARLY(p.flags[5]) && !EARLY(p.flags[6]) && !EARLY(p.flags[7]));
    hv_place_free(&p);

    /* A node with two dependencies waits for both: early only if both are. */
    static const uint32_t join[] = {0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 5, 6, 1, 6};
    p = place("DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0;", n, 7, join, 7, 0);
    CHECK((p.flags[5] & HV_PLACE_DROPPED) && !EARLY(p.flags[6]));
    hv_place_free(&p);
}

void test_placement_collectives(void)
{
    struct tb_node n[3] = {K(1), K(2), K(1)};
    struct hv_place p = place(NULL, n, 3, NULL, 0, 0);
    CHECK(p.collectives == 1 && (p.flags[1] & HV_PLACE_COLLECTIVE) && !(p.flags[0] & HV_PLACE_COLLECTIVE));
    CHECK(hv_place_is_collective("rcclKernel") && hv_place_is_collective("ncclKernel_x") &&
          hv_place_is_collective("_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE") &&
          !hv_place_is_collective("my_nccl_wrapper"));
    hv_place_free(&p);
}

/* The rule: a same-epoch write read by an early node; nothing for a linear
 * graph; repeats are counted through the engine's memo (declines too). */
void test_parallel_queue_read_rule(void)
{
    static const struct tb_arg rd[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ}};
    struct tb_node n[3] = {{.type = HV_NODE_HOST}, {.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = rd,
                                                    .nargs = 1},
                           K(SC_KERNEL_ID)};
    static const uint32_t fork[] = {0, 2, 1, 2};
    for (int shape = 0; shape < 2; shape++) {
        hv_findings_init(&out);
        tb_engine_open(&t, &out, 9, NULL);
        tb_string(&t, SC_KERNEL_ID, SC_KERNEL);
        tb_alloc(&t, SC_POOL, SC_POOL_BYTES, HV_MEM_DEVICE);
        tb_alloc(&t, SC_PINNED, 4096, HV_MEM_HOST_PINNED);
        tb_instantiate(&t, SC_EXEC, n, 3, shape ? fork : NULL, shape ? 2 : 0);
        sc_decode_loop(&t, SC_MAIN, 5, 0);
        tb_engine_close(&t);
        const struct hv_group *g = tb_group(&out, HV_RULE_PARALLEL_QUEUE_READ);
        if (shape) {
            CHECK(g && g->count == 5 && g->f.b.node_index == 1 && (g->f.n1 & HV_PLACE_ROOT) && g->f.n2 == 4);
            CHECK(g && g->f.note && strstr(g->f.note, "segment scheduler"));
        } else {
            CHECK(g == NULL);
        }
        CHECK_EQ_U(tb_count_rule(&out, HV_RULE_SAME_EPOCH_WRITE), 1);
        hv_findings_free(&out);
    }
}
