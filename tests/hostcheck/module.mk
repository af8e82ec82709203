# tests/hostcheck: the host-access check (HIPVIS_HOSTCHECK, docs/hostcheck.md)
# end to end on the runtime double: racy and synchronized twins of host
# accesses to in-flight pinned copies and to the managed buffers of in-flight
# kernels (hc_cases), the SIGSEGV handler kept
# chained behind the program's own (hc_chain, hc_before), output unchanged
# under the check, and the analyzer's host-access-in-flight findings with
# the access's file:line. Optimised build only, as tests/e2e.
HC_DIR := $(BUILD)/tests/hostcheck

$(HC_DIR)/hc_cases: $(BUILD)/obj/tests/hostcheck/hc_cases.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64 -lpthread

$(HC_DIR)/hc_chain: $(BUILD)/obj/tests/hostcheck/hc_chain.o
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS)

# A library whose constructor installs a SIGSEGV handler before hipvis's
# (preloaded ahead of libhipvis.so).
$(HC_DIR)/libhc_before.so: $(BUILD)/obj/tests/hostcheck/hc_before.o
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $< $(LDFLAGS)

HC_PROGRAMS := $(HC_DIR)/hc_cases $(HC_DIR)/hc_chain $(HC_DIR)/libhc_before.so
TEST_PROGRAMS += $(HC_PROGRAMS)
test-programs: $(HC_PROGRAMS)

check-hostcheck: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze $(HC_PROGRAMS)
	python3 tests/hostcheck/check_hostcheck.py $(BUILD)

CHECKS += check-hostcheck

$(HC_DIR)/hc_bench: $(BUILD)/obj/tests/hostcheck/hc_bench.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64

TEST_PROGRAMS += $(HC_DIR)/hc_bench
test-programs: $(HC_DIR)/hc_bench

# The check's cost, off/on side by side in one run: the decode loop on the
# double and hc_bench's host-heavy loop (docs/hostcheck.md "Cost").
bench-hostcheck: $(LIBHIPVIS) $(HC_DIR)/hc_bench $(BUILD)/tests/apps/decode_loop
	python3 tests/hostcheck/bench_hostcheck.py $(BUILD)

BENCHES += bench-hostcheck
.PHONY: bench-hostcheck
