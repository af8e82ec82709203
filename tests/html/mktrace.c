/*
 * mktrace — synthetic traces for the HTML report's browser tests and load
 * bench (TEST-ONLY; the trace writer straight to a file).
 *
 *   mktrace PATH RECORDS [KERNEL_NAME]
 *
 * A decode-loop-like process: the analyzer bench's busy step (scenarios.h:
 * pinned H2D copies, an eager kernel, a replay of one of 4 graph execs, an
 * event hand-off to a side stream, syncs, temp alloc/free); the execs'
 * kernel nodes read the copied buffer (same-epoch-write every step). Each
 * step is a "decode_step" region, every 8th has a "sample" mark.
 * Exec 0 is branchy (4 roots, one a collective kernel), so the page has
 * placement tags to draw. KERNEL_NAME names the reading kernel (the tests
 * pass one holding "</script>" to check the page cannot be broken out of).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../analyze/scenarios.h"

#define NEXEC 4
#define NODES 8
#define READER_ID 7u
#define NCCL_ID 8u
#define STEP_ID 9u
#define SAMPLE_ID 10u
#define W_BUF(i) (SC_POOL + 0x40000 + (uint64_t)(i) * 0x1000)

static void setup(struct tb *t, const char *reader)
{
    tb_string(t, READER_ID, reader);
    tb_string(t, NCCL_ID, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    tb_string(t, SC_KERNEL_ID, "_prepare_inputs_kernel");
    tb_string(t, STEP_ID, "decode_step");
    tb_string(t, SAMPLE_ID, "sample");
    tb_alloc(t, SC_POOL, SC_POOL_BYTES, HV_MEM_DEVICE);
    tb_alloc(t, SC_PINNED, 1 << 17, HV_MEM_HOST_PINNED);
    tb_alloc(t, SC_ELSEWHERE, 1 << 20, HV_MEM_DEVICE);
    tb_stream_create(t, SC_SIDE, 1);
    static struct tb_arg args[NEXEC][NODES][3];
    for (int x = 0; x < NEXEC; x++) {
        struct tb_node nodes[NODES];
        for (int n = 0; n < NODES; n++) {
            args[x][n][0] = (struct tb_arg){.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ};
            args[x][n][1] = (struct tb_arg){.value = W_BUF(n), .index = 1, .access = HV_ACCESS_READ};
            args[x][n][2] = (struct tb_arg){.value = SC_OUT + (uint64_t)n * 64, .index = 2,
                                            .access = HV_ACCESS_WRITE};
            /* only node 0 reads the copied buffer */
            nodes[n] = (struct tb_node){.type = HV_NODE_KERNEL, .name_id = x == 0 && n == 1 ? NCCL_ID : READER_ID,
                                        .args = n == 0 ? args[x][n] : args[x][n] + 1, .nargs = n == 0 ? 3 : 2};
        }
        /* exec 0: roots 0, 1, 2, 3, then 4..7 each after one root; the others a chain */
        uint32_t edges[2 * NODES];
        uint32_t ne = 0;
        for (uint32_t n = 1; n < NODES; n++) {
            if (x == 0 && n < 4)
                continue;
            edges[2 * ne] = x == 0 ? n - 4 : n - 1;
            edges[2 * ne + 1] = n;
            ne++;
        }
        tb_instantiate(t, 0x8000 + (uint64_t)x, nodes, NODES, edges, ne);
    }
}

/* A region push/pop or a point mark, as hipvis_region_push / hipvis_mark record them. */
static void mark(struct tb *t, uint8_t kind, uint32_t name_id, uint16_t depth)
{
    struct hv_mark m = {.h = {.type = HV_REC_MARK, .size = sizeof m}, .kind = kind, .source = HV_MARK_HIPVIS,
                        .depth = depth, .name_id = name_id};
    tb_aux(t, &m);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mktrace PATH RECORDS [KERNEL_NAME]\n");
        return 2;
    }
    uint64_t records = strtoull(argv[2], NULL, 0);
    struct tb t;
    if (tb_file_open(&t, argv[1], 4242, "DEBUG_HIP_FORCE_GRAPH_QUEUES=4") != 0) {
        fprintf(stderr, "mktrace: cannot create %s\n", argv[1]);
        return 1;
    }
    setup(&t, argc > 3 ? argv[3] : "_convert_req_index_to_global_index_kernel");
    for (uint64_t i = 0; t.records < records; i++)
    {
        mark(&t, HV_MARK_PUSH, STEP_ID, 1);
        sc_busy_step(&t, i, 0x8000, NEXEC);
        if (i % 8 == 0)
            mark(&t, HV_MARK_POINT, SAMPLE_ID, 1);
        mark(&t, HV_MARK_POP, 0, 0);
    }
    uint64_t n = t.records;
    if (tb_file_close(&t, 1) != 0)
        return 1;
    printf("%" PRIu64 "\n", n);
    return 0;
}
