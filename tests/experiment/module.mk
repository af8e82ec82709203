# tests/experiment: `hipvis experiment` on the runtime double's fault models
# (h1, h2a, h2b, h3, h4), a clean loop, a program race, a host race only the
# hostcheck arm sees (tests/hostcheck hc_cases), runs where the check protected
# nothing (registered memory), hangs and bad usage.
#   check-experiment    closes with "experiment: N passed, M failed"
EXP_DEPS := $(BUILD)/hipvis $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop \
            $(BUILD)/tests/hostcheck/hc_cases

check-experiment: $(EXP_DEPS)
	python3 tests/experiment/experiment.py $(BUILD)

CHECKS += check-experiment
