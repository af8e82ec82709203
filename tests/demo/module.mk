# tests/demo: `make demo`, the main job on a built-in default. Builds the
# tracer, the dump and analyzer tools, the TEST-ONLY runtime double and the
# decode loop, runs the loop under libhipvis into $(BUILD)/demo/, shows what
# the trace holds and ends with hipvis-analyze's same-epoch-write finding.
# Prerequisites are spelled out: fragments included after this one (the
# double's) define their variables too late for a prerequisite list.
DEMO_DEPS += $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze \
             $(BUILD)/tests/apps/decode_loop $(BUILD)/tests/double/libamdhip64.so

demo: $(DEMO_DEPS)
	@bash tests/demo/demo.sh $(BUILD)
