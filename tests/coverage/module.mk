# tests/coverage: docs/coverage.md, generated from the runtime's exported
# entry points and libhipvis.so's wrappers (gen_coverage.py). `make coverage`
# regenerates it; check-coverage fails when it is stale, when a traced entry
# point has no docs/semantics.md row, or an untraced one no reason.
coverage: $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so
	python3 tests/coverage/gen_coverage.py $(BUILD) --write

check-coverage: $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so
	python3 tests/coverage/gen_coverage.py $(BUILD) --check

CHECKS += check-coverage
.PHONY: coverage check-coverage
