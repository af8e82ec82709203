# Core tracer tests: ring accounting, configuration, and the preload
# library end to end (on the runtime double and on Debian's real runtime).
CORE_TEST_DIR := $(BUILD)/tests/core

$(CORE_TEST_DIR)/ring_stress: tests/core/ring_stress.c $(call obj,src/record/ring.c src/record/collector.c src/record/clock.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lpthread

check-ring: $(CORE_TEST_DIR)/ring_stress
	$(CORE_TEST_DIR)/ring_stress

CHECKS     += check-ring
SAN_CHECKS += check-ring
