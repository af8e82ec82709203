# tests/errata: the runtime errata table (src/analyze/errata, docs/errata.md).
#
#   check-errata   test_errata: every entry's trigger and verdict on synthetic
#                  traces (positive and negative); docs/errata.md up to date;
#                  then errata.py: for each erratum, the decode-style program
#                  (errata_graph) on the runtime double shows the symptom only
#                  with the erratum's fault model on, the trace gets a
#                  runtime-erratum finding naming it (info on an unaffected
#                  release, nothing without the trigger), --diagnose ranks
#                  it and hipvis experiment picks its workaround arm.
#   check-errata-units   test_errata alone (SAN_CHECKS)
#   errata-doc     regenerates docs/errata.md from the table
ERRATA_T := $(BUILD)/tests/errata

$(ERRATA_T)/test_errata: $(call obj,tests/errata/t_errata.c tests/analyze/tbuild.c) $(BUILD)/libhvanalyze.a \
                         $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

$(ERRATA_T)/errata_doc: $(call obj,tests/errata/errata_doc.c) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

# TEST-ONLY, linked against the runtime double (its hipdouble_* kernels).
$(ERRATA_T)/errata_graph: $(BUILD)/obj/tests/errata/errata_graph.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64 -lpthread

TEST_PROGRAMS += $(ERRATA_T)/errata_graph
test-programs: $(ERRATA_T)/errata_graph

errata-doc: $(ERRATA_T)/errata_doc
	$(ERRATA_T)/errata_doc > docs/errata.md

check-errata: $(ERRATA_T)/test_errata $(ERRATA_T)/errata_doc $(ERRATA_T)/errata_graph $(BUILD)/hipvis \
              $(BUILD)/hipvis-analyze $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so
	$(ERRATA_T)/test_errata
	@$(ERRATA_T)/errata_doc | diff -u docs/errata.md - || \
	    { echo "errata: FAIL: docs/errata.md is stale (run make errata-doc)"; exit 1; }
	python3 tests/errata/errata.py $(BUILD)

# The unit tests alone (the sanitizer build runs these).
check-errata-units: $(ERRATA_T)/test_errata
	$(ERRATA_T)/test_errata

CHECKS     += check-errata
SAN_CHECKS += check-errata-units
.PHONY: check-errata check-errata-units errata-doc
