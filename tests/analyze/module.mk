# tests/analyze: model structures, every rule (positive and negative), the
# grouping store, and end to end through trace files and hipvis-analyze.
ANALYZE_T := $(BUILD)/tests/analyze
ANALYZE_TEST_SRCS := $(sort $(wildcard tests/analyze/t_*.c)) tests/analyze/test_main.c tests/analyze/fuzz/feed_engine.c \
                     tests/analyze/tbuild.c tests/analyze/scenarios.c

$(ANALYZE_T)/test_analyze: $(call obj,$(ANALYZE_TEST_SRCS)) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

check-analyze: $(ANALYZE_T)/test_analyze $(BUILD)/hipvis-analyze
	@rm -rf $(ANALYZE_T)/tmp
	$(ANALYZE_T)/test_analyze $(BUILD)/hipvis-analyze $(ANALYZE_T)/tmp

CHECKS     += check-analyze
SAN_CHECKS += check-analyze

# Bench: a decode-loop-like synthetic trace of 50 M records (and 5 M, to show
# peak RSS does not grow with length), generated with the trace writer
# straight to /tmp, analyzed, deleted.
$(ANALYZE_T)/bench_analyze: $(call obj,tests/analyze/bench/bench_analyze.c tests/analyze/tbuild.c \
                              tests/analyze/scenarios.c) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

bench-analyze: $(ANALYZE_T)/bench_analyze $(BUILD)/hipvis-analyze
	$(ANALYZE_T)/bench_analyze $(BUILD)/hipvis-analyze

BENCHES += bench-analyze

# The engine alone on a trace file (CPU ns per record, the reader's time left
# out): bench-format prints it next to the reader alone.
$(ANALYZE_T)/bench_engine: $(call obj,tests/analyze/bench/bench_engine.c) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd -lpthread

# make fuzz-engine [FUZZ_SECONDS=60]: libFuzzer (clang, ASan+UBSan) on the
# engine and the report renderers, fed structured record streams. Seeds are
# record streams cut out of real traces: the decode loop (several shapes) and
# the lifecycle app traced on the runtime double.
ENGINE_FUZZ     := $(BUILD)/fuzz/fuzz_engine
ENGINE_FUZZ_DIR := $(BUILD)/fuzz/engine
# (HTML_GEN: the HTML report's embedded script and style, generated C.)
$(ENGINE_FUZZ): tests/analyze/fuzz/fuzz_engine.c tests/analyze/fuzz/feed_engine.c $(ANALYZE_SRCS) $(FORMAT_SRCS) \
                $(HTML_GEN) $(wildcard src/analyze/*.h src/analyze/*/*.h src/format/*.h include/hipvis/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS_BASE) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined $< tests/analyze/fuzz/feed_engine.c $(ANALYZE_SRCS) $(FORMAT_SRCS) \
	    $(HTML_GEN) -lzstd $(REPORT_LIBS) -lpthread -lm -o $@

$(ANALYZE_T)/engine_seeds: $(call obj,tests/analyze/fuzz/engine_seeds.c) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd -lpthread

ENGINE_SEED_RUN = LD_LIBRARY_PATH=$(BUILD)/tests/double HIPVIS_QUIET=1 LD_PRELOAD=$(LIBHIPVIS) \
                  HIPVIS_OUTPUT=$(ENGINE_FUZZ_DIR)/traces/$(1).zst $(BUILD)/tests/apps/decode_loop $(2) >/dev/null
fuzz-engine-seeds: $(ANALYZE_T)/engine_seeds $(LIBHIPVIS) $(BUILD)/tests/apps/decode_loop
	@rm -rf $(ENGINE_FUZZ_DIR)/traces $(ENGINE_FUZZ_DIR)/seeds
	@mkdir -p $(ENGINE_FUZZ_DIR)/traces $(ENGINE_FUZZ_DIR)/seeds $(ENGINE_FUZZ_DIR)/corpus
	$(call ENGINE_SEED_RUN,plain,--steps 40)
	$(call ENGINE_SEED_RUN,rewrite,--steps 40 --host-rewrite --side-stream-copy)
	$(call ENGINE_SEED_RUN,event,--steps 40 --event-wait --free-realloc=same)
	$(call ENGINE_SEED_RUN,forkjoin,--steps 40 --fork-join --sync-before-replay)
	$(call ENGINE_SEED_RUN,threads,--steps 20 --threads 2 --spt)
	$(ANALYZE_T)/engine_seeds $(ENGINE_FUZZ_DIR)/seeds 40 $(ENGINE_FUZZ_DIR)/traces/*.zst

fuzz-engine: $(ENGINE_FUZZ) fuzz-engine-seeds
	$(ENGINE_FUZZ) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=16384 \
	    -artifact_prefix=$(ENGINE_FUZZ_DIR)/ $(ENGINE_FUZZ_DIR)/corpus $(ENGINE_FUZZ_DIR)/seeds

fuzz: fuzz-engine
.PHONY: fuzz-engine fuzz-engine-seeds

# Adversarial growth (issue 18): stream-wait chains, many execs, a 1M-node
# graph, many allocations; time per record and peak RSS per shape.
$(ANALYZE_T)/bench_growth: $(call obj,tests/analyze/bench/bench_growth.c tests/analyze/tbuild.c) \
                           $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd -lpthread

bench-growth: $(ANALYZE_T)/bench_growth
	$(ANALYZE_T)/bench_growth

BENCHES += bench-growth
