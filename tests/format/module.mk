# tests/format: the trace writer and reader (round trips, reorder window,
# truncation at every offset, corruption and recovery, foreign files),
# hipvis-dump end to end, zstd(1) on a trace; a reader benchmark; a libFuzzer
# target for the reader.
FMT_T := $(BUILD)/tests/format
FMT_GEN := tests/format/gen.c
FMT_TEST_SRCS := tests/format/test_main.c tests/format/tutil.c $(FMT_GEN) \
    tests/format/test_api.c tests/format/test_roundtrip.c tests/format/test_writer.c \
    tests/format/test_damage.c tests/format/test_tools.c tests/format/test_merge.c \
    tests/format/test_json.c

$(FMT_T)/test_format: $(call obj,$(FMT_TEST_SRCS)) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

check-format: $(FMT_T)/test_format $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze
	$(FMT_T)/test_format $(BUILD)/hipvis-dump
	python3 tests/format/check_v1.py $(BUILD)

CHECKS     += check-format
SAN_CHECKS += check-format

$(FMT_T)/bench_reader: $(call obj,tests/format/bench_reader.c $(FMT_GEN)) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

bench-reader: $(FMT_T)/bench_reader
	$(FMT_T)/bench_reader

BENCHES += bench-reader

# make fuzz [FUZZ_SECONDS=60]: libFuzzer (clang) on the reader and printer,
# seeded with small real traces. Its own build: sanitizers and coverage.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_DIR     := $(BUILD)/fuzz

$(FMT_T)/make_seeds: $(call obj,tests/format/make_seeds.c $(FMT_GEN)) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

$(FUZZ_DIR)/fuzz_reader: tests/format/fuzz_reader.c $(FORMAT_SRCS) $(wildcard src/format/*.h include/hipvis/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_BASE) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined tests/format/fuzz_reader.c $(FORMAT_SRCS) -lzstd -o $@

# Seeds: generated traces, two short decode-loop traces of the real tracer
# (per-thread sequences, the v2 codec on real records), and the chunk form of
# each (fuzz_reader.c).
FUZZ_TRACE = LD_LIBRARY_PATH=$(BUILD)/tests/double HIPVIS_QUIET=1 LD_PRELOAD=$(abspath $(LIBHIPVIS)) \
             HIPVIS_OUTPUT=$(FUZZ_DIR)/traces/$(1).zst $(BUILD)/tests/apps/decode_loop $(2) >/dev/null
fuzz-reader: $(FUZZ_DIR)/fuzz_reader $(FMT_T)/make_seeds $(LIBHIPVIS) $(BUILD)/tests/apps/decode_loop
	@rm -rf $(FUZZ_DIR)/seeds $(FUZZ_DIR)/traces
	@mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/traces
	$(call FUZZ_TRACE,decode,--steps 12)
	$(call FUZZ_TRACE,threads,--steps 6 --threads 2 --host-rewrite)
	$(FMT_T)/make_seeds $(FUZZ_DIR)/seeds $(FUZZ_DIR)/traces/*.zst
	$(FUZZ_DIR)/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	    -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

fuzz: fuzz-reader
.PHONY: fuzz-reader

$(FMT_T)/trace_tool: $(call obj,tests/format/trace_tool.c) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd -lpthread

# Bytes per record, drops at the defaults, analyzer on one core vs babeltrace2.
bench-format: $(FMT_T)/trace_tool $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze test-programs \
              $(BUILD)/tests/analyze/bench_engine
	bash tests/format/bench_format.sh $(BUILD)

BENCHES += bench-format
