/* scenarios: see scenarios.h. */
#include "scenarios.h"

static const struct tb_arg sc_args[] = {
    {.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ},
    {.value = SC_TOKENS, .index = 1, .access = HV_ACCESS_READ},
    {.value = SC_OUT, .index = 2, .access = HV_ACCESS_WRITE},
};

void sc_setup(struct tb *t)
{
    tb_string(t, SC_KERNEL_ID, SC_KERNEL);
    tb_alloc(t, SC_POOL, SC_POOL_BYTES, HV_MEM_DEVICE);
    tb_alloc(t, SC_PINNED, 4096, HV_MEM_HOST_PINNED);
    tb_stream_create(t, SC_MAIN, 0);
    tb_stream_create(t, SC_SIDE, 1 /* non-blocking */);
    struct tb_node n[2] = {
        {.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = sc_args, .nargs = 3},
        {.type = HV_NODE_EMPTY},
    };
    tb_instantiate(t, SC_EXEC, n, 2, NULL, 0);
}

void sc_decode_loop(struct tb *t, uint64_t stream, int steps, int sync_between)
{
    for (int i = 0; i < steps; i++) {
        tb_copy(t, stream, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        if (sync_between)
            tb_stream_sync(t, stream);
        tb_graph_launch(t, SC_EXEC, stream);
    }
}

void sc_side_stream_copy(struct tb *t, int steps, int wait)
{
    for (int i = 0; i < steps; i++) {
        tb_copy(t, SC_SIDE, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        if (wait) {
            tb_event_record(t, SC_EVENT, SC_SIDE);
            tb_stream_wait(t, SC_MAIN, SC_EVENT);
        }
        tb_graph_launch(t, SC_EXEC, SC_MAIN);
        /* The host waits for the step's result before the next copy (as a
         * decode loop does when it samples tokens). */
        tb_stream_sync(t, SC_MAIN);
    }
}

void sc_stale_capture(struct tb *t, int reinstantiate)
{
    tb_graph_launch(t, SC_EXEC, SC_MAIN);
    tb_stream_sync(t, SC_MAIN);
    tb_free(t, SC_POOL);
    tb_alloc(t, SC_POOL, SC_POOL_BYTES, HV_MEM_DEVICE);
    if (reinstantiate) {
        struct tb_node n[2] = {
            {.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = sc_args, .nargs = 3},
            {.type = HV_NODE_EMPTY},
        };
        tb_exec_destroy(t, SC_EXEC);
        tb_instantiate(t, SC_EXEC, n, 2, NULL, 0);
    }
    tb_graph_launch(t, SC_EXEC, SC_MAIN);
    tb_graph_launch(t, SC_EXEC, SC_MAIN);
    tb_stream_sync(t, SC_MAIN);
}

void sc_busy_step(struct tb *t, uint64_t i, uint64_t exec0, int nexec)
{
    static const struct tb_arg prep[] = {{.value = SC_TOKENS, .index = 0, .access = HV_ACCESS_WRITE},
                                         {.value = SC_BUF, .index = 1, .access = HV_ACCESS_READ}};
    tb_copy(t, TB_LEGACY, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_copy(t, TB_LEGACY, SC_BUF + 0x1000, SC_PINNED + 0x1000, 4096, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_copy(t, TB_LEGACY, SC_POOL + 0x30000, SC_PINNED, 65536, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
    tb_launch(t, TB_LEGACY, SC_KERNEL_ID, prep, 2);
    tb_graph_launch(t, exec0 + i % (uint64_t)nexec, TB_LEGACY);
    tb_event_record(t, SC_EVENT, TB_LEGACY);
    tb_stream_wait(t, SC_SIDE, SC_EVENT);
    tb_copy(t, SC_SIDE, SC_ELSEWHERE, SC_OUT, 1024, HV_DIR_D2D, HV_MEM_DEVICE, 1);
    tb_copy(t, SC_SIDE, SC_PINNED + 0x2000, SC_ELSEWHERE, 1024, HV_DIR_D2H, HV_MEM_DEVICE, 1);
    tb_event_record(t, SC_EVENT + 1, SC_SIDE);
    tb_event_sync(t, SC_EVENT + 1);
    if (i % 16 == 15)
        tb_stream_sync(t, TB_LEGACY);
    if (i % 64 == 63) {
        uint64_t tmp = 0x7a0000000000ull + (i / 64 % 8) * 0x100000;
        tb_alloc(t, tmp, 0x100000, HV_MEM_DEVICE);
        tb_free(t, tmp);
    }
}
