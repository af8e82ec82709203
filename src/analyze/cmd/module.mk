# hipvis-analyze's body (options parsed: traces -> engine -> reports, value
# search, exports). Not part of libhvanalyze.a, which the sidecar links and
# the engine fuzzer compiles whole: this calls --diagnose and the forensics.
ANALYZE_CMD_SRCS := $(sort $(wildcard src/analyze/cmd/*.c))

$(BUILD)/libhvanalyzecmd.a: $(call obj,$(ANALYZE_CMD_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
