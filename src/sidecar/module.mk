# The sidecar (docs/sidecar.md): segment discovery and validation, drain
# cycles, trace rotation and disk cap, streaming analysis, alerts, metrics.
# A static library so the tests can link its parts; the consumer side of the
# ring and the segment layout come from src/ring (shared with the producer).
SIDECAR_SRCS := $(sort $(wildcard src/sidecar/*.c)) src/ring/ring.c src/ring/clock.c src/ring/shm_layout.c

$(BUILD)/libhvsidecar.a: $(call obj,$(SIDECAR_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
