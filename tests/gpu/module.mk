# tests/gpu: scripts run on a lent GPU machine (device tool). Only one piece
# is built here: calltime.so, the per-API timing shim of cost_attr.sh, built
# on this machine and carried (the GPU machine has no compiler guarantee).
GPU_DIAG := $(BUILD)/gpu-diag

$(GPU_DIAG)/calltime.so: tests/gpu/calltime.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -shared -fPIC -o $@ $< -ldl -lpthread

test-programs: $(GPU_DIAG)/calltime.so
