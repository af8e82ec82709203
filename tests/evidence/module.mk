# tests/evidence: evidence collection end to end (docs/evidence.md) on the
# HIP runtime test double (TEST-ONLY): payloads and the host-source rewrite
# check, three-point probes, --find-value, symbolized stacks. Optimised
# build only, like check-e2e (the sanitizer build's libhipvis.so cannot be
# preloaded); the rules' unit tests run in check-analyze, sanitized too.
EVIDENCE_DEPS := $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze \
                 $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop \
                 $(BUILD)/tests/evidence/pending_bounds

# The rewrite check's pending lists at their bounds (pending_bounds.c).
$(BUILD)/tests/evidence/pending_bounds: $(BUILD)/obj/tests/evidence/pending_bounds.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64

TEST_PROGRAMS += $(BUILD)/tests/evidence/pending_bounds
test-programs: $(BUILD)/tests/evidence/pending_bounds

check-evidence: $(EVIDENCE_DEPS) check-evidence-units
	python3 tests/evidence/evidence.py $(BUILD)

CHECKS += check-evidence

# The pieces that need no traced program, so they run sanitized too: hash
# vectors, knob parsing, --find-value on a synthetic trace, symbolization.
EVIDENCE_T := $(BUILD)/tests/evidence
EVIDENCE_UNIT_OBJS := $(call obj,tests/evidence/t_evidence_units.c tests/analyze/tbuild.c tests/analyze/scenarios.c \
                                 src/tracer/evidence/srchash.c $(filter src/tracer/evidence/srchash_avx2.c,$(PRELOAD_SRCS)) \
                                 src/tracer/core/config.c)

$(EVIDENCE_T)/t_evidence_units: $(EVIDENCE_UNIT_OBJS) $(FORENSICS_LINK) $(BUILD)/libhvanalyze.a $(BUILD)/libhvcodeobj.a \
                                 $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd $(FORENSICS_LIBS)

check-evidence-units: $(EVIDENCE_T)/t_evidence_units
	@rm -rf $(EVIDENCE_T)/tmp && mkdir -p $(EVIDENCE_T)/tmp
	$(EVIDENCE_T)/t_evidence_units $(EVIDENCE_T)/tmp

SAN_CHECKS += check-evidence-units

# Bench: added cost per call of each option (stacks off vs on vs direct,
# payloads, rewrite check), side by side in one run.
EVIDENCE_BENCH := $(EVIDENCE_T)

$(EVIDENCE_BENCH)/libbenchev.so: tests/evidence/bench_stub.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -o $@ $< $(LDFLAGS)

# -fno-omit-frame-pointer and -O1: the call chain must stay a chain of frames.
$(EVIDENCE_BENCH)/bench_evidence: tests/evidence/bench_evidence.c $(EVIDENCE_BENCH)/libbenchev.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -O1 -o $@ $< -L$(EVIDENCE_BENCH) -lbenchev -Wl,-rpath,'$$ORIGIN' $(LDFLAGS)

bench-evidence: $(EVIDENCE_BENCH)/bench_evidence $(LIBHIPVIS)
	$(EVIDENCE_BENCH)/bench_evidence $(abspath $(LIBHIPVIS)) $(abspath $(EVIDENCE_BENCH))
	rm -f $(EVIDENCE_BENCH)/bench-evidence.*.zst

BENCHES += bench-evidence
