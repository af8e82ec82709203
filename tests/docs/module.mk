# tests/docs: README's configuration table and hipvis(1)'s ENVIRONMENT list
# exactly the HIPVIS_* settings of src/common/envtab.c, with its defaults;
# each man page's OPTIONS section is its tool's option table (name, short
# name, argument, default; no duplicates, nothing extra); docs/triage.md covers
# every rule; every docs/*.md named exists; no document speaks of work
# periods or tracker numbers, and neither do the comments and strings of
# src/, include/ and tools/ (DOCS_WORDING_SRC=0 leaves those out;
# tests/docs/docs.py --wording --src lists what it finds).
DOCS_WORDING_SRC ?= 1

check-docs: $(BUILD)/hipvis $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump $(BUILD)/hipvis-sidecar
	DOCS_WORDING_SRC=$(DOCS_WORDING_SRC) python3 tests/docs/docs.py $(BUILD)

CHECKS += check-docs
