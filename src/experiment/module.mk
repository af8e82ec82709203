# hipvis experiment: repeated traced runs per arm, symptom rates, the
# decision report (docs/experiment.md). Linked into the launcher with the
# analyzer (engine, --diagnose) it reads each run's traces through.
EXPERIMENT_SRCS := $(sort $(wildcard src/experiment/*.c))

$(BUILD)/libhvexperiment.a: $(call obj,$(EXPERIMENT_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# What a program using it links. --diagnose without the LLVM classifier: the
# launcher must not depend on libLLVM (the experiment needs the observed
# verdicts, not the scalar-load weights).
EXPERIMENT_LINK = $(BUILD)/libhvexperiment.a $(DIAG_LINK_NOLLVM) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
EXPERIMENT_LIBS = $(DIAG_LIBS_NOLLVM) $(REPORT_LIBS) -lzstd -lm
