# tests/gpu: scripts run on a lent GPU machine (device tool). Only one piece
# is built here: calltime.so, the per-API timing shim of cost_attr.sh, built
# on this machine and carried (the GPU machine has no compiler guarantee).
GPU_DIAG := $(BUILD)/gpu-diag

$(GPU_DIAG)/calltime.so: tests/gpu/calltime.c src/common/elfsym.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc -shared -fPIC -o $@ $< -ldl -lpthread

# tsc_cost: each clock read's cost on the host's CPU, for clock.sh.
$(GPU_DIAG)/tsc_cost: tests/gpu/tsc_cost.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

test-programs: $(GPU_DIAG)/calltime.so $(GPU_DIAG)/tsc_cost

# build-selftime/libhipvis.so: the library with hipvis's own time per API
# (-DHV_SELFTIME, src/tracer/measure/selftime.c), for cost_attr.sh's selftime arm.
.PHONY: selftime
selftime:
	$(MAKE) --no-print-directory BUILD=build-selftime EXTRA_CFLAGS=-DHV_SELFTIME build-selftime/libhipvis.so

# What the GPU scripts compute from their results (cost.py's step-mode split,
# Fisher's test), checked here on known inputs: no GPU needed.
.PHONY: check-gpu-scripts
check-gpu-scripts:
	python3 tests/gpu/test_cost_modes.py

CHECKS += check-gpu-scripts
