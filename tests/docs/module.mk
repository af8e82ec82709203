# tests/docs: README's configuration table and hipvis(1)'s ENVIRONMENT list
# exactly the HIPVIS_* settings of src/common/envtab.c, with its defaults;
# the man pages name every option the tools accept; docs/triage.md covers
# every rule.
check-docs: $(BUILD)/hipvis $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump $(BUILD)/hipvis-sidecar
	python3 tests/docs/docs.py $(BUILD)

CHECKS += check-docs
