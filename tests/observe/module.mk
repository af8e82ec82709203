# tests/observe: host observations (synchronize, query, blocking copies) end
# to end on the runtime double: what each one covers (ROCm CLR's rules,
# docs/semantics.md) and that each writes a constant number of records,
# whatever the number of streams. Optimised build only, as tests/e2e.
OBSERVE_DIR := $(BUILD)/tests/observe

$(OBSERVE_DIR)/sync_cases: $(BUILD)/obj/tests/observe/sync_cases.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64

TEST_PROGRAMS += $(OBSERVE_DIR)/sync_cases
test-programs: $(OBSERVE_DIR)/sync_cases

check-observe: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze $(OBSERVE_DIR)/sync_cases
	python3 tests/observe/observe.py $(BUILD)

CHECKS += check-observe

$(OBSERVE_DIR)/handoff: $(BUILD)/obj/tests/observe/handoff.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64 -lpthread

TEST_PROGRAMS += $(OBSERVE_DIR)/handoff
test-programs: $(OBSERVE_DIR)/handoff
check-observe: $(OBSERVE_DIR)/handoff

$(OBSERVE_DIR)/derive_cases: $(BUILD)/obj/tests/observe/derive_cases.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64

TEST_PROGRAMS += $(OBSERVE_DIR)/derive_cases
test-programs: $(OBSERVE_DIR)/derive_cases
check-observe: $(OBSERVE_DIR)/derive_cases $(BUILD)/tests/apps/decode_loop
