# tests/diagnose: issue 7 — placement, scalar-load exposure, --diagnose
# verdicts, guard modes and the eager unordered-write check.
#
#   check-diagnose      unit and file tests (test_diagnose), then the decode
#                       loop on the runtime double under the tracer for each
#                       fault model and guard mode (diagnose.py); closes with
#                       "diagnose: N passed, M failed"
#   check-diagnose-san  the unit and file tests in build-san (the traced apps
#                       need the optimised libhipvis.so, as in tests/e2e)
DIAG_T := $(BUILD)/tests/diagnose
# Real clang-22 gfx950 code objects: tests/codeobj/scalar.cl (by_group /
# by_item) and the decode loop's kernels.
DIAG_CO := $(BUILD)/tests/codeobj/in/scalar-gfx950.co $(BUILD)/tests/apps/decode_kernels-gfx950.hsaco

$(DIAG_T)/test_diagnose: $(call obj,$(wildcard tests/diagnose/*.c) tests/analyze/tbuild.c tests/analyze/scenarios.c) \
                         $(DIAG_LINK) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd $(DIAG_LIBS)

# The same analyzer without the LLVM classifier, to show it still works and
# says why the scalar-load evidence is missing.
$(DIAG_T)/hipvis-analyze-nollvm: $(call obj,tools/hipvis-analyze.c) $(BUILD)/libhvanalyzecmd.a $(BUILD)/libhvcli.a $(DIAG_LINK_NOLLVM) \
                                 $(FORENSICS_LINK) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd $(DIAG_LIBS_NOLLVM) $(FORENSICS_LIBS) $(REPORT_LIBS)

DIAG_DEPS := $(DIAG_T)/test_diagnose $(DIAG_T)/hipvis-analyze-nollvm $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump \
             $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop \
             $(BUILD)/tests/apps/passthrough $(DIAG_CO)

check-diagnose: $(DIAG_DEPS)
	python3 tests/diagnose/diagnose.py $(BUILD)

check-diagnose-san: $(DIAG_T)/test_diagnose $(BUILD)/hipvis-analyze $(DIAG_CO)
	$(DIAG_T)/test_diagnose $(BUILD)/hipvis-analyze $(DIAG_T)/tmp $(DIAG_CO)

CHECKS     += check-diagnose
SAN_CHECKS += check-diagnose-san
