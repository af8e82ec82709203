# The sidecar (docs/sidecar.md): segment discovery and validation, drain
# cycles, trace rotation and disk cap, streaming analysis, alerts, metrics.
# A static library so the tests can link its parts; the consumer side of the
# ring and the segment layout come from src/record (shared with the producer).
SIDECAR_SRCS := $(sort $(wildcard src/sidecar/*.c)) src/record/ring.c src/record/clock.c src/record/shm_layout.c

$(BUILD)/libhvsidecar.a: $(call obj,$(SIDECAR_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
