# tests/analyze: model structures, every rule (positive and negative), the
# grouping store, and end to end through trace files and hipvis-analyze.
ANALYZE_T := $(BUILD)/tests/analyze
ANALYZE_TEST_SRCS := $(sort $(wildcard tests/analyze/t_*.c)) tests/analyze/test_main.c \
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
