# Analyzer: model (streams, epochs, happens-before, allocations, writer
# history, graph inventories), rules (one file each) and reports, as a static
# library shared by hipvis-analyze and the sidecar.
ANALYZE_SRCS += $(sort $(wildcard src/analyze/*.c src/analyze/model/*.c src/analyze/rules/*.c \
                                  src/analyze/report/*.c src/analyze/errata/*.c))
# (u64map.c is linked from libhvformat.a, which every user of this links too.)

$(BUILD)/libhvanalyze.a: $(call obj,$(ANALYZE_SRCS))
	@mkdir -p $(@D)
	rm -f $@   # members of sources that moved away must not linger
	$(AR) rcs $@ $^
